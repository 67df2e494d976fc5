"""Reading the rank and suit of a card from its canonical 100x140 view.

A small convolutional network (trained by ``scripts/train_card_reader.py``, shipped as
``models/card_reader.onnx``) looks at the card's two index corners and answers with
three heads:
rank (13), suit (4) and kind (face, back, none).  The heads are separate rather than
one 52-way output so that every rank is learnt from four suits' worth of examples and
every suit from thirteen ranks, which matters with the few decks we can train on.

``CardClassifier.read`` runs in three visible steps:

1. ``CardClassifier.inputs``: cut the two index corners (top left, and bottom right
   turned 180 degrees) at the size the model asks for (``preprocess``), and normalise
   brightness and contrast per card.  The corners carry the rank and suit in every
   standard deck; reading them at the full resolution of the view keeps small indices
   legible.  A model with a second input also gets the whole card shrunk
   (``body_views``, ``normalise_body``): the count and layout of the pips and the
   larger suit signs in the middle, which tell apart what a blurred index does not.
2. inference with onnxruntime on one thread.
3. ``postprocess``: soft-max, then a face is named only when the product of the
   face, rank and suit probabilities clears the threshold calibrated at training time
   (stored in the model's metadata); otherwise the card is unknown (``None``), never
   a confident guess.
4. A face left unknown is looked at again (``tta_views``): the view zoomed out and in
   a little and shifted a few pixels both ways, as if the finder had placed the corners
   slightly differently.  The probabilities of all five looks are averaged and judged
   against a second calibrated threshold (``tta_threshold``).  One misplaced look no
   longer decides, so many more faces are named at the same rate of wrong reads, and
   only the doubtful cards pay for the extra looks.
5. A face still unknown whose rank is sure is looked at a third time, at its other two
   corners (``side_pairs``): some decks print the suit sign beside the rank, at the top
   right, rather than under it (GNOME's tango_nuevo), so the index corners show the rank
   alone.  Mirrored, that sign stands where an index's sign does.  Its suit counts only
   when the network is sure of it and it is one of the two suits the index corners
   liked best (``look_aside``).  The live table reader reads so; photos do not, since
   in a fan another card's index may lie at those corners.
6. A face still unknown goes to a second model where the first one's metadata names
   one (``second_opinion``, a file beside it, with its own calibrated
   ``second_threshold``): a model that reads the whole card too.  Its answer counts
   only when it is sure and it is one of the first model's two likeliest faces, so it
   breaks near ties (3D or 3H, a blurred 6 or 8) without overruling.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.cards import FULL_DECK, Card, Rank
from tablecam.errors import ModelError
from tablecam.reading.warp import CARD_H, CARD_W

log = logging.getLogger(__name__)

Kind = Literal["face", "back", "none"]
KINDS: Final[tuple[Kind, ...]] = ("face", "back", "none")
TRAIN_COMMAND: Final = "nice -n 10 .venv/bin/python scripts/train_card_reader.py"
#: used when the model's metadata gives no calibrated threshold
DEFAULT_THRESHOLD: Final = 0.9
#: the second looks at a doubtful card: (zoom, dx, dy) of the view about its centre
TTA_LOOKS: Final = ((0.94, 0, 0), (1.06, 0, 0), (1.0, 3, 3), (1.0, -3, -3))


#: the side look (``CardClassifier.look_aside``): the suit it reads must be at least this
#: likely (``benchmarks/side_look.py`` measures the choice on the training decks' views)
SIDE_SUIT: Final = 0.95
#: and one of the index corners' this many likeliest suits
SIDE_SUITS_LIKED: Final = 2


#: The trained model and its 8-bit copy (``scripts/quantize_card_reader.py``), which
#: reads as well on the dev sets at about twice the speed: used when present.
MODEL_NAMES: Final = ("card_reader.int8.onnx", "card_reader.onnx")


def default_model_path() -> Path:
    """The 8-bit model in ``models/`` at the repository root, else the trained one there,
    else the packaged copy."""
    for folder in (Path(__file__).resolve().parents[2] / "models", Path(__file__).resolve().parent):
        for name in MODEL_NAMES:
            if (folder / name).exists():
                return folder / name
    return Path(__file__).resolve().parents[2] / "models" / MODEL_NAMES[-1]


@dataclass(frozen=True)
class CardRead:
    """What the reader saw in one card view.

    ``card`` is None unless ``kind`` is ``face`` and the reading is confident;
    ``confidence`` is the probability of the answer given (the card, or the kind).
    ``candidates`` are the likeliest faces with their probabilities, best first, even
    when the card is unknown: a caller that knows which cards are possible (the
    tracker knows the game) can decide among them.  ``ranks`` are the likeliest ranks
    with their probabilities given that the view is a face (the rank head alone): a
    candidate's probability also carries the doubt that it is a face at all, so the
    candidates of a face sure of its rank but not of its suit can add up to less than
    the rank's own.
    """

    card: Card | None
    confidence: float
    kind: Kind
    candidates: tuple[tuple[Card, float], ...] = ()
    ranks: tuple[tuple[Rank, float], ...] = ()


def card_view(view: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """A card view as the CARD_H x CARD_W x 3 BGR uint8 image the corners are cut from
    (grey and BGRA views are converted, other sizes resized)."""
    image = np.asarray(view)
    if image.ndim == 2:
        image = np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    elif image.ndim != 3 or image.shape[2] not in (3, 4):
        raise ModelError(f"a card view must be a BGR image, not an array of shape {image.shape}")
    elif image.shape[2] == 4:
        image = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2BGR), dtype=np.uint8)
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    if image.shape[:2] != (CARD_H, CARD_W):
        image = np.asarray(
            cv2.resize(image, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA), dtype=np.uint8)
    return image


def corner_pairs(views: npt.NDArray[np.uint8], width: int, height: int,
                 ) -> npt.NDArray[np.uint8]:
    """``corner_pair`` of a stack of N card views (N x CARD_H x CARD_W x 3) at once."""
    top_left = views[:, :height, :width]
    bottom_right = views[:, CARD_H - height:, CARD_W - width:][:, ::-1, ::-1]
    return np.concatenate([top_left, bottom_right], axis=2)


def corner_pair(view: npt.NDArray[np.uint8], width: int, height: int) -> npt.NDArray[np.uint8]:
    """The two index corners of a card view side by side: height x 2*width x 3 BGR.

    Left: the top-left ``width`` x ``height`` corner of the 100x140 view.  Right: the
    bottom-right corner turned 180 degrees, so both show an upright index.  A card
    turned upside down just swaps the two halves.
    """
    return corner_pairs(card_view(view)[None], width, height)[0]


def _card_spread(images: npt.NDArray[np.uint8],
                 ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Each image's mean and standard deviation over all its pixels and channels, from
    exact integer sums (no float copy of the bytes), shaped N x 1 x 1 x 1."""
    count = int(np.prod(images.shape[1:]))
    flat = images.reshape(len(images), count)  # -1 cannot be solved for an empty batch
    total = flat.sum(axis=1, dtype=np.int64).astype(np.float64)
    squares = np.einsum("ij,ij->i", flat, flat, dtype=np.int64).astype(np.float64)
    mean64 = total / count
    mean = mean64.astype(np.float32)[:, None, None, None]
    std = np.sqrt(np.maximum(squares / count - mean64 * mean64, 0.0)).astype(
        np.float32)[:, None, None, None]
    return mean, std


