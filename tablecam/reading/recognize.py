"""Recognising the face-up cards in a photo: load, find, read (``tablecam recognize``).

``recognize(image, reader)`` finds every card outline (the photo at two sizes and
through a median filter: ``find_cards_thorough``),
reads each card's canonical view in one batch, and keeps the face-up cards: backs are
left out and outlines the reader says are no card at all are dropped.  A face it
cannot read is looked at once more through its outline grown by a quarter (the finder
sometimes outlines a court card's picture frame, which hides the index corners) and
shrunk by a tenth (a strip of table or of the card beneath taken in) and, when the
outline is not of a card's shape, through card-shaped outlines that keep one of its
sides (a side found on a neighbour's edge or on wood grain); one it still cannot read
confidently is kept with ``card = None``.

Cards that no outline gives, lying partly under others or cut by the photo's edge,
are then read from a visible corner at the size of the photo's named cards
(``_cards_at_corners``).

A square photo is also read stretched back to 4:3 and to 3:4 (``SQUARE_LOOKS``, each
both by widening and by narrowing):
camera frames are not square, so a square one was cut or resized, and photos resized
without keeping their aspect (data sets squash phone photos to 640x640) show cards far
off a card's shape, which the finder does not take for cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.cards import Card
from tablecam.errors import TablecamError
from tablecam.reading.finder import (
    TOP_ASPECTS,
    Corner,
    _far_side,
    _polygon_overlap,
    _segments,
    _sides,
    find_cards,
    find_cards_thorough,
    find_pile_tops,
    right_angle_corners,
)
from tablecam.reading.realdata import bounding_box, box_iou
from tablecam.reading.table_reader import CardReader, _iou, _Read, read_cards
from tablecam.reading.warp import CARD_H, CARD_W, lone_corners, order_corners, warp_card

#: A face the reader cannot read is looked at again through its outline grown about
#: its centre by these factors: the finder sometimes outlines a court card's picture
#: frame or a card's field of pips, which leaves the index corners out of the view, and
#: sometimes a card with a strip of table or of the card beneath around it.
SECOND_LOOK_GROWTH = (1.25, 0.9)

#: An unread face whose outline's long side is more than this factor off the card's
#: (``photo_aspect``) is also looked at through that outline brought back to the
#: card's shape, one side at a time held where it is: a side found on a neighbouring
#: edge or on wood grain makes an outline too long, one found on a court card's
#: picture frame too short.
SHAPE_TOLERANCE = 1.1


#: An outline more than this many times a lone card's area (the median named card's),
#: or off the photo's card shape by more than ``SHAPE_TOLERANCE``, may be a stack: the top
#: card with what sticks out below it (a tableau column on its face-down cards, a
#: centre pile, a fanned hand).  The top card is sought inside it.
STACK_AREA = 1.2
#: At most this many possible stacks are searched in one photo.
STACK_SEARCHES = 16

#: The shape of a photo's cards (long side over short) is its named cards' median,
#: within these bounds (poker cards are 1.40, bridge cards 1.56; perspective and a
#: squashed photo move it).
PHOTO_ASPECT_RANGE = (1.3, 1.7)


def photo_aspect(sides: Sequence[tuple[float, float]]) -> float:
    """The long-over-short ratio of a photo's cards, from (short, long) of its named ones."""
    ratio = float(np.median([long / max(short, 1e-6) for short, long in sides]))
    return min(max(ratio, PHOTO_ASPECT_RANGE[0]), PHOTO_ASPECT_RANGE[1])


#: A square photo is read as it is and stretched by these (x, y) factors: back to the
#: 4:3 and 3:4 frames of a phone photo squashed to a square, by widening one side and by
#: narrowing the other.  The two ways find different cards: resampling moves a faint
#: card edge, and a gap in it opens or closes (fmjio dev photos: outlines matching
#: 91.3 % of the labelled cards with either pair, 94.0 % with both).
SQUARE_LOOKS = ((1.0, 1.0), (4 / 3, 1.0), (1.0, 4 / 3), (1.0, 3 / 4), (3 / 4, 1.0))
#: A photo counts as square when its sides differ by at most this share.
SQUARE_TOLERANCE = 0.02
#: Of the looks at a square photo, the one naming the most cards is kept whole; a card
#: another look finds is added where it overlaps no kept card's box by this IoU and its
#: name is not taken.
MERGE_IOU = 0.3

#: The finder takes a card's short side to be at most half the photo's short side; a
#: close-up of one card or two is also searched for cards from this share of the photo's
#: short side up to all of it (``_close_ups``).
CLOSE_UP_FROM = 0.45

#: Cards under others are sought from their corners (``_cards_at_corners``) on a copy
#: of the photo where the named cards are at most this wide (pixels) ...
CORNER_CARD_PX = 90
#: ... from corners whose two arms are at least this share of the card's width (0.3
#: read 0.6 % fewer fmjio and edje dev cards) ...
CORNER_ARM = 0.2
#: ... and at most this many cards are read.
CORNER_READS = 160
#: Corners are also sought where the photo's contrast is evened out locally (CLAHE in
#: 8x8 tiles at this clip limit, ``_photo_corners``).  Dev samples, read right, with
#: ``_cards_at_corners`` alone using them: fmjio 90.4 % without, 91.7 % at 2.0, 90.7 %
#: at 3.0, 91.5 % at 4.0; edje 95.5 % without and at 2.0, 96.1 % at 3.0 and 4.0 (at
#: 2.0, with ``_cards_at_index_corners`` using them too: edje 96.1 %, fmjio 91.7 %).
#: Corners sought on the evened copy alone: fmjio 91.7 % but edje 93.9 % (a carpet's
#: weave crowds out ``CORNER_READS``).
CORNER_CONTRAST_CLIP = 2.0
#: Two corners this close (pixels) are taken for the same corner.
SAME_CORNER_PX = 3.0
#: A card read from a corner is named only this surely: one corner is all the evidence,
#: and up to ``CORNER_READS`` quads are read in a look.  (fmjio dev sample: all 67
#: corner reads above it were right; 19 right and 3 wrong below it.)
CORNER_CONFIDENCE = 0.98

