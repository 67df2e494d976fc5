"""The per-frame reader of a Spit table: what lies in each zone, frame by frame.

``TableReader.read(frame)`` returns a ``TableReading``: for each zone of the table
geometry (``tablecam.geometry.ZONE_IDS``) a ``ZoneObservation`` with a state

- ``empty``: the table shows through;
- ``face_up``: a card face (``card`` is None when it could not be read confidently);
- ``face_down``: a card back;
- ``covered``: something that is not a card (a hand) is over the zone, or the zone is
  still moving.  The card underneath is unknown, never "changed".

Only what changed is read again: each zone keeps a small grey thumbnail from the
previous frame and from the frame it was last read in.  A zone that moves from one
frame to the next is ``covered``; once it is still again and differs from its last
reading, the finder and the classifier run on that zone alone.

Geometry comes from the constructor, or from the printed ArUco mat when its markers
are in view, or else from the first frames that show the dealt layout; it is found
again after ``relocate()`` (call it when a new round is being dealt).  Until it is
known, ``zones`` is empty and ``cards`` lists every card found in the frame.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.capture import Frame
from tablecam.cards import Card, Rank
from tablecam.geometry import (
    CARD_MM,
    COLUMN_IDS,
    DealtCard,
    GeometryError,
    LayoutMisfitError,
    TableGeometry,
    ZoneId,
    geometry_from_deal,
    project,
)
from tablecam.geometry.mat import MatDetection, find_mat
from tablecam.reading.finder import (
    FoundCard,
    _segments,
    changed_since,
    find_cards,
    find_cards_looking,
    find_cards_on_plate,
    find_cards_quick,
    find_pile_tops,
    right_angle_corners,
)
from tablecam.reading.warp import lone_corners, order_corners, warp_card

ZoneState = Literal["empty", "face_up", "face_down", "covered"]

#: Share of a zone's thumbnail pixels whose grey level moved by more than
#: ``PIXEL_CHANGE`` that counts as motion since the previous frame ...
MOTION_THRESHOLD: Final = 0.04
#: ... and as a change since the zone was last read (a new card on a pile changes
#: only its pips and indices, so the share, not the mean, is compared).
CHANGE_THRESHOLD: Final = 0.015
PIXEL_CHANGE: Final = 24.0
#: Fraction of a card-less zone unlike the table that makes it ``covered``.
COVER_FRACTION: Final = 0.2
#: An unnamed face whose outline shows this share or more of table-coloured pixels is
#: table (a printed cloth, or the gap a card just left), not a card: a face is paper.
TABLE_SHARE: Final = 0.6
#: Channel difference from the table colour under which a pixel counts as table (and
#: over which as something else, for ``COVER_FRACTION``).
TABLE_DISTANCE: Final = 45.0
#: A face named at this confidence or more gives the cards' paper colour (``_note_paper``).
PAPER_FROM: Final = 0.99
#: Thumbnail pixels across one card width.
THUMB_PER_CARD: Final = 16
#: The centre piles, where cards land offset and turned over each other.
PILE_ZONES: Final = frozenset({"left", "right"})
#: While a new deal is awaited with the old geometry in use, look for it every n frames;
#: once it has been awaited ``RELOCATE_PATIENCE_S`` (the deal is long done, or lies where
#: the finder cannot see it as a deal), every ``RELOCATE_SLOW_EVERY`` frames only.  On a
#: cloth whose pattern the finder outlines no deal may ever be seen, and the zones in use
#: serve the round: dev game 2040 (gingham) searched every fifth frame from one deal to
#: the next, 58 % of its reading time.
RELOCATE_EVERY: Final = 5
RELOCATE_PATIENCE_S: Final = 10.0
RELOCATE_SLOW_EVERY: Final = 30
#: Seconds a dealt layout that does not fit two rows of five columns is refused, while
#: the table has no zones yet, before the best-fitting one is taken anyway: a deck whose
#: backs the reader takes for faces, or a sloppy deal, must not leave the table without
#: zones for the whole round.
MISFIT_PATIENCE_S: Final = 1.0
#: ... unless the frame's own search has found the same misfitting layout (every zone
#: within ``MISFIT_SAME_WIDTHS`` card widths) for this many seconds: it is no hand
#: passing over a card, and no cards being laid.  On a pale cloth the finder can miss a
#: dealt card in every frame (dev game 2040, white cards on gingham: one of A's columns
#: never outlined, the same layout inferred from the other four 0.3 s apart), and the
#: second waited for let the first spit cards and two plays go by unseen.
MISFIT_STEADY_S: Final = 0.3
MISFIT_SAME_WIDTHS: Final = 0.15
#: While the table has no zones, cards found by the thorough searches of this many
#: seconds back stand in for dealt cards the current search misses.
RECENT_CARDS_S: Final = 10.0
#: While the table has had no zones for this long since the thorough search first found
#: cards (a deal is laid in about that time), every other search takes another look: the
#: frame at 2/3 size, or through a median filter (``SMOOTHED_LOOK_PX``), each with
#: outlines built from corners too.  A patterned cloth cuts pale cards' outlines into
#: pieces in the first look (dev game 2044, white cards on violet stripes: five to nine
#: of the twelve found, the deal taken 11 s late); the other looks find others (all
#: twelve at 2/3 size, at 0.3 s a look).
OTHER_LOOKS_AFTER_S: Final = 3.0
OTHER_LOOKS: Final = ("small", "smoothed")
#: When the table search's cards lie as no deal, it searches again for cards from this
#: much narrower to this much wider than the median card it found (``_sized_again``).
SIZED_SEARCH: Final = (0.75, 1.6)
#: Card places on a Spit table: ten columns, two centre piles, two spit piles.
TABLE_PLACES: Final = 14
#: A layout held for not fitting is taken at once when the plate's puts every column
#: within this many card widths of its own (``_same_columns``).
SAME_COLUMN_WIDTHS: Final = 0.3
#: A face outlined against the plate longer than this many times the shortest one is
#: cut to its top card (``_cut_to_top_cards``).
CUT_SLACK: Final = 1.06
#: The empty table's picture (``find_cards_on_plate``) is the frame of the first
#: thorough searches that find no card, before any has found one, when under this share
#: of its pixels change by the next frame (no hand coming in).
PLATE_STILL_SHARE: Final = 0.002
#: Seconds after taking such a layout that a fitting one is still looked for (the hand
#: that hid a dealt card may only have been slow to leave).
MISFIT_LOOK_ON_S: Final = 10.0
#: A still zone last read as covered (something unlike the table there, and no card
#: found) is read again every n frames though its view has not changed: read while a
#: hand was leaving it, a card would otherwise stay covered until something moved there
#: again (dev game 2005: KS in B2 for the last 10 s of a round).
COVERED_REREAD_EVERY: Final = 10
#: A zone read because it changed, and read as a back, covered, or a face the reader
#: was far from naming (under ``CONFIRM_BELOW``), is read once more this many frames
#: later, changed or not: a read made as a hand left (its blur at the crop's edge, a
#: card still settling) can be wrong, and a still zone is otherwise never read again
#: (dev game 2005: KS in B2 read as a back as an arm left, and kept so for 10 s).
CONFIRM_AFTER: Final = 6
CONFIRM_BELOW: Final = 0.5
#: The narrowest outline taken for a card in a column zone (card widths; the geometry's
#: card width is a median over the table, a tilted camera sees cards 10-15 % either way).
COLUMN_MIN_WIDTH: Final = 0.75
#: A column's outline whose centre lies this many card widths from the column's centre
#: is far off the dealt card's place (``_off_centre_again``).
OFF_CENTRE: Final = 0.45
#: An outline whose long sides meet a column zone's at more than 45 degrees lies across
#: the column, not along it as its cards do.
CROSSWISE_COS: Final = 0.7071
#: An outline this many times longer than wide shows which way it lies.
CARD_SHAPED: Final = 1.2
#: The ring around a zone whose median is the table's colour there (card widths), and
#: how far its shade (colour over brightness) may be from the centre's to count.
RING_WIDTH: Final = 0.35
RING_SHADE: Final = 0.02
RING_STEP: Final = 6
#: A patterned cloth (stripes, checks) shows the table in two or three colours, each
#: far from the ring's median: an empty column there was "covered" in every frame (dev
#: game 2378, grey stripes 45 apart under uneven light: B2 half "unlike the table" when
#: bare, the round's end unseen).  The ring's pixels outside every zone (where no card
#: lies) are sorted into ``TONES`` colours; one that takes ``TONE_SHARE`` of them, lies
#: ``TONE_APART`` or more from the median, and is found around ``TONE_ZONES`` zones or
#: more, on both players' sides (a cloth's pattern is everywhere; a hand reaching over
#: the table at the deal is not) is table too (``_table_distances``).  Rings are read every ``TONE_STEP`` pixels.
TONES: Final = 3
TONE_SHARE: Final = 0.2
TONE_APART: Final = 22.0
TONE_ZONES: Final = 4
TONE_STEP: Final = 2
#: ... but not while this share of a zone's pixels is nearer the cards' paper than any
#: of the table's colours (bare stripes: 0.2 % at most in dev game 2378; a court card
#: on a pile in 2296: 6 %).
TONE_PAPER_SHARE: Final = 0.02
#: At a later deal, the spit zones seen on the spit piles at the last one stay (when
#: this deal's cards did not show the piles) while no column has moved further than
#: this share of a card's width.
SPIT_KEEP_SHIFT: Final = 0.3
#: A pile still changing since the last frame is read (``TableReader._glimpse``) when
#: at most this share of the zone lies under something reaching in from outside it
#: (a hand, an arm) ...
GLIMPSE_REACH: Final = 0.02
#: ... and at least this share of it changed since it was last read (else: the same top).
GLIMPSE_CHANGE: Final = 0.01
#: Under the hand that laid it, a pile's new top is named only at this confidence or
#: more, when every outline tried that names a card names the same one
#: (``TableReader._under_hand``).
UNDER_HAND_CONFIDENCE: Final = 0.97
#: Below that, down to this, the one card named there is still told, as a hint on the
#: ``covered`` reading (``under_hand``): the tracker takes it only for a card in a hand
#: that fits the pile.
UNDER_HAND_HINT: Final = 0.8
#: Outlines tried there, at most; the shortest side segment that makes a corner (card
#: widths), and the share of the spot just inside it that must have changed.
UNDER_HAND_LOOKS: Final = 8
UNDER_HAND_ARM: Final = 0.25
UNDER_HAND_CHANGE: Final = 0.25
#: A pixel of a centre pile's crop unchanged for this many frames in a row is taken into
#: the crop's still scene (``_track_scene``): a hand that has gone no longer differs from it.
SCENE_STILL: Final = 10
#: ... judged on the crop shrunk this many times, a pixel's largest channel moving by
#: more than this.
SCENE_SHRINK: Final = 4
SCENE_CHANGE: Final = 30
#: A pile read as its old top: the share of another outline there that must have
#: changed since the pile named that top for it to be read as a new one
#: (``TableReader._new_tops``).
NEW_TOP_CHANGE: Final = 0.2
#: A pile whose last named top shows under this share of its outline changed since is
#: still that card (``_pile_as_named``).
PILE_UNCHANGED: Final = 0.02
#: cards narrower than this (pixels; the wide lens about a metre up shows them 28-40
#: wide at 1280x720) have their column tops shown to the second opinion too: there the
#: corner reader alone names 70 % of face-up cards 30-40 pixels wide, with the second
#: opinion 87 %, none more of them wrong (training-deck stills of the wide lens,
#: ``benchmarks/reader_by_size.py --stills 40 [--first-only]``)
SMALL_CARD_PX: Final = 45.0


class _Read(Protocol):
    @property
    def card(self) -> Card | None: ...
    @property
    def confidence(self) -> float: ...
    @property
    def kind(self) -> str: ...


class CardReader(Protocol):
    """What the table reader needs of the classifier (``CardClassifier`` fits)."""

    def read(self, cards: Sequence[npt.NDArray[np.uint8]]) -> Sequence[_Read]: ...


@dataclass(frozen=True, eq=False)
class ZoneObservation:
    """What one zone shows in one frame; ``corners`` are the top card's outline."""

    state: ZoneState
    card: Card | None
    confidence: float
    corners: npt.NDArray[np.float32] | None = None
    #: the reader's likeliest faces for the top card, best first (may be empty)
    candidates: tuple[tuple[Card, float], ...] = ()
    #: read by its corner under the hand that laid it (``_under_hand``); on a
    #: ``covered`` reading, ``card`` is then only a hint (``UNDER_HAND_HINT``)
    under_hand: bool = False
    #: the reader's likeliest ranks for the top card, given that it is a face
    ranks: tuple[tuple[Rank, float], ...] = ()


@dataclass(frozen=True, eq=False)
class SeenCard:
    """A card found and read in a frame, for overlays: ``zone`` is None off the zones."""

    corners: npt.NDArray[np.float32]
    card: Card | None
    confidence: float
    face_up: bool
    zone: ZoneId | None
    covered: bool = False
    candidates: tuple[tuple[Card, float], ...] = ()
    #: the finder's own colour test: mostly white paper, as a face shows
    papery: bool = True
    ranks: tuple[tuple[Rank, float], ...] = ()


@dataclass(frozen=True, eq=False)
class TableReading:
    """Everything read in one frame at time ``t`` (seconds)."""

    t: float
    zones: Mapping[ZoneId, ZoneObservation]
    cards: list[SeenCard]
    geometry: TableGeometry | None = None
    reread: tuple[ZoneId, ...] = field(default=())  # zones read afresh in this frame


@dataclass
class _ZoneMemory:
    previous: npt.NDArray[np.float32] | None = None  # thumbnail of the last frame
    at_read: npt.NDArray[np.float32] | None = None  # thumbnail when last read
    observation: ZoneObservation | None = None
    cards: list[SeenCard] = field(default_factory=list)
    crop: npt.NDArray[np.uint8] | None = None  # the zone's pixels when last read
    # ... when last read with nothing over it (what a card laid under a hand changed)
    bare: npt.NDArray[np.uint8] | None = None
    confirm_at: int | None = None  # the frame at which a change is read once more
    # the zone's last reading that named its top in plain view (``_still_there``,
    # ``_new_tops``), and for a pile its crop then
    named: ZoneObservation | None = None
    named_crop: npt.NDArray[np.uint8] | None = None
    # a centre pile's crop as it stands still (``_track_scene``), the last frame's crop
    # shrunk, and for each of its pixels the frames in a row it has not changed
    scene: npt.NDArray[np.uint8] | None = None
    last_small: npt.NDArray[np.uint8] | None = None
    still: npt.NDArray[np.uint8] | None = None