def normalise(pairs: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """N x height x 2*width x 3 corner pairs as the network input N x 6 x height x width.

    Each card is normalised by its own mean and spread, so that room light, exposure
    and white balance matter less (colour ratios, and so red versus black, remain).
    """
    mean, std = _card_spread(pairs)
    # channels first while still bytes (moving floats about costs four times more);
    # the per-pixel arithmetic is the same in either layout
    n, height, pair_width, channels = pairs.shape
    planes = np.ascontiguousarray(
        pairs.reshape(n, height, 2, pair_width // 2, channels).transpose(0, 2, 4, 1, 3))
    out = planes.reshape(n, 2 * channels, height, pair_width // 2).astype(np.float32)
    out -= mean
    out /= std + 8.0
    return out


def body_views(views: Sequence[npt.NDArray[np.uint8]] | npt.NDArray[np.uint8], width: int,
               height: int) -> npt.NDArray[np.uint8]:
    """N card views (each CARD_H x CARD_W x 3) shrunk whole to ``width`` x ``height``."""
    if len(views) == 0:
        return np.zeros((0, height, width, 3), np.uint8)
    return np.stack([cv2.resize(v, (width, height), interpolation=cv2.INTER_AREA)
                     for v in views]).astype(np.uint8, copy=False)


def normalise_body(bodies: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """N x height x width x 3 shrunk views as the body input N x 3 x height x width,
    normalised per card like the corners (``normalise``)."""
    mean, std = _card_spread(bodies)
    out = np.ascontiguousarray(bodies.transpose(0, 3, 1, 2)).astype(np.float32)
    out -= mean
    out /= std + 8.0
    return out


def preprocess(cards: Sequence[npt.NDArray[np.uint8]], width: int, height: int,
               ) -> npt.NDArray[np.float32]:
    """Card views (BGR, 100x140 from ``warp_card``) as the N x 6 x height x width input."""
    if len(cards) == 0:
        return np.zeros((0, 6, height, width), dtype=np.float32)
    return normalise(corner_pairs(np.stack([card_view(c) for c in cards]), width, height))


def side_pairs(views: npt.NDArray[np.uint8], width: int, height: int) -> npt.NDArray[np.uint8]:
    """The other two corners of N card views (N x CARD_H x CARD_W x 3) as corner pairs:
    the top-right corner mirrored left to right, and the bottom-left corner mirrored top
    to bottom (the top-right corner of the card turned round).  A card upside down swaps
    them, as it swaps the index corners."""
    top_right = views[:, :height, CARD_W - width:][:, :, ::-1]
    bottom_left = views[:, CARD_H - height:, :width][:, ::-1]
    return np.concatenate([top_right, bottom_left], axis=2)


def tta_views(view: npt.NDArray[np.uint8]) -> list[npt.NDArray[np.uint8]]:
    """The extra looks at one 100x140 card view (``TTA_LOOKS``), not the view itself."""
    out = []
    for zoom, dx, dy in TTA_LOOKS:
        matrix = np.array([[zoom, 0.0, (1 - zoom) * CARD_W / 2 + dx],
                           [0.0, zoom, (1 - zoom) * CARD_H / 2 + dy]], dtype=np.float32)
        out.append(np.asarray(cv2.warpAffine(view, matrix, (CARD_W, CARD_H),
                                             flags=cv2.INTER_LINEAR,
                                             borderMode=cv2.BORDER_REPLICATE), dtype=np.uint8))
    return out


def average_looks(first: npt.NDArray[np.float32], extra: npt.NDArray[np.float32],
                  ) -> npt.NDArray[np.float32]:
    """One head's probabilities over all looks: ``first`` (N x K, the first look of N
    cards) and ``extra`` (N * len(TTA_LOOKS) x K, their ``tta_views`` in order), averaged."""
    stacked = np.concatenate(
        [first[:, None], extra.reshape(len(first), len(TTA_LOOKS), -1)], axis=1)
    return np.asarray(stacked.mean(axis=1), dtype=np.float32)


def _softmax(logits: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    shifted = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float32)


#: how many candidate faces each reading lists, and how many ranks
CANDIDATES: Final = 4
RANKS_LISTED: Final = 3


def postprocess(rank_logits: npt.NDArray[np.float32], suit_logits: npt.NDArray[np.float32],
                kind_logits: npt.NDArray[np.float32], threshold: float) -> list[CardRead]:
    """Turn the three heads' logits into readings, unknown below ``threshold``."""
    return judge(_softmax(rank_logits), _softmax(suit_logits), _softmax(kind_logits), threshold)


def judge(p_rank: npt.NDArray[np.float32], p_suit: npt.NDArray[np.float32],
          p_kind: npt.NDArray[np.float32], threshold: float) -> list[CardRead]:
    """Readings from the three heads' probabilities, unknown below ``threshold``."""
    if len(p_kind) == 0:
        return []
    kinds = np.argmax(p_kind, axis=1)
    # p(face, suit, rank) for all 52 cards, suit-major like Card.from_index
    joint = p_kind[:, :1] * (p_suit[:, :, None] * p_rank[:, None, :]).reshape(len(p_kind), -1)
    best = np.argsort(-joint, axis=1)[:, :CANDIDATES]
    best_p = np.take_along_axis(joint, best, axis=1).tolist()
    top_ranks = np.argsort(-p_rank, axis=1)[:, :RANKS_LISTED]
    top_ranks_p = np.take_along_axis(p_rank, top_ranks, axis=1).tolist()
    kind_p = p_kind.max(axis=1).tolist()
    reads = []
    for i, (k, cards) in enumerate(zip(kinds.tolist(), best.tolist(), strict=True)):
        kind = KINDS[k]
        candidates = tuple((FULL_DECK[j], p) for j, p in zip(cards, best_p[i], strict=True))
        if kind != "face":
            reads.append(CardRead(None, kind_p[i], kind, candidates))
            continue
        ranks = tuple((Rank(r + 1), p)  # (the rank head's order: A..K)
                      for r, p in zip(top_ranks[i].tolist(), top_ranks_p[i], strict=True))
        top, confidence = candidates[0]
        reads.append(CardRead(top if confidence >= threshold else None, confidence, "face",
                              candidates, ranks))
    return reads


class CardClassifier:
    """The ONNX card reader; ``read`` takes a batch of ``warp_card`` outputs."""

    def __init__(self, model_path: Path | None = None, *, second_opinion: bool = True,
                 side_look: bool = False) -> None:
        import onnxruntime as ort

        #: whether a face sure of its rank but not of its suit gets the side look
        #: (``look_aside``; the live table reader turns it on: ``table_reader.with_side_look``)
        self.side_look = side_look
        self.model_path = Path(model_path) if model_path is not None else default_model_path()
        if not self.model_path.is_file():
            raise ModelError(
                f"the card-reading model {self.model_path} is missing; "
                f"train it with `{TRAIN_COMMAND}`")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            self._session = ort.InferenceSession(
                str(self.model_path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises several unrelated types
            raise ModelError(
                f"the card-reading model {self.model_path} is unusable ({type(exc).__name__}); "
                f"train it again with `{TRAIN_COMMAND}`") from exc
        inputs = self._session.get_inputs()
        outputs = [o.name for o in self._session.get_outputs()]
        shape = inputs[0].shape if 1 <= len(inputs) <= 2 else []
        body = inputs[1].shape if len(inputs) == 2 else [0, 3, CARD_H, CARD_W]
        if (len(shape) != 4 or not all(isinstance(d, int) for d in shape[1:])
                or shape[1] != 6 or not 8 <= shape[2] <= CARD_H or not 8 <= shape[3] <= CARD_W
                or len(body) != 4 or not all(isinstance(d, int) for d in body[1:])
                or body[1] != 3 or not 8 <= body[2] <= CARD_H or not 8 <= body[3] <= CARD_W
                or outputs != ["rank", "suit", "kind"]):
            raise ModelError(
                f"the card-reading model {self.model_path} does not have the expected "
                f"inputs (N x 6 x H x W, two index corners; optionally N x 3 x H x W, the "
                f"whole card shrunk) and outputs (rank, suit, kind); "
                f"train it again with `{TRAIN_COMMAND}`")
        self._input_name = inputs[0].name
        self.input_height, self.input_width = int(shape[2]), int(shape[3])
        #: the second input's name and (width, height): the whole card shrunk; None for
        #: a model that reads the corners alone
        self.body: tuple[str, int, int] | None = (
            (inputs[1].name, int(body[3]), int(body[2])) if len(inputs) == 2 else None)
        meta = self._session.get_modelmeta().custom_metadata_map
        try:
            self.threshold = float(meta.get("threshold", DEFAULT_THRESHOLD))
        except ValueError:
            self.threshold = DEFAULT_THRESHOLD
        #: threshold for the averaged second looks; None: the model was calibrated
        #: without them, so a doubtful face stays unknown
        self.tta_threshold: float | None
        try:
            self.tta_threshold = float(meta["tta_threshold"]) if "tta_threshold" in meta else None
        except ValueError:
            self.tta_threshold = None
        #: a second model, asked about a face this one still cannot name after its
        #: second looks (``ask_second``; the metadata's ``second_opinion``), and its threshold
        self.second: CardClassifier | None = None
        self.second_threshold = 1.0
        if second_opinion and meta.get("second_opinion"):
            self._load_second(meta)

    def _load_second(self, meta: dict[str, str]) -> None:
        path = self.model_path.parent / meta["second_opinion"]
        try:
            self.second_threshold = float(meta["second_threshold"])
        except (KeyError, ValueError):
            log.warning("the card-reading model %s names a second opinion but no valid "
                        "threshold for it; reading without it", self.model_path.name)
            return
        try:
            self.second = CardClassifier(path, second_opinion=False)
        except ModelError as exc:
            # the main model still reads; doubtful faces stay unknown
            log.warning("reading without a second opinion: %s", exc)

    def probabilities(self, cards: Sequence[npt.NDArray[np.uint8]],
                      ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                                 npt.NDArray[np.float32]]:
        """Soft-max of the rank, suit and kind heads for a batch of card views."""
        return self.run(*self.inputs(cards))

    def inputs(self, cards: Sequence[npt.NDArray[np.uint8]],
               ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32] | None]:
        """The network inputs of a batch of card views: the corners (``preprocess``),
        and the whole card shrunk (``normalise_body``) for a model that reads it."""
        corners = preprocess(cards, self.input_width, self.input_height)
        if self.body is None:
            return corners, None
        _, width, height = self.body
        return corners, normalise_body(body_views([card_view(c) for c in cards], width, height))

    def feeds(self, batch: npt.NDArray[np.float32], body: npt.NDArray[np.float32] | None = None,
              ) -> dict[str, npt.NDArray[np.float32]]:
        """The onnxruntime feeds for network inputs (``inputs``)."""
        if (body is None) != (self.body is None):
            raise ModelError(f"the card-reading model {self.model_path} "
                             + ("reads the whole card too" if self.body else
                                "reads the corners alone"))
        return {self._input_name: batch} | ({} if self.body is None or body is None
                                             else {self.body[0]: body})

    def run(self, batch: npt.NDArray[np.float32], body: npt.NDArray[np.float32] | None = None,
            ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Soft-max of the three heads for network inputs (``inputs``)."""
        rank, suit, kind = self._session.run(None, self.feeds(batch, body))
        return (_softmax(np.asarray(rank)), _softmax(np.asarray(suit)),
                _softmax(np.asarray(kind)))

    def read(self, cards: Sequence[npt.NDArray[np.uint8]]) -> list[CardRead]:
        """Read a batch of card views (100x140 BGR from ``warp_card``)."""
        if len(cards) == 0:
            return []
        p_rank, p_suit, p_kind = self.probabilities(cards)
        reads = judge(p_rank, p_suit, p_kind, self.threshold)
        if self.tta_threshold is None:
            return reads
        doubtful = [i for i, r in enumerate(reads) if r.kind == "face" and r.card is None]
        if not doubtful:
            return reads
        e_rank, e_suit, e_kind = self.probabilities(
            [v for i in doubtful for v in tta_views(np.asarray(cards[i]))])
        looks = (average_looks(p_rank[doubtful], e_rank), average_looks(p_suit[doubtful], e_suit),
                 average_looks(p_kind[doubtful], e_kind))
        again = judge(*looks, self.tta_threshold)
        for i, read in zip(doubtful, again, strict=True):
            reads[i] = read
        if self.side_look:
            self.look_aside(cards, reads, doubtful, *looks)
        if self.second is not None:
            self.ask_second(cards, reads)
        return reads

    def look_aside(self, cards: Sequence[npt.NDArray[np.uint8]], reads: list[CardRead],
                   doubtful: list[int], p_rank: npt.NDArray[np.float32],
                   p_suit: npt.NDArray[np.float32], p_kind: npt.NDArray[np.float32]) -> None:
        """Name the faces of ``reads`` that the index corners leave unknown (``doubtful``:
        their indices, with the heads' probabilities over all looks) by the suit their
        other two corners show (``side_pairs``), in place.

        A face is named when that suit is at least ``SIDE_SUIT`` likely and one of the
        index corners' ``SIDE_SUITS_LIKED`` likeliest, the side look too takes the view
        for a face, and the face, the index corners' rank and that suit together clear
        the second looks' threshold.  On a deck with the suit under the rank the other
        corners show paper or picture, and the side look is rarely sure of a suit there;
        when it is, it must agree with what the index showed."""
        assert self.tta_threshold is not None
        todo = [j for j, i in enumerate(doubtful)
                if reads[i].kind == "face" and reads[i].card is None
                and float(p_kind[j, 0] * p_rank[j].max()) >= self.tta_threshold]
        if not todo:
            return
        views = np.stack([card_view(cards[doubtful[j]]) for j in todo])
        corners = normalise(side_pairs(views, self.input_width, self.input_height))
        body = None
        if self.body is not None:
            body = normalise_body(body_views(views, self.body[1], self.body[2]))
        _, s_suit, s_kind = self.run(corners, body)
        liked = np.argsort(-p_suit, axis=1)[:, :SIDE_SUITS_LIKED]
        for k, j in enumerate(todo):
            suit = int(s_suit[k].argmax())
            if (s_suit[k, suit] < SIDE_SUIT or suit not in liked[j].tolist()
                    or int(s_kind[k].argmax()) != 0):
                continue
            read = judge(p_rank[j:j + 1], s_suit[k:k + 1], p_kind[j:j + 1], self.tta_threshold)[0]
            if read.card is not None:
                reads[doubtful[j]] = read

    def ask_second(self, cards: Sequence[npt.NDArray[np.uint8]], reads: list[CardRead]) -> None:
        """Name the faces of ``reads`` (this model's readings of ``cards``) still unknown
        where the second model is sure and its answer is one of this model's own
        ``SECOND_AGREES`` likeliest faces (in place); nothing without a second model."""
        if self.second is None:
            return
        unsure = [i for i, r in enumerate(reads) if r.kind == "face" and r.card is None]
        if not unsure:
            return
        answers = judge(*self.second.probabilities([cards[i] for i in unsure]),
                        self.second_threshold)
        for i, answer in zip(unsure, answers, strict=True):
            if answer.card is not None and answer.card in second_choices(reads[i]):
                reads[i] = CardRead(answer.card, answer.confidence, "face", answer.candidates,
                                    answer.ranks)


#: the second opinion may only pick among the first model's likeliest faces: it breaks
#: near ties (3D or 3H), it does not overrule
SECOND_AGREES: Final = 2


def second_choices(read: CardRead) -> set[Card]:
    """The faces a second opinion may name for a doubtful ``read``."""
    return {card for card, _ in read.candidates[:SECOND_AGREES]}