#: A card that the photo's edge cuts by more than half is read from its index corner
#: alone (``_lone_corner_cards``), from at most this many corners, at these sizes
#: (times the named cards' size) ...
CUT_CORNERS = 40
CUT_SIZES = (1 / 1.06, 1.0, 1.06)
#: ... and so is a card lying at least this share under a named card (0.5 read one fmjio
#: dev card fewer, 0.35 one fewer; the other dev sets the same), from at most this many
#: corners showing beside the named cards (this share of their width outside each).
UNDER_SHARE = 0.25
UNDER_CORNERS = 40
UNDER_MARGIN = 0.08

#: A photo in which no look names a card is searched for cards from one index corner
#: by itself (``_cards_at_index_corners``): a card on a busy table or under a book whose
#: outline closes nowhere.  Card widths from the first share of the photo's short side
#: to the second are tried ...
INDEX_CORNER_WIDTHS = (0.12, 0.6)
#: ... each this factor wider than the last.
INDEX_CORNER_STEP = 1.06
#: The straight edges are found on a copy of the photo at most this long (pixels) ...
INDEX_CORNER_PX = 640
#: ... and at most this many corner views are read in a look, in batches of this many.
INDEX_CORNER_READS = 2000
INDEX_CORNER_BATCH = 256


class ImageError(TablecamError):
    """An image file is missing, unreadable or damaged."""


@dataclass(frozen=True, eq=False)
class RecognizedCard:
    card: Card | None
    confidence: float
    corners: npt.NDArray[np.float32]  # clockwise from the card's top left, image pixels
    covered: bool


@dataclass(frozen=True, eq=False)
class Recognition:
    width: int
    height: int
    cards: list[RecognizedCard]
    note: str = ""  # why nothing was found, when it is worth saying

    def as_json(self, image_name: str) -> dict[str, object]:
        """The INTERFACE.md form of one image's result."""
        return {
            "image": image_name, "width": self.width, "height": self.height,
            "cards": [{
                "card": None if c.card is None else c.card.code,
                "confidence": round(c.confidence, 3),
                "corners": [[round(float(x)), round(float(y))] for x, y in c.corners],
            } for c in self.cards],
        }


def load_image(path: Path) -> npt.NDArray[np.uint8]:
    """Read an image file as BGR; ImageError with a clear reason when it cannot be used."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ImageError(f"{path} does not exist") from None
    except IsADirectoryError:
        raise ImageError(f"{path} is a folder, not an image") from None
    except OSError as exc:
        raise ImageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) == 0:
        raise ImageError(f"{path} is empty")
    if data[:2] == b"\xff\xd8" and b"\xff\xd9" not in data[-64:]:
        raise ImageError(f"{path} is a truncated JPEG (its end is missing); copy it again")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ImageError(f"{path} is not an image OpenCV can read (JPEG, PNG, BMP, TIFF, WebP)")
    return np.asarray(image, dtype=np.uint8)


def _quality_note(image: npt.NDArray[np.uint8]) -> str:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scale = 640 / max(grey.shape)
    if scale < 1:
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    if float((grey >= 250).mean()) > 0.6:
        return "the photo looks overexposed"
    if float(cv2.Laplacian(grey, cv2.CV_64F).var()) < 15:
        return "the photo looks blurred"
    return ""


def recognize(image: npt.NDArray[np.uint8], reader: CardReader) -> Recognition:
    """Every face-up card in a BGR image; a square one is also looked at stretched
    (``SQUARE_LOOKS``); where no look names a card, cards are read from lone index
    corners (``_cards_at_index_corners``)."""
    height, width = image.shape[:2]
    if abs(width - height) > SQUARE_TOLERANCE * max(width, height):
        cards = _read_look(image, reader)
    else:
        cards = _merge_looks([_stretched_look(image, sx, sy, reader) for sx, sy in SQUARE_LOOKS])
    # a photo in which no look names a card: a lone card on a busy table, one under a book
    cards = _cards_at_index_corners(image, cards, reader)
    note = "" if cards else _quality_note(image)
    return Recognition(width, height, cards, note)


def _stretched_look(image: npt.NDArray[np.uint8], sx: float, sy: float,
                    reader: CardReader) -> list[RecognizedCard]:
    """The cards of ``image`` stretched by ``sx`` x ``sy``, in ``image``'s own pixels."""
    if (sx, sy) == (1.0, 1.0):
        return _read_look(image, reader)
    height, width = image.shape[:2]
    stretched = cv2.resize(image, (round(width * sx), round(height * sy)),
                           interpolation=cv2.INTER_LINEAR)
    back = np.array([sx, sy], np.float32)
    return [RecognizedCard(c.card, c.confidence, (c.corners / back).astype(np.float32), c.covered)
            for c in _read_look(np.asarray(stretched, np.uint8), reader)]


def _merge_looks(looks: list[list[RecognizedCard]]) -> list[RecognizedCard]:
    """One list of cards from several looks at a photo: the look that names the most
    different cards (a deck holds each once, so a name given twice is a misread; then
    the look finding the most faces) whole, its cards read from a corner in the outline
    another look found them by (``_whole_instead``), then the others' cards
    (``_add_cards``)."""
    ranked = sorted(looks, key=lambda cards: (len({c.card for c in cards} - {None}), len(cards)),
                    reverse=True)
    whole = [c for look in ranked[1:] for c in look if c.card is not None and not c.covered]
    return _add_cards([_whole_instead(c, whole) for c in ranked[0]],
                      [c for look in ranked[1:] for c in look])


def _whole_instead(card: RecognizedCard, whole: list[RecognizedCard]) -> RecognizedCard:
    """``card``, or where it was read from a visible corner (``covered``: its outline a
    guess of the card's size laid from that corner), the same card that another look
    found whole by its outline and named, overlapping it (IoU ``MERGE_IOU``).  A guessed
    outline can lie the wrong way from the corner (fmjio dev: 3C under 2C, outlined
    across the table beside it, IoU 0.47 with its label; found whole when the photo
    was stretched to 3:4)."""
    if not card.covered:
        return card
    same = [c for c in whole if c.card == card.card and _iou(c.corners, card.corners) >= MERGE_IOU]
    return max(same, key=lambda c: c.confidence, default=card)