def _ring(patch: npt.NDArray[np.uint8], top: int, bottom: int, left: int, right: int,
          ) -> npt.NDArray[np.uint8]:
    """The pixels of ``patch`` (H x W x 3) outside rows ``top:bottom`` and columns
    ``left:right`` (slice bounds), N x 3 in no particular order."""
    height, width = patch.shape[:2]
    top, bottom = min(top, height), min(bottom, height)
    left, right = min(left, width), min(right, width)
    if bottom <= top or right <= left:
        return patch.reshape(-1, 3)
    return np.concatenate([patch[:top].reshape(-1, 3), patch[bottom:].reshape(-1, 3),
                           patch[top:bottom, :left].reshape(-1, 3),
                           patch[top:bottom, right:].reshape(-1, 3)])


def _inner_bounds(origin: tuple[int, int], inner: tuple[int, int, int, int], step: int,
                  ) -> tuple[int, int, int, int]:
    """Rows then columns (slice bounds: top, bottom, left, right) of box ``inner``
    (x0, y0, x1, y1) within a patch taken every ``step`` pixels from ``origin`` (x, y),
    the pixels wholly inside it: a zone's box within its ring's."""
    x0, y0 = origin
    ix0, iy0, ix1, iy1 = inner
    return -(-(iy0 - y0) // step), (iy1 - y0) // step, -(-(ix0 - x0) // step), (ix1 - x0) // step


def _channel_medians(pixels: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """``np.median(pixels, axis=0)`` of N x 3 pixels as float32, the same values in
    half the time (each channel partitioned in a row of its own)."""
    rows = np.ascontiguousarray(pixels.T)
    half = rows.shape[1] // 2
    if rows.shape[1] % 2:
        return np.partition(rows, half, axis=1)[:, half].astype(np.float32)
    parted = np.partition(rows, (half - 1, half), axis=1)
    return ((parted[:, half - 1].astype(np.float64) + parted[:, half]) / 2).astype(np.float32)


def read_cards(image: npt.NDArray[np.uint8], found: Sequence[FoundCard],
               reader: CardReader) -> list[SeenCard]:
    """Classify found cards in one batch; outlines the reader says are no card are dropped."""
    if not found:
        return []
    reads = reader.read([warp_card(image, f.corners) for f in found])
    seen = []
    for f, r in zip(found, reads, strict=True):
        if r.kind == "none":
            continue
        seen.append(SeenCard(f.corners, r.card if r.kind == "face" else None,
                             float(r.confidence), r.kind == "face", None, f.covered,
                             getattr(r, "candidates", ()), f.face_up, _ranks(r)))
    return seen


def first_opinion_only(classifier: CardReader) -> CardReader:
    """``classifier`` without its second opinion (``CardClassifier.second``): the live
    table reads the columns with it, and asks the second opinion about the centre
    piles' tops (and about the columns' too where cards are small: ``SMALL_CARD_PX``).

    A zone's reading stays until the zone changes.  With the second opinion on every
    zone, a card passing in a hand over a column was named (rightly: it was in view)
    and then stood for the column's own card for three seconds; a play went to the
    wrong pile and a round's count was off (dev game 2060: plays right 99.3 % ->
    98.7 %).  A card seen on a pile has landed there, and naming it sooner is what
    reports a play sooner (2060: landing to event p95 0.214 -> 0.183 s)."""
    if getattr(classifier, "second", None) is None:
        return classifier
    alone = copy.copy(classifier)
    alone.second = None  # type: ignore[attr-defined]
    return alone


def with_side_look(classifier: CardReader) -> CardReader:
    """``classifier`` reading with its side look (``CardClassifier.look_aside``), as the
    live table reads: a face sure of its rank but not its suit is read again from its
    other two corners, where some decks print the suit beside the rank (dev games 2069
    and 2045, gnome-tango_nuevo: plays right 81.4 -> 100 % and 88.1 -> 98.6 %).  A card
    on a Spit table lies alone or on a pile, so those corners show its own paper.
    ``tablecam recognize`` reads without it: in a photo's fan another card's index may
    lie there, and on the fmjio dev photos it named three cards fewer."""
    if getattr(classifier, "side_look", True):
        return classifier
    looking = copy.copy(classifier)
    looking.side_look = True  # type: ignore[attr-defined]
    return looking


class TableReader:
    """Reads a Spit table frame by frame, re-reading only the zones that changed."""

    def __init__(self, classifier: CardReader, geometry: TableGeometry | None = None,
                 use_mat: bool = True) -> None:
        """``geometry`` fixes the zones; otherwise they are taken from an ArUco mat in
        view (unless ``use_mat`` is False) or from the dealt layout.  The classifier's
        second opinion, if it has one, is asked about centre pile tops only
        (``first_opinion_only``)."""
        alone = first_opinion_only(classifier)
        #: the classifier with its second opinion, asked about centre pile tops only
        self._piles_second = classifier if classifier is not alone else None
        self.classifier = with_side_look(alone)
        self.geometry = geometry
        self.use_mat = use_mat
        self._memory: dict[ZoneId, _ZoneMemory] = {}
        self._table_colour: npt.NDArray[np.float32] | None = None
        # the table's colour around each zone (a vignetted or unevenly lit table is
        # darker towards the corners, where the spit piles lie)
        self._zone_colours: dict[ZoneId, npt.NDArray[np.float32]] = {}
        # the other colours of a patterned table around each zone (``TONES``)
        self._zone_tones: dict[ZoneId, list[npt.NDArray[np.float32]]] = {}
        # the colour of the cards' paper, from the first card named surely on these zones
        self._paper: npt.NDArray[np.float32] | None = None
        self._relocating = geometry is None
        self._frames = 0
        # (when first seen, latest) layout refused only for not fitting a deal
        self._misfit: tuple[float, TableGeometry] | None = None
        # (since when, latest) the searches' own misfitting layouts have been the same
        self._misfit_steady: tuple[float, TableGeometry] | None = None
        # the same from another look at the frame (``OTHER_LOOKS``): taken only when the
        # first look has none
        self._other_misfit: tuple[float, TableGeometry] | None = None
        # while a layout that did not fit is in use: until when a fitting one is sought
        self._provisional_until: float | None = None
        # since when a new deal is awaited with the old geometry in use (``relocate``)
        self._relocating_since: float | None = None
        # while there are no zones: the cards of the last thorough search, and the
        # cards each of the recent ones found, with when (``RECENT_CARDS_S``)
        self._blind_cards: list[SeenCard] = []
        self._recent_cards: list[tuple[float, SeenCard]] = []
        # while there are no zones: since when the thorough search finds cards, and how
        # many searches it has made since (``OTHER_LOOKS_AFTER_S``)
        self._blind_since: float | None = None
        self._searches = 0
        # the empty table as the camera first saw it (``_note_bare``), before any card
        # was found, and a frame held to become it
        self._plate: npt.NDArray[np.uint8] | None = None
        self._plate_candidate: npt.NDArray[np.uint8] | None = None
        self._seen_cards = False

    def _ask_second_about_piles(self, views: Sequence[npt.NDArray[np.uint8]],
                                reads: list[_Read]) -> None:
        """The classifier's second opinion, if it has one, on ``reads`` of centre pile
        tops, or of small cards' columns (in place; ``CardClassifier.ask_second``)."""
        if self._piles_second is not None:
            self._piles_second.ask_second(views, reads)  # type: ignore[attr-defined]

    def _relocate_every(self, t: float) -> int:
        """Every how many frames a new deal is looked for while the old geometry is in
        use (``RELOCATE_EVERY``, then ``RELOCATE_SLOW_EVERY``)."""
        since = self._relocating_since
        if since is not None and t - since >= RELOCATE_PATIENCE_S:
            return RELOCATE_SLOW_EVERY
        return RELOCATE_EVERY

    def _use_geometry(self, geometry: TableGeometry) -> None:
        self.geometry = _keep_seen_spit(self.geometry, geometry)
        self._relocating = False
        self._memory = {}
        self._table_colour = None
        self._paper = None
        self._misfit = self._other_misfit = None
        self._misfit_steady = None
        self._provisional_until = None
        self._recent_cards = []
        self._blind_since = None

    def relocate(self) -> None:
        """Look for the dealt layout again (a new round is being dealt).

        The current geometry stays in use until a full deal is seen.
        """
        self._relocating = True
        self._relocating_since = None  # (stamped by the next frame read)
        self._misfit = self._other_misfit = None
        self._misfit_steady = None
        self._provisional_until = None

    def _deal_layout(self, t: float, seen: Sequence[SeenCard], other_look: bool = False,
                     merged: bool = False) -> TableGeometry | None:
        """The layout of a deal among ``seen``, or None when it is no deal.

        While the table has no zones at all, a layout refused only because its rows do
        not fit a dealt layout is remembered, and once such layouts have been seen for
        ``MISFIT_PATIENCE_S`` with no better one, the latest is taken (by ``read``, for a
        while only until a fitting one).  At a later round's deal the zones in use stay
        instead: a deal of fewer than five columns, with a spit card taken for a face at
        a row's end, fits no layout and would give zones shifted by a column.  Nor is a
        fitting layout taken then whose row lies partly on the same columns of the zones
        in use and partly a column over (``_skips_a_column``).
        """
        dealt = _as_dealt(seen)
        try:
            layout = geometry_from_deal(dealt)
            if self.geometry is not None and _skips_a_column(self.geometry, layout):
                return None  # a dealt card unseen, a spit pile in its row's place: not taken
            return layout
        except LayoutMisfitError as misfit:
            if self.geometry is not None:
                return None  # zones in use (or one taken already): only a fitting layout
            self._note_misfit(t, misfit.layout, other_look, merged)
            return None
        except GeometryError:
            pass
        # ... unless nothing lies as a deal that way, and the faces the reader could not
        # name lie as one: a deck with dark faces whose indices the reader does not
        # find (the KDE Oxygen decks, dev scenes 2047-2058).  Taken only as a misfit is.
        loose = [DealtCard(s.corners, s.face_up) for s in seen]
        if self.geometry is not None or all(a.face_up == b.face_up
                                            for a, b in zip(loose, dealt, strict=True)):
            return None
        try:
            layout = geometry_from_deal(loose)
        except LayoutMisfitError as misfit:
            layout = misfit.layout
        except GeometryError:
            return None
        self._note_misfit(t, layout, other_look, merged)
        return None

    def _search(self, t: float, image: npt.NDArray[np.uint8], smallest: float,
                ) -> tuple[list[FoundCard], bool]:
        """The thorough search for dealt cards: the finder on the frame, or, while the
        table has had no zones for ``OTHER_LOOKS_AFTER_S`` since the finder first found
        cards, every other time on another look at it (``OTHER_LOOKS`` in turn).  Says
        whether it took another look."""
        look = None
        if self.geometry is None and self._blind_since is not None \
                and t - self._blind_since >= OTHER_LOOKS_AFTER_S:
            self._searches += 1
            if self._searches % 2:
                look = OTHER_LOOKS[(self._searches // 2) % len(OTHER_LOOKS)]
        if look is not None:
            return find_cards_looking(image, look, min_width=smallest), True
        found = find_cards(image, min_width=smallest, piles=False, backs=True)
        if self.geometry is None and self._blind_since is None and found:
            self._blind_since, self._searches = t, 0
        return found, False

    def _sized_again(self, image: npt.NDArray[np.uint8], found: Sequence[FoundCard],
                     seen: list[SeenCard], smallest: float) -> list[SeenCard]:
        """``seen``, or, when those cards do not lie as a deal, the cards of a second
        search bounded to the size of the cards found (``SIZED_SEARCH``), if they do or
        show more faces.

        The finder scales its masks to the middle of the sizes it is asked for, and from
        the table search's bounds (1/28 to 1/2 of the frame's short side) that middle
        is about twice the cards of a table seen from high up with the wide lens: its
        closing joins neighbouring columns into one region (dev game 2265, blue
        gingham, cards 40 pixels wide: only the two spit piles outlined in every search,
        the deal taken 2 s late, after play had begun; 2078, stripes: columns outlined
        in pairs, the deal taken 1.5 s late, after the first spit cards).
        """
        if not found or _lies_as_deal(seen):
            return seen
        width = float(np.median([_short_side(card) for card in found]))
        low, high = SIZED_SEARCH
        sized = find_cards(image, min_width=max(smallest, low * width), max_width=high * width,
                           piles=False, backs=True)
        again = read_cards(image, sized, self.classifier)
        if _lies_as_deal(again) or _faces_for_deal(again) > _faces_for_deal(seen):
            return again
        return seen

    def _note_bare(self, image: npt.NDArray[np.uint8], seen: Sequence[SeenCard]) -> None:
        """Hold ``image`` for the empty table's picture when its search found no card and
        none has found one before it (``_take_plate`` judges it by the next frame)."""
        if seen:
            self._seen_cards = True
        elif not self._seen_cards:
            self._plate_candidate = image.copy()

    def _plate_due(self, t: float) -> bool:
        """Whether to look for a deal against the plate: while the table has had no
        zones for ``OTHER_LOOKS_AFTER_S`` since the search first found cards, as for the
        other looks.  A changed region takes in the face-down cards sticking out under a
        column's top card, and the card's shadow, so its outline makes a slightly worse
        zone than the search's own: looked at sooner, the plate gave the deals of dev
        games 2064 and 2069 a few frames before the search did, and their figures fell
        (2069: stalls called within 0.5 s 19 -> 12 of 19; 2064: an illegal-play call)."""
        return (self.geometry is None and self._blind_since is not None
                and t - self._blind_since >= OTHER_LOOKS_AFTER_S)

    def _take_plate(self, image: npt.NDArray[np.uint8]) -> None:
        """Take the held empty table's picture as the plate when ``image``, the frame
        after it, is nearly the same (``PLATE_STILL_SHARE``): no hand was coming in."""
        held, self._plate_candidate = self._plate_candidate, None
        if held is None or held.shape != image.shape:
            return
        changed = changed_since(image, held)
        if np.count_nonzero(changed) < PLATE_STILL_SHARE * changed.size:
            self._plate = held

    def _note_misfit(self, t: float, layout: TableGeometry, other_look: bool = False,
                     merged: bool = False) -> None:
        """Hold ``layout`` as the latest misfitting one, taken after ``MISFIT_PATIENCE_S``
        from the first such (``read``) unless a fitting deal comes, or once the search
        has found it steadily (``MISFIT_STEADY_S``).  One from another look at the frame
        is held apart, and taken only when the first look has none.  One ``merged`` from
        several searches' cards is never steady: the same remembered cards give it each
        time."""
        if other_look:
            first = t if self._other_misfit is None else self._other_misfit[0]
            self._other_misfit = (first, layout)
            return
        if not merged:
            steady = self._misfit_steady
            same = steady is not None and _same_layout(steady[1], layout)
            self._misfit_steady = (steady[0] if steady is not None and same else t, layout)
        first = t if self._misfit is None else self._misfit[0]
        self._misfit = (first, layout)

    def _misfit_due(self, t: float) -> TableGeometry | None:
        """The misfitting layout to take now: one found steadily for ``MISFIT_STEADY_S``,
        or the latest once the first has waited ``MISFIT_PATIENCE_S``."""
        steady = self._misfit_steady
        if steady is not None and t - steady[0] >= MISFIT_STEADY_S:
            return steady[1]
        held = self._misfit if self._misfit is not None else self._other_misfit
        return held[1] if held is not None and t - held[0] >= MISFIT_PATIENCE_S else None

    def _remember_cards(self, t: float, seen: Sequence[SeenCard]) -> list[SeenCard]:
        """This search's cards and those the recent ones found elsewhere.

        The finder can miss some dealt cards in every frame (a white deck on a pale
        cloth: dev scene 2040 found two or three of A's five in each search, but each
        of them in some): where a card was found a few seconds ago and nothing is found
        now, it most likely still lies.  A card found now replaces any remembered one
        whose centre lies within half its width, unless only the remembered one was
        taken for a face (a column is there whatever its top shows now).
        """
        kept = [(when, old) for when, old in self._recent_cards
                if t - when <= RECENT_CARDS_S and not any(
                    np.linalg.norm(old.corners.mean(axis=0) - new.corners.mean(axis=0))
                    < 0.5 * _short_side(new) and (_up_for_deal(new) or not _up_for_deal(old))
                    for new in seen)]
        self._recent_cards = kept + [(t, card) for card in seen]
        return [*seen, *(card for _, card in kept)]

    def read(self, frame: Frame) -> TableReading:
        """Read one frame."""
        image = frame.image
        grey = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
        fresh: list[SeenCard] | None = None  # every card of this frame, when all were read
        if self._plate_candidate is not None:
            self._take_plate(image)
        if self._relocating and self._relocating_since is None:
            self._relocating_since = frame.t
        if self._relocating and (self.geometry is None
                                 or self._frames % self._relocate_every(frame.t) == 0):
            # a Spit table fills much of the view: cards are at least 1/28 of its short
            # side.  A fresh deal on a plain table is seen by the quick finder; anything
            # else on the table (the mat's markers too) makes it give up, and then the
            # mat, or else the thorough finder, gives the layout.
            smallest = min(image.shape[:2]) / 28
            dealt = None
            from_plate = False
            confirmed: TableGeometry | None = None  # a held layout the plate agrees with
            quick = find_cards_quick(image, min_width=smallest, gray=grey)
            if quick is not None and len(quick) >= 10:  # a deal shows ten face-up cards
                seen = read_cards(image, quick, self.classifier)
                dealt = self._deal_layout(frame.t, seen)
            mat = _find_mat_quickly(image) if dealt is None and self.use_mat else None
            if mat is not None:
                self._use_geometry(mat.geometry)
            else:
                if dealt is None and (self.geometry is not None
                                      or self._frames % RELOCATE_EVERY == 0):
                    found, other_look = self._search(frame.t, image, smallest)
                    seen = read_cards(image, found, self.classifier)
                    if not other_look:
                        seen = self._sized_again(image, found, seen, smallest)
                    self._note_bare(image, seen)
                    self._blind_cards = seen
                    dealt = self._deal_layout(frame.t, seen, other_look)
                    plate = self._plate
                    if dealt is None and plate is not None and self._plate_due(frame.t):
                        # what changed since the table was seen empty, when no deal is
                        # seen otherwise (a pattern hides the cards from the finder)
                        on_plate = _cut_to_top_cards(read_cards(image, find_cards_on_plate(
                            image, plate, min_width=smallest), self.classifier))
                        dealt = self._deal_layout(frame.t, on_plate, other_look=True)
                        held = self._misfit or self._other_misfit
                        if dealt is not None and held is not None and _same_columns(
                                held[1], dealt):
                            # the search's own layout, held for not fitting, with every
                            # column where the plate shows one: its outlines make the
                            # better zones (dev game 2069), taken now
                            confirmed, dealt = held[1], None
                        elif dealt is not None:
                            seen, from_plate = on_plate, True
                    if dealt is not None and other_look and len(found) > TABLE_PLACES:
                        # another look that outlines more than a Spit table has places
                        # for outlines the cloth's pattern too (dev game 2040, gingham:
                        # 18-24 outlines, rows that fitted with columns and spit zones
                        # off): its layout is held as a misfit, after one of the first
                        # look's, so that the first look's comes first
                        self._note_misfit(frame.t, dealt, other_look)
                        dealt = None
                    elif dealt is None and self.geometry is None:
                        recent = self._remember_cards(frame.t, seen)
                        merged = (self._deal_layout(frame.t, recent, other_look, merged=True)
                                  if len(recent) > len(seen) else None)
                        if merged is not None:
                            # a whole deal only from several searches' cards (one may
                            # have been caught while being laid): taken as a misfit is
                            self._note_misfit(frame.t, merged, other_look, merged=True)
                elif dealt is None:
                    # without zones the quick finder looks every frame, the thorough one
                    # (several times slower; far more so on a Pi) every n frames only:
                    # the cards it found last stand for what is on the table meanwhile
                    seen = self._blind_cards
                if dealt is not None:
                    self._use_geometry(dealt)
                    # (the plate's outlines take in what sticks out under a card: each
                    # zone is read by itself instead)
                    fresh = None if from_plate else seen
                elif (due := confirmed if confirmed is not None
                      else self._misfit_due(frame.t)) is not None:
                    # no fitting layout came: take the best-fitting one seen (the last),
                    # and go on looking for a fitting one for a while
                    self._use_geometry(due)
                    self._relocating, self._relocating_since = True, frame.t
                    self._provisional_until = frame.t + MISFIT_LOOK_ON_S
                elif self.geometry is None:
                    self._frames += 1
                    return TableReading(frame.t, {}, seen, None)
            if self._provisional_until is not None and frame.t > self._provisional_until:
                self._relocating = False  # the layout in use stays for the round
                self._provisional_until = None
        self._frames += 1
        geometry = self.geometry
        assert geometry is not None
        if self._table_colour is None:
            self._table_colour = self._estimate_table_colour(image, geometry)
            self._zone_colours = self._estimate_zone_colours(image, geometry, self._table_colour)
            self._zone_tones = self._estimate_zone_tones(image, geometry)
        zones: dict[ZoneId, ZoneObservation] = {}
        to_read: list[ZoneId] = []
        glimpsed: list[ZoneId] = []
        for zone in geometry.zones:
            memory = self._memory.setdefault(zone, _ZoneMemory())
            thumb = self._thumbnail(grey, geometry, zone)
            moving = (memory.previous is not None
                      and _difference(thumb, memory.previous) > MOTION_THRESHOLD)
            memory.previous = thumb
            if zone in PILE_ZONES:
                _track_scene(memory, image, geometry.zone_box(zone, image.shape, margin=0.4))
            if moving:
                zones[zone] = ZoneObservation("covered", None, 1.0, None)
                if zone in PILE_ZONES and memory.crop is not None:
                    glimpsed.append(zone)
                continue
            last = memory.observation
            changed = (memory.at_read is None or last is None
                       or _difference(thumb, memory.at_read) > CHANGE_THRESHOLD)
            confirm = memory.confirm_at is not None and self._frames >= memory.confirm_at
            if last is None or changed or confirm or (
                    last.state == "covered" and self._frames % COVERED_REREAD_EVERY == 0):
                to_read.append(zone)
                memory.at_read = thumb
                memory.confirm_at = self._frames + CONFIRM_AFTER if changed else None
                if not changed:
                    memory.crop = None  # a second look, at the zone as it is: nothing arrived
            else:
                zones[zone] = last
        if fresh is not None:
            readings = self._assign(image, geometry, to_read, fresh)
            self._look_again(image, geometry, readings)
            # a zone where something lies but no card was found is searched on its own
            missing = [zone for zone, (observation, cards) in readings.items()
                       if not cards and observation.state == "covered"]
            if missing:
                readings.update(self._read_zones(image, geometry, missing))
        else:
            readings = self._read_zones(image, geometry, to_read) if to_read else {}
        self._still_there(image, readings)
        self._pile_as_named(image, geometry, readings)
        for zone, (observation, cards) in readings.items():
            self._memory[zone].observation = observation
            self._memory[zone].cards = cards
            if observation.state != "covered" and not observation.under_hand:
                self._memory[zone].bare = self._memory[zone].crop
                if zone in PILE_ZONES and observation.card is not None:
                    self._memory[zone].named = observation
                    self._memory[zone].named_crop = self._memory[zone].crop
            zones[zone] = observation
            if observation.state == "face_up" and (observation.card is not None
                                                   or observation.confidence >= CONFIRM_BELOW):
                # a face needs no second look: a named one would only get a second chance
                # to be misread (the last read is the one that stays), and one the reader
                # nearly named is left to the tracker, which knows what may lie there
                # (dev game 2000: AC moved into A2, read unnamed at 0.85 as AS, then as AS
                # at 0.99 on a second look)
                self._memory[zone].confirm_at = None
        glimpses = self._glimpse(image, geometry, glimpsed, zones) if glimpsed else {}
        zones.update(glimpses)
        cards = [c for zone in geometry.zones for c in self._memory[zone].cards
                 if zones[zone].state != "covered"]
        return TableReading(frame.t, {z: zones[z] for z in geometry.zones}, cards, geometry,
                            tuple(to_read) + tuple(z for z, o in glimpses.items() if o.state != "covered"))

    def _glimpse(self, image: npt.NDArray[np.uint8], geometry: TableGeometry,
                 zones: list[ZoneId], now: Mapping[ZoneId, ZoneObservation],
                 ) -> dict[ZoneId, ZoneObservation]:
        """A quick look at centre piles still changing since the last frame: a hand that
        laid a card has just gone, or is coming.  In a fast game the other player's hand is
        often over the pile the next frame, and this may be the one frame the card shows.
        What changed since the pile was last read is outlined (``_changed``): one
        card-shaped, card-sized region is the card laid there; otherwise, when nothing
        reaching in from outside the crop (an arm) lies over the zone and the zone itself
        changed, its top is looked for by its four sides.  A change reaching in that the
        crop's still scene (``_track_scene``) does not show is a hand that was there when
        the pile was last read and has gone since, not an arm.  A face the reader names there
        is that frame's reading and becomes the zone's (the next frame, if still and like
        this one, is not read again), unless it is the top the pile showed before: then
        the other outlines found by their sides are read too, as ``_new_tops`` does, and
        a new card one of them names surely stands instead; the old top stands for that
        frame only.  While an arm is over the zone, the new top's
        visible corner may still name it (``_under_hand``): that frame's reading only.
        Anything else (a hand, a card still held) stays ``covered`` and leaves the zone's
        memory alone; a pile that changed with no arm over it and is named by none of
        these looks is read as a still one (``_read_as_still``)."""
        looks: list[tuple[ZoneId, npt.NDArray[np.float32], npt.NDArray[np.uint8]]] = []
        hidden: list[tuple[ZoneId, npt.NDArray[np.float32]]] = []  # outlines under a hand
        # other outlines of a pile's top, where the pile changed since it named its top
        others: list[tuple[ZoneId, npt.NDArray[np.float32]]] = []
        clear: list[ZoneId] = []  # piles that changed with no arm over them
        for zone in zones:
            before = self._memory[zone].crop
            x0, y0, x1, y1 = geometry.zone_box(zone, image.shape, margin=0.4)
            crop = np.ascontiguousarray(image[y0:y1, x0:x1])
            if before is None or before.shape != crop.shape:
                continue
            offset = np.array([x0, y0], np.float32)
            changed = _changed(before, crop)
            # How much of the zone itself lies under something reaching in from outside
            # the crop (an arm), since the last read, and since it was last read bare
            ix0, iy0, ix1, iy1 = geometry.zone_box(zone, image.shape)
            inner = (slice(max(0, iy0 - y0), iy1 - y0), slice(max(0, ix0 - x0), ix1 - x0))
            reach, core = _under_arm(changed, inner)
            if core.size == 0:
                continue
            scene = self._memory[zone].scene
            under_arm = reach > GLIMPSE_REACH and (
                # (a change reaching in where a hand was when the pile was last read, and
                # has gone since, is no arm: the crop's still scene does not show it)
                scene is None or scene.shape != crop.shape
                or _under_arm(_changed(scene, crop), inner)[0] > GLIMPSE_REACH)
            bare = self._memory[zone].bare
            if bare is not None and bare.shape == crop.shape:
                since_bare = changed if bare is before else _changed(bare, crop)
                if _under_arm(since_bare, inner)[0] > GLIMPSE_REACH:
                    hidden += [(zone, c) for c in _under_hand(crop, since_bare, offset,
                                                             geometry, zone)]
            arrived = _card_shaped(changed, geometry.card_width)
            if arrived is not None:
                # (with an arm over the zone, a hand and the card in it can make one
                # card-shaped region too: the looks under the hand stand beside it)
                if geometry.zone_at(arrived.mean(axis=0) + offset) == zone:
                    looks.append((zone, arrived + offset, crop))
                continue
            # A white card on a white one changes little more than its pips.  Something
            # reaching in from outside the crop (an arm) must not be over the zone
            # itself, and the zone must have changed: then its top is looked for.
            if under_arm:
                continue
            if (core > 0).mean() < GLIMPSE_CHANGE:
                continue  # the same top: nothing to read
            clear.append(zone)
            tops = _zone_tops(crop, offset, geometry, zone)
            if tops:
                looks.append((zone, tops[0], crop))
                others += self._changed_since_named(zone, crop, offset, tops[1:])
        # every card is unique: one another zone shows in this frame is not here
        shown = {o.card for z, o in now.items() if z not in zones and o.card is not None}
        if not looks and not hidden:
            return self._read_as_still(image, geometry, clear, {}, shown)
        reads = self.classifier.read([warp_card(image, corners) for _, corners, _ in looks]
                                     + [warp_card(image, corners) for _, corners in hidden])
        out = self._named_under_hand(hidden, reads[len(looks):], shown, hints=True)
        # the piles whose top's outline shows the top they last named: the other outlines
        old_tops = {zone for (zone, _, _), r in zip(looks, reads, strict=False)
                    if (named := self._memory[zone].named) is not None and r.card == named.card}
        others = [(zone, c) for zone, c in others if zone in old_tops]
        new = self._new_cards(image, others, self.classifier.read(
            [warp_card(image, corners) for _, corners in others]) if others else [], shown)
        for (zone, corners, crop), r in zip(looks, reads[:len(looks)], strict=True):
            if r.kind != "face" or r.card is None or r.card in shown:
                continue
            old = self._memory[zone].named
            if old is not None and r.card == old.card:
                if zone not in new:
                    # the old top, in plain view: that frame's reading only, so that the
                    # next still frame is compared with the pile as last read bare
                    out[zone] = ZoneObservation("face_up", r.card, float(r.confidence),
                                                corners, tuple(getattr(r, "candidates", ())),
                                                ranks=_ranks(r))
                    continue
                # another outline there shows a new card (``_new_tops``).  (Not when the
                # top's outline names no card: it may be the new card, unsure, and
                # another outline a card confidently misread; dev game 2060: AS read
                # unnamed, at 0.87, and an outline a little off it as AC at 0.98.)
                _, _, corners, r = new[zone]
            assert r.card is not None
            candidates = tuple(getattr(r, "candidates", ()))
            out[zone] = ZoneObservation("face_up", r.card, float(r.confidence), corners,
                                        candidates, ranks=_ranks(r))
            # it stands as the zone's reading: the next frame, if still and like this
            # one, needs no read of its own
            memory = self._memory[zone]
            memory.crop = memory.bare = memory.named_crop = crop.copy()  # (not a view)
            memory.at_read = memory.previous
            memory.observation = memory.named = out[zone]
            memory.cards = [SeenCard(corners, r.card, float(r.confidence), True, zone,
                                     False, candidates, ranks=_ranks(r))]
            memory.confirm_at = None
        return self._read_as_still(image, geometry, clear, out, shown)

    def _read_as_still(self, image: npt.NDArray[np.uint8], geometry: TableGeometry,
                       zones: list[ZoneId], out: dict[ZoneId, ZoneObservation],
                       shown: set[Card]) -> dict[ZoneId, ZoneObservation]:
        """``out``, with the piles of ``zones`` (changed, with no arm over them) that a
        quick look did not name read as a still pile is (``_read_zones``, with its
        finder and its second looks), when that names a new card there: the hand that
        laid it has just gone, and the zone still differs from the frame before (dev
        game 2040, pale gingham: 2C and 3C, whose four-sided outlines read as backs,
        and 2S, whose outline read unnamed at a quick look, were named a frame later,
        when the zone was still).  That frame's reading only: the zone's memory stays as
        it was, so the next still frame is read as before (dev game 2061: KC, named here
        and kept as the zone's reading, was read unnamed for 1.7 s by the next frame's
        read against it, and "Spit!" came 0.3 s later); and a hand resting where the
        pile was last read can hide from the arm test and make a pile read as empty."""
        for zone in zones:
            if zone in out and out[zone].card is not None:
                continue
            kept = copy.copy(self._memory[zone])
            readings = self._read_zones(image, geometry, [zone])
            self._pile_as_named(image, geometry, readings)
            self._memory[zone] = kept
            observation, _ = readings[zone]
            if (observation.state == "face_up" and observation.card is not None
                    and not observation.under_hand and observation.card not in shown
                    and (kept.named is None or observation.card != kept.named.card)):
                out[zone] = observation
        return out

    def _named_under_hand(self, hidden: Sequence[tuple[ZoneId, npt.NDArray[np.float32]]],
                          reads: Sequence[_Read], shown: set[Card], hints: bool = False,
                          ) -> dict[ZoneId, ZoneObservation]:
        """The zones whose outlines under a hand name one new card.  The card the zone
        showed before the hand came is no news (its corner still shows beside the new
        one), nor a card another zone shows; the rest must agree, each at
        ``UNDER_HAND_CONFIDENCE`` or more.  With ``hints``, one card they agree on at
        ``UNDER_HAND_HINT`` or more is told on a ``covered`` reading; a face the reader
        leaves unnamed but likes best as one card at ``UNDER_HAND_HINT`` or more counts
        then too, as a doubt (dev game 2064: A's 6D, whose lower corner alone showed
        under the hand, liked at 0.84 and 0.71 by the two frames before the hand left).
        The zone's memory stays as it was: what it showed before the hand is what the
        next still frame is compared with."""
        # per zone and card: the confidence it is named with (0: a doubt), and the
        # lowest and the highest of its looks
        names: dict[ZoneId, dict[Card, tuple[float, npt.NDArray[np.float32], _Read]]] = {}
        spread: dict[tuple[ZoneId, Card], tuple[float, float, npt.NDArray[np.float32], _Read]] = {}
        for (zone, corners), r in zip(hidden, reads, strict=True):
            names.setdefault(zone, {})
            before = self._memory[zone].observation
            card, confidence = r.card, float(r.confidence)
            liked = tuple(getattr(r, "candidates", ()))
            unnamed = card is None and hints and r.kind == "face" and bool(liked)
            if unnamed:
                card, likelihood = liked[0]
                if likelihood < UNDER_HAND_HINT:
                    continue
                confidence = float(likelihood)  # (counted as a doubt below, never sure)
            if (r.kind != "face" or card is None or card in shown
                    or (before is not None and card == before.card)):
                continue
            low, high, top_corners, top = spread.get((zone, card), (confidence, confidence, corners, r))
            if confidence >= high:
                high, top_corners, top = confidence, corners, r
            spread[(zone, card)] = (min(low, confidence), high, top_corners, top)
            if unnamed:
                # (a doubt about another card, not about a sure name of this one)
                names[zone].setdefault(card, (0.0, corners, r))
                continue
            if confidence < UNDER_HAND_CONFIDENCE:
                names[zone][card] = (0.0, corners, r)  # a doubt all the same
                continue
            best = names[zone].get(card)
            if best is None or confidence > best[0]:
                names[zone][card] = (confidence, corners, r)
        out: dict[ZoneId, ZoneObservation] = {}
        for zone, found in names.items():
            if len(found) != 1:
                continue
            ((card, (confidence, corners, r)),) = found.items()
            if confidence > 0.0:
                out[zone] = ZoneObservation("face_up", card, confidence, corners,
                                            tuple(getattr(r, "candidates", ())), True, _ranks(r))
                continue
            low, high, corners, r = spread[(zone, card)]
            if hints and low >= UNDER_HAND_HINT:
                out[zone] = ZoneObservation("covered", card, high, corners,
                                            tuple(getattr(r, "candidates", ())), True, _ranks(r))
        return out

    def _assign(self, image: npt.NDArray[np.uint8], geometry: TableGeometry,
                zones: list[ZoneId], seen: list[SeenCard],
                ) -> dict[ZoneId, tuple[ZoneObservation, list[SeenCard]]]:
        """Observations of ``zones`` from cards already found and read in the whole frame."""
        by_zone: dict[ZoneId, list[SeenCard]] = {zone: [] for zone in zones}
        for zone in zones:
            x0, y0, x1, y1 = geometry.zone_box(zone, image.shape, margin=0.4)
            self._memory[zone].crop = image[y0:y1, x0:x1].copy()
        centres = [s.corners.mean(axis=0) for s in seen]
        for s, where in zip(seen, geometry.zones_at(centres), strict=True):
            if where is not None and where in by_zone:
                by_zone[where].append(SeenCard(s.corners, s.card, s.confidence, s.face_up, where,
                                               s.covered, s.candidates, ranks=s.ranks))
        return {zone: (self._observe(image, geometry, zone, cards), cards)
                for zone, cards in by_zone.items()}

    def _read_zones(self, image: npt.NDArray[np.uint8], geometry: TableGeometry,
                    zones: list[ZoneId], quick: bool = True, pile_tops: bool = True,
                    ) -> dict[ZoneId, tuple[ZoneObservation, list[SeenCard]]]:
        """Find and read the cards of ``zones``.  With ``quick``, a centre pile where one
        card-shaped region changed (a card laid on it) is read from that outline alone:
        what lies under a pile's top does not matter.  Unless it reads as a face, the
        zone is looked at again the thorough way.  A centre pile's top is looked for by
        its four sides first (``pile_tops``); when that outline reads as no face, the
        finder looks (a checked cloth's squares show four straight sides too)."""
        found_by_zone: dict[ZoneId, list[FoundCard]] = {}
        outline_only: set[ZoneId] = set()
        judged: set[ZoneId] = set()  # zones read from a top outline that shows no paper
        # zones whose top card was looked for by its sides: the other outlines to look at
        searched: dict[ZoneId, list[npt.NDArray[np.float32]]] = {}
        # and their outlines clear of the one read
        aside: dict[ZoneId, list[npt.NDArray[np.float32]]] = {}
        topped: list[ZoneId] = []  # piles read from the outline of their four sides
        # piles read before: their crop then and now, and its place in the frame
        befores: dict[ZoneId, tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8],
                                    npt.NDArray[np.float32]]] = {}
        lo, hi = 0.6 * geometry.card_width, 1.5 * geometry.card_width
        for zone in zones:
            x0, y0, x1, y1 = geometry.zone_box(zone, image.shape, margin=0.4)
            if x1 - x0 < 8 or y1 - y0 < 8:
                found_by_zone[zone] = []
                continue
            crop = np.ascontiguousarray(image[y0:y1, x0:x1])
            before = self._memory[zone].crop
            self._memory[zone].crop = crop.copy()
            offset = np.array([x0, y0], np.float32)
            bare = self._memory[zone].bare
            if zone in PILE_ZONES and bare is not None and bare.shape == crop.shape:
                befores[zone] = (bare, crop, offset)
            cards = []
            # a pile's outlines with three whole sides and a faint fourth, when none has four
            faint: list[npt.NDArray[np.float32]] = []
            # the likeliest outline with four whole sides, when it shows no paper
            paperless: list[npt.NDArray[np.float32]] = []
            arrived = None  # the outline of a card that just arrived, from what changed
            if before is not None and before.shape == crop.shape:
                arrived = _arrived_card(before, crop, geometry.card_width)
                if arrived is not None and geometry.zone_at(arrived.mean(axis=0) + offset) == zone:
                    cards.append(FoundCard(arrived + offset, 1.0, False, True))
                    if quick and zone in PILE_ZONES:
                        found_by_zone[zone] = cards
                        outline_only.add(zone)
                        continue
                else:
                    arrived = None
            if arrived is None and zone in PILE_ZONES and pile_tops:
                # the finder's regions merge a pile's top card with what sticks out
                # below it: the top card is the one showing four whole sides, and
                # the cards below it matter no more (nor the finder's time).  A pile's
                # top shows a face; an outline of no paper is left to the finder.
                # A white card laid on white cards shows its sides over them only by
                # its thin printed border, which the half-size search can lose among a
                # wood grain's lines (dev game 2048: 10H in plain view read as covered
                # for 0.4 s, 6D unnamed on an outline taking in the cards below until
                # the players pressed spit): its sides are then looked for at full size
                # (slower, so only then).
                beside: list[npt.NDArray[np.float32]] = []
                tops = (_zone_tops(crop, offset, geometry, zone, aside=beside,
                                   paperless=paperless)
                        or _zone_tops(crop, offset, geometry, zone, fine=True, faint=faint,
                                      aside=beside))
                searched[zone] = tops[1:]
                if tops:
                    aside[zone] = beside
                    found_by_zone[zone] = [FoundCard(tops[0], 1.0, False, True)]
                    topped.append(zone)
                    continue
            # (a column's top lies whole: an outline well under a card's width there is a
            # court card's picture frame or a pip group, which the reader may take for a back)
            narrowest = 0.0 if zone in PILE_ZONES else COLUMN_MIN_WIDTH * geometry.card_width
            for f in find_cards(crop, min_width=lo, max_width=hi, card_width=geometry.card_width,
                                backs=True):
                corners = f.corners + offset
                if not _belongs(geometry, zone, corners) or f.width < narrowest:
                    continue
                if zone not in PILE_ZONES and _crosswise(corners, geometry, zone):
                    # a column's cards lie along it: an outline across it is the cloth's
                    # pattern with a piece of the card (dev game 2044: JD in A1 outlined
                    # across its foot on violet stripes, read as a back for 4 s, and the
                    # tracker took JD for played)
                    continue
                under = f.covered
                if arrived is not None:
                    overlap = _overlap_share(f.corners, arrived)
                    if overlap > 0.8:
                        continue  # the card that just arrived, already listed
                    under = under or overlap > 0.04
                cards.append(FoundCard(corners, f.score, under, f.face_up))
            if not cards and faint and before is None:
                # Nothing found, but a card-sized outline shows three whole sides and a
                # faint fourth: a pale card laid on pale cards over a cloth of much their
                # shade, the side over the card below it scarcely drawn (dev game 2065,
                # grey dots: 3C in plain view on 2H read as covered for 2 s).  Only
                # then: a faint outline that reads as no card kept the finder's card
                # from 2065's pile (5C read as an unnamed face); and only at a second
                # look at a pile that stayed as it was (or at its first read): a hand
                # just come to rest over a card hides a side too, and what shows of the
                # card is read under it (``_read_under_hands``), the zone's memory left
                # as it was.  (Not "no arm reaching in since the pile was read bare":
                # in 2065 the crop's margin takes in the other pile, whose changes
                # reach its border.)
                cards.append(FoundCard(faint[0], 1.0, False, True))
                searched[zone] = faint[1:]
            if (not cards and zone not in PILE_ZONES and self._table_colour is not None
                    and self._foreign_fraction(image, geometry, zone) > COVER_FRACTION):
                # Something lies in the column, but no outline fits a card: the top card
                # on a stack that shows below it makes one region too long for a card.
                # The card showing four whole sides is the top (as on a centre pile).
                tops = _zone_tops(crop, offset, geometry, zone, paperless=paperless)
                if tops:
                    cards.append(FoundCard(tops[0], 1.0, False, True))
            if (not cards and paperless and self._table_colour is not None
                    and self._foreign_fraction(image, geometry, zone) > COVER_FRACTION
                    and (zone in PILE_ZONES or not _crosswise(paperless[0], geometry, zone))):
                # Still nothing, though something unlike the table lies there and a
                # card-sized outline shows four whole sides: a court card whose picture
                # leaves little white paper, on a striped cloth that cuts the finder's
                # regions (dev game 2296: JS on the left pile, and QH dealt in A1, read
                # as covered for 7 s in plain view).  The reader judges it: a face (or,
                # in a column, a back) stands; anything else leaves the zone covered.
                cards.append(FoundCard(paperless[0], 1.0, False, True))
                judged.add(zone)
            found_by_zone[zone] = cards
        flat = [f for zone in zones for f in found_by_zone[zone]]
        views = [warp_card(image, f.corners) for f in flat]
        reads = list(self.classifier.read(views)) if flat else []
        zone_of = [zone for zone in zones for _ in found_by_zone[zone]]
        small = geometry.card_width < SMALL_CARD_PX
        to_ask = [i for i, zone in enumerate(zone_of) if small or zone in PILE_ZONES]
        if to_ask and self._piles_second is not None:
            asked = [reads[i] for i in to_ask]
            self._ask_second_about_piles([views[i] for i in to_ask], asked)
            for i, read in zip(to_ask, asked, strict=True):
                reads[i] = read
        result: dict[ZoneId, tuple[ZoneObservation, list[SeenCard]]] = {}
        k = 0
        for zone in zones:
            seen: list[SeenCard] = []
            for f in found_by_zone[zone]:
                r = reads[k]
                k += 1
                if r.kind == "none" or (zone in judged and zone in PILE_ZONES and r.kind != "face"):
                    continue
                seen.append(SeenCard(f.corners, r.card if r.kind == "face" else None,
                                     float(r.confidence), r.kind == "face", zone, f.covered,
                                     getattr(r, "candidates", ()), ranks=_ranks(r)))
            result[zone] = (self._observe(image, geometry, zone, seen), seen)
        again = [zone for zone in outline_only if result[zone][0].state != "face_up"]
        if again:
            # (the zone's crop is kept already: nothing changed since, so the pile's top is
            # looked for by its four sides, then by the finder)
            result.update(self._read_zones(image, geometry, again, quick=False))
        self._off_centre_again(image, geometry, result)
        unread = [zone for zone in topped if result[zone][0].state != "face_up"]
        if unread:
            # A pile's top shows a face.  On a checked cloth the squares are outlined by
            # four straight sides as well as a card is, and the best supported outline
            # can be one of them, read as a back or as no card (dev game 2040, gingham:
            # the piles read as backs or covered most of the game while the finder
            # outlined their top cards, and read as backs once taken, so no round's end
            # showed both piles empty); the finder's reading stands instead
            found = self._read_zones(image, geometry, unread, quick=False, pile_tops=False)
            for zone in unread:
                result[zone] = found[zone]
                searched.pop(zone, None)
                aside.pop(zone, None)
        for zone in topped:
            observation = result[zone][0]
            if observation.state == "face_up" and observation.card is None and zone in searched:
                # The half-size outline of the top may take in a card below (a printed
                # frame line or the edge of a like card lies close to the top's side):
                # the full-size outlines are looked at too (dev game 2052: AS on QC, read
                # unnamed from an outline half on each, for 0.6 s)
                searched[zone] += _tops_in(image, geometry, zone, fine=True)
        self._look_again(image, geometry, result, searched, aside)
        if quick and pile_tops:
            self._new_tops(image, geometry, result, searched)
            self._read_under_hands(image, geometry, result, befores)
        return result

    def _new_tops(self, image: npt.NDArray[np.uint8], geometry: TableGeometry,
                  readings: dict[ZoneId, tuple[ZoneObservation, list[SeenCard]]],
                  searched: Mapping[ZoneId, list[npt.NDArray[np.float32]]]) -> None:
        """A pile read afresh as the card it last named is read through the other
        outlines found there by their four sides (``searched``), where the pile changed
        since it named that card (``_changed_since_named``).  A card only leaves a pile by a
        takeback, which shows the card below; so one of those outlines naming another
        card surely (``UNDER_HAND_CONFIDENCE``), the one card named that way, is the top
        laid since.  A card laid turned across the old top leaves the old top's sides
        showing beside and through it, and the old top's outline can be the best
        supported (dev game 2060: 5H laid turned on 4H, read as 4H until the next play,
        0.7 s later).  The card-shaped region that changed since the pile named its top,
        when there is one, is such an outline too: a court card laid on a court card
        shows no four sides over the picture below, and the old top's outline, its
        corners still showing beside the new card, can be the only one the finder fits
        (dev game 2071: JH laid on QD, read as QD for 0.8 s)."""
        todo: list[tuple[ZoneId, npt.NDArray[np.float32]]] = []
        for zone, outlines in searched.items():
            named = self._memory[zone].named
            if named is None or readings[zone][0].card != named.card:
                continue
            x0, y0, x1, y1 = geometry.zone_box(zone, image.shape, margin=0.4)
            todo += self._changed_since_named(zone, image[y0:y1, x0:x1],
                                              np.array([x0, y0], np.float32), outlines,
                                              geometry.card_width)
        if not todo:
            return
        reads = self.classifier.read([warp_card(image, c) for _, c in todo])
        # every card is unique: one another zone shows is not here (a pile's own reading
        # is its old top, which is no new card anyway)
        shown = self._shown(readings)
        for zone, (card, confidence, corners, r) in self._new_cards(image, todo, reads, shown).items():
            candidates = tuple(getattr(r, "candidates", ()))
            seen = SeenCard(corners, card, confidence, True, zone, False, candidates,
                            ranks=_ranks(r))
            readings[zone] = (ZoneObservation("face_up", card, confidence, corners, candidates,
                                              ranks=seen.ranks),
                              [seen, *readings[zone][1]])

    def _shown(self, readings: Mapping[ZoneId, tuple[ZoneObservation, list[SeenCard]]],
               ) -> set[Card]:
        """The cards the zones show: named in ``readings`` (this frame's reads), or in
        the last reading of a zone not read now."""
        shown = {o.card for o, _ in readings.values() if o.card is not None}
        shown |= {m.observation.card for z, m in self._memory.items()
                  if z not in readings and m.observation is not None
                  and m.observation.card is not None}
        return shown

    def _changed_since_named(self, zone: ZoneId, crop: npt.NDArray[np.uint8],
                             offset: npt.NDArray[np.float32],
                             outlines: Sequence[npt.NDArray[np.float32]],
                             card_width: float | None = None,
                             ) -> list[tuple[ZoneId, npt.NDArray[np.float32]]]:
        """Those of a pile's ``outlines`` (in image pixels; ``crop`` is the pile's crop
        now, at ``offset``) of which ``NEW_TOP_CHANGE`` or more changed since the pile
        last named its top.  (Not since it was last read bare: a still hand over it can
        be read as a face.)  Given ``card_width``, the card-shaped region that changed
        since then (``_laid_card``), if any, is one more."""
        then = self._memory[zone].named_crop
        if (not outlines and card_width is None) or then is None or then.shape != crop.shape:
            return []
        changed = _changed(then, crop)
        out = [(zone, c) for c in outlines if _share_inside(changed, c - offset) >= NEW_TOP_CHANGE]
        laid = None if card_width is None else _laid_card(changed, card_width)
        if laid is not None:
            out.append((zone, laid + offset))
        return out

    def _new_cards(self, image: npt.NDArray[np.uint8],
                   looks: Sequence[tuple[ZoneId, npt.NDArray[np.float32]]],
                   reads: Sequence[_Read], shown: set[Card],
                   ) -> dict[ZoneId, tuple[Card, float, npt.NDArray[np.float32], _Read]]:
        """Per pile, the one card other than the top it last named that the reads through
        ``looks`` name surely (``UNDER_HAND_CONFIDENCE``), when it is not in ``shown``
        (cards other zones show) and an index corner of its outline names it by itself
        (``_a_corner_names``); a pile whose looks name two such cards has none."""
        names: dict[ZoneId, dict[Card, tuple[float, npt.NDArray[np.float32], _Read]]] = {}
        for (zone, corners), r in zip(looks, reads, strict=True):
            old = self._memory[zone].named
            if (r.kind == "face" and r.card is not None and old is not None
                    and r.card != old.card and float(r.confidence) >= UNDER_HAND_CONFIDENCE):
                best = names.setdefault(zone, {}).get(r.card)
                if best is None or float(r.confidence) > best[0]:
                    names[zone][r.card] = (float(r.confidence), corners, r)
        out: dict[ZoneId, tuple[Card, float, npt.NDArray[np.float32], _Read]] = {}
        for zone, found in names.items():
            if len(found) == 1:
                ((card, (confidence, corners, r)),) = found.items()
                if card not in shown and self._a_corner_names(image, corners, card):
                    out[zone] = (card, confidence, corners, r)
        return out

    def _a_corner_names(self, image: npt.NDArray[np.uint8], corners: npt.NDArray[np.float32],
                        card: Card) -> bool:
        """Whether an index corner of the outline, read by itself, names ``card``.  The
        network pools what its two corners show, so an outline a little off can name a
        card that lies on neither: dev game 2067, JD laid on QC, an outline whose top-left
        corner took in QC's "Q" beside JD's diamond read QD at 0.99 (a new top on the
        pile, then a spit that never was), while neither corner by itself named it.  A
        card laid on the pile shows its own corners, or one of them beside a hand.  Each
        corner is read from a view made of the half of the card around it, with its own
        copy turned round in place of the other half."""
        alone = lone_corners(warp_card(image, corners))
        return any(r.kind == "face" and r.card == card for r in self.classifier.read(alone))

    def _read_under_hands(self, image: npt.NDArray[np.uint8], geometry: TableGeometry,
                          readings: dict[ZoneId, tuple[ZoneObservation, list[SeenCard]]],
                          befores: Mapping[ZoneId, tuple[npt.NDArray[np.uint8],
                                                         npt.NDArray[np.uint8],
                                                         npt.NDArray[np.float32]]]) -> None:
        """A pile read as covered while a hand rests still over it: the new top's
        visible corner may name it (``_under_hand``, as in ``_glimpse``), from what
        changed since the pile was last read with nothing over it."""
        hidden: list[tuple[ZoneId, npt.NDArray[np.float32]]] = []
        for zone, (before, crop, offset) in befores.items():
            if readings[zone][0].state == "covered":
                hidden += [(zone, c) for c in _under_hand(crop, _changed(before, crop), offset,
                                                         geometry, zone)]
        if not hidden:
            return
        reads = self.classifier.read([warp_card(image, c) for _, c in hidden])
        # every card is unique: one another zone shows is not here
        shown = self._shown(readings)
        for zone, observation in self._named_under_hand(hidden, reads, shown).items():
            assert observation.corners is not None and observation.card is not None
            readings[zone] = (observation, [SeenCard(observation.corners, observation.card,
                                                     observation.confidence, True, zone, False,
                                                     observation.candidates,
                                                     ranks=observation.ranks)])

    def _still_there(self, image: npt.NDArray[np.uint8],
                     readings: dict[ZoneId, tuple[ZoneObservation, list[SeenCard]]]) -> None:
        """A column read afresh, in plain view, as anything but the card it last named
        is read once more through that card's outline: when the reader names the same
        card there, it is still there (a column's top only leaves by a hand lifting it,
        and a card laid on it would cover its index), and that reading stands.  A read
        made as a hand leaves can outline a piece of the column (dev game 2061: QH on
        four backs, a hand passing by; the backs' edges below it were outlined with its
        foot and read as a back for 5 s, and a "Spit!" was held back to the players'
        press)."""
        todo: list[tuple[ZoneId, Card, npt.NDArray[np.float32]]] = []
        for zone, (observation, _) in readings.items():
            if zone not in COLUMN_IDS or observation.state == "covered" or observation.under_hand:
                continue
            memory = self._memory[zone]
            if observation.card is not None and observation.corners is not None:
                memory.named = observation
            elif (named := memory.named) is not None:
                assert named.card is not None and named.corners is not None
                todo.append((zone, named.card, named.corners))
        if not todo:
            return
        reads = self.classifier.read([warp_card(image, corners) for _, _, corners in todo])
        for (zone, card, corners), r in zip(todo, reads, strict=True):
            if r.kind != "face" or r.card != card:
                self._memory[zone].named = None  # gone
                continue
            candidates = tuple(getattr(r, "candidates", ()))
            seen = SeenCard(corners, card, float(r.confidence), True, zone, False, candidates,
                            ranks=_ranks(r))
            readings[zone] = (ZoneObservation("face_up", card, float(r.confidence), corners,
                                              candidates, ranks=seen.ranks), [seen])

    def _pile_as_named(self, image: npt.NDArray[np.uint8], geometry: TableGeometry,
                       readings: dict[ZoneId, tuple[ZoneObservation, list[SeenCard]]]) -> None:
        """A pile read afresh as covered or empty with no card found, or as faces none of
        which is named, whose top it last named looks now as it looked then (under
        ``PILE_UNCHANGED`` of that card's outline changed since) still shows that card: a
        card laid on it or a hand over it would change it.  A hand passing by the zone's
        margin has the pile read again, and the finder can fail on a pile where it found
        the top as it landed (dev game 2070: KH on cards laid askew, on a checked cloth,
        read as covered for 5.6 s; the "Spit!" waited for the players' press three
        times), or outline it otherwise, so that it reads unnamed (dev game 2040: 8H on
        8D, named as it landed, read as an unnamed face for 2 s after an arm passed on
        the gingham cloth, and the "Spit!" waited for the press).  Where that outline did
        change, with no arm over it, a new top may lie there (``_new_top_where_named``)."""
        # the piles to read again through their named top's outline: that top, that outline
        todo: list[tuple[ZoneId, Card | None, npt.NDArray[np.float32]]] = []
        for zone, (observation, cards) in readings.items():
            unnamed = (observation.state == "face_up" and observation.card is None
                       and all(c.card is None for c in cards))
            if (zone not in PILE_ZONES or observation.under_hand
                    or not (unnamed or (observation.state in ("covered", "empty") and not cards))):
                continue
            memory = self._memory[zone]
            named, then, now = memory.named, memory.named_crop, memory.crop
            if named is None or named.corners is None or then is None or now is None or then.shape != now.shape:
                continue
            x0, y0, _x1, _y1 = geometry.zone_box(zone, image.shape, margin=0.4)
            outline = named.corners - np.array([x0, y0], np.float32)
            changed = _changed(then, now)
            if _share_inside(changed, outline) < PILE_UNCHANGED:
                assert named.card is not None
                seen = SeenCard(named.corners, named.card, named.confidence, True, zone, False,
                                named.candidates, ranks=named.ranks)
                readings[zone] = (named, [seen])
                continue
            labels, reaching = _reaching_in(changed)
            if _share_inside(np.isin(labels, reaching).astype(np.uint8), outline) <= GLIMPSE_REACH:
                todo.append((zone, named.card, named.corners))  # (no hand over it)
        if todo:
            self._new_top_where_named(image, readings, todo)

    def _new_top_where_named(self, image: npt.NDArray[np.uint8],
                             readings: dict[ZoneId, tuple[ZoneObservation, list[SeenCard]]],
                             todo: Sequence[tuple[ZoneId, Card | None, npt.NDArray[np.float32]]],
                             ) -> None:
        """Piles the finder read as covered, empty or unnamed whose named top's outline
        changed, with no arm reaching in from outside the crop over it (``todo``: the
        pile, that top, its outline), read again through that outline: a card laid
        squarely on a neat pile lies where the top lay.  The card the reader names surely
        there is the pile's new top when it is not the old one, an index corner of the
        outline by itself names it too (``_a_corner_names``) and no other zone shows it
        (dev game 2040: AH laid on 2H, pale gingham all round, outlined by no finder and
        read as covered for 1.7 s; through 2H's outline the second opinion reads AH at
        0.99, and 0.2 s after the hand left its top-left corner alone names it)."""
        views = [warp_card(image, corners) for _, _, corners in todo]
        reads = list(self.classifier.read(views))
        self._ask_second_about_piles(views, reads)
        shown = self._shown(readings)
        for (zone, old, corners), r in zip(todo, reads, strict=True):
            if (r.kind != "face" or r.card is None or r.card == old or r.card in shown
                    or not self._a_corner_names(image, corners, r.card)):
                continue
            candidates = tuple(getattr(r, "candidates", ()))
            seen = SeenCard(corners, r.card, float(r.confidence), True, zone, False, candidates,
                            ranks=_ranks(r))
            readings[zone] = (ZoneObservation("face_up", r.card, float(r.confidence), corners,
                                              candidates, ranks=seen.ranks), [seen])

    def _off_centre_again(self, image: npt.NDArray[np.uint8], geometry: TableGeometry,
                          readings: dict[ZoneId, tuple[ZoneObservation, list[SeenCard]]]) -> None:
        """A column read as a back or an unnamed face from an outline whose centre lies
        ``OFF_CENTRE`` card widths or more from the column's is looked at again by the
        card showing four whole sides there (``_zone_tops``), whose reading stands when it
        is a face.  A column's cards lie on the dealt card's place; an outline that far
        off is most likely a piece of the card with the cloth beside it (dev game 2044,
        violet stripes: B's JD, just turned up, outlined 0.65 widths off and read as a
        back for two seconds, so no stall was called and the spit cards were taken for
        played)."""
        todo: list[tuple[ZoneId, npt.NDArray[np.float32]]] = []
        for zone, (observation, _) in readings.items():
            if (zone not in COLUMN_IDS or observation.corners is None
                    or observation.card is not None
                    or observation.state not in ("face_up", "face_down")):
                continue
            centre = geometry.zones[zone].mean(axis=0)
            if (np.linalg.norm(observation.corners.mean(axis=0) - centre)
                    < OFF_CENTRE * geometry.card_width):
                continue
            tops = _tops_in(image, geometry, zone)
            if tops:
                todo.append((zone, tops[0]))
        if not todo:
            return
        reads = self.classifier.read([warp_card(image, c) for _, c in todo])
        for (zone, corners), r in zip(todo, reads, strict=True):
            if r.kind != "face":
                continue
            seen = SeenCard(corners, r.card, float(r.confidence), True, zone, False,
                            getattr(r, "candidates", ()), ranks=_ranks(r))
            readings[zone] = (self._observe(image, geometry, zone, [seen]), [seen])

    def _look_again(self, image: npt.NDArray[np.uint8], geometry: TableGeometry,
                    readings: dict[ZoneId, tuple[ZoneObservation, list[SeenCard]]],
                    searched: Mapping[ZoneId, list[npt.NDArray[np.float32]]] | None = None,
                    aside: Mapping[ZoneId, list[npt.NDArray[np.float32]]] | None = None,
                    ) -> None:
        """A face-up top left unnamed is read again, all such zones in one batch,
        through the outlines of cards whose four sides show around it (``find_pile_tops``;
        ``searched``: the zones looked at that way already, with the outlines left to
        read).  The name is taken when the reader names one card there, and no other
        zone shows it.  The finder's outline of a column's top can take in the stack
        below it; a pile's top can be fitted a little off (a frame line printed inside
        the card, the edge of a card squared up below it).

        A centre pile's outlines found by their four sides clear of the likeliest one
        (``aside``: per pile looked at that way already; else they are looked for) are
        read too.  On a checked cloth the likeliest can be a square beside the top, read
        as an unnamed face (dev game 2040, gingham: 5D on the left pile unnamed for
        2.1 s after a spit, its own outline ranked fourth).  Such an outline's name
        counts only when sure (``UNDER_HAND_CONFIDENCE``) and an index corner of it
        names the card by itself (``_a_corner_names``)."""
        searched = searched or {}
        aside = aside or {}
        todo: list[tuple[ZoneId, npt.NDArray[np.float32], bool]] = []
        for zone, (observation, _) in readings.items():
            if (observation.state != "face_up" or observation.card is not None
                    or observation.corners is None):
                continue
            beside = list(aside.get(zone, ()))
            outlines = (searched[zone] if zone in searched
                        else _tops_in(image, geometry, zone, aside=beside))
            todo += [(zone, c, False) for c in outlines
                     if 0.5 <= _iou(c, observation.corners) <= 0.9]  # the same card, elsewise
            if zone in PILE_ZONES:
                todo += [(zone, c, True) for c in beside]
        if not todo:
            return
        reads = self.classifier.read([warp_card(image, c) for _, c, _ in todo])
        names: dict[ZoneId, dict[Card, tuple[float, npt.NDArray[np.float32], _Read]]] = {}
        for (zone, corners, apart), r in zip(todo, reads, strict=True):
            if apart and (r.kind != "face" or r.card is None
                          or float(r.confidence) < UNDER_HAND_CONFIDENCE
                          or not self._a_corner_names(image, corners, r.card)):
                continue
            if r.kind == "face" and r.card is not None:
                best = names.setdefault(zone, {}).get(r.card)
                if best is None or float(r.confidence) > best[0]:
                    names[zone][r.card] = (float(r.confidence), corners, r)
        # every card is unique: a name another zone shows already is no name here
        shown = {z: m.observation.card for z, m in self._memory.items()
                 if m.observation is not None and m.observation.card is not None}
        shown.update({z: o.card for z, (o, _) in readings.items() if o.card is not None})
        for zone, found in names.items():
            if len(found) != 1:
                continue  # the looks disagree: no name
            ((card, (confidence, corners, r)),) = found.items()
            if any(c == card for z, c in shown.items() if z != zone):
                continue
            cards = [c for c in readings[zone][1] if _overlap_share(c.corners, corners) < 0.8]
            seen = SeenCard(corners, card, confidence, True, zone, False,
                            getattr(r, "candidates", ()), ranks=_ranks(r))
            readings[zone] = (ZoneObservation("face_up", card, confidence, corners,
                                              seen.candidates, ranks=seen.ranks), [seen, *cards])
            shown[zone] = card

    def _observe(self, image: npt.NDArray[np.uint8], geometry: TableGeometry, zone: ZoneId,
                 seen: list[SeenCard]) -> ZoneObservation:
        """The zone's state from the cards read in it, or from how much table shows."""
        seen = [s for s in seen if not self._is_table(image, s)]
        top = [s for s in seen if not s.covered] or seen
        if top:
            card = top[0]
            self._note_paper(image, card)
            state: ZoneState = "face_up" if card.face_up else "face_down"
            return ZoneObservation(state, card.card, card.confidence, card.corners,
                                   card.candidates if card.face_up else (),
                                   ranks=card.ranks if card.face_up else ())
        foreign = self._foreign_fraction(image, geometry, zone, tones=True)
        if foreign > COVER_FRACTION:
            return ZoneObservation("covered", None, min(1.0, foreign), None)
        return ZoneObservation("empty", None, 1.0 - foreign, None)

    def _thumbnail(self, grey: npt.NDArray[np.uint8], geometry: TableGeometry,
                   zone: ZoneId) -> npt.NDArray[np.float32]:
        """The zone of the frame in grey (``grey``, the whole frame's, made once for all
        zones) at ``THUMB_PER_CARD`` pixels per card width (so that a new card's pips
        show, whatever the zone's size)."""
        x0, y0, x1, y1 = geometry.zone_box(zone, grey.shape)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return np.zeros((2, 2), np.float32)
        per_px = THUMB_PER_CARD / max(geometry.card_width, 1.0)
        size = (max(2, round((x1 - x0) * per_px)), max(2, round((y1 - y0) * per_px)))
        patch = grey[y0:y1, x0:x1]
        step = max(1, min(patch.shape[0] // size[1], patch.shape[1] // size[0]) // 2)
        return cv2.resize(patch[::step, ::step], size, interpolation=cv2.INTER_AREA).astype(np.float32)

    def _estimate_table_colour(self, image: npt.NDArray[np.uint8],
                               geometry: TableGeometry) -> npt.NDArray[np.float32]:
        """Median colour of the centre band, which is empty when the geometry is found."""
        pixels = []
        for zone in ("left", "right"):
            x0, y0, x1, y1 = geometry.zone_box(zone, image.shape)
            if x1 > x0 and y1 > y0:
                pixels.append(image[y0:y1:4, x0:x1:4].reshape(-1, 3))
        if not pixels:
            return np.full(3, 128, np.float32)
        return np.median(np.concatenate(pixels), axis=0).astype(np.float32)

    def _estimate_zone_colours(self, image: npt.NDArray[np.uint8], geometry: TableGeometry,
                               table: npt.NDArray[np.float32]) -> dict[ZoneId, npt.NDArray[np.float32]]:
        """The table's colour just outside each zone: the median of a ring a third of a
        card wide around it, where it is the table's colour darkened or lit (the same
        shade: a hand or a card there is not table)."""
        out: dict[ZoneId, npt.NDArray[np.float32]] = {}
        shade = table / max(float(table.sum()), 1.0)
        for zone in geometry.zones:
            x0, y0, x1, y1 = geometry.zone_box(zone, image.shape, margin=RING_WIDTH)
            ix0, iy0, ix1, iy1 = geometry.zone_box(zone, image.shape)
            if x1 - x0 < 4 or y1 - y0 < 4:
                continue
            step = RING_STEP  # a pixel in every few each way is plenty for a median
            patch = image[y0:y1:step, x0:x1:step]
            ring = _ring(patch, *_inner_bounds((x0, y0), (ix0, iy0, ix1, iy1), step))
            if len(ring) < 16:
                continue
            colour = _channel_medians(ring)
            if float(np.abs(colour / max(float(colour.sum()), 1.0) - shade).max()) <= RING_SHADE:
                out[zone] = colour
        return out

    def _estimate_zone_tones(self, image: npt.NDArray[np.uint8], geometry: TableGeometry,
                             ) -> dict[ZoneId, list[npt.NDArray[np.float32]]]:
        """The other colours of a patterned table around each zone (``TONES``): an
        empty list on a cloth of one colour."""
        boxes = {zone: geometry.zone_box(zone, image.shape, margin=RING_WIDTH) for zone in geometry.zones}
        if not boxes:
            return {}
        bx0, by0 = min(b[0] for b in boxes.values()), min(b[1] for b in boxes.values())
        bx1, by1 = max(b[2] for b in boxes.values()), max(b[3] for b in boxes.values())
        cardless = np.ones((max(0, by1 - by0), max(0, bx1 - bx0)), np.uint8)  # (over the rings)
        for quad in geometry.zones.values():
            cv2.fillConvexPoly(cardless, np.round(quad - np.array([bx0, by0], np.float32)).astype(np.int32), 0)
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
        found: dict[ZoneId, list[npt.NDArray[np.float32]]] = {}
        for zone in geometry.zones:
            x0, y0, x1, y1 = boxes[zone]
            ix0, iy0, ix1, iy1 = geometry.zone_box(zone, image.shape)
            step = TONE_STEP
            # (the ring: the zone's box cut out)
            free = cardless[y0 - by0:y1 - by0:step, x0 - bx0:x1 - bx0:step].copy()
            top, bottom, left, right = _inner_bounds((x0, y0), (ix0, iy0, ix1, iy1), step)
            free[top:bottom, left:right] = 0
            ring = np.ascontiguousarray(image[y0:y1:step, x0:x1:step][free > 0]).reshape(-1, 1, 3)
            median = self._zone_colours.get(zone, self._table_colour)
            if len(ring) < 16 * TONES or median is None:
                continue
            far = _channel_max(cv2.absdiff(ring, np.full_like(ring, np.round(median).astype(np.uint8))))
            if float((far >= TONE_APART / 2).mean()) < TONE_SHARE / 2:
                continue  # (of one colour: too few pixels far from the median for a tone)
            pixels = ring.reshape(-1, 3).astype(np.float32)
            cv2.setRNGSeed(0)  # the same tones from the same frame
            _, labels, centres = cv2.kmeans(pixels, TONES, np.zeros((len(pixels), 1), np.int32),
                                            criteria, 2, cv2.KMEANS_PP_CENTERS)
            shares = np.bincount(np.asarray(labels).ravel(), minlength=TONES) / len(pixels)
            found[zone] = [np.asarray(c, np.float32) for c, share in zip(centres, shares, strict=True)
                           if share >= TONE_SHARE and float(np.abs(c - median).max()) >= TONE_APART]
        out: dict[ZoneId, list[npt.NDArray[np.float32]]] = {}
        for zone, tones in found.items():
            out[zone] = []
            for tone in tones:
                around = [elsewhere for elsewhere, others in found.items() if any(
                    float(np.abs(tone - other).max()) < TABLE_DISTANCE for other in others)]
                sides = {_zone_side(z) for z in around}
                if len(around) >= TONE_ZONES and {"A", "B"} <= sides:
                    out[zone].append(tone)
        return out

    def _is_table(self, image: npt.NDArray[np.uint8], seen: SeenCard) -> bool:
        """Whether a face the reader could not name is bare table after all.

        The reader judges a card by its own contrast, so a printed cloth's dots in an
        empty zone (or the gap a card has just left) can look like pips to it.  A face
        is paper: an outline that mostly shows the table's own colour is not one.  On
        a white or cream table paper and table look alike, so nothing is ruled out there:
        a table within ``TABLE_DISTANCE`` of the cards' paper (``_note_paper``), or,
        before a face is named surely, a light and nearly grey one (a light pink
        gingham, dev game 2053, is that, but 80 from white cards: its empty squares,
        read as an unnamed face, kept a column from showing cleared, and the next deal
        was missed).
        """
        colour = self._table_colour
        if not seen.face_up or seen.card is not None or colour is None:
            return False
        if self._paper is not None:
            if float(np.abs(colour - self._paper).max()) < TABLE_DISTANCE:
                return False
        elif _paper_coloured(colour):
            return False
        box = _outline_box(image, seen.corners)
        if box is None:
            return False
        distance = self._table_distances(image, seen.corners, box, seen.zone, tones=True)
        if distance is None:
            return False
        table = distance < TABLE_DISTANCE
        if self._paper is not None:
            # on a table a little further from the paper than TABLE_DISTANCE, the paper's
            # own shading falls within it of the table: a pixel nearer the paper is paper
            # (dev game 2069, salmon cloth 47 from the paper: KD in plain view in B5, an
            # unnamed face, taken for table and read as covered for seconds)
            paper = self._table_distances(image, seen.corners, box, colour=self._paper)
            if paper is not None:
                table &= distance < paper
        return float(table.mean()) >= TABLE_SHARE

    def _note_paper(self, image: npt.NDArray[np.uint8], seen: SeenCard) -> None:
        """The cards' paper colour, from a face named surely: the brighter quarter of
        its pixels (most of a face is paper; pips and pictures are darker)."""
        if self._paper is not None or not seen.face_up or seen.card is None \
                or seen.confidence < PAPER_FROM:
            return
        box = _outline_box(image, seen.corners)
        if box is None:
            return
        patch, inside = _inside(image, seen.corners, box)
        pixels = patch[inside]
        if len(pixels) >= 16:
            self._paper = np.percentile(pixels, 75, axis=0).astype(np.float32)

    def _foreign_fraction(self, image: npt.NDArray[np.uint8], geometry: TableGeometry,
                          zone: ZoneId, tones: bool = False) -> float:
        """Fraction of a zone's pixels whose colour is far from the table's (with
        ``tones``, from any of its colours there: ``_table_distances``)."""
        x0, y0, x1, y1 = box = geometry.zone_box(zone, image.shape)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return 0.0
        distance = self._table_distances(image, geometry.zones[zone], box, zone, tones=tones)
        return 0.0 if distance is None else float((distance > TABLE_DISTANCE).mean())

    def _table_distances(self, image: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32],
                         box: tuple[int, int, int, int], zone: ZoneId | None = None,
                         colour: npt.NDArray[np.float32] | None = None, tones: bool = False,
                         ) -> npt.NDArray[np.float32] | None:
        """How far from the table's colour (around ``zone``, if known), or from
        ``colour`` when given, each pixel inside ``quad`` lies (largest channel
        difference, every other pixel of ``box``); None when none lies inside.

        With ``tones``, from the nearest of the table's colours around ``zone``
        (``TONES``), unless ``TONE_PAPER_SHARE`` of the pixels or more are nearer the
        cards' paper (or the paper is not known yet): a court card's picture has the
        colours of many a cloth (dev game 2296: JS on the left pile, on stripes, its
        picture taken for table, read as an empty pile for 7 s while cards went onto
        it).  For whether a zone where no card was found is empty, and whether an
        unnamed face is table (``_is_table``); whether to look for a card's sides there
        is judged by the main colour, as a back's pattern can have the cloth's colours
        too (2296: backs in emptied columns no longer looked for, and read as empty)."""
        assert self._table_colour is not None
        tones_here = self._zone_tones.get(zone, []) if tones and colour is None and zone is not None else []
        if colour is None:
            colour = (self._zone_colours.get(zone, self._table_colour) if zone is not None
                      else self._table_colour)
        pixels, inside = _inside(image, quad, box)
        if not inside.any():
            return None
        patch = pixels.astype(np.float32)
        distance = _channel_max(cv2.absdiff(patch, np.full_like(patch, colour)))
        if tones_here and self._paper is not None:
            nearest = distance
            for tone in tones_here:
                nearest = np.minimum(nearest, _channel_max(cv2.absdiff(patch, np.full_like(patch, tone))))
            paper = _channel_max(cv2.absdiff(patch, np.full_like(patch, self._paper)))
            paperlike = (paper < nearest) & (paper < TABLE_DISTANCE)
            if float(paperlike[inside].mean()) < TONE_PAPER_SHARE:
                distance = nearest  # no card's paper shows: all of the cloth's tones are table
        return np.asarray(distance[inside], np.float32)


def _ranks(read: _Read) -> tuple[tuple[Rank, float], ...]:
    """A reading's likeliest ranks given a face (``CardRead.ranks``; none from a reader
    that does not give them)."""
    return tuple(getattr(read, "ranks", ()))


def _outline_box(image: npt.NDArray[np.uint8], corners: npt.NDArray[np.float32],
                 ) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1) around an outline, cut to the image; None when under
    4 pixels either way."""
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    x0, y0 = max(int(x0), 0), max(int(y0), 0)
    x1, y1 = min(int(x1), image.shape[1]), min(int(y1), image.shape[0])
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    return x0, y0, x1, y1


def _inside(image: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32],
            box: tuple[int, int, int, int]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]:
    """Every other pixel of ``box``, and which of them lie inside ``quad``."""
    x0, y0, x1, y1 = box
    patch = image[y0:y1:2, x0:x1:2]
    mask = np.zeros(patch.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, ((quad - np.array([x0, y0], np.float32)) / 2).astype(np.int32), 1)
    return np.asarray(patch, np.uint8), mask.astype(bool)


def _keep_seen_spit(old: TableGeometry | None, new: TableGeometry) -> TableGeometry:
    """``new`` with the spit zones of ``old`` where ``old`` saw the spit piles and
    ``new`` did not (they were still in the dealers' hands when the rows were taken),
    as long as the columns lie where they lay (the camera and table have not moved).

    The layout's spit zones are where the rules of thumb put spit piles; players put
    theirs a little further or nearer, and a zone half off its pile reads it as empty or
    covered for a whole round.
    """
    if old is None or old.source != "deal" or new.source != "deal":
        return new
    keep = (old.spit_seen - new.spit_seen) & {"spitA", "spitB"}
    if not keep:
        return new
    shift = max(float(np.linalg.norm(new.zones[z].mean(axis=0) - old.zones[z].mean(axis=0)))
                for z in COLUMN_IDS)
    if shift > SPIT_KEEP_SHIFT * new.card_width:
        return new
    zones = dict(new.zones)
    for zone in keep:
        zones[zone] = old.zones[zone]
    return TableGeometry(zones, new.table_to_image, new.card_width, new.source,
                         new.spit_seen | keep)


def _skips_a_column(old: TableGeometry, new: TableGeometry) -> bool:
    """Does a later round's layout lie a column off the zones in use for one player: some
    of the player's columns where the zones in use have the same columns and others where
    they have the next column over (or the spit pile), its columns less evenly spaced than
    theirs; or a column where they have the spit pile, with no spit pile seen beyond it?

    A row found without one of its dealt cards (a court card the quick finder missed), and
    with the face-down spit pile, read as a face, at its end, still fits a dealt layout at
    a sloppy deal's misfit: from the gap on, its columns are one over (dev game 2678, round
    6: A's zones a column off for nine rounds); with the card missing at the row's other
    end, every column is one over, evenly spaced (2678, round 10: B's).  A row that moved
    as a whole lies on the zones in use one way, with its spit pile beyond it, or on none
    of them; and zones in use that were taken with a gap, less evenly spaced, give way to
    a deal that lies evenly.
    """
    for side in "AB":
        spit = f"spit{side}"
        place = {zone: k for k in range(1, 6) if (zone := f"{side}{k}") in old.zones}
        place[spit] = 6  # beyond the fifth column, as the layout puts it
        offsets = set()
        for k in range(1, 6):
            zone = f"{side}{k}"
            if zone not in new.zones:
                continue
            under = old.zone_at(new.zones[zone].mean(axis=0))
            if under is not None and under in place:
                offsets.add(place[under] - k)
                if under == spit and spit not in new.spit_seen:
                    return True
        if len(offsets) > 1 and _uneven(new, side) > _uneven(old, side):
            return True
    return False


def _uneven(geometry: TableGeometry, side: str) -> float:
    """How unevenly a player's five column zones are spaced: the spread of the distances
    between neighbours over their mean (0 for even)."""
    centres = np.array([geometry.zones[f"{side}{k}"].mean(axis=0) for k in range(1, 6)],
                       np.float64)
    gaps = np.linalg.norm(np.diff(centres, axis=0), axis=1)
    return float(gaps.std() / max(float(gaps.mean()), 1e-6))


def _short_side(card: SeenCard | FoundCard) -> float:
    """The short side of a card's outline (pixels)."""
    (_, _), (w, h), _ = cv2.minAreaRect(card.corners.astype(np.float32))
    return float(min(w, h))


def _up_for_deal(card: SeenCard) -> bool:
    """Does a deal's layout count ``card`` as a face?  A face the reader could not name
    that does not look like paper either is more likely a back of a design the reader
    does not know (beside a row it would take a column's place), and counts as face down."""
    return card.face_up and (card.card is not None or card.papery)


def _as_dealt(seen: Sequence[SeenCard]) -> list[DealtCard]:
    """``seen`` as a deal's layout counts them (``_up_for_deal``)."""
    return [DealtCard(s.corners, _up_for_deal(s)) for s in seen]


def _faces_for_deal(seen: Sequence[SeenCard]) -> int:
    """How many of ``seen`` a deal's layout counts as faces."""
    return sum(_up_for_deal(card) for card in seen)


def _lies_as_deal(seen: Sequence[SeenCard]) -> bool:
    """Do ``seen`` lie as a whole deal that fits a dealt layout?"""
    try:
        geometry_from_deal(_as_dealt(seen))
    except GeometryError:
        return False
    return True


def _cut_to_top_cards(seen: list[SeenCard]) -> list[SeenCard]:
    """Faces outlined with the cards sticking out under them cut to their top card.

    What changed since the empty table takes in a dealt column's face-down cards with
    its top card: they stick out beyond its far end, away from the table's middle (each
    player's row is dealt towards the player).  In each row (the faces on either side
    of the middle of all the outlines, across the cards' long sides) the shortest face
    is taken for a card's length (the first column has no card under it, and the
    farther row looks smaller), and each longer face keeps that length from its end
    nearer the middle."""
    up = [card for card in seen if card.face_up]
    if len(up) < 5:
        return seen
    middle = np.mean([c.corners.mean(axis=0) for c in seen], axis=0)
    along = np.mean([_unit(c.corners[3] - c.corners[0]) * np.sign(
        float(np.dot(c.corners[3] - c.corners[0], [0.0, 1.0])) or 1.0) for c in up], axis=0)

    # each face's row (which side of the middle) and long side, measured once
    rows = [float(np.dot(c.corners.mean(axis=0) - middle, along)) > 0 for c in seen]
    longs = [float(np.linalg.norm(np.subtract(c.corners[2], c.corners[1], dtype=np.float64)))
             for c in seen]
    shortest: dict[bool, float] = {}
    for card, side, long in zip(seen, rows, longs, strict=True):
        if card.face_up:
            shortest[side] = min(long, shortest.get(side, long))
    out = []
    for card, side, long in zip(seen, rows, longs, strict=True):
        if not card.face_up or long <= CUT_SLACK * shortest[side]:
            out.append(card)
            continue
        c = card.corners.astype(np.float64)
        share = shortest[side] / long
        if (np.linalg.norm((c[0] + c[1]) / 2 - middle)
                <= np.linalg.norm((c[2] + c[3]) / 2 - middle)):  # keep the side c0-c1
            cut = [c[0], c[1], c[1] + (c[2] - c[1]) * share, c[0] + (c[3] - c[0]) * share]
        else:  # keep the side c2-c3
            cut = [c[3] + (c[0] - c[3]) * share, c[2] + (c[1] - c[2]) * share, c[2], c[3]]
        out.append(replace(card, corners=np.array(cut, np.float32)))
    return out


def _unit(vector: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    return np.asarray(vector, np.float64) / max(float(np.linalg.norm(vector)), 1e-9)


def _same_columns(a: TableGeometry, b: TableGeometry) -> bool:
    """Do two layouts put every column zone within ``SAME_COLUMN_WIDTHS`` card widths of
    the same place?"""
    return _zones_near(a, b, [z for z in COLUMN_IDS if z in a.zones and z in b.zones],
                       SAME_COLUMN_WIDTHS)


def _same_layout(a: TableGeometry, b: TableGeometry) -> bool:
    """Do two layouts put every zone in the same place (``MISFIT_SAME_WIDTHS``)?"""
    return a.zones.keys() == b.zones.keys() and _zones_near(a, b, a.zones, MISFIT_SAME_WIDTHS)


def _zones_near(a: TableGeometry, b: TableGeometry, zones: Iterable[ZoneId],
                widths: float) -> bool:
    """Does every one of ``zones`` lie within ``widths`` card widths of the same place in
    both layouts?"""
    reach = widths * min(a.card_width, b.card_width)
    return all(float(np.linalg.norm(a.zones[z].mean(axis=0) - b.zones[z].mean(axis=0))) <= reach
               for z in zones)


def _zone_side(zone: ZoneId) -> str:
    """Whose side of the table a zone lies on: "A", "B", or "" for the centre piles."""
    if zone in PILE_ZONES:
        return ""
    return zone[-1] if zone.startswith("spit") else zone[0]


def _paper_coloured(colour: npt.NDArray[np.float32]) -> bool:
    """A light, nearly grey colour, as card paper is (BGR)."""
    return float(colour.min()) > 150 and float(colour.max() - colour.min()) < 50


def _find_mat_quickly(image: npt.NDArray[np.uint8]) -> MatDetection | None:
    """``find_mat``, after a cheap look at half size: most frames show no mat."""
    height, width = image.shape[:2]
    if min(height, width) >= 240:
        half = cv2.resize(image, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
        if find_mat(np.asarray(half, np.uint8)) is None:
            return None
    return find_mat(image)


def _belongs(geometry: TableGeometry, zone: ZoneId, corners: npt.NDArray[np.float32]) -> bool:
    """Whether a card outline found around ``zone`` lies in it: its centre is in the
    zone, or in no zone while it overlaps this one by a third (piles creep; the spit
    zones are extrapolated)."""
    where = geometry.zone_at(corners.mean(axis=0))
    if where is None and _overlap_share(corners, geometry.zones[zone]) >= 0.3:
        where = zone
    return where == zone


def _long_axis(quad: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The unit direction of a quad's longer pair of opposite sides."""
    sides = np.roll(quad, -1, axis=0) - quad
    first = sides[0] - sides[2]  # the two opposite sides, the same way round
    second = sides[1] - sides[3]
    axis = first if np.linalg.norm(first) >= np.linalg.norm(second) else second
    return np.asarray(axis / max(float(np.linalg.norm(axis)), 1e-6), np.float32)


def _crosswise(corners: npt.NDArray[np.float32], geometry: TableGeometry, zone: ZoneId) -> bool:
    """Does a card-shaped outline lie across a column rather than along it (its long
    sides over 45 degrees from the table's direction towards the players there)?  The
    direction comes from the table plane (a column zone's own shape can be nearly
    square: the dealt card with the stack showing below it)."""
    short, long = sorted(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)[:2])
    if long < CARD_SHAPED * short:
        return False  # nearly square: no telling which way it lies
    to_image = geometry.table_to_image
    to_table = np.asarray(np.linalg.inv(to_image), np.float64)
    centre = project(to_table, geometry.zones[zone].mean(axis=0, keepdims=True))[0]
    ends = project(to_image, np.array([centre, centre + np.array([0.0, 10.0], np.float32)]))
    along = ends[1] - ends[0]
    along = along / max(float(np.linalg.norm(along)), 1e-6)
    return abs(float(np.dot(_long_axis(corners), along))) < CROSSWISE_COS


def _zone_tops(crop: npt.NDArray[np.uint8], offset: npt.NDArray[np.float32],
               geometry: TableGeometry, zone: ZoneId, fine: bool = False,
               faint: list[npt.NDArray[np.float32]] | None = None,
               aside: list[npt.NDArray[np.float32]] | None = None,
               paperless: list[npt.NDArray[np.float32]] | None = None,
               ) -> list[npt.NDArray[np.float32]]:
    """``find_pile_tops`` in a zone's crop, in image pixels: the likeliest top card, then
    the other outlines that overlap it; none when the likeliest shows no paper (a pile's
    top shows a face) or lies outside the zone.  The outlines with three whole sides
    and a faint fourth go into ``faint`` (when given) the same way, when none has four;
    the zone's other outlines showing paper, clear of the likeliest, into ``aside``; the
    likeliest, when it lies in the zone but shows no paper, into ``paperless``."""
    three: list[FoundCard] | None = [] if faint is not None else None
    found = find_pile_tops(crop, geometry.card_width, fine=fine, faint=three)
    if faint is not None and three:
        faint += _pile_outlines(three, offset, geometry, zone)
    return _pile_outlines(found, offset, geometry, zone, aside, paperless)


def _pile_outlines(found: Sequence[FoundCard], offset: npt.NDArray[np.float32],
                   geometry: TableGeometry, zone: ZoneId,
                   aside: list[npt.NDArray[np.float32]] | None = None,
                   paperless: list[npt.NDArray[np.float32]] | None = None,
                   ) -> list[npt.NDArray[np.float32]]:
    """``_zone_tops`` of the outlines ``find_pile_tops`` gave."""
    tops = [(t.corners + offset, t.face_up) for t in found]
    if not tops or not _belongs(geometry, zone, tops[0][0]):
        return []
    if not tops[0][1]:
        if paperless is not None:
            paperless.append(tops[0][0])
        return []
    first = tops[0][0]
    rest = [c for c, face_up in tops[1:] if face_up and _belongs(geometry, zone, c)]
    if aside is not None:
        aside += [c for c in rest if _iou(c, first) < 0.5]
    return [first] + [c for c in rest if _iou(c, first) >= 0.5]


def _tops_in(image: npt.NDArray[np.uint8], geometry: TableGeometry,
             zone: ZoneId, fine: bool = False,
             aside: list[npt.NDArray[np.float32]] | None = None,
             ) -> list[npt.NDArray[np.float32]]:
    """``_zone_tops`` in the zone's crop of ``image`` (none for a zone under 8 pixels)."""
    x0, y0, x1, y1 = geometry.zone_box(zone, image.shape, margin=0.4)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return []
    crop = np.ascontiguousarray(image[y0:y1, x0:x1])
    return _zone_tops(crop, np.array([x0, y0], np.float32), geometry, zone, fine=fine,
                      aside=aside)


def _reaching_in(changed: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.int32], list[int]]:
    """The region labels of a crop's change (``_changed``), and those of the regions
    reaching the crop's border (an arm reaching in)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
    height, width = changed.shape
    reaching = [i for i in range(1, count)
                if stats[i, 0] == 0 or stats[i, 1] == 0
                or stats[i, 0] + stats[i, 2] >= width or stats[i, 1] + stats[i, 3] >= height]
    return np.asarray(labels, np.int32), reaching


def _under_arm(changed: npt.NDArray[np.uint8], inner: tuple[slice, slice],
               ) -> tuple[float, npt.NDArray[np.int32]]:
    """The share of a crop's ``inner`` part (a zone) whose change (``_changed``) belongs
    to a region reaching the crop's border (an arm reaching in), and the change's region
    labels there."""
    labels, reaching = _reaching_in(changed)
    core = labels[inner]
    if core.size == 0:
        return 0.0, core
    return float(np.isin(core, reaching).mean()), core


def _under_hand(crop: npt.NDArray[np.uint8], changed: npt.NDArray[np.uint8],
                offset: npt.NDArray[np.float32], geometry: TableGeometry, zone: ZoneId,
                ) -> list[npt.NDArray[np.float32]]:
    """Outlines of a card just laid on a pile while the hand that laid it is still over
    it.  The hand hides some of the card's sides, so its outline is not found whole; but
    the side away from the hand usually shows, with an index corner: two straight edges
    meeting at a right angle (``right_angle_corners``).  Each such corner where the zone
    changed (``changed``: since it was last read with nothing over it; a corner of a
    card lower in the pile did not change, one the new card covered is gone) gives the
    card of the table's card size lying either way from it.  At most
    ``UNDER_HAND_LOOKS``, in image pixels."""
    width = geometry.card_width
    height = width * CARD_MM[1] / CARD_MM[0]
    grey = np.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), np.uint8)
    segments = _segments(grey, UNDER_HAND_ARM * width, 1.2 * height)
    reach = max(2, round(0.08 * width))
    rows, cols = changed.shape
    outlines: list[npt.NDArray[np.float32]] = []
    for corner, (ua, la), (ub, lb) in right_angle_corners(segments, UNDER_HAND_ARM * width):
        # just inside the corner, where the index is
        x, y = np.rint(corner + 0.18 * width * (ua + ub)).astype(int)
        if not (reach <= x < cols - reach and reach <= y < rows - reach):
            continue
        if changed[y - reach:y + reach + 1, x - reach:x + reach + 1].mean() < UNDER_HAND_CHANGE:
            continue
        for da, db in ((width, height), (height, width)):
            if la > 1.1 * da or lb > 1.1 * db:
                continue  # a side longer than the card's
            quad = np.array([corner, corner + ua * da, corner + ua * da + ub * db,
                             corner + ub * db], np.float32) + offset
            if geometry.zone_at(quad.mean(axis=0)) == zone:
                outlines.append(order_corners(quad))
            if len(outlines) >= UNDER_HAND_LOOKS:
                return outlines
    return outlines


def _share_inside(mask: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32]) -> float:
    """The mean of a 0/1 mask inside a quad (in the mask's pixels; 0 for none inside)."""
    inside = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.rint(quad).astype(np.int32), 1)
    count = int(inside.sum())
    return float(mask[inside > 0].sum()) / count if count else 0.0


def _iou(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    """Intersection over union of two convex quads."""
    inter, _ = cv2.intersectConvexConvex(a.reshape(-1, 1, 2).astype(np.float32),
                                         b.reshape(-1, 1, 2).astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


def _overlap_share(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    """Intersection of two convex quads over the smaller one's area."""
    inter, _ = cv2.intersectConvexConvex(a.reshape(-1, 1, 2).astype(np.float32),
                                         b.reshape(-1, 1, 2).astype(np.float32))
    smaller = min(cv2.contourArea(a.astype(np.float32)), cv2.contourArea(b.astype(np.float32)))
    return float(inter / smaller) if smaller > 0 else 0.0


def _arrived_card(before: npt.NDArray[np.uint8], after: npt.NDArray[np.uint8],
                  card_width: float) -> npt.NDArray[np.float32] | None:
    """The outline of a card that arrived in a zone since ``before``, from what changed.

    A card laid on a messy pile changes every pixel it covers (except where it happens
    to match what was there), so the convex hull of the changed pixels is its outline,
    even where its edge over the cards below is too faint for the finder.  None when
    the change is not card-shaped and card-sized.
    """
    return _card_shaped(_changed(before, after), card_width)


def _laid_card(changed: npt.NDArray[np.uint8], card_width: float) -> npt.NDArray[np.float32] | None:
    """The outline of a card laid on a pile, from what changed since it named its top
    (``changed``, of ``_changed``), like ``_arrived_card``; thin bridges are cut first:
    over a longer time more of the pile changes, and a changed strip beside the new card
    can join it (dev game 2071, JH laid on QD: a strip along the cards below joined JH
    by a few pixels)."""
    bridge = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    return _card_shaped(np.asarray(cv2.morphologyEx(changed, cv2.MORPH_OPEN, bridge)), card_width)


def _track_scene(memory: _ZoneMemory, image: npt.NDArray[np.uint8],
                 box: tuple[int, int, int, int]) -> None:
    """Keep a centre pile's still scene: each pixel of its crop (``box``) that has not
    changed for ``SCENE_STILL`` frames in a row.  A hand passing or laying a card never
    stays that long, so once it has gone nothing where it was differs from the scene; a
    card laid, or a column's card turned in the crop's margin, joins the scene a third
    of a second after it stops.  Change is judged on the crop shrunk ``SCENE_SHRINK``
    times (each frame, for both piles: a fraction of a millisecond)."""
    x0, y0, x1, y1 = box
    crop = image[y0:y1, x0:x1]
    height, width = crop.shape[:2]
    small = np.asarray(cv2.resize(crop, (max(1, width // SCENE_SHRINK),
                                         max(1, height // SCENE_SHRINK)),
                                  interpolation=cv2.INTER_LINEAR), np.uint8)
    last, still = memory.last_small, memory.still
    if (last is None or last.shape != small.shape or still is None or memory.scene is None
            or memory.scene.shape != crop.shape):
        memory.scene, memory.last_small = crop.copy(), small
        memory.still = np.zeros(small.shape[:2], np.uint8)
        return
    moved = cv2.dilate((_channel_max(cv2.absdiff(small, last)) > SCENE_CHANGE).astype(np.uint8),
                       np.ones((3, 3), np.uint8))
    still += 1
    still[moved > 0] = 0
    np.minimum(still, SCENE_STILL, out=still)
    settled = cv2.resize((still >= SCENE_STILL).astype(np.uint8), (width, height),
                         interpolation=cv2.INTER_NEAREST)
    memory.scene = np.asarray(cv2.copyTo(crop, settled, memory.scene), np.uint8)
    memory.last_small = small


def _changed(before: npt.NDArray[np.uint8], after: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Mask (0/1) of the pixels that changed clearly between two crops of a zone."""
    diff = cv2.absdiff(cv2.GaussianBlur(before, (5, 5), 0), cv2.GaussianBlur(after, (5, 5), 0))
    _, changed = cv2.threshold(_channel_max(diff), 40, 1, cv2.THRESH_BINARY)
    changed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    return np.asarray(cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))


def _card_shaped(changed: npt.NDArray[np.uint8], card_width: float,
                 ) -> npt.NDArray[np.float32] | None:
    """The outline of the largest changed region when it is card-shaped and card-sized."""
    contours, _ = cv2.findContours(changed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    region = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(region)
    rect = cv2.minAreaRect(hull)
    (_, _), (rw, rh), _ = rect
    short, long = min(rw, rh), max(rw, rh)
    if short <= 0 or not 0.8 * card_width <= short <= 1.25 * card_width:
        return None
    if not 1.25 <= long / short <= 1.75:
        return None
    if cv2.contourArea(hull) < 0.85 * rw * rh:
        return None
    return order_corners(cv2.boxPoints(rect))


def _channel_max(image: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Each pixel's largest channel (``image.max(axis=2)``, many times quicker)."""
    channels = cv2.split(np.ascontiguousarray(image))
    largest = channels[0]
    for channel in channels[1:]:
        largest = cv2.max(largest, channel)
    return np.asarray(largest)


def _difference(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    """Share of thumbnail pixels that changed clearly (noise and light flicker do not)."""
    if a.shape != b.shape:  # the frame size changed: everything changed
        return 1.0
    return float((np.abs(a - b) > PIXEL_CHANGE).mean())
