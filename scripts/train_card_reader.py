#!/usr/bin/env python3
"""Train the card reader and export it to ``models/card_reader.onnx``.

    bash scripts/setup_training.sh          # PyTorch, onnx and the font packages, once
    nice -n 10 .venv/bin/python scripts/train_card_reader.py [--epochs 6] [--seed 0]

The defaults are the committed model's recipe (about 21 minutes on a 2-core machine
with the caches of ``cache/card_reader/``, about 2.8 GB of whole card views, 51 the
first time; on another machine it gave other weights, see the model
card).  ``--no-shared
--no-augment --font-decks 0 --epochs 14 --width 1.5 --threads 1`` is the recipe of the
model before it (see the model card).

Needs the ``train`` extra (PyTorch on the CPU, onnx) and, to reproduce the committed
model, the fonts of ``scripts/setup_training.sh``.  Steps, each reproducible from
``--seed``:

1. Synthetic card views from every *training* deck of ``tablecam.render.decks``
   (the reserved evaluation families are never listed), made by
   ``tablecam.reading.synth``: faces, backs and "none" outlines; and faces of made-up
   decks drawn from the installed fonts (``tablecam.reading.fontdecks``, ``--font-decks``),
   which give the reader far more index designs than the art decks alone, each with a
   drawn back of its own.  Cached in
   ``cache/card_reader/`` so a second run skips the rendering.
2. Real crops from ``poker_cards_fmjio/train`` (one version per source photo; mirrored
   versions are turned back by a first model trained on the synthetic views only, in
   the same run, which scores each photo and its mirror image; so the result depends
   on nothing but this repository and the data).  10% of the photos, chosen by a
   hash of their name, are kept apart for calibration.  ``valid`` is never used here.
   With ``--edje``, also real crops of another deck from ``edje_pinochle_ranks/train``,
   labelled by rank only (their suit is not learnt from, only their rank and that they
   are faces); every third photo is left out as the development sample, and ``test`` is
   never used.  Tried once (see the model card): it was not adopted.
3. A small CNN of plain 3x3 convolutions with three heads (rank, suit, kind): the two
   index corners stacked as six channels (``CardNet``), or with ``--shared`` one trunk
   reading each corner by itself (``PairNet``); with ``--body`` a second, smaller trunk
   reads the whole card shrunk to 36x50 (pips, middle suit signs).  Every example is
   kept as the whole card view, and the inputs are cut from it at every step.  Trained
   with AdamW and a one-cycle schedule; with ``--augment`` each corner and the whole
   card are shifted, scaled, softened, re-lit and noised afresh at every step.
4. The confidence threshold is calibrated on a held-out synthetic seed of the training
   decks plus the calibration photos, so that wrong reads stay below ``--max-wrong``.
5. Export to ONNX (dynamic batch), with the threshold and training facts stored in the
   model's metadata.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tablecam.cards import FULL_DECK  # noqa: E402
from tablecam.reading import synth  # noqa: E402
from tablecam.reading.classifier import (  # noqa: E402
    body_views,
    corner_pairs,
    normalise,
    normalise_body,
)
from tablecam.reading.warp import CARD_H, CARD_W  # noqa: E402

INPUT_W, INPUT_H = 40, 60  # each of the two index corners
BODY_W, BODY_H = 36, 50  # the whole card, shrunk (``--body``)
#: synthetic backs per training deck (and twice as many non-card outlines)
TRAIN_BACKS: Final = 60
CACHE = REPO / "cache" / "card_reader"
FACE_HEIGHT = 200
#: decks whose rank (Oxygen: top right) or suit (tango_nuevo: top right, beside the rank)
#: is not in the two corners the reader sees; ``--skip-decks`` can leave them out (tried:
#: more cards read but more wrong reads on the calibration set, so not the default)
CORNER_MISFITS = ("kde-oxygen", "kde-oxygen-air", "kde-oxygen-white", "gnome-tango_nuevo")


# ------------------------------------------------------------------ data


_POOLS: dict[str, synth.SceneCards] = {}


def load_pools(names: list[str]) -> list[str]:
    """Load faces and back of every deck once (before worker processes fork).

    Returns the names that loaded; a deck whose art cannot be rendered is reported
    and left out rather than stopping the training.
    """
    from tablecam.errors import DeckArtError
    from tablecam.render.decks import list_decks, load_deck

    decks = {d.name: d for d in list_decks()}
    loaded = []
    for name in names:
        if name not in _POOLS:
            try:
                faces = load_deck(decks[name])
                _POOLS[name] = synth.SceneCards(
                    [faces.face(c, FACE_HEIGHT) for c in FULL_DECK], [faces.back(FACE_HEIGHT)], [])
            except DeckArtError as exc:
                print(f"skipping deck {name}: {exc}", flush=True)
                continue
        loaded.append(name)
    return loaded


def load_font_decks(count: int, seed: int) -> list[str]:
    """Make ``count`` made-up decks from the installed fonts (``tablecam.reading.fontdecks``)
    and load them like the art decks, each with a made-up back of its own
    (``fontdecks.drawn_back``).  Returns their names, which say which fonts they were
    drawn with (a machine with other fonts makes other decks, and so other cached views)."""
    from tablecam.reading import fontdecks

    fonts = fontdecks.font_files()
    suit_fonts = fontdecks.fonts_with_suits(fonts)
    fingerprint = hashlib.sha256("\n".join([f.name for f in fonts] + [_source_digest("fontdecks.py")])
                                 .encode()).hexdigest()[:6]
    names = []
    for i in range(count):
        name = f"font{i:03d}-{fingerprint}"
        if name not in _POOLS:
            style, faces = fontdecks.font_deck(seed * 1000 + i, FACE_HEIGHT, fonts, suit_fonts)
            back = fontdecks.drawn_back(seed * 1000 + i, FACE_HEIGHT, style.aspect)
            _POOLS[name] = synth.SceneCards(faces, [back], [])
        names.append(name)
    print(f"{count} font decks from {len(fonts)} fonts ({len(suit_fonts)} with suit signs)",
          flush=True)
    if len(fonts) < 150:
        print("note: the committed model was drawn from the fonts of scripts/setup_training.sh "
              "(165 font files); with these the font decks, and so the model, differ", flush=True)
    return names


def _others(names: list[str], seed: int) -> list[np.ndarray]:
    """A mixed pool of faces from all training decks, for neighbouring cards."""
    rng = np.random.default_rng(seed)
    out = []
    for name in names:
        for i in rng.choice(52, size=8, replace=False):
            out.append(_POOLS[name].faces[int(i)])
    return out


def _deck_samples(job: tuple[str, list[str], int, int, int, int, float],
                  ) -> dict[str, np.ndarray]:
    """All synthetic samples of one deck (run in a worker process)."""
    name, names, per_card, backs, nones, seed, strength = job
    cv2.setNumThreads(1)
    digest = int(hashlib.sha256(name.encode()).hexdigest()[:8], 16)
    rng = np.random.default_rng([seed, digest])
    pool = _POOLS[name]
    all_backs = [_POOLS[n].backs[0] for n in names]
    pool = synth.SceneCards(pool.faces, all_backs, _others(names, seed) + list(pool.faces))
    images, kinds, ranks, suits = [], [], [], []
    samples = [synth.face_sample(rng, pool, i, strength) for i in range(52) for _ in range(per_card)]
    own_back = synth.SceneCards(pool.faces, pool.backs[names.index(name):names.index(name) + 1],
                                pool.others)
    samples += [synth.back_sample(rng, own_back if k % 2 else pool, strength) for k in range(backs)]
    samples += [synth.none_sample(rng, pool, strength) for _ in range(nones)]
    for s in samples:
        images.append(s.image)
        kinds.append(s.kind)
        ranks.append(s.rank)
        suits.append(s.suit)
    return {"x": np.stack(images), "kind": np.array(kinds, np.int64),
            "rank": np.array(ranks, np.int64), "suit": np.array(suits, np.int64)}


def synthetic_set(names: list[str], per_card: int, backs: int, nones: int, seed: int,
                  workers: int, strength: float = 1.0, tag: str = "train",
                  ) -> dict[str, np.ndarray]:
    """Synthetic samples of every deck in ``names`` (whole card views, from which the
    network inputs are cut at every step), cached on disk by their settings."""
    key = hashlib.sha256(json.dumps(
        [names, per_card, backs, nones, seed, strength, "views",
         _source_digest()]).encode()).hexdigest()[:12]
    path = CACHE / f"synth-{tag}-{key}.npz"
    per_deck = 52 * per_card + backs + nones
    deck_ids = np.repeat(np.arange(len(names)), per_deck)  # samples are stored deck by deck
    if path.exists():
        with np.load(path) as data:
            return {k: data[k] for k in data.files} | {"deck": deck_ids}
    load_pools(names)
    jobs = [(n, names, per_card, backs, nones, seed, strength) for n in names]
    if workers > 1:
        with get_context("fork").Pool(workers) as p:
            parts = p.map(_deck_samples, jobs)
    else:
        parts = [_deck_samples(j) for j in jobs]
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(path, **out)
    return out | {"deck": deck_ids}


def _source_digest(module: str = "synth.py") -> str:
    """Changes when a sample generator (``tablecam/reading/<module>``) changes, so stale
    caches are not reused."""
    source = (REPO / "tablecam" / "reading" / module).read_bytes()
    return hashlib.sha256(source).hexdigest()[:8]


def is_calibration_photo(name: str) -> bool:
    return int(hashlib.sha256(name.encode()).hexdigest()[:4], 16) % 10 == 0


#: an edje card whose every candidate outline reads as its rank with less than this
#: probability (by the first, synthetic-only model) is left out of training
EDJE_MIN_RANK_PROB: Final = 0.02

def _with_finder_outlines(fitted: np.ndarray, box: Any, found: list[np.ndarray]) -> list[np.ndarray]:
    """A labelled box's candidate outlines: the quad fitted in it, then the finder's
    outlines whose bounding box matches the box (IoU at least 0.6)."""
    from tablecam.reading import realdata

    return [fitted] + [f for f in found
                       if realdata.box_iou((box.x0, box.y0, box.x1, box.y1),
                                           realdata.bounding_box(f)) >= 0.6]


def _rewarps(rng: np.random.Generator, image: np.ndarray, corners: np.ndarray,
             variants: int) -> list[np.ndarray]:
    """``variants`` views of one card: as outlined, then jittered and re-lit re-warps
    (each turned 180 degrees half of the time)."""
    from tablecam.reading.warp import warp_card

    card_h = float(np.linalg.norm(corners[3] - corners[0]))
    views = []
    for v in range(variants):
        quad = corners if v == 0 else synth.jitter_corners(rng, corners, card_h, 0.6)
        if rng.random() < 0.5:
            quad = np.roll(quad, 2, axis=0)
        view = warp_card(image, quad)
        views.append(view if v == 0 else synth.photometric(rng, view, 0.5))
    return views


LabelProb = Callable[[list[np.ndarray], list[Any]], np.ndarray]
RankProb = Callable[[list[np.ndarray], list[Any]], np.ndarray]


def real_set(orient: Callable[[list[np.ndarray]], float] | None, variants: int, seed: int,
             calibration: bool, label_prob: LabelProb | None = None,
             ) -> dict[str, np.ndarray]:
    """Crops of poker_cards_fmjio/train, with ``variants`` jittered re-warps per card.

    ``orient(crops)`` scores how readable a photo's crops are; the photo is mirrored
    back when its mirror image scores higher (Roboflow's flips made mirror images).
    Each labelled box gets candidate outlines: the quad fitted inside the box
    (``realdata.fit_card_quad``) and the finder's outlines that match the box; with
    ``label_prob(crops, cards)`` (a first model's probability of the labelled card) the
    candidate that reads most like the labelled card is kept, so that a bad fit does not
    teach the reader a misplaced index.  The finder's outlines are also what the reader
    sees at run time.
    """
    from tablecam.reading import realdata
    from tablecam.reading.finder import find_cards
    from tablecam.reading.warp import warp_card

    rng = np.random.default_rng(seed)
    images, kinds, ranks, suits = [], [], [], []
    mirrored = 0
    chosen = {"fit": 0, "finder": 0}
    split = realdata.fmjio_dir() / "train"
    for name, paths in realdata.photo_groups(split).items():
        if is_calibration_photo(name) != calibration:
            continue
        image = cv2.imread(str(paths[0]), cv2.IMREAD_COLOR)
        label = split / "labels" / (paths[0].stem + ".txt")
        if image is None or not label.exists():
            continue
        boxes = realdata.read_labels(label, image.shape[1], image.shape[0])
        fitted = [realdata.fit_card_quad(image, b)[0] for b in boxes]
        if orient is not None:
            crops = [warp_card(image, c) for c in fitted]
            flipped = [cv2.flip(c, 1) for c in crops]
            if orient(flipped) > orient(crops):
                mirrored += 1
                image = np.ascontiguousarray(cv2.flip(image, 1))
                w = image.shape[1]
                fitted = [realdata.order_unsquashed(np.stack([w - 1 - c[:, 0], c[:, 1]], axis=1))
                          for c in fitted]
                boxes = [realdata.LabelledBox(b.card, w - 1 - b.x1, b.y0, w - 1 - b.x0, b.y1)
                         for b in boxes]
        outlines = []
        found = [realdata.order_unsquashed(f.corners) for f in find_cards(image)] \
            if label_prob is not None else []
        for box, quad in zip(boxes, fitted, strict=True):
            candidates = _with_finder_outlines(quad, box, found)
            best = 0
            if label_prob is not None and len(candidates) > 1:
                views = [warp_card(image, c) for c in candidates]
                best = int(np.argmax(label_prob(views, [box.card] * len(views))))
            chosen["finder" if best else "fit"] += 1
            outlines.append(candidates[best])
        for box, corners in zip(boxes, outlines, strict=True):
            for view in _rewarps(rng, image, corners, variants):
                images.append(view)
                kinds.append(synth.KIND_FACE)
                ranks.append(box.card.rank.value - 1)
                suits.append(box.card.suit.value)
    print(f"real crops: {len(images)} ({mirrored} photos mirrored back; outlines kept: "
          f"{chosen['fit']} fitted in the box, {chosen['finder']} from the finder)", flush=True)
    return {"x": np.stack(images), "kind": np.array(kinds, np.int64),
            "rank": np.array(ranks, np.int64), "suit": np.array(suits, np.int64)}


def _weights_digest(model: Any) -> str:
    """A digest of a torch model's weights: which model chose the real crops."""
    digest = hashlib.sha256()
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().cpu().numpy().tobytes())
    return digest.hexdigest()[:16]


def cached_real_set(chooser: str, orient: Callable[[list[np.ndarray]], float], variants: int,
                    seed: int, calibration: bool, label_prob: LabelProb | None = None,
                    ) -> dict[str, np.ndarray]:
    """``real_set``, kept in ``cache/card_reader/`` under the digest of the model that
    oriented the photos and chose the outlines (``chooser``), the settings, and the code
    that finds, fits and warps the outlines: fitting them takes minutes, and a run
    whose first model comes out the same picks the same crops."""
    import inspect

    code = "".join(_source_digest(m) for m in ("realdata.py", "finder.py", "warp.py", "synth.py"))
    code += "".join(inspect.getsource(f) for f in (real_set, _rewarps, _with_finder_outlines))
    key = hashlib.sha256(json.dumps(
        [chooser, variants, seed, calibration, label_prob is not None, "views",
         code]).encode()).hexdigest()[:12]
    path = CACHE / f"real-{'calib' if calibration else 'train'}-{key}.npz"
    if path.exists():
        with np.load(path) as data:
            print(f"real crops: {len(data['x'])} (cached in {path.name})", flush=True)
            return {k: data[k] for k in data.files}
    out = real_set(orient, variants, seed, calibration, label_prob)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(path, **out)
    return out


def edje_set(variants: int, seed: int, rank_prob: RankProb | None = None,
             ) -> dict[str, np.ndarray]:
    """Crops of the edje train photos outside the development sample, rank only.

    As in ``real_set``: the quad fitted in each labelled box and the finder's outlines
    that match it are candidates, and with ``rank_prob(crops, ranks)`` the one that
    reads most like the labelled rank is kept, and a card none of whose candidates reads
    at all as its rank (its index hidden under another card, or the box off the card)
    is left out rather than taught as that rank.  ``suit`` is -1 (no suit loss).
    """
    from tablecam.reading import realdata
    from tablecam.reading.finder import find_cards
    from tablecam.reading.warp import warp_card

    rng = np.random.default_rng(seed)
    images, ranks = [], []
    chosen = {"fit": 0, "finder": 0, "dropped": 0}
    for index, path in enumerate(realdata.edje_photos("train")):
        if realdata.edje_dev_photo(index):
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        boxes = realdata.read_voc(path.with_suffix(".xml"))
        found = [realdata.order_unsquashed(f.corners) for f in find_cards(image)] \
            if rank_prob is not None else []
        for box in boxes:
            candidates = _with_finder_outlines(realdata.fit_card_quad(image, box)[0], box, found)
            best = 0
            if rank_prob is not None:
                views = [warp_card(image, c) for c in candidates]
                probs = rank_prob(views, [box.rank] * len(views))
                best = int(np.argmax(probs))
                if float(probs[best]) < EDJE_MIN_RANK_PROB:
                    chosen["dropped"] += 1
                    continue
            chosen["finder" if best else "fit"] += 1
            for view in _rewarps(rng, image, candidates[best], variants):
                images.append(view)
                ranks.append(box.rank.value - 1)
    print(f"edje crops (rank only): {len(images)} (outlines kept: {chosen['fit']} fitted in "
          f"the box, {chosen['finder']} from the finder; {chosen['dropped']} cards left out)",
          flush=True)
    n = len(images)
    return {"x": np.stack(images) if images else np.zeros((0, CARD_H, CARD_W, 3), np.uint8),
            "kind": np.full(n, synth.KIND_FACE, np.int64), "rank": np.array(ranks, np.int64),
            "suit": np.full(n, -1, np.int64)}


# ------------------------------------------------------------------ model


def build_model(width: float = 1, shared: bool = False, body: bool = False) -> Any:
    """The reader network; ``shared``: one trunk reads each corner on its own (see
    ``PairNet``), else the two corners are stacked as six channels (``CardNet``).
    ``body`` (with ``shared``): a second, smaller trunk also reads the whole card shrunk."""
    import torch
    from torch import nn

    def cbr(cin: int, cout: int, stride: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                nn.ReLU(inplace=True)]

    def trunk(cin: int, c: list[int]) -> nn.Sequential:
        return nn.Sequential(
            *cbr(cin, c[0], 2), *cbr(c[0], c[1], 2), *cbr(c[1], c[2], 1),
            *cbr(c[2], c[3], 2), *cbr(c[3], c[4], 1))

    c = [int(round(k * width)) for k in (24, 48, 64, 96, 128)]
    cb = [int(round(k * width)) for k in (16, 32, 48, 64, 64)]

    class CardNet(nn.Module):
        """Plain 3x3 CNN over the two stacked index corners, with rank, suit, kind heads.

        Plain convolutions rather than depthwise-separable ones: on a CPU PyTorch
        trains them several times faster per multiply, and the network is tiny anyway.
        """

        def __init__(self) -> None:
            super().__init__()
            self.features = trunk(6, c)
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.drop = nn.Dropout(0.1)
            self.rank = nn.Linear(c[4], 13)
            self.suit = nn.Linear(c[4], 4)
            self.kind = nn.Linear(c[4], 3)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
            f = self.drop(torch.flatten(self.pool(self.features(x)), 1))
            return self.rank(f), self.suit(f), self.kind(f)

    class PairNet(nn.Module):
        """One trunk (3 channels in) reads each index corner by itself; the two corners'
        features are joined by their maximum and their mean.

        The same weights learn from both corners, a corner under a hand or another card
        does not blur the features of the other one, and since max and mean do not care
        which corner is which, a card upside down reads exactly as the right way up.
        The model still takes the N x 6 x H x W input of ``CardNet``.

        With ``body``, a second trunk reads the whole card shrunk to BODY_W x BODY_H (N x
        3 x H x W, the second input): the count and layout of the pips and the larger
        suit signs in the middle, which tell apart what a small index blurs (3 and 2, 8
        and 7, clubs and spades), and a rank that a deck prints where the corners miss
        it.  Its features join the corners' before the heads.
        """

        def __init__(self) -> None:
            super().__init__()
            self.features = trunk(3, c)
            self.body = trunk(3, cb) if body else None
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.drop = nn.Dropout(0.1)
            joined = 2 * c[4] + (cb[4] if body else 0)
            self.rank = nn.Linear(joined, 13)
            self.suit = nn.Linear(joined, 4)
            self.kind = nn.Linear(joined, 3)

        def forward(self, x: torch.Tensor, whole: torch.Tensor | None = None,
                    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
            n = x.shape[0]
            both = torch.cat([x[:, :3], x[:, 3:]], 0)  # corner 1 of every card, then corner 2
            f = torch.flatten(self.pool(self.features(both)), 1)
            first, second = f[:n], f[n:]
            parts = [torch.maximum(first, second), (first + second) * 0.5]
            if self.body is not None:
                assert whole is not None, "this model reads the whole card too"
                parts.append(torch.flatten(self.pool(self.body(whole)), 1))
            f = self.drop(torch.cat(parts, 1))
            return self.rank(f), self.suit(f), self.kind(f)

    if body and not shared:
        raise ValueError("the whole-card trunk (--body) needs the shared corner trunk (--shared)")
    model = PairNet() if shared else CardNet()
    setattr(model, "reads_body", body)  # noqa: B010 - read by predict and export
    return model


def augment_corner(rng: np.random.Generator, corner: np.ndarray) -> np.ndarray:
    """One INPUT_H x INPUT_W index corner as the finder and camera might give it another
    time: placed a little differently (shift, scale, turn), with the sensor seeing it
    coarser or softer, other colours of light and more noise.

    The stored synthetic views are a fixed set that the network sees many times over;
    drawing these changes afresh at every step keeps it from learning the particular
    pixels of a deck's rendered index instead of the shapes of ranks and suits.
    """
    h, w = corner.shape[:2]
    out = corner
    if rng.random() < 0.8:
        scale = rng.uniform(0.9, 1.1)
        angle = rng.normal(0, 3.0)
        matrix = cv2.getRotationMatrix2D((w * 0.35, h * 0.35), angle, scale)
        matrix[:, 2] += rng.normal(0, 1.5, size=2)
        out = cv2.warpAffine(out, matrix, (w, h), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)
    roll = rng.random()
    if roll < 0.25:  # seen coarser: a card smaller in the frame than the view
        f = rng.uniform(0.45, 0.8)
        small = cv2.resize(out, (max(4, int(w * f)), max(4, int(h * f))),
                           interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    elif roll < 0.45:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.3))
    f32 = out.astype(np.float32)
    f32 *= 1 + rng.normal(0, 0.07, size=3).astype(np.float32)  # white balance
    if rng.random() < 0.5:
        f32 += rng.normal(0, rng.uniform(1, 8), size=f32.shape).astype(np.float32)
    return np.clip(f32, 0, 255).astype(np.uint8)


def augment_body(rng: np.random.Generator, body: np.ndarray) -> np.ndarray:
    """One shrunk whole card (BODY_H x BODY_W) as a finder and camera might give it
    another time: a little shifted, scaled and turned, sometimes softer, other colours
    of light and more noise (as ``augment_corner``, milder: the whole card's outline
    is better placed than its index)."""
    h, w = body.shape[:2]
    out = body
    if rng.random() < 0.8:
        matrix = cv2.getRotationMatrix2D((w / 2, h / 2), rng.normal(0, 2.0), rng.uniform(0.94, 1.06))
        matrix[:, 2] += rng.normal(0, 1.0, size=2)
        out = cv2.warpAffine(out, matrix, (w, h), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 0.9))
    f32 = out.astype(np.float32)
    f32 *= 1 + rng.normal(0, 0.07, size=3).astype(np.float32)
    if rng.random() < 0.5:
        f32 += rng.normal(0, rng.uniform(1, 6), size=f32.shape).astype(np.float32)
    return np.clip(f32, 0, 255).astype(np.uint8)