def _add_cards(kept: list[RecognizedCard], more: list[RecognizedCard]) -> list[RecognizedCard]:
    """``kept`` with each card of ``more`` in turn whose name is not taken yet: where it
    overlaps no kept card (box IoU ``MERGE_IOU``) it is added, and where it is named and
    overlaps only unread ones it takes their place."""
    kept = list(kept)
    for card in more:
        if card.card is not None and any(k.card == card.card for k in kept):
            continue
        box = bounding_box(card.corners)
        under = [k for k in kept if box_iou(box, bounding_box(k.corners)) >= MERGE_IOU]
        if not under:
            kept.append(card)
        elif card.card is not None and all(k.card is None for k in under):
            kept = [k for k in kept if not any(k is u for u in under)] + [card]
    return kept


def _cards_at_corners(image: npt.NDArray[np.uint8], cards: list[RecognizedCard],
                      reader: CardReader) -> list[RecognizedCard]:
    """Cards lying partly under others, or cut by the photo's edge, read from a visible
    corner.

    The finder wants a card's outline on edges all round; a card under others shows
    a corner and parts of two sides, and no more.  Every corner of an outline found
    but not read, and every corner where two straight edges meet at a right angle
    (``right_angle_corners``), with the size of the photo's named cards, gives a card
    lying either way from it, whose centre must be in the photo; those the reader
    names at ``CORNER_CONFIDENCE`` (and whose name no other card has) are added, best
    first (``_add_cards``).  The reader, calibrated to leave doubtful faces unnamed, is
    the test: a quad across two cards or the table reads as no card or as nothing
    sure.  Where a whole-card view would mostly show something else (the photo's edge,
    or a named card lying over most of it) the card is read from its index corner
    alone (``_lone_corner_cards``)."""
    named = [_sides(c.corners) for c in cards if c.card is not None]
    if not named:
        return cards
    short = float(np.median([a for a, _ in named]))
    long = float(np.median([b for _, b in named]))
    scale = min(1.0, CORNER_CARD_PX / short)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if scale < 1.0:
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    grey = cv2.GaussianBlur(grey, (3, 3), 0)
    arm = CORNER_ARM * short * scale
    height, width = image.shape[:2]
    quads: list[npt.NDArray[np.float32]] = []
    centres: list[npt.NDArray[np.float32]] = []
    # cards the photo's edge cuts by more than half, from their index corner:
    # (corner, along the card's top, down its left side)
    cut: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32]]] = []
    boxes = [bounding_box(c.corners) for c in cards if c.card is not None]
    # the corners of outlines found but not read first (a card's outline shifted onto
    # a neighbour or a shadow keeps one true corner), then every corner of straight edges
    anchors = [anchor for c in cards if c.card is None for anchor in _outline_corners(c.corners)]
    anchors += [(corner / scale, (ua, la / scale), (ub, lb / scale))
                for corner, (ua, la), (ub, lb) in _photo_corners(
                    np.asarray(grey, np.uint8), arm, 1.2 * long * scale)]
    outlines = [c.corners for c in cards if c.card is not None]
    # cards mostly under a named one, from an index corner showing beside it
    under: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32]]] = []
    for c, (ua, la), (ub, lb) in anchors:
        clockwise = float(ua[0] * ub[1] - ua[1] * ub[0]) > 0
        (across, top), (down, side) = ((ua, la), (ub, lb)) if clockwise else ((ub, lb), (ua, la))
        # as an index corner: its sides, as far as they show beside the named cards, no
        # longer than the card's (a long side showing down from it is no top; a deck with
        # an index in every corner shows one there)
        if (len(under) < UNDER_CORNERS
                and _under_named(c, _quad_at(c, across, short, down, long), outlines, short)
                and _shown_arm(c, across, top, outlines) <= 1.15 * short
                and _shown_arm(c, down, side, outlines) <= 1.15 * long):
            under.append((c, across, down))
        for da, db in ((short, long), (long, short)):
            if la > 1.15 * da or lb > 1.15 * db:
                continue  # an arm longer than the card's side: another card's, or none
            quad = _quad_at(c, ua, da, ub, db)
            centre = quad.mean(axis=0)
            named_already = any(box_iou(bounding_box(quad), b) >= 0.5 for b in boxes)
            if not (0 <= centre[0] < width and 0 <= centre[1] < height):
                # the card shows less than half: read from this corner alone, if it is
                # an index corner (the card lying clockwise of it, its top this wide)
                if (da == short) == clockwise and len(cut) < CUT_CORNERS and not named_already:
                    cut.append((c, across, down))
                continue
            if any(float(np.hypot(*(centre - o))) < 0.1 * short for o in centres):
                continue  # the same card from a neighbouring corner
            if named_already:
                continue  # a card named already
            quads.append(order_corners(quad))
            centres.append(centre)
            if len(quads) >= CORNER_READS:
                break
        if len(quads) >= CORNER_READS:
            break
    if not quads and not cut and not under:
        return cards
    reads = reader.read([warp_card(image, q) for q in quads])
    more = sorted((RecognizedCard(r.card, float(r.confidence), q, True)
                   for q, r in zip(quads, reads, strict=True)
                   if r.kind == "face" and r.card is not None
                   and r.confidence >= CORNER_CONFIDENCE),
                  key=lambda c: c.confidence, reverse=True)
    lone = _lone_corner_cards(image, cut + under, (short, long), reader)
    cards = _add_cards(cards, more + [card for k, card in lone if k < len(cut)])
    return _add_under(cards, [card for k, card in lone if k >= len(cut)])


