"""Table geometry: where each pile and column of a Spit table lies in the camera image.

Zones (``ZONE_IDS``) follow INTERFACE.md: ``A1..A5`` are the bottom player's columns,
column 1 at the image's left; ``B1..B5`` the top player's, column 1 at the image's
right; ``left``/``right`` the centre piles; ``spitA``/``spitB`` the spit piles.

Both sources of geometry share one *table plane* in millimetres (``LAYOUT``), origin
at the table's centre, x to the image's right, y towards player A:

- ``geometry_from_deal`` finds it from where the cards lie after the deal: two rows
  of five face-up cards.  Column zones are the dealt cards' own outlines, grown, so
  they follow camera tilt and lens distortion exactly; the centre and spit zones
  come from a homography fitted from the table plane to the ten dealt cards.
- ``tablecam.geometry.mat`` prints an ArUco mat in the same plane and finds its
  markers, which fixes every zone exactly.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.errors import TablecamError

ZoneId = str
ZONE_IDS: Final[tuple[ZoneId, ...]] = (
    "A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3", "B4", "B5",
    "left", "right", "spitA", "spitB")
#: The ten column zones, A's then B's.
COLUMN_IDS: Final[tuple[ZoneId, ...]] = ZONE_IDS[:10]

Quad = npt.NDArray[np.float32]

#: Card size on the table plane (poker cards), millimetres.
CARD_MM: Final = (63.0, 88.0)
#: Distance between neighbouring columns' centres, millimetres.
COLUMN_PITCH_MM: Final = 76.0
#: Distance of each row of columns from the table's centre line, millimetres.
ROW_OFFSET_MM: Final = 150.0


@dataclass(frozen=True)
class ZoneRect:
    """A zone on the table plane: centre and size in millimetres."""

    x: float
    y: float
    width: float
    height: float

    def corners(self) -> Quad:
        """Clockwise from the top left (image orientation)."""
        x0, x1 = self.x - self.width / 2, self.x + self.width / 2
        y0, y1 = self.y - self.height / 2, self.y + self.height / 2
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32)


def _layout() -> dict[ZoneId, ZoneRect]:
    zones: dict[ZoneId, ZoneRect] = {}
    column_w, column_h = COLUMN_PITCH_MM - 2, 104.0
    for i in range(1, 6):
        offset = (i - 3) * COLUMN_PITCH_MM
        zones[f"A{i}"] = ZoneRect(offset, ROW_OFFSET_MM, column_w, column_h)
        zones[f"B{i}"] = ZoneRect(-offset, -ROW_OFFSET_MM, column_w, column_h)
    band = 2 * ROW_OFFSET_MM - column_h - 8  # the free band between the two rows
    zones["left"] = ZoneRect(-1.1 * COLUMN_PITCH_MM, 0, 2 * COLUMN_PITCH_MM, band)
    zones["right"] = ZoneRect(1.1 * COLUMN_PITCH_MM, 0, 2 * COLUMN_PITCH_MM, band)
    # each player's spit pile lies on their own right: A's at the image's right
    spit_x = 3.2 * COLUMN_PITCH_MM
    zones["spitA"] = ZoneRect(spit_x, ROW_OFFSET_MM, column_w, column_h)
    zones["spitB"] = ZoneRect(-spit_x, -ROW_OFFSET_MM, column_w, column_h)
    return zones


#: Every zone on the table plane.
LAYOUT: Final[Mapping[ZoneId, ZoneRect]] = _layout()


class GeometryError(TablecamError):
    """The table layout could not be found in an image."""


class LayoutMisfitError(GeometryError):
    """Two rows of five whole face-up cards are in view, but they do not lie as dealt.

    ``layout`` is the geometry the best-fitting choice of rows would give: a caller that
    keeps seeing only this layout may take it rather than stay without zones.
    """

    def __init__(self, message: str, layout: TableGeometry) -> None:
        super().__init__(message)
        self.layout = layout


@dataclass(frozen=True, eq=False)
class TableGeometry:
    """Every zone's outline in image pixels.

    ``zones``: 4 x 2 float32 quads, clockwise from the top left as the camera sees it.
    ``table_to_image``: 3 x 3 homography from the table plane (mm) to image pixels.
    ``card_width``: the typical card's short side in pixels.
    ``source``: ``"deal"`` (found from the dealt cards) or ``"mat"`` (ArUco markers).
    ``spit_seen``: the spit zones laid over face-down cards seen beside the rows (the
    others are where the layout puts spit piles).
    """

    zones: Mapping[ZoneId, Quad]
    table_to_image: npt.NDArray[np.float64]
    card_width: float
    source: Literal["deal", "mat"]
    spit_seen: frozenset[ZoneId] = frozenset()
    # zone boxes already worked out, by (zone, image height, width, margin): the table
    # reader asks for the same few dozen every frame
    _boxes: dict[tuple[ZoneId, int, int, float], tuple[int, int, int, int]] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def zone_at(self, point: Sequence[float]) -> ZoneId | None:
        """The zone containing an image point, on its outline included (the nearest
        centre if zones overlap; the first zone of ``zones`` on a tie)."""
        return self.zones_at(np.asarray(point, np.float64).reshape(1, 2))[0]

    def zones_at(self, points: npt.ArrayLike) -> list[ZoneId | None]:
        """``zone_at`` of each of N x 2 image points, at once."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if not self.zones or not len(pts):
            return [None] * len(pts)
        names, quads, centres = self._outlines
        x, y = pts[:, 0, None, None], pts[:, 1, None, None]  # points x zones x corners
        # every quad is convex: a point lies inside when it is on the same side of all
        # four edges (no two cross products of edge and point of opposite signs)
        edges = np.roll(quads, -1, axis=1) - quads
        cross = edges[..., 0] * (y - quads[..., 1]) - edges[..., 1] * (x - quads[..., 0])
        inside: npt.NDArray[np.bool_] = np.asarray(
            (cross >= 0).all(axis=2) | (cross <= 0).all(axis=2))
        distance = np.hypot(centres[:, 0] - pts[:, 0, None], centres[:, 1] - pts[:, 1, None])
        nearest: list[int] = np.argmin(np.where(inside, distance, np.inf), axis=1).tolist()
        found: list[bool] = np.any(inside, axis=1).tolist()
        return [names[k] if hit else None for k, hit in zip(nearest, found, strict=True)]

    @functools.cached_property
    def _outlines(self) -> tuple[list[ZoneId], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The zones' names, quads and centres as arrays (worked out once)."""
        quads = np.stack([np.asarray(q, np.float64) for q in self.zones.values()])
        return list(self.zones), quads, quads.mean(axis=1)

    def zone_box(self, zone: ZoneId, shape: tuple[int, ...], margin: float = 0.0,
                 ) -> tuple[int, int, int, int]:
        """Pixel box ``(x0, y0, x1, y1)`` around a zone, grown by ``margin`` card
        widths and clipped to an image of ``shape``."""
        key = (zone, shape[0], shape[1], margin)
        box = self._boxes.get(key)
        if box is None:
            box = self._boxes[key] = self._zone_box(zone, shape, margin)
        return box

    def _zone_box(self, zone: ZoneId, shape: tuple[int, ...], margin: float,
                  ) -> tuple[int, int, int, int]:
        quad = self.zones[zone]
        pad = margin * self.card_width
        x0, y0 = np.floor(quad.min(axis=0) - pad)
        x1, y1 = np.ceil(quad.max(axis=0) + pad)
        height, width = shape[:2]
        return (int(max(x0, 0)), int(max(y0, 0)), int(min(x1, width)), int(min(y1, height)))


def project(homography: npt.NDArray[np.float64], points: npt.ArrayLike) -> Quad:
    """Map N x 2 points through a 3 x 3 homography."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, homography).reshape(-1, 2).astype(np.float32)


#: ``LAYOUT``'s zone corners (four each, in its order), then a card's top side, in mm
_LAYOUT_POINTS: Final = np.concatenate(
    [rect.corners() for rect in LAYOUT.values()]
    + [np.array([[0, 0], [CARD_MM[0], 0]], np.float32)]).astype(np.float64)


def geometry_from_homography(homography: npt.NDArray[np.float64],
                             source: Literal["deal", "mat"]) -> TableGeometry:
    """Every zone of ``LAYOUT`` mapped into the image."""
    # every zone's corners, then the card's width, through one call
    points = project(homography, _LAYOUT_POINTS)
    zones = {zone: points[4 * i:4 * i + 4] for i, zone in enumerate(LAYOUT)}
    card = points[-2:]
    return TableGeometry(zones, homography, float(np.linalg.norm(card[1] - card[0])), source)


def _grow_quad(quad: Quad, factor_w: float, factor_h: float) -> Quad:
    """Scale a portrait card quad (clockwise from its top left) about its centre."""
    centre = quad.mean(axis=0)
    across = ((quad[1] - quad[0]) + (quad[2] - quad[3])) / 4  # half the top side
    down = ((quad[3] - quad[0]) + (quad[2] - quad[1])) / 4  # half the left side
    a, d = across * factor_w, down * factor_h
    return np.array([centre - a - d, centre + a - d, centre + a + d, centre - a + d],
                    dtype=np.float32)


@dataclass(frozen=True)
class DealtCard:
    """What the geometry needs of a found card: its outline and whether it is face up."""

    corners: Quad
    face_up: bool

    @functools.cached_property
    def centre(self) -> npt.NDArray[np.float32]:
        """The mean of the corners (worked out once: the layout search asks often)."""
        return np.asarray(self.corners.mean(axis=0))


def _five_columns(row: Sequence[DealtCard], keep: int = 3) -> list[tuple[float, list[DealtCard]]]:
    """The choices of five cards of a row that lie most like five dealt columns.

    A row can hold more than five face-up outlines (a spit pile's card beside it, a
    centre card close by): of the seven nearest the row's middle line, choices of five
    are scored by how unevenly spaced along a straight line they lie (0 for perfect), so
    a card beyond the columns (a wider gap) or off the line scores worse.  Returns the
    ``keep`` best as (score, cards left to right), best first.
    """
    centres = np.array([c.centre for c in row], dtype=np.float64)
    near = np.argsort(np.abs(centres[:, 1] - np.median(centres[:, 1])))[:7]
    near = near[np.argsort(centres[near, 0])]
    if len(near) == 5:
        return [(0.0, [row[i] for i in near])]
    width = float(np.median([np.linalg.norm(row[i].corners[1] - row[i].corners[0])
                             for i in near]))
    choices = np.array(list(itertools.combinations(near, 5)))  # left to right, as ``near``
    points = centres[choices]  # (choices, 5, 2)
    gaps = np.linalg.norm(np.diff(points, axis=1), axis=2)
    # each choice's least-squares line y = a x + b, and its cards' largest distance off it
    x, y = points[..., 0], points[..., 1]
    dx, dy = x - x.mean(axis=1, keepdims=True), y - y.mean(axis=1, keepdims=True)
    slope = (dx * dy).sum(axis=1) / np.maximum((dx * dx).sum(axis=1), 1e-9)
    off_line = np.abs(dy - slope[:, None] * dx).max(axis=1)
    cost = gaps.std(axis=1) / np.maximum(gaps.mean(axis=1), 1e-6) + off_line / max(width, 1e-6)
    best = np.argsort(cost, kind="stable")[:keep]
    return [(float(cost[k]), [row[i] for i in choices[k]]) for k in best]


def _row_offset(top: list[DealtCard], bottom: list[DealtCard]) -> float:
    """How far the two rows' middle columns are from facing each other, in card widths.

    Players face each other across the table, so their middle columns lie opposite: a
    row chosen one column off (a spit card at one end taken for a column) still fits a
    dealt layout, by a shear, and shows only as an offset of about a column's pitch.
    """
    along = bottom[4].centre - bottom[0].centre
    along = along / max(float(np.linalg.norm(along)), 1e-6)
    across = bottom[2].centre - top[2].centre
    width = max(float(np.linalg.norm(bottom[2].corners[1] - bottom[2].corners[0])), 1e-6)
    return abs(float(np.dot(across, along))) / width


def _deal_fit(top: list[DealtCard], bottom: list[DealtCard],
              ) -> tuple[npt.NDArray[np.float64], float] | None:
    """The homography from the layout to a choice of rows and its largest misfit, in
    card widths (None: no homography).

    Ten points fit by eight parameters: a card that is not where a dealt column lies (a
    centre card taken for a row's fifth when a dealt card is hidden) leaves a misfit of
    about a row's distance.
    """
    src, dst = [], []
    for i, card in enumerate(bottom):
        src.append([LAYOUT[f"A{i + 1}"].x, LAYOUT[f"A{i + 1}"].y])
        dst.append(card.centre)
    for i, card in enumerate(top):
        src.append([LAYOUT[f"B{5 - i}"].x, LAYOUT[f"B{5 - i}"].y])
        dst.append(card.centre)
    found, _ = cv2.findHomography(np.array(src, np.float64), np.array(dst, np.float64), 0)
    if found is None:
        return None
    homography = np.asarray(found, dtype=np.float64)
    card_width = max(float(np.median([np.linalg.norm(c.corners[1] - c.corners[0])
                                      for c in top + bottom])), 1e-6)
    misfit = np.linalg.norm(project(homography, src) - np.array(dst, np.float32), axis=1)
    return homography, float(misfit.max()) / card_width


def _long_axis(quad: Quad) -> npt.NDArray[np.float64]:
    """The unit direction of a card quad's long side, pointing down the image (the rows
    run across it)."""
    sides = [quad[(i + 1) % 4] - quad[i] for i in range(2)]
    side = max(sides, key=lambda v: float(np.linalg.norm(v))).astype(np.float64)
    side = side if side[1] >= 0 else -side
    return side / max(float(np.linalg.norm(side)), 1e-6)


def _spit_like(card: DealtCard, width: float, down: npt.NDArray[np.float64]) -> bool:
    """Could this face-down outline be a spit pile beside the rows: the size of the dealt
    cards (``width``, their median short side), and lying as they do (its long side
    along ``down``, theirs)?  An outline across the gap between a row's last column and
    the spit pile, a card's size but lying crosswise, once took the spit zone off the
    pile (dev game 2008, a wide lens)."""
    (_, _), (w, h), _ = cv2.minAreaRect(card.corners.astype(np.float32))
    short, long = min(w, h), max(w, h)
    if short <= 0 or not 0.7 * width <= short <= 1.4 * width or not 1.15 <= long / short <= 1.9:
        return False
    return abs(float(np.dot(_long_axis(card.corners), down))) >= 0.8


def _dealt_size(cards: Sequence[DealtCard]) -> tuple[float, npt.NDArray[np.float64]]:
    """The dealt cards' median short side (pixels) and the unit direction their long
    sides lie along (down the image)."""
    width = float(np.median([np.linalg.norm(c.corners[1] - c.corners[0]) for c in cards]))
    down = np.median([_long_axis(c.corners) for c in cards], axis=0)
    return width, down / max(float(np.linalg.norm(down)), 1e-6)


def _all_whole(row: Sequence[DealtCard]) -> bool:
    """Does every card of a row show whole (none under 0.7 of the row's median area: a
    card half under the dealer's hand is found as its visible part)?"""
    areas = np.array([cv2.contourArea(c.corners.astype(np.float32)) for c in row])
    return float(areas.min()) >= 0.7 * float(np.median(areas))


def _rows_layout(cards: Sequence[DealtCard], top: list[DealtCard], bottom: list[DealtCard],
                 homography: npt.NDArray[np.float64],
                 virtual: Sequence[DealtCard] = ()) -> TableGeometry:
    """The zones of a choice of dealt rows (each left to right as the camera sees it):
    the layout's zones through ``homography``, the dealt columns' own outlines grown,
    and the spit zones on face-down cards beside the rows.  ``virtual`` cards stand
    for columns no card was found in: those keep the layout's zone."""
    geometry = geometry_from_homography(homography, "deal")
    zones = dict(geometry.zones)
    for i, card in enumerate(bottom):
        if not any(card is v for v in virtual):
            zones[f"A{i + 1}"] = _grow_quad(card.corners, 1.2, 1.15)
    for i, card in enumerate(top):
        if not any(card is v for v in virtual):
            zones[f"B{5 - i}"] = _grow_quad(card.corners, 1.2, 1.15)
    columns = [zones[z] for z in COLUMN_IDS]
    card_width, down = _dealt_size([c for c in bottom + top if not any(c is v for v in virtual)])
    spit_seen: set[ZoneId] = set()
    backs = [card for card in cards if not card.face_up
             and _spit_like(card, card_width, down)
             and not any(cv2.pointPolygonTest(q.reshape(-1, 1, 2),
                                              tuple(map(float, card.centre)),
                                              False) >= 0 for q in columns)]
    for spit in ("spitA", "spitB"):
        quad = zones[spit]
        reach = 1.5 * float(np.linalg.norm(quad[1] - quad[0]))
        near = [(float(np.linalg.norm(quad.mean(axis=0) - card.centre)), i)
                for i, card in enumerate(backs)]
        near = [(distance, i) for distance, i in near if distance < reach]
        if near:
            zones[spit] = _grow_quad(backs[min(near)[1]].corners, 1.2, 1.15)
            spit_seen.add(spit)
    return TableGeometry(zones, homography, card_width, "deal", frozenset(spit_seen))


#: A row of a partly seen deal: gaps between its cards within this share of the
#: column pitch of a whole number of pitches.
PARTIAL_STEP_SLACK: Final = 0.15
#: The best reading of a partly seen deal must cost this much less than the next one
#: that puts some card in another column (or it is not taken: say, both rows missing
#: the same end column).
PARTIAL_MARGIN: Final = 0.3


def _completions(row: Sequence[DealtCard]) -> list[tuple[float, list[DealtCard], list[DealtCard]]]:
    """The ways a row of three to five found cards can be a player's five dealt columns,
    missing ones filled in: (cost, five cards left to right, the filled-in ones).

    The cards kept must lie along a line at whole numbers of one pitch apart (missing
    columns inside the row are the larger gaps); the columns missing at the ends may be
    at either end.  A filled-in column is the nearest found card's outline moved by the
    pitch.  The cost is how far the gaps are from whole pitches and the cards off the
    line (as ``_five_columns``), a little for each column filled in and more for each
    card of the row left out.
    """
    centres = np.array([c.centre for c in row], dtype=np.float64)
    near = np.argsort(np.abs(centres[:, 1] - np.median(centres[:, 1])))[:7]
    near = near[np.argsort(centres[near, 0])]
    width = float(np.median([np.linalg.norm(row[i].corners[1] - row[i].corners[0])
                             for i in near]))
    found: list[tuple[float, list[DealtCard], list[DealtCard]]] = []
    for size in range(3, min(5, len(near)) + 1):
        for pick in itertools.combinations(near, size):
            points = centres[list(pick)]
            gaps = np.linalg.norm(np.diff(points, axis=0), axis=1)
            for share in (1, 2):  # the shortest gap is one pitch, or two
                whole = np.maximum(np.round(gaps / (float(gaps.min()) / share)), 1)
                pitch = float(gaps.sum() / whole.sum())  # the whole row's pitch
                steps = gaps / pitch
                if (0.9 * width <= pitch <= 2.0 * width and whole.sum() <= 4
                        and np.abs(steps - whole).max() <= PARTIAL_STEP_SLACK):
                    break
            else:
                continue
            # one pitch along the row, as the cards kept span it
            direction = (points[-1] - points[0]) / float(whole.sum())
            slots: list[DealtCard | None] = [row[pick[0]]]
            for k, step in enumerate(whole.astype(int)):
                slots.extend([None] * (step - 1) + [row[pick[k + 1]]])
            x, y = points[:, 0], points[:, 1]
            dx, dy = x - x.mean(), y - y.mean()
            slope = float((dx * dy).sum() / max(float((dx * dx).sum()), 1e-9))
            off_line = float(np.abs(dy - slope * dx).max()) / max(width, 1e-6)
            base = float(np.abs(steps - whole).max()) + off_line
            spare = 5 - len(slots)
            for left in range(spare + 1):
                filled: list[DealtCard | None] = [None] * left + slots + [None] * (spare - left)
                cards, virtual = _fill(filled, direction.astype(np.float32))
                found.append((base + 0.05 * len(virtual) + 0.5 * (len(near) - size),
                              cards, virtual))
    found.sort(key=lambda choice: choice[0])
    return found


def _fill(slots: list[DealtCard | None], pitch: npt.NDArray[np.float32],
          ) -> tuple[list[DealtCard], list[DealtCard]]:
    """Five column slots with the empty ones filled by the nearest found card's outline
    moved by whole ``pitch`` vectors."""
    known = [i for i, card in enumerate(slots) if card is not None]
    cards: list[DealtCard] = []
    virtual: list[DealtCard] = []
    for i, card in enumerate(slots):
        if card is None:
            j = min(known, key=lambda k: abs(k - i))
            source = slots[j]
            assert source is not None
            card = DealtCard((source.corners + (i - j) * pitch).astype(np.float32), True)
            virtual.append(card)
        cards.append(card)
    return cards, virtual


def _partial_deal(cards: Sequence[DealtCard]) -> tuple[TableGeometry, int, int] | None:
    """The layout of a deal where some face-up cards were not found (a court card on a
    busy cloth, a deck whose faces the reader cannot name), or None.

    The face-up cards are grouped into bands across the image; the first and last bands
    are the players' rows (cards between them, on the centre piles, are left out).
    Each row's possible completions to five columns are paired; a pair costs its rows'
    costs, how far their middle columns are from facing each other (``_row_offset``) and
    the homography's misfit, as a full deal's, less a little for each spit pile (a
    face-down card) where the layout puts one.  Taken only when at least seven columns
    were found and no reading that puts a card in another column comes close.
    Returns the layout, how many columns were found and how many cards of the rows'
    bands it leaves out.
    """
    up = [c for c in cards if c.face_up]
    if len(up) < 7:
        return None
    centres = np.array([c.centre for c in up])
    heights = [float(np.linalg.norm(c.corners[3] - c.corners[0])) for c in up]
    height = float(np.median(heights))
    order = np.argsort(centres[:, 1])
    bands: list[list[DealtCard]] = [[up[order[0]]]]
    for a, b in itertools.pairwise(order):
        if centres[b, 1] - centres[a, 1] > 0.6 * height:
            bands.append([])
        bands[-1].append(up[b])
    if len(bands) < 2 or any(len(band) < 3 for band in (bands[0], bands[-1])):
        return None
    top_band, bottom_band = bands[0], bands[-1]
    apart = (np.median([c.centre[1] for c in bottom_band])
             - np.median([c.centre[1] for c in top_band]))
    if apart < 2.0 * height:
        return None
    # face-down cards lying as the dealt ones do: where the spit piles may be, which
    # tells which end of a row a missing column is at
    width, down = _dealt_size(up)
    backs = np.array([c.centre for c in cards
                      if not c.face_up and _spit_like(c, width, down)],
                     np.float64).reshape(-1, 2)
    spits = np.array([[LAYOUT[z].x, LAYOUT[z].y] for z in ("spitA", "spitB")], np.float64)
    scored: list[tuple[float, list[DealtCard], list[DealtCard], list[DealtCard],
                       npt.NDArray[np.float64]]] = []
    for top_cost, top, top_virtual in _completions(top_band)[:12]:
        for bottom_cost, bottom, bottom_virtual in _completions(bottom_band)[:12]:
            if len(top_virtual) + len(bottom_virtual) > 3:
                continue
            fit = _deal_fit(top, bottom)
            if fit is None or fit[1] > 0.5:
                continue
            cost = top_cost + bottom_cost + 0.5 * _row_offset(top, bottom) + fit[1]
            if len(backs):
                # a spit pile where this layout puts one
                at = project(fit[0], spits).astype(np.float64)
                nearest = np.linalg.norm(at[:, None, :] - backs[None, :, :], axis=2).min(axis=1)
                cost -= 0.3 * float((nearest < 0.6 * width).sum())
            scored.append((cost, top, bottom, top_virtual + bottom_virtual, fit[0]))
    if not scored:
        return None
    scored.sort(key=lambda choice: choice[0])
    best = scored[0]

    def columns(choice: tuple[float, list[DealtCard], list[DealtCard], list[DealtCard],
                              npt.NDArray[np.float64]]) -> dict[int, int]:
        # the column of each found card it keeps
        _, top, bottom, virtual, _ = choice
        return {id(c): i for i, c in enumerate(top + bottom)
                if not any(c is v for v in virtual)}

    held = columns(best)
    for other in scored[1:]:
        theirs = columns(other)
        if any(held.get(card, column) != column for card, column in theirs.items()):
            if other[0] - best[0] < PARTIAL_MARGIN:
                return None
            break
    _, top, bottom, virtual, homography = best
    if not all(_all_whole([c for c in row if not any(c is v for v in virtual)])
               for row in (top, bottom)):
        return None  # as for a whole deal: wait for whole views
    used = {id(c) for c in top + bottom}
    left_out = sum(id(c) not in used for c in top_band + bottom_band)
    return _rows_layout(cards, top, bottom, homography, virtual), 10 - len(virtual), left_out


def _refuse_or_partial(cards: Sequence[DealtCard], refusal: GeometryError) -> None:
    """Raise ``refusal``, or, when the cards lie as a deal with a few columns not found,
    LayoutMisfitError with that layout (a caller may take it when no whole deal comes)."""
    partial = _partial_deal(cards)
    if partial is None:
        raise refusal
    layout, columns, _ = partial
    raise LayoutMisfitError(
        f"{refusal}; as a deal with {10 - columns} column(s) not found, the layout is "
        "inferred from the others", layout)



def geometry_from_deal(cards: Sequence[DealtCard]) -> TableGeometry:
    """The zones from the cards as they lie just after a full deal.

    Needs two rows of five face-up cards (A's at the bottom of the image, B's at the
    top); raises GeometryError otherwise, LayoutMisfitError (with the layout they would
    give) when the rows are there but do not fit a dealt layout.  Face-down cards
    beside a row, beyond its columns, move that player's spit zone onto them.
    """
    up = [c for c in cards if c.face_up]
    if len(up) < 10:
        _refuse_or_partial(cards, GeometryError(
            f"the dealt layout needs two rows of five face-up cards; {len(up)} face-up "
            "cards are in view"))
    centres = np.array([c.centre for c in up])
    order = np.argsort(centres[:, 1])
    gaps = np.diff(centres[order, 1])
    split = int(np.argmax(gaps)) + 1
    rows = [[up[i] for i in order[:split]], [up[i] for i in order[split:]]]
    choices: list[list[tuple[float, list[DealtCard]]]] = []
    for row in rows:
        if len(row) < 5:
            _refuse_or_partial(cards, GeometryError(
                "the dealt layout needs five face-up cards in each player's row; "
                f"one row has {len(row)}"))
        choices.append(_five_columns(row))
    # the two rows' choices together: evenly spaced and facing (cheap, so first), then
    # fitting a dealt layout (the homography's misfit, which only adds to the cost)
    pairs = sorted(((top_cost + bottom_cost + 0.5 * _row_offset(top_cards, bottom_cards),
                     top_cards, bottom_cards)
                    for (top_cost, top_cards), (bottom_cost, bottom_cards)
                    in itertools.product(*choices)), key=lambda pair: pair[0])
    best: tuple[float, list[DealtCard], list[DealtCard], npt.NDArray[np.float64], float] | None = None
    for cost, top_cards, bottom_cards in pairs:
        if best is not None and cost >= best[0]:
            break
        fit = _deal_fit(top_cards, bottom_cards)
        if fit is None:
            continue
        homography, misfit = fit
        if best is None or cost + misfit < best[0]:
            best = (cost + misfit, top_cards, bottom_cards, homography, misfit)
    if best is None:
        raise GeometryError("the dealt cards do not lie in two straight rows")
    _, top, bottom, homography, misfit = best
    # a card half under the dealer's hand is found as its visible part: a layout built
    # from it would give that column a zone a fraction of a card's size for the whole
    # round, so wait for a frame where every dealt card shows whole (judged within its
    # own row, which a tilted camera sees at its own scale; a larger outline, two
    # touching cards found as one, is not transient and is left to the finder)
    if not all(_all_whole(row) for row in (top, bottom)):
        raise GeometryError(
            "a dealt card shows only in part (covered, or still being laid down); "
            "the layout needs all ten whole")
    layout = _rows_layout(cards, top, bottom, homography)
    # half a card's width of misfit leaves room for a sloppy deal
    if misfit > 0.5:
        # a centre card taken for a column whose own card is hidden (a hand, or turned
        # face down) misfits; the deal with that column not found fits (dev scene 2037:
        # A5's zone on the right pile all round).  Not when that leaves out a card of a
        # row's band: that is a column laid out of line (a sloppy deal), whose zone
        # belongs where the card lies
        partial = _partial_deal(cards)
        if partial is not None and partial[2] == 0:
            layout = partial[0]
        raise LayoutMisfitError(
            "the face-up cards do not lie as two dealt rows of five columns", layout)
    return layout