def augment_pairs(rng: np.random.Generator, x: np.ndarray) -> np.ndarray:
    """``augment_corner`` on both corners of every corner pair in ``x`` (N x H x 2W x 3)."""
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i, :, :INPUT_W] = augment_corner(rng, x[i, :, :INPUT_W])
        out[i, :, INPUT_W:] = augment_corner(rng, x[i, :, INPUT_W:])
    return out


def network_input(views: np.ndarray, body: bool, rng: np.random.Generator | None = None,
                  augment: bool = False) -> tuple[Any, Any]:
    """The network's inputs (corners, and the whole card or None) for whole card views,
    each part redrawn by ``augment_pairs`` and ``augment_body`` with ``augment``."""
    import torch

    pairs = corner_pairs(views, INPUT_W, INPUT_H)
    if augment and rng is not None:
        pairs = augment_pairs(rng, pairs)
    xb = torch.from_numpy(normalise(pairs))
    if not body:
        return xb, None
    bodies = body_views(views, BODY_W, BODY_H)
    if augment and rng is not None:
        bodies = np.stack([augment_body(rng, b) for b in bodies])
    return xb, torch.from_numpy(normalise_body(bodies))


def _batch(data: dict[str, np.ndarray], idx: np.ndarray, rng: np.random.Generator | None,
           augment: bool = False, body: bool = False) -> tuple[Any, Any, Any, Any, Any]:
    import torch

    views = data["x"][idx]
    if rng is not None:  # cheap extra augmentation: half the batch turned 180 degrees
        turn = rng.random(len(idx)) < 0.5
        views = views.copy()
        views[turn] = views[turn][:, ::-1, ::-1]
    xb, bb = network_input(views, body, rng, augment)
    return (xb, bb, torch.from_numpy(data["rank"][idx]), torch.from_numpy(data["suit"][idx]),
            torch.from_numpy(data["kind"][idx]))