def _photo_corners(grey: npt.NDArray[np.uint8], arm: float,
                   longest: float = float("inf")) -> list[Corner]:
    """Where straight edges of ``grey`` from ``arm`` to ``longest`` pixels long meet at
    a right angle (``right_angle_corners``), then where they do once the photo's
    contrast is evened out locally (``CORNER_CONTRAST_CLIP``) and no corner lies within
    ``SAME_CORNER_PX`` already.  In bright light a white card on white paper shows two
    of its sides as a faint shadow and the other two not at all; evened out, that
    shadow is an edge.  The photo's own corners come first: evened out, a carpet's weave
    or a cloth's print gives many more, and only so many corners are read."""
    plain = right_angle_corners(_segments(grey, arm, longest), arm)
    evened = np.asarray(cv2.createCLAHE(CORNER_CONTRAST_CLIP, (8, 8)).apply(grey), np.uint8)
    points = np.array([corner for corner, _, _ in plain], np.float32).reshape(-1, 2)
    return plain + [c for c in right_angle_corners(_segments(evened, arm, longest), arm)
                    if not len(points)
                    or float(np.hypot(*(points - c[0]).T).min()) > SAME_CORNER_PX]


def _under_named(corner: npt.NDArray[np.float32], quad: npt.NDArray[np.float32],
                 outlines: list[npt.NDArray[np.float32]], short: float) -> bool:
    """Whether ``quad``, a card of the named cards' size with its index corner at
    ``corner``, lies at least ``UNDER_SHARE`` under one of the named cards' ``outlines``
    while that corner shows beside them all (``UNDER_MARGIN`` of ``short`` outside each:
    not a named card's own corner, nor a corner of its picture frame)."""
    point = (float(corner[0]), float(corner[1]))
    if any(cv2.pointPolygonTest(o.reshape(-1, 1, 2), point, True) > -UNDER_MARGIN * short
           for o in outlines):
        return False
    return any(_inside(quad, o) >= UNDER_SHARE for o in outlines)


def _shown_arm(corner: npt.NDArray[np.float32], direction: npt.NDArray[np.float32],
               length: float, outlines: list[npt.NDArray[np.float32]]) -> float:
    """How far a straight edge of ``length`` from ``corner`` along ``direction`` runs
    before it meets one of ``outlines``: a card under another shows its side up to the
    other's edge, which may carry on along the same line (cards laid square in a row)."""
    for step in np.arange(2.0, length, 2.0):
        point = corner + direction * float(step)
        if any(cv2.pointPolygonTest(o.reshape(-1, 1, 2), (float(point[0]), float(point[1])),
                                    False) >= 0 for o in outlines):
            return float(step)
    return length


def _add_under(kept: list[RecognizedCard], more: list[RecognizedCard]) -> list[RecognizedCard]:
    """``kept`` with each card of ``more`` (cards mostly under named ones, so their
    boxes overlap those cards') whose name is not taken yet, in place of the unread
    outlines its box overlaps (``MERGE_IOU``)."""
    kept = list(kept)
    for card in more:
        if any(k.card == card.card for k in kept):
            continue
        box = bounding_box(card.corners)
        kept = [k for k in kept
                if k.card is not None or box_iou(box, bounding_box(k.corners)) < MERGE_IOU]
        kept.append(card)
    return kept


def _lone_corner_cards(image: npt.NDArray[np.uint8],
                       corners: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                                           npt.NDArray[np.float32]]],
                       size: tuple[float, float], reader: CardReader,
                       ) -> list[tuple[int, RecognizedCard]]:
    """Cards read from an index corner by itself (``lone_corners``), where a whole-card
    view would mostly show something else: a card the photo's edge cuts by more than
    half (the view is the edge smeared out), or one mostly under a named card (the view
    is that card's face, whose index the reader pools with this one's).  Each of
    ``corners`` (the corner, the direction of the card's top side, of its left side) is
    read at the named cards' ``size`` (short, long) and at the other sizes of
    ``CUT_SIZES``; a card is named where the reader names it at ``CORNER_CONFIDENCE`` at
    the named size and at one of the others too (an index read a size off can pass for
    another, as in ``_cards_at_index_corners``).  Returns (index into ``corners``, card),
    surest first."""
    if not corners:
        return []
    short, long = size
    tried = [(k, n, _quad_at(corner, across, short * f, down, long * f))
             for k, (corner, across, down) in enumerate(corners)
             for n, f in enumerate(CUT_SIZES)]
    reads = reader.read([lone_corners(warp_card(image, q))[0] for _, _, q in tried])
    sure: dict[tuple[int, int], tuple[Card, float, npt.NDArray[np.float32]]] = {
        (k, n): (read.card, float(read.confidence), quad)
        for (k, n, quad), read in zip(tried, reads, strict=True)
        if read.kind == "face" and read.card is not None and read.confidence >= CORNER_CONFIDENCE}
    middle = CUT_SIZES.index(1.0)
    found = []
    for (k, n), (card, confidence, quad) in sure.items():
        others = [sure[k, m][0] for m in range(len(CUT_SIZES)) if m != n and (k, m) in sure]
        if n == middle and card in others:
            found.append((k, RecognizedCard(card, confidence, order_corners(quad), True)))
    return sorted(found, key=lambda f: f[1].confidence, reverse=True)


def _cards_at_index_corners(image: npt.NDArray[np.uint8], cards: list[RecognizedCard],
                            reader: CardReader) -> list[RecognizedCard]:
    """Cards read from one index corner by itself, at the widths a card may have.

    ``_cards_at_corners`` needs a named card's size and reads a whole card's outline
    from a corner, so the corner opposite must show the card too; a lone card on a
    busy table (fur, stone, a book's print) whose outline never closes, or one under a
    book with only its top corner out, gives neither.  In a photo where nothing is
    named, every corner of an unread outline and of straight edges meeting at a right
    angle (``right_angle_corners``) is taken as a card's top-left index corner, the card
    lying clockwise of it as its two arms turn (a card's other two corners carry no
    index), at the widths of ``INDEX_CORNER_WIDTHS``; the reader sees that corner alone
    (``lone_corners``).  Where cards are named this is not done: there the whole-card
    corner reads have their size, and lone corners read at it named cards that were
    not there (a deck with an index in all four corners, read sideways at its top-right
    one: fmjio dev photos, 6 invented cards and 11 misplaced for 2 more read right).

    A card is named from a corner when the reader names it there at
    ``CORNER_CONFIDENCE`` and at a neighbouring width too: an index read a size off
    can pass for another (an 8 for a 6), but seldom at two sizes.  Its outline is of
    the width its edges show (``_index_card_width``).  Such cards whose name no other
    card has are added, surest first (``_add_cards``).
    """
    if any(c.card is not None for c in cards):
        return cards
    height, width = image.shape[:2]
    aspect = CARD_H / CARD_W
    low, high = (share * min(height, width) for share in INDEX_CORNER_WIDTHS)
    count = int(np.floor(np.log(high / low) / np.log(INDEX_CORNER_STEP))) + 1
    widths = [low * INDEX_CORNER_STEP ** k for k in range(count)]
    scale = min(1.0, INDEX_CORNER_PX / max(height, width))
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if scale < 1.0:
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    grey = cv2.GaussianBlur(grey, (3, 3), 0)
    arm = CORNER_ARM * widths[0] * scale
    # the corners of outlines found but not read (a card's outline taken a little off
    # keeps one true corner), then every corner of straight edges
    anchors = [anchor for c in cards for anchor in _outline_corners(c.corners)]
    anchors += [(corner / scale, (ua, la / scale), (ub, lb / scale))
                for corner, (ua, la), (ub, lb) in _photo_corners(np.asarray(grey, np.uint8), arm)]
    # each corner's arms as a top-left corner's: (along the top, its length), (down the
    # left side, its length); and its outlines at each width: (corner, width index, outline)
    axes: list[tuple[tuple[npt.NDArray[np.float32], float], tuple[npt.NDArray[np.float32], float]]] = []
    tried: list[tuple[int, int, npt.NDArray[np.float32]]] = []
    for k, (corner, (ua, la), (ub, lb)) in enumerate(anchors):
        # the arm along the card's top runs so that the other runs down the card
        # (clockwise in the image): then the corner is a top-left one
        clockwise = float(ua[0] * ub[1] - ua[1] * ub[0]) > 0
        axes.append(((ua, la), (ub, lb)) if clockwise else ((ub, lb), (ua, la)))
        if len(tried) >= INDEX_CORNER_READS:
            continue
        (across, la), (down, lb) = axes[k]
        for n, w in enumerate(widths):
            if la > 1.15 * w or lb > 1.15 * aspect * w:
                continue  # an arm longer than the card's side: not this card's size
            quad = _quad_at(corner, across, w, down, aspect * w)
            centre = quad.mean(axis=0)
            if 0 <= centre[0] < width and 0 <= centre[1] < height:
                tried.append((k, n, quad))
    tried = tried[:INDEX_CORNER_READS]
    reads = [read for start in range(0, len(tried), INDEX_CORNER_BATCH)
             for read in reader.read([lone_corners(warp_card(image, quad))[0]
                                      for _, _, quad in tried[start:start + INDEX_CORNER_BATCH]])]
    # what the reader likes best at each corner and width
    liked: dict[tuple[int, int], Card | None] = {}
    for (k, n, _), read in zip(tried, reads, strict=True):
        candidates = getattr(read, "candidates", ())
        liked[k, n] = (None if read.kind != "face"
                       else read.card if read.card is not None
                       else candidates[0][0] if candidates else None)
    sure = {(k, n): read.card for (k, n, _), read in zip(tried, reads, strict=True)
            if read.kind == "face" and read.card is not None
            and read.confidence >= CORNER_CONFIDENCE}
    # each corner's surest width for each card it names
    best: dict[tuple[int, Card], tuple[float, int, npt.NDArray[np.float32]]] = {}
    for (k, n, quad), read in zip(tried, reads, strict=True):
        card = sure.get((k, n))
        if card is None or card not in (sure.get((k, n - 1)), sure.get((k, n + 1))):
            continue  # not named surely at this width and a neighbouring one
        if (k, card) not in best or read.confidence > best[k, card][0]:
            best[k, card] = (float(read.confidence), n, quad)
    if not best:
        return cards
    edges = np.asarray(cv2.dilate(cv2.Canny(grey, 20, 60), np.ones((3, 3), np.uint8)), np.uint8)
    more: list[tuple[float, float, RecognizedCard]] = []
    for (k, card), (confidence, n, quad) in best.items():
        run = [n]
        while liked.get((k, run[0] - 1)) == card:
            run.insert(0, run[0] - 1)
        while liked.get((k, run[-1] + 1)) == card:
            run.append(run[-1] + 1)
        (across, top_arm), (down, left_arm) = axes[k]
        w = _index_card_width(edges, scale, quad[0], (across, top_arm), (down, left_arm), aspect,
                              (widths[run[0]], widths[run[-1]]))
        outline = _quad_at(quad[0], across, w, down, aspect * w)
        # of two corners naming a card about as surely, the one more of whose sides
        # shows gives its outline
        shown = top_arm + left_arm
        more.append((round(confidence, 2), shown,
                     RecognizedCard(card, confidence, order_corners(outline), True)))
    more.sort(key=lambda m: (m[0], m[1]), reverse=True)
    return _add_cards(cards, [m[2] for m in more])


#: A card read from its index corner is as wide as the widths that named it, give or
#: take this share: where its right side (or else its bottom) shows as an edge in that
#: range, the width is taken from it.
INDEX_WIDTH_SLACK = 0.15