def train(data: dict[str, np.ndarray], epochs: float, seed: int, batch: int = 128,
          lr: float = 4e-3, width: float = 1, log: Callable[[str], None] = print,
          augment: bool = False, shared: bool = False, body: bool = False,
          ) -> tuple[Any, list[float]]:
    """Train a fresh model on ``data``; returns it and the loss of every step."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    rng = np.random.default_rng(seed)
    model = build_model(width, shared, body)
    n = len(data["x"])
    steps = max(1, int(epochs * n / batch))
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    ce = nn.CrossEntropyLoss(reduction="none")  # no smoothing: it would cap confidence
    losses: list[float] = []
    model.train()
    order = rng.permutation(n)
    pos = 0
    start = time.time()
    for step in range(steps):
        if pos + batch > n:
            order, pos = rng.permutation(n), 0
        idx = order[pos:pos + batch]
        pos += batch
        x, whole, rank, suit, kind = _batch(data, idx, rng, augment, body)
        out_rank, out_suit, out_kind = model(x, whole) if body else model(x)
        face = (kind == synth.KIND_FACE).float()
        suited = face * (suit >= 0).float()  # rank-only photos teach no suit
        loss = ce(out_kind, kind).mean()
        loss = loss + (ce(out_rank, rank.clamp(min=0)) * face).sum() / face.sum().clamp(min=1)
        loss = loss + (ce(out_suit, suit.clamp(min=0)) * suited).sum() / suited.sum().clamp(min=1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        losses.append(float(loss.detach()))
        if step % 200 == 0 or step == steps - 1:
            log(f"step {step + 1}/{steps} loss {np.mean(losses[-200:]):.4f} "
                f"({time.time() - start:.0f} s)")
    model.eval()
    return model, losses


def predict(model: Any, views: np.ndarray, batch: int = 512) -> tuple[np.ndarray, ...]:
    """Soft-max outputs (rank, suit, kind) for whole card views (N x 140 x 100 x 3)."""
    import torch

    body = getattr(model, "reads_body", False)
    outs: list[list[np.ndarray]] = [[], [], []]
    with torch.no_grad():
        for i in range(0, len(views), batch):
            xb, bb = network_input(views[i:i + batch], body)
            for k, o in enumerate(model(xb, bb) if body else model(xb)):
                outs[k].append(torch.softmax(o, 1).numpy())
    return tuple(np.concatenate(o) for o in outs)


#: thresholds tried, lowest first: coarse up to 0.99, then ever closer to 1
THRESHOLDS = np.concatenate([np.linspace(0.3, 0.99, 70), 1 - np.logspace(-2, -4.5, 26)[1:]])


Predict = Callable[[np.ndarray], tuple[np.ndarray, ...]]


def calibrate(model: Predict, data: dict[str, np.ndarray], max_wrong: float,
              ) -> tuple[float, float, dict[str, Any]]:
    """Thresholds for the classifier's first and second looks (``CardClassifier.read``).

    ``data`` holds whole card views.  The first threshold is the lowest at which the
    first look alone misreads at most half of ``max_wrong`` of the faces; the views
    still unknown get the averaged second looks (``classifier.tta_views``), and their
    threshold is the lowest that keeps all wrong reads together at most ``max_wrong``.
    A back or a non-card named as a card counts as a wrong read, as it does at the
    table, so the thresholds also answer for the kind head.
    """
    from tablecam.reading.classifier import average_looks, tta_views

    views = data["x"]
    p_rank, p_suit, p_kind = model(views)
    face = data["kind"] == synth.KIND_FACE
    n_faces = int(face.sum())

    def verdict(pr: np.ndarray, ps: np.ndarray, pk: np.ndarray,
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        is_face = pk.argmax(1) == synth.KIND_FACE
        conf = pk[:, synth.KIND_FACE] * pr.max(1) * ps.max(1)
        right = (face[idx] & (pr.argmax(1) == data["rank"][idx])
                 & (ps.argmax(1) == data["suit"][idx]))
        return is_face, conf, right

    idx = np.arange(len(views))
    is_face, conf, right = verdict(p_rank[idx], p_suit[idx], p_kind[idx])
    first = float(THRESHOLDS[-1])
    for t in THRESHOLDS:
        if np.sum(is_face & (conf >= t) & ~right) <= max_wrong / 2 * n_faces:
            first = float(t)
            break
    read_first = is_face & (conf >= first)
    wrong_first = int(np.sum(read_first & ~right))
    doubtful = is_face & ~read_first
    idx = idx[doubtful]
    if len(idx):
        extra = model(np.stack([v for i in idx for v in tta_views(views[i])]))
        averaged = [average_looks(p[idx], e)
                    for p, e in zip((p_rank, p_suit, p_kind), extra, strict=True)]
    else:  # nothing doubtful (a model that names, or rules out, everything)
        averaged = [p[idx] for p in (p_rank, p_suit, p_kind)]
    is_face2, conf2, right2 = verdict(*averaged)
    second = float(THRESHOLDS[-1])
    for t in THRESHOLDS:
        if wrong_first + np.sum(is_face2 & (conf2 >= t) & ~right2) <= max_wrong * n_faces:
            second = float(t)
            break
    read_second = is_face2 & (conf2 >= second)
    not_face = ~face[idx]
    stats = {
        "threshold": round(first, 5),
        "tta_threshold": round(second, 5),
        "faces": n_faces,
        "correct_first_look": float(np.sum(read_first & right) / n_faces),
        "correct": float((np.sum(read_first & right) + np.sum(read_second & right2)) / n_faces),
        "wrong": float((wrong_first + np.sum(read_second & ~right2)) / n_faces),
        "second_looks": float(np.sum(face[idx]) / n_faces),
        "non_faces": int(np.sum(~face)),
        "non_faces_named": int(np.sum(read_first & ~face)
                               + np.sum(read_second & not_face)),
        "kind_accuracy": float(np.mean(p_kind.argmax(1) == data["kind"])),
    }
    return first, second, stats


def export(model: Any, path: Path, metadata: dict[str, str]) -> None:
    import onnx
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    body = getattr(model, "reads_body", False)
    dummy = (torch.zeros(1, 6, INPUT_H, INPUT_W),) + (
        (torch.zeros(1, 3, BODY_H, BODY_W),) if body else ())
    names = ["image"] + (["body"] if body else [])
    torch.onnx.export(model, dummy, str(path), input_names=names,
                      output_names=["rank", "suit", "kind"], opset_version=17,
                      dynamic_axes={name: {0: "batch"} for name in names + ["rank", "suit", "kind"]},
                      dynamo=False)
    proto = onnx.load(str(path))
    for k, v in metadata.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = k, v
    onnx.save(proto, str(path))


def recalibrate(path: Path, names: list[str], seed: int, workers: int, max_wrong: float,
                out: Path) -> dict[str, Any]:
    """Calibrate the thresholds of an already trained ONNX reader again, in place or to
    ``out``: for trying a change of calibration without training (the calibration
    photos are oriented by the model itself rather than by the run's first model)."""
    from tablecam.reading.classifier import CardClassifier

    reader = CardClassifier(path, second_opinion=False)

    def model(views: np.ndarray) -> tuple[np.ndarray, ...]:
        outs = [reader.probabilities(list(views[i:i + 256])) for i in range(0, len(views), 256)]
        return tuple(np.concatenate([o[k] for o in outs]) for k in range(3))

    calib_set = _calibration_views(reader, names, seed, workers)
    threshold, tta_threshold, stats = calibrate(model, calib_set, max_wrong)
    _write_metadata(path, {"threshold": f"{threshold:.5f}", "tta_threshold": f"{tta_threshold:.5f}",
                           "calibration": json.dumps(stats)}, out)
    return stats


def _calibration_views(reader: Any, names: list[str], seed: int, workers: int,
                       ) -> dict[str, np.ndarray]:
    """The calibration set of a run with this seed, its photos oriented by ``reader``."""
    def orient(crops: list[np.ndarray]) -> float:
        return float(np.mean([r.confidence if r.kind == "face" else 0.0
                              for r in reader.read(crops)]))

    calib_set = synthetic_set(names, 3, 8, 16, seed + 1000, workers, tag="calibviews")
    return _merge({k: v for k, v in calib_set.items() if k != "deck"},
                  real_set(orient, 1, seed + 1, calibration=True))


def _write_metadata(path: Path, values: dict[str, str], out: Path) -> None:
    """Copy the ONNX model at ``path`` to ``out`` with these metadata entries replaced."""
    import onnx

    proto = onnx.load(str(path))
    kept = [p for p in proto.metadata_props if p.key not in values]
    del proto.metadata_props[:]
    for entry in kept:
        proto.metadata_props.add().CopyFrom(entry)
    for k, v in values.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = k, v
    onnx.save(proto, str(out))


#: a threshold above any probability (a face read with probability 1.0 included)
NEVER = 1.01


def second_threshold(conf: np.ndarray, agree: np.ndarray, good: np.ndarray,
                     allowed: float) -> float:
    """The lowest of ``THRESHOLDS`` at which the second opinion's answers that would be
    taken (``agree``, confidence ``conf``) hold at most ``allowed`` wrong ones (not
    ``good``); ``NEVER`` when none does."""
    for t in THRESHOLDS:
        if np.sum(agree & (conf >= t) & ~good) <= allowed:
            return float(t)
    return NEVER


def calibrate_second(main: Path, second: Path, names: list[str], seed: int, workers: int,
                     max_wrong: float, out: Path) -> dict[str, Any]:
    """Give the trained reader ``main`` the trained reader ``second`` as its second
    opinion (``CardClassifier.ask_second``): the threshold is the lowest at which all
    wrong reads of the pair together stay at most ``max_wrong`` of the calibration
    faces, the first model's own (both looks) included.  Written to ``out``, which must
    lie beside ``second``; the first model's weights and thresholds are unchanged."""
    from tablecam.reading.classifier import CardClassifier, judge, second_choices

    if second.resolve().parent != out.resolve().parent:
        raise SystemExit(f"the second opinion {second} must lie in the folder of {out}")
    reader = CardClassifier(main, second_opinion=False)
    other = CardClassifier(second, second_opinion=False)
    data = _calibration_views(reader, names, seed, workers)
    views = list(data["x"])
    reads = [r for i in range(0, len(views), 256) for r in reader.read(views[i:i + 256])]
    face = data["kind"] == synth.KIND_FACE
    n_faces = int(face.sum())
    truth = [FULL_DECK[int(su) * 13 + int(ra)] if f else None
             for f, su, ra in zip(face, data["suit"], data["rank"], strict=True)]
    named = np.array([r.card is not None for r in reads])
    right = np.array([r.card is not None and r.card == t for r, t in zip(reads, truth, strict=True)])
    wrong_first = int(np.sum(named & ~right))
    unsure = [i for i, r in enumerate(reads) if r.kind == "face" and r.card is None]
    answers = [a for k in range(0, len(unsure), 256) for a in judge(
        *other.probabilities([views[i] for i in unsure[k:k + 256]]), 0.0)]
    agree = np.array([a.kind == "face" and a.candidates[0][0] in second_choices(reads[i])
                      for i, a in zip(unsure, answers, strict=True)], bool)
    conf = np.array([a.candidates[0][1] for a in answers], np.float64)
    good = np.array([a.candidates[0][0] == truth[i] for i, a in zip(unsure, answers, strict=True)],
                    bool)
    chosen = second_threshold(conf, agree, good, max_wrong * n_faces - wrong_first)
    curve = {f"{t:.4f}": (int(np.sum(agree & (conf >= t) & good)),
                          int(np.sum(agree & (conf >= t) & ~good))) for t in THRESHOLDS}
    taken = agree & (conf >= chosen)
    stats = {"second_threshold": round(chosen, 5), "faces": n_faces,
             "correct_first": float(np.sum(right) / n_faces),
             "wrong_first": float(wrong_first / n_faces), "unsure": len(unsure),
             "correct": float((np.sum(right) + np.sum(taken & good)) / n_faces),
             "wrong": float((wrong_first + np.sum(taken & ~good)) / n_faces)}
    print("second opinion: threshold -> (right, wrong) among the unsure: "
          + ", ".join(f"{k}: {v}" for k, v in list(curve.items())[::5]), flush=True)
    _write_metadata(main, {"second_opinion": second.name, "second_threshold": f"{chosen:.5f}",
                           "second_calibration": json.dumps(stats)}, out)
    return stats


def _without_decks(data: dict[str, np.ndarray], keep: list[int]) -> dict[str, np.ndarray]:
    mask = np.isin(data["deck"], keep)
    return {k: v[mask] for k, v in data.items() if k != "deck"}


def _merge(*sets: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([s[k] for s in sets]) for k in sets[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=float, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-card", type=int, default=24, help="synthetic views per card per deck")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2,
                        help="torch threads (one is faster while other jobs keep the "
                             "2-core machine busy)")
    parser.add_argument("--width", type=float, default=1,
                        help="channel multiplier of the network (the orientation model "
                             "stays at 1)")
    parser.add_argument("--shared", action=argparse.BooleanOptionalAction, default=True,
                        help="one trunk reads each corner by itself (PairNet); "
                             "--no-shared stacks the corners as six channels (CardNet)")
    parser.add_argument("--augment", action=argparse.BooleanOptionalAction, default=True,
                        help="redraw shift, scale, sharpness, colour and noise of every "
                             "corner at every step")
    parser.add_argument("--body", action=argparse.BooleanOptionalAction, default=False,
                        help="a second trunk also reads the whole card shrunk (pips, "
                             "middle suit signs); needs --shared")
    parser.add_argument("--font-decks", type=int, default=40,
                        help="made-up decks drawn from the installed fonts")
    parser.add_argument("--font-views", type=int, default=8,
                        help="synthetic views per card of each font deck")
    parser.add_argument("--real-variants", type=int, default=6)
    parser.add_argument("--no-real", action="store_true", help="synthetic data only")
    parser.add_argument("--edje", action="store_true",
                        help="also the rank-only edje train photos (outside the dev sample)")
    parser.add_argument("--orient-model", type=Path, default=None,
                        help="an ONNX reader used to turn mirrored training photos back "
                             "(default: a synthetic-only model trained first in this run, "
                             "so that the result depends on nothing but this repository)")
    parser.add_argument("--orient-epochs", type=float, default=3,
                        help="epochs of that first synthetic-only model")
    parser.add_argument(
        "--skip-decks", nargs="*", default=[],
        help="training decks to leave out, e.g. " + " ".join(CORNER_MISFITS))
    parser.add_argument("--max-wrong", type=float, default=0.001)
    parser.add_argument("--calibrate-only", type=Path, default=None, metavar="MODEL",
                        help="only calibrate the thresholds of this trained model again "
                             "(written to --out)")
    parser.add_argument("--second-opinion", type=Path, default=None, metavar="MODEL",
                        help="with --calibrate-only: calibrate this trained model (beside "
                             "--out) as the second opinion of that one, whose weights and "
                             "thresholds stay")
    parser.add_argument("--second-max-wrong", type=float, default=0.0015,
                        help="wrong reads allowed to the pair together")
    parser.add_argument("--out", type=Path, default=REPO / "models" / "card_reader.onnx")
    args = parser.parse_args(argv)

    import torch

    from tablecam.render.decks import list_decks

    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    started = time.time()
    # training decks only: reserved ones are not listed
    names = load_pools([d.name for d in list_decks()])
    print(f"{len(names)} training decks: {', '.join(names)}", flush=True)
    if args.calibrate_only is not None and args.second_opinion is not None:
        stats = calibrate_second(args.calibrate_only, args.second_opinion,
                                 [n for n in names if n not in args.skip_decks],
                                 args.seed, args.workers, args.second_max_wrong, args.out)
        print(f"second opinion: {json.dumps(stats)}; wrote {args.out}", flush=True)
        return 0
    if args.calibrate_only is not None:
        stats = recalibrate(args.calibrate_only, [n for n in names if n not in args.skip_decks],
                            args.seed, args.workers, args.max_wrong, args.out)
        print(f"calibration: {json.dumps(stats)}; wrote {args.out}", flush=True)
        return _quantize(args.out)
    train_set = synthetic_set(names, args.per_card, TRAIN_BACKS, 2 * TRAIN_BACKS, args.seed,
                              args.workers)
    calib_set = synthetic_set(names, 3, 8, 16, args.seed + 1000, args.workers, tag="calibviews")
    keep = [i for i, n in enumerate(names) if n not in args.skip_decks]
    train_set = _without_decks(train_set, keep)
    calib_set = _without_decks(calib_set, keep)
    print(f"left out: {', '.join(n for n in names if n in args.skip_decks) or 'none'}",
          flush=True)
    names = [names[i] for i in keep]
    font_names: list[str] = []
    font_set: dict[str, np.ndarray] | None = None
    if args.font_decks:
        font_names = load_font_decks(args.font_decks, args.seed)
        # backs and non-cards in the art decks' proportion to faces, so that adding
        # faces does not teach the kind head that everything is a face
        font_backs = round(TRAIN_BACKS * args.font_views / args.per_card)
        font_set = synthetic_set(font_names, args.font_views, font_backs, 2 * font_backs,
                                 args.seed, args.workers, tag="fonts")
        font_set = {k: v for k, v in font_set.items() if k != "deck"}
    print(f"synthetic: {len(train_set['x'])} train from the art decks"
          + (f", {len(font_set['x'])} from the font decks" if font_set else "")
          + f", {len(calib_set['x'])} calibration ({time.time() - started:.0f} s)", flush=True)
    real_count = edje_count = 0
    if not args.no_real:
        orient: Callable[[list[np.ndarray]], float]
        if args.orient_model is not None:
            from tablecam.reading.classifier import CardClassifier

            reader = CardClassifier(args.orient_model)
            chooser = hashlib.sha256(args.orient_model.read_bytes()).hexdigest()[:16]

            def orient(crops: list[np.ndarray]) -> float:
                return float(np.mean([r.confidence if r.kind == "face" else 0.0
                                      for r in reader.read(crops)]))

            def label_prob(crops: list[np.ndarray], cards: list[Any]) -> np.ndarray:
                return np.array([dict(r.candidates).get(card, 0.0)
                                 for r, card in zip(reader.read(crops), cards, strict=True)])

            def rank_prob(crops: list[np.ndarray], ranks: list[Any]) -> np.ndarray:
                return np.array([sum(p for c, p in r.candidates if c.rank == rank)
                                 for r, rank in zip(reader.read(crops), ranks, strict=True)])
        else:
            # the art decks' views only, so that this model, and the real crops it
            # chooses (cached by its weights), do not change with the font decks
            print(f"orientation model: synthetic data only, {args.orient_epochs} epochs",
                  flush=True)
            first, _ = train(train_set, args.orient_epochs, args.seed, width=1,
                             log=lambda m: print(m, flush=True))
            chooser = _weights_digest(first)

            def orient(crops: list[np.ndarray]) -> float:
                p_rank, p_suit, p_kind = predict(first, np.stack(crops))
                return float(np.mean(p_kind[:, synth.KIND_FACE] * p_rank.max(1) * p_suit.max(1)))

            def label_prob(crops: list[np.ndarray], cards: list[Any]) -> np.ndarray:
                p_rank, p_suit, p_kind = predict(first, np.stack(crops))
                at = np.arange(len(cards))
                rank = np.array([c.rank.value - 1 for c in cards])
                suit = np.array([c.suit.value for c in cards])
                return np.asarray(p_kind[:, synth.KIND_FACE] * p_rank[at, rank] * p_suit[at, suit])

            def rank_prob(crops: list[np.ndarray], ranks: list[Any]) -> np.ndarray:
                p_rank, _, p_kind = predict(first, np.stack(crops))
                at = np.arange(len(ranks))
                rank = np.array([r.value - 1 for r in ranks])
                return np.asarray(p_kind[:, synth.KIND_FACE] * p_rank[at, rank])
        real_train = cached_real_set(chooser, orient, args.real_variants, args.seed,
                                     calibration=False, label_prob=label_prob)
        real_calib = cached_real_set(chooser, orient, 1, args.seed + 1, calibration=True)
        real_count = len(real_train["x"])
        train_set = _merge(train_set, real_train)
        if args.edje:
            real_edje = edje_set(args.real_variants, args.seed + 2, rank_prob)
            edje_count = len(real_edje["x"])
            train_set = _merge(train_set, real_edje)
        calib_set = _merge(calib_set, real_calib)
    if font_set is not None:
        train_set = _merge(train_set, font_set)
    model, losses = train(train_set, args.epochs, args.seed, width=args.width,
                          log=lambda m: print(m, flush=True), augment=args.augment,
                          shared=args.shared, body=args.body)
    threshold, tta_threshold, stats = calibrate(lambda x: predict(model, x), calib_set,
                                                args.max_wrong)
    minutes = (time.time() - started) / 60
    print(f"calibration: {json.dumps(stats)}", flush=True)
    export(model, args.out, {
        "threshold": f"{threshold:.5f}",
        "tta_threshold": f"{tta_threshold:.5f}",
        "input": f"two {INPUT_W}x{INPUT_H} BGR index corners"
                 + (f" and the whole card at {BODY_W}x{BODY_H}" if args.body else "")
                 + ", per-card mean/std normalised",
        "training_decks": ",".join(names),
        "font_decks": str(len(font_names)),
        "network": ("PairNet (one trunk per corner)" if args.shared else "CardNet (stacked corners)")
                   + (", whole-card trunk" if args.body else "")
                   + f", width {args.width}" + (", augmented" if args.augment else ""),
        "real_crops": str(real_count),
        "seed": str(args.seed),
        "epochs": str(args.epochs),
        "train_minutes": f"{minutes:.1f}",
        "calibration": json.dumps(stats),
    } | ({"edje_rank_only_crops": str(edje_count)} if args.edje else {}))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) in {minutes:.1f} min",
          flush=True)
    return _quantize(args.out)


def _quantize(model: Path) -> int:
    """The 8-bit copy the runtime prefers, made again from ``model`` (a stale one would
    shadow it): ``scripts/quantize_card_reader.py``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import quantize_card_reader

    return quantize_card_reader.main(
        ["--model", str(model), "--out", str(model.with_name(model.stem + ".int8.onnx"))])


if __name__ == "__main__":
    raise SystemExit(main())