def _index_card_width(edges: npt.NDArray[np.uint8], scale: float,
                      corner: npt.NDArray[np.float32],
                      top: tuple[npt.NDArray[np.float32], float],
                      left: tuple[npt.NDArray[np.float32], float],
                      aspect: float, named: tuple[float, float]) -> float:
    """The width of a card named from its index corner ``corner`` (``top`` and ``left``:
    the direction and visible length of its top side and of its left side, in image
    pixels) at widths ``named`` (the narrowest and widest):
    where its right side shows as an edge (``edges``, of the photo at ``scale``) along the
    visible part of its left side, the nearest such edge to the middle of ``named``
    within ``INDEX_WIDTH_SLACK`` of it, or else its bottom edge by the card's shape;
    otherwise the middle (the reader names an index over a range of sizes)."""
    (across, top_arm), (down, left_arm) = top, left
    # no narrower than its visible sides allow
    low = max(named[0] * (1 - INDEX_WIDTH_SLACK), top_arm / 1.15, left_arm / (1.15 * aspect))
    high = max(named[1] * (1 + INDEX_WIDTH_SLACK), low)
    middle = min(max(float(np.sqrt(named[0] * named[1])), low), high)
    corner = corner * scale
    # the right side along the visible part of the left one, or the bottom along the top
    for along, other, arm, stretch in ((across, down, left_arm, 1.0),
                                       (down, across, top_arm, aspect)):
        sides = [d / scale / stretch for d in _far_side(
            corner, along, low * stretch * scale / 0.9, other, arm * scale, edges,
            high * stretch * scale / 2, count=None)]
        sides = [d for d in sides if low <= d <= high]
        if sides:
            return min(sides, key=lambda d: abs(d - middle))
    return middle


def _quad_at(corner: npt.NDArray[np.float32], u: npt.NDArray[np.float32], a: float,
             v: npt.NDArray[np.float32], b: float) -> npt.NDArray[np.float32]:
    """The quad with a corner at ``corner`` and sides ``a`` along ``u`` and ``b`` along
    ``v``, in that order round it."""
    return np.array([corner, corner + u * a, corner + u * a + v * b, corner + v * b], np.float32)


def _read_look(image: npt.NDArray[np.uint8], reader: CardReader) -> list[RecognizedCard]:
    """The face-up cards of one look at a photo: found, read, stacks searched for their
    top card, unread faces looked at again."""
    found = find_cards_thorough(image)
    seen = read_cards(image, found, reader)
    cards = _own_corners_name(image, [RecognizedCard(s.card, s.confidence, s.corners, s.covered)
                                      for s in seen if s.face_up], reader)
    # outlines read as a back or as no card may be stacks too: a face on face-down cards
    faces = {id(c.corners) for c in cards}
    others = [f.corners for f in found if id(f.corners) not in faces]
    cards = _close_ups(image, cards, reader)
    cards = _second_look(image, _top_cards(image, cards, others, reader), reader)
    cards = _own_corner_alone(image, cards, reader)
    return _tops_by_corners(image, _cards_at_corners(image, cards, reader), reader)


def _own_corners_name(image: npt.NDArray[np.uint8], cards: list[RecognizedCard],
                      reader: CardReader) -> list[RecognizedCard]:
    """``cards`` with the name of each outline off the photo's card shape (by more than
    ``SHAPE_TOLERANCE``) kept only where an index corner of it, read by itself
    (``lone_corners``), gives that name too; the others left unread.  The reader pools
    what its two index corners show, so an outline taken round two cards side by side
    names a card that lies on neither: 9S beside QC, outlined as one (long over short
    1.15), read QS at 0.987 from the 9's corner and the queen's.  Unread, such an
    outline is searched for the cards in it by the later stages (stacks, second looks,
    corners).  Card-shaped outlines are left alone: on the dev stills a corner by
    itself did not name 3 small cards that both corners named right."""
    if all(c.card is None for c in cards):
        return cards
    aspect = photo_aspect([_sides(c.corners) for c in cards if c.card is not None])
    named = [c for c in cards
             if c.card is not None and not _card_shaped(*_sides(c.corners), aspect)]
    if not named:
        return cards
    pairs = _corner_reads(image, [c.corners for c in named], reader)
    doubted = {id(c) for c, pair in zip(named, pairs, strict=True)
               if not any(r.kind == "face" and r.card == c.card for r in pair)}
    return [RecognizedCard(None, c.confidence, c.corners, c.covered) if id(c) in doubted else c
            for c in cards]


def _card_shaped(short: float, long: float, aspect: float) -> bool:
    """Whether an outline with sides ``short`` and ``long`` has the photo's card shape
    (long over short ``aspect``) within ``SHAPE_TOLERANCE``."""
    return 1 / SHAPE_TOLERANCE <= (long / max(short, 1e-6)) / aspect <= SHAPE_TOLERANCE


def _corner_reads(image: npt.NDArray[np.uint8], outlines: list[npt.NDArray[np.float32]],
                  reader: CardReader) -> list[tuple[_Read, _Read]]:
    """Each outline's two index corners, each read by itself (``lone_corners``), in one
    batch."""
    reads = reader.read([view for o in outlines for view in lone_corners(warp_card(image, o))])
    return [(reads[2 * k], reads[2 * k + 1]) for k in range(len(outlines))]


def _close_ups(image: npt.NDArray[np.uint8], cards: list[RecognizedCard],
               reader: CardReader) -> list[RecognizedCard]:
    """Cards too large for the finder's usual search: a photo of one card or two from
    close by (``CLOSE_UP_FROM``).  One the reader names is added where no card lies,
    in place of unread outlines, or in place of the same card's outline lying inside it
    (a court card's picture frame, found instead of the card)."""
    short = min(image.shape[:2])
    found = find_cards(image, min_width=CLOSE_UP_FROM * short, max_width=short, piles=False)
    if not found:
        return cards
    seen = read_cards(image, found, reader)
    more = sorted((RecognizedCard(s.card, s.confidence, s.corners, s.covered)
                   for s in seen if s.face_up and s.card is not None),
                  key=lambda c: c.confidence, reverse=True)
    for big in more:
        inner = [c for c in cards if c.card == big.card and _inside(c.corners, big.corners) >= 0.9]
        cards = _add_cards([c for c in cards if not any(c is i for i in inner)], [big])
    return cards


def _second_look(image: npt.NDArray[np.uint8], cards: list[RecognizedCard],
                 reader: CardReader) -> list[RecognizedCard]:
    """Unread faces read again through grown outlines (``SECOND_LOOK_GROWTH``) and
    outlines brought back to the card's shape (``SHAPE_TOLERANCE``), in one batch.  The
    card is named when the reader names it through one of them and it is named nowhere
    else in the photo (a grown outline can take in a neighbour's index instead); the
    outline reported stays the one found."""
    height, width = image.shape[:2]
    sides = [_sides(c.corners) for c in cards if c.card is not None]
    aspect = photo_aspect(sides) if sides else CARD_H / CARD_W
    owners: list[int] = []
    outlines: list[npt.NDArray[np.float32]] = []
    for i, card in enumerate(cards):
        if card.card is not None:
            continue
        centre = card.corners.mean(axis=0)
        grown = [(centre + (card.corners - centre) * growth).astype(np.float32)
                 for growth in SECOND_LOOK_GROWTH]
        for outline in grown + _reshaped(card.corners, aspect):
            if (outline.min() >= 0 and outline[:, 0].max() < width
                    and outline[:, 1].max() < height):
                owners.append(i)
                outlines.append(outline)
    if not owners:
        return cards
    reads = reader.read([warp_card(image, q) for q in outlines])
    best: dict[int, RecognizedCard] = {}
    for i, read in zip(owners, reads, strict=True):
        if read.kind == "face" and read.card is not None and (
                i not in best or read.confidence > best[i].confidence):
            best[i] = RecognizedCard(read.card, float(read.confidence), cards[i].corners,
                                     cards[i].covered)
    named = [c.card for c in cards if c.card is not None] + [c.card for c in best.values()]
    return [best[i] if i in best and named.count(best[i].card) == 1 else c
            for i, c in enumerate(cards)]


def _own_corner_alone(image: npt.NDArray[np.uint8], cards: list[RecognizedCard],
                      reader: CardReader) -> list[RecognizedCard]:
    """Faces still unread, read from each of their two index corners by itself
    (``lone_corners``).  An outline a little off its card (a side on a neighbour's edge)
    can keep one index corner on the card while the other lands on the table or on
    another card, and the reader, pooling the two, is unsure.  A face is named where one
    corner by itself names it at ``CORNER_CONFIDENCE``, the other names no other card,
    and no other card of the photo has the name; the outline reported stays the one
    found."""
    unread = [i for i, c in enumerate(cards) if c.card is None]
    if not unread:
        return cards
    pairs = _corner_reads(image, [cards[i].corners for i in unread], reader)
    named = [c.card for c in cards if c.card is not None]
    out = list(cards)
    for i, pair in zip(unread, pairs, strict=True):
        sure = {r.card for r in pair if r.kind == "face" and r.card is not None
                and r.confidence >= CORNER_CONFIDENCE}
        other = {r.card for r in pair if r.kind == "face" and r.card is not None}
        if len(sure) == 1 and other == sure:
            card = sure.pop()
            if card not in named:
                named.append(card)
                out[i] = RecognizedCard(card, max(float(r.confidence) for r in pair),
                                        cards[i].corners, cards[i].covered)
    return out


#: Where a card's index lies from its corner: these shares of its short side and of
#: its long side in from the corner.
INDEX_AT = (0.12, 0.09)


def _tops_by_corners(image: npt.NDArray[np.uint8], cards: list[RecognizedCard],
                     reader: CardReader) -> list[RecognizedCard]:
    """Which of two overlapping named cards lies on top, told by their index corners
    where the finder's edges told it wrong.  The finder takes the card whose sides show
    inside the other as the top one; a white card's side over another white card can
    leave no edge at all (edje IMG_2670: AS over AH, a step of 3 grey levels).  Where
    a card marked as under another has an index corner inside it that, read by itself
    (``lone_corners``), names the card, and no index corner of the other inside the
    card names the other, the card is on top.  Only pairs: a card under several others
    keeps its mark."""
    named = [c for c in cards if c.card is not None]
    swaps: list[tuple[RecognizedCard, RecognizedCard]] = []
    for under in named:
        if not under.covered:
            continue
        over = [c for c in named if c is not under
                and _polygon_overlap(c.corners, under.corners) > 0]
        if len(over) != 1 or over[0].covered:
            continue
        swaps.append((under, over[0]))
    if not swaps:
        return cards
    outlines = [c.corners for pair in swaps for c in pair]
    reads = _corner_reads(image, outlines, reader)
    turned: dict[int, RecognizedCard] = {}
    for k, (under, top) in enumerate(swaps):
        if (_corner_names_it(under, top, reads[2 * k])
                and not _corner_names_it(top, under, reads[2 * k + 1])):
            turned[id(under)] = RecognizedCard(under.card, under.confidence, under.corners, False)
            turned[id(top)] = RecognizedCard(top.card, top.confidence, top.corners, True)
    return [turned.get(id(c), c) for c in cards]


def _corner_names_it(card: RecognizedCard, other: RecognizedCard,
                     reads: tuple[_Read, _Read]) -> bool:
    """Whether an index of ``card`` inside ``other``'s outline (``INDEX_AT``), read by
    itself (``reads``: its top-left and bottom-right corners), names ``card``."""
    c = card.corners
    contour = other.corners.reshape(-1, 1, 2)
    for k, read in zip((0, 2), reads, strict=True):
        index = c[k] + INDEX_AT[0] * (c[k + 1] - c[k]) + INDEX_AT[1] * (c[k - 1] - c[k])
        if (read.kind == "face" and read.card == card.card
                and cv2.pointPolygonTest(contour, (float(index[0]), float(index[1])), False) > 0):
            return True
    return False


def _outline_corners(corners: npt.NDArray[np.float32]) -> list[Corner]:
    """Each corner of an outline, with its two sides as arms."""
    out: list[Corner] = []
    for i in range(4):
        corner = corners[i]
        arms = []
        for j in ((i + 1) % 4, (i + 3) % 4):
            side = corners[j] - corner
            length = float(np.hypot(*side))
            arms.append((side / max(length, 1e-6), length))
        out.append((corner, arms[0], arms[1]))
    return out


def _inside(quad: npt.NDArray[np.float32], outline: npt.NDArray[np.float32]) -> float:
    """The share of ``quad``'s area that lies inside ``outline``."""
    area = float(cv2.contourArea(quad))
    return _polygon_overlap(quad, outline) / area if area > 0 else 0.0


def _top_cards(image: npt.NDArray[np.uint8], cards: list[RecognizedCard],
               others: list[npt.NDArray[np.float32]], reader: CardReader) -> list[RecognizedCard]:
    """Outlines that look like stacks (``STACK_AREA``) give way to the top card found
    inside them (``find_pile_tops``, at the size of the photo's named cards), when the
    reader names that card and the outline named no other one, nor the same one surer
    (a top cut a little short, at a court card's picture frame or on the card below,
    reads a little less sure: dev stills, a queen named 1.00 through her stack's outline
    and 0.998 through one ending at her picture frame).  ``others`` are outlines
    the reader took for a back or for no card: a face found on top of one is added."""
    named = [_sides(c.corners) for c in cards if c.card is not None]
    if not named:
        return cards
    cards = cards + [RecognizedCard(None, 0.0, corners, False) for corners in others]
    faces = len(cards) - len(others)
    width = float(np.median([short for short, _ in named]))
    aspect = photo_aspect(named)
    lone = width * width * aspect
    # the photo's own cards' shape as well, where it lies beyond a poker card's (a
    # bridge deck's card is longer than TOP_ASPECTS reach)
    tops_aspects = (TOP_ASPECTS if TOP_ASPECTS[0] <= aspect <= TOP_ASPECTS[-1]
                    else tuple(sorted({*TOP_ASPECTS, round(aspect, 2)})))
    height_px, width_px = image.shape[:2]
    owners: list[int] = []
    tops: list[npt.NDArray[np.float32]] = []
    for i, card in enumerate(cards):
        short, long = _sides(card.corners)
        area = float(cv2.contourArea(card.corners))
        if area <= STACK_AREA * lone and _card_shaped(short, long, aspect):
            continue
        if short < 0.8 * width or len(set(owners)) >= STACK_SEARCHES:
            continue
        margin = 0.15 * width
        x0, y0 = np.maximum(card.corners.min(axis=0) - margin, 0).astype(int)
        x1 = int(min(card.corners[:, 0].max() + margin, width_px))
        y1 = int(min(card.corners[:, 1].max() + margin, height_px))
        offset = np.array([x0, y0], np.float32)
        centre = card.corners.mean(axis=0)
        grown = (centre + (card.corners - centre) * 1.1).astype(np.float32)
        for top in find_pile_tops(np.ascontiguousarray(image[y0:y1, x0:x1]), width,
                                  aspects=tops_aspects)[:2]:
            quad = (top.corners + offset).astype(np.float32)
            if _inside(quad, grown) >= 0.9:
                owners.append(i)
                tops.append(quad)
    if not owners:
        return cards[:faces]
    reads = reader.read([warp_card(image, q) for q in tops])
    best: dict[int, RecognizedCard] = {}
    for i, quad, read in zip(owners, tops, reads, strict=True):
        if read.kind != "face" or read.card is None:
            continue
        if cards[i].card is not None and (read.card != cards[i].card
                                          or read.confidence < cards[i].confidence):
            continue  # the stack's own outline named another card, or this one surer
        if i not in best or read.confidence > best[i].confidence:
            best[i] = RecognizedCard(read.card, float(read.confidence), quad, cards[i].covered)
    taken: list[Card | None] = [c.card for i, c in enumerate(cards)
                                if c.card is not None and i not in best]
    out = [best[i] if i in best and best[i].card not in taken else c
           for i, c in enumerate(cards[:faces])]
    for i in range(faces, len(cards)):
        added = best.get(i)
        if added is None or added.card in taken or any(
                _inside(added.corners, c.corners) > 0.5 for c in out):
            continue
        out.append(added)
        taken.append(added.card)
    return out


def _reshaped(corners: npt.NDArray[np.float32], aspect: float = CARD_H / CARD_W,
              ) -> list[npt.NDArray[np.float32]]:
    """Outlines of a card's shape made from ``corners`` (clockwise from the top left,
    top a short side) by moving one side along the other two, when the outline is off
    the card's shape by more than ``SHAPE_TOLERANCE``; none otherwise."""
    c = corners.astype(np.float64)
    width = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
    height = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
    if width < 1 or height < 1:
        return []
    ratio = (height / width) / aspect
    if 1 / SHAPE_TOLERANCE <= ratio <= SHAPE_TOLERANCE:
        return []
    tall = 1 / ratio  # the height a card this wide has, as a share of the outline's
    down = [c[0], c[1], c[1] + (c[2] - c[1]) * tall, c[0] + (c[3] - c[0]) * tall]
    up = [c[3] + (c[0] - c[3]) * tall, c[2] + (c[1] - c[2]) * tall, c[2], c[3]]
    shapes = [down, up]
    if ratio < 1:  # too short, or too wide: also bring the sides in
        wide = ratio  # the width a card this tall has, as a share of the outline's
        shapes.append([c[0], c[0] + (c[1] - c[0]) * wide, c[3] + (c[2] - c[3]) * wide, c[3]])
        shapes.append([c[1] + (c[0] - c[1]) * wide, c[1], c[2], c[2] + (c[3] - c[2]) * wide])
    return [np.array(s, dtype=np.float32) for s in shapes]


def describe(image_name: str, result: Recognition) -> str:
    """Human-readable lines for one image."""
    lines = [f"{image_name} ({result.width}x{result.height}): "
             f"{len(result.cards)} face-up card{'s' if len(result.cards) != 1 else ''}"
             + (f" ({result.note})" if result.note else "")]
    for c in result.cards:
        x, y = c.corners.mean(axis=0)
        name = c.card.code if c.card is not None else "unreadable"
        extra = ", partly covered" if c.covered else ""
        lines.append(f"  {name:<10} confidence {c.confidence:.2f} at ({x:.0f}, {y:.0f}){extra}")
    return "\n".join(lines)
