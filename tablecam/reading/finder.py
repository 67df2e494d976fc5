"""Card finding: the outline of every card in a photo or video frame.

A single global threshold fails on light tables and on overlapping cards (see
``VISION-NOTES.md``), so the finder looks at one image in several ways and keeps the
outlines that look like cards:

1. *Whiteness*: card faces are bright and unsaturated.  ``V - S`` (HSV) is cut with
   Otsu's threshold and with a local threshold (brighter than the surroundings).
2. *Edges*: regions enclosed by faint or strong Canny edges, whatever their colour.
   The faint edge of a card lying on another card, or on a white table, separates them.
3. Every region's outline is fitted with a quadrilateral (four lines fitted to the
   contour, so rounded corners do not pull the corners inwards) and kept when its
   fill, shape and side ratio fit a card (1.40 poker to 1.56 bridge, with slack for
   perspective and for photos stretched to a square) and its sides lie on edges.
4. Candidates from all views are merged largest first: details inside a card (pips,
   picture frames) are dropped, groups of cards give way to the cards inside them,
   two cards lying edge to edge are cut apart along their seam.
5. Groups of overlapping cards that the outlines found so far do not explain are
   searched for whole cards: each straight side of a group, taken as a card side,
   gives a card whose four sides must lie on edges (the top card of a pile).
6. For photos (``corners=True``): cards from the convex hull of each blob of faint
   edges, where no card was found yet (a card whose outline has gaps, so that its
   inside leaks into the table in every binary view: a white card on a white table);
   and cards from their visible corners, two straight segments meeting at about a
   right angle, with the far sides searched along them (a card lying partly under
   others, a white card on a white table).
7. For table frames (``backs=True``): where still no card was found, card-shaped
   blobs of dense strong edges (a dark patterned back on a pale cloth, which no view
   above separates from the table).
8. Where two outlines overlap, the one whose sides still show inside the other is on
   top; the other is marked ``covered``.

``find_cards_quick`` is the fast path for a fresh deal on a plain table (cards apart,
a table of another colour): regions unlike the table in a shrunk image, their sides
fitted at full resolution.  It gives up (None) on anything else on the table.

Corners come back in image pixels, clockwise from the card's top left (portrait), as
``tablecam.reading.warp.warp_card`` expects.  Whether a card is face up is a cheap
colour test here; the classifier's ``kind`` ("face", "back", "none") is the final word.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.reading.warp import order_corners

#: Long side over short side of a card on the table: poker 1.40, bridge 1.56, with
#: slack for perspective, lens distortion and photos stretched to a square.
MIN_ASPECT: Final = 1.15
MAX_ASPECT: Final = 1.95
#: The same limit for photos (``find_cards_thorough``): a photo shot at a slant and
#: squashed to a square (the fmjio set) stretches a card lying across the squash to
#: 2.2-2.4 long over short.  The live reader keeps ``MAX_ASPECT``: its camera looks
#: down and the table geometry knows the card's size.
PHOTO_MAX_ASPECT: Final = 2.4
#: Smallest fraction of its fitted quadrilateral a card's region must fill.
MIN_FILL: Final = 0.80
#: Smallest fraction of its convex hull a card's region must fill (pips on the
#: border and glare bite into the region).
MIN_SOLIDITY: Final = 0.7
#: A group whose area is mostly near edges is texture: no card is fitted in it.
MAX_EDGE_DENSITY: Final = 0.7
#: The finder works on images no larger than this (long side, pixels) ...
WORK_SIZE: Final = 960
#: ... and shrinks them further while the smallest card stays this wide (pixels).
MIN_WORK_CARD: Final = 26
#: A card built from its corners needs at least this share of paper just inside each side.
PAPER_WITHIN: Final = 0.5
#: A card from the hull of its outline's edges needs this share of three of its sides
#: on edges, and this share of all four on the whole ...
OUTLINE_SUPPORT: Final = 0.85
OUTLINE_MEAN_SUPPORT: Final = 0.7
#: ... found with the faint edges thickened by these radii (pixels) to close small gaps,
#: and with these fainter edges (Canny thresholds) thickened by one pixel.
OUTLINE_RADII: Final = (1, 3)
FAINTER_EDGES: Final = (6, 18)
#: The corner search looks at no more than this many straight segments, longest first.
MAX_SEGMENTS: Final = 160
#: An outline inside a clean card outline (this score or better), under this share of
#: its area and this share of its short side clear of every side, is the card's detail.
DETAIL_OUTER_SCORE: Final = 0.9
DETAIL_AREA: Final = 0.6
DETAIL_MARGIN: Final = 0.04

Quad = npt.NDArray[np.float32]
_LSD = cv2.createLineSegmentDetector()


@dataclass(frozen=True, eq=False)
class FoundCard:
    """One card outline found in an image.

    ``corners``: 4 x 2 float32 image pixels, clockwise from the card's top left.
    ``score``: 0..1, how well the outline fits a card (fill of the fitted quadrilateral).
    ``covered``: another card (or something else) lies over part of it.
    ``face_up``: the colour test says it shows a face (the classifier may overrule).
    """

    corners: Quad
    score: float
    covered: bool
    face_up: bool

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def width(self) -> float:
        """Length of the card's short side in pixels."""
        return float(_sides(self.corners)[0])

    def bounding_box(self) -> tuple[float, float, float, float]:
        """Axis-aligned box ``(x0, y0, x1, y1)`` around the corners."""
        x0, y0 = self.corners.min(axis=0)
        x1, y1 = self.corners.max(axis=0)
        return float(x0), float(y0), float(x1), float(y1)


@dataclass(frozen=True)
class _Candidate:
    quad: Quad  # 4 x 2, working-image pixels, any order
    score: float
    area: float


#: Each corner's next one, clockwise or not: ``quad[_NEXT] - quad`` are the sides.
_NEXT: Final = np.array([1, 2, 3, 0])


def _side_lengths(quad: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """The four sides' lengths of a quad (4 x 2), in its own float type."""
    steps = quad[_NEXT] - quad
    return np.asarray(np.sqrt(np.add.reduce(steps * steps, axis=1)))


def _sides(quad: Quad) -> tuple[float, float]:
    """(short, long): mean lengths of the two pairs of opposite sides."""
    lengths = _side_lengths(quad)
    a = float(lengths[0] + lengths[2]) / 2
    b = float(lengths[1] + lengths[3]) / 2
    return (a, b) if a <= b else (b, a)


def _whiteness(bgr: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Bright, unsaturated pixels high: ``V - S`` of HSV, clipped to 0..255."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    value = hsv[:, :, 2].astype(np.int16)
    saturation = hsv[:, :, 1].astype(np.int16)
    return np.clip(value - saturation, 0, 255).astype(np.uint8)


def _line_fit_quad(points: npt.NDArray[np.float64], points32: npt.NDArray[np.float32],
                   approx: npt.NDArray[np.float32], band: float = 0.06) -> Quad:
    """Refine a 4-point approximation by fitting a line to each side's contour points
    (``points``, N x 2, and the same as float32).

    Points near a corner are left out, so that a card's rounded corners do not bend the
    sides; the corners are the intersections of neighbouring lines.
    """
    starts = approx.astype(np.float64)
    lengths = _side_lengths(starts)
    if float(lengths.min()) < 4:
        return approx
    units = (starts[_NEXT] - starts) / lengths[:, None]
    normals = np.stack([-units[:, 1], units[:, 0]], axis=1)
    lines: list[tuple[float, float, float, float]] = []  # a point and a direction
    for i in range(4):
        rel = points - starts[i]
        along = rel @ units[i]
        across = rel @ normals[i]
        length = float(lengths[i])
        keep = ((along > 0.15 * length) & (along < 0.85 * length)
                & (np.abs(across) < band * length + 2))
        if np.count_nonzero(keep) < 5:
            lines.append((float(starts[i, 0]), float(starts[i, 1]),
                          float(units[i, 0]), float(units[i, 1])))
            continue
        vx, vy, x0, y0 = cv2.fitLine(points32[keep], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel().tolist()
        lines.append((x0, y0, vx, vy))
    corners = []
    for i in range(4):
        (x1, y1, ux1, uy1), (x2, y2, ux2, uy2) = lines[i - 1], lines[i]
        det = ux1 * -uy2 - (-ux2) * uy1
        if abs(det) < 1e-3:
            return approx
        dx, dy = x2 - x1, y2 - y1
        t = (dx * -uy2 - (-ux2) * dy) / det
        corners.append((x1 + t * ux1, y1 + t * uy1))
    quad = np.array(corners, dtype=np.float32)
    # a refined corner far from its rough position means a bad fit: keep the rough one
    if float(np.abs(quad - approx).max()) > 0.25 * _sides(approx)[0] + 3:
        return approx
    return quad


#: How many of the last contours ``_fit_quad`` keeps its fits of.
FIT_CACHE_SIZE: Final = 512

_fits: OrderedDict[tuple[bytes, bool], Quad | None] = OrderedDict()
_fits_lock = threading.Lock()


def _fit_quad(contour: npt.NDArray[Any], try_box: bool = False) -> Quad | None:
    """Four corners of a convex region (a contour of ``cv2.findContours``).

    ``try_box`` also starts from the minimum-area rectangle and keeps whichever fit is
    better: small, rounded outlines lead the polygon approximation astray.  Only used
    when the card size is known, where a box-shaped blob of the wrong size cannot pass.

    The fit (eight robust line fits or more, each ``cv2.fitLine`` with its restarts)
    is most of the finder's time, and a table seen frame after frame gives the same
    regions again: a zone read once more, the thorough search every few frames while
    the layout is sought (on the dev games' first 20 s, 26-43 % of the contours fitted
    had been fitted before, to the pixel, nearly all within the last 512).  So the fits
    of the last ``FIT_CACHE_SIZE`` contours are kept, by a digest of their points.
    """
    points = np.ascontiguousarray(contour, np.int32).reshape(-1, 1, 2)
    key = (hashlib.blake2b(points.tobytes(), digest_size=16).digest(), try_box)
    with _fits_lock:
        known = key in _fits
        fitted = _fits.get(key)
        if known:
            _fits.move_to_end(key)
    if not known:
        fitted = _fit_contour(points, try_box)
        with _fits_lock:
            _fits[key] = fitted
            if len(_fits) > FIT_CACHE_SIZE:
                _fits.popitem(last=False)
    return None if fitted is None else fitted.copy()


def _fit_contour(contour: npt.NDArray[np.int32], try_box: bool) -> Quad | None:
    """``_fit_quad`` itself."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    approx = None
    for fraction in (0.02, 0.035, 0.05, 0.07):
        poly = cv2.approxPolyDP(hull, fraction * perimeter, True)
        if len(poly) == 4:
            approx = poly.reshape(4, 2).astype(np.float32)
            break
        if len(poly) < 4:
            break
    box = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
    hull_area = float(cv2.contourArea(hull))
    points = contour.reshape(-1, 2).astype(np.float64)
    if len(points) > 400:
        points = points[:: len(points) // 400 + 1]
    points32 = points.astype(np.float32)
    best: tuple[float, Quad] | None = None
    for start in (approx, box) if try_box else (approx if approx is not None else box,):
        if start is None:
            continue
        quad = _line_fit_quad(points, points32, _line_fit_quad(points, points32, start, 0.12))
        area = float(cv2.contourArea(quad))
        if area <= 0:
            continue
        lengths = _side_lengths(quad)
        balance = (min(lengths[0], lengths[2]) / max(lengths[0], lengths[2], 1e-6)
                   * min(lengths[1], lengths[3]) / max(lengths[1], lengths[3], 1e-6))
        badness = abs(1 - hull_area / area) + (1 - balance)
        if best is None or badness < best[0]:
            best = (badness, quad)
    return None if best is None else best[1]


def _grow(quad: Quad, pixels: float) -> Quad:
    """Move every side of a convex quadrilateral outwards by ``pixels``."""
    if pixels == 0:
        return quad
    centre = quad.mean(axis=0)
    out = []
    for i in range(4):
        prev_side = quad[i] - quad[i - 1]
        next_side = quad[(i + 1) % 4] - quad[i]
        normals = []
        for side in (prev_side, next_side):
            n = np.array([side[1], -side[0]], np.float32)
            n /= max(float(np.linalg.norm(n)), 1e-6)
            if float(np.dot(n, quad[i] - centre)) < 0:
                n = -n
            normals.append(n)
        bisector = normals[0] + normals[1]
        cos_half = float(np.dot(bisector / max(float(np.linalg.norm(bisector)), 1e-6), normals[0]))
        out.append(quad[i] + bisector / max(float(np.linalg.norm(bisector)), 1e-6)
                   * pixels / max(cos_half, 0.3))
    return np.array(out, dtype=np.float32)


def _edge_support(quad: Quad, edges: npt.NDArray[np.uint8]) -> float:
    """Fraction of points along the quad's sides (corners left out) that lie on an edge."""
    t = np.linspace(0.12, 0.88, 16)
    starts = quad
    ends = np.roll(quad, -1, axis=0)
    points = (starts[:, None, :] + (ends - starts)[:, None, :] * t[None, :, None]).reshape(-1, 2)
    xs = np.clip(np.round(points[:, 0]).astype(int), 0, edges.shape[1] - 1)
    ys = np.clip(np.round(points[:, 1]).astype(int), 0, edges.shape[0] - 1)
    return float((edges[ys, xs] > 0).mean())


def _candidates_from_mask(
    mask: npt.NDArray[np.uint8], min_area: float, max_area: float, grow: float,
    seen: set[tuple[int, ...]] | None = None, edges: npt.NDArray[np.uint8] | None = None,
    try_box: bool = False, max_aspect: float = MAX_ASPECT,
) -> list[_Candidate]:
    """Card-shaped regions of one binary view.

    ``edges`` (dilated edge map) lets a region that is only a ring through (a court
    card's thin border around its picture) count when its outline lies on edges.
    """
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    found: list[_Candidate] = []
    if hierarchy is None:
        return found
    for contour, link in zip(contours, hierarchy[0], strict=True):
        if link[3] != -1:  # a hole, not a region's outer boundary
            continue
        area = float(cv2.contourArea(contour))
        if not min_area <= area <= max_area:
            continue
        hull = cv2.convexHull(contour)
        hull_area = float(cv2.contourArea(hull))
        if hull_area <= 0:
            continue
        solid = area / hull_area >= MIN_SOLIDITY
        if not solid and (edges is None or area / hull_area < 0.2):
            continue
        # cheap test on the minimum-area rectangle before the careful fit
        (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
        if min(rw, rh) <= 0 or hull_area / (rw * rh) < MIN_FILL * 0.9:
            continue
        if not MIN_ASPECT * 0.8 <= max(rw, rh) / min(rw, rh) <= max_aspect * 1.2:
            continue
        x, y, bw, bh = cv2.boundingRect(contour)
        key = ((2 * x + bw) // 8, (2 * y + bh) // 8, bw // 8, bh // 8)
        if seen is not None:
            if key in seen:
                continue
            seen.add(key)
        quad = _fit_quad(contour, try_box)
        if quad is None or not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
            continue
        quad_area = float(cv2.contourArea(quad))
        if quad_area <= 0:
            continue
        short, long = _sides(quad)
        if short <= 0 or not MIN_ASPECT <= long / short <= max_aspect:
            continue
        fill = hull_area / quad_area
        if fill < MIN_FILL or fill > 1.2:
            continue
        # opposite sides of a card seen from above are nearly equal
        lengths = _side_lengths(quad)
        balance = min(lengths[0], lengths[2]) / max(lengths[0], lengths[2]) * \
            min(lengths[1], lengths[3]) / max(lengths[1], lengths[3])
        if balance < 0.6:
            continue
        score = float(min(fill, 1 / fill) * (0.7 + 0.3 * balance))
        quad = _grow(quad, grow)
        if edges is not None:
            support = _edge_support(quad, edges)
            if not solid and support < 0.85:
                continue
            score *= 0.7 + 0.3 * support
        found.append(_Candidate(quad, score, float(cv2.contourArea(quad))))
    return found


def _masks(
    bgr: npt.NDArray[np.uint8], card_px: float
) -> tuple[list[tuple[npt.NDArray[Any], float]], npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Binary views of the image in which cards should be separate regions.

    Each comes with how many pixels its regions lie inside the true card outline
    (edge rings eat into the card they surround).
    """
    kernel = np.ones((3, 3), np.uint8)
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    smooth = cv2.GaussianBlur(gray, (5, 5), 0)
    edges = cv2.Canny(smooth, 40, 110)
    faint = cv2.Canny(smooth, 12, 36)
    support = np.asarray(cv2.dilate(faint, np.ones((5, 5), np.uint8)), np.uint8)
    masks: list[tuple[npt.NDArray[Any], float]] = []
    white = cv2.GaussianBlur(_whiteness(bgr), (5, 5), 0)
    _, otsu = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    opened = cv2.morphologyEx(otsu, cv2.MORPH_OPEN, kernel)
    edge_cut = cv2.bitwise_not(cv2.dilate(edges, kernel))
    masks.append((opened, 0.0))
    masks.append((cv2.bitwise_and(opened, edge_cut), 1.0))
    block = int(card_px * 2.5) | 1
    local = cv2.adaptiveThreshold(
        white, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, max(block, 31), -8)
    size = max(3, int(card_px / 12) | 1)
    big = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    opened = cv2.morphologyEx(local, cv2.MORPH_OPEN, kernel)
    masks.append((opened, 0.0))
    masks.append((cv2.morphologyEx(opened, cv2.MORPH_CLOSE, big), 0.0))
    # not the table's colours: a patterned cloth has a few dominant colours, and what
    # is far from all of them stands out whatever its brightness
    masks.append((_unlike_table(bgr, kernel, big), 0.0))
    # regions enclosed by edges, whatever their colour: a card on a white table or on
    # another card is ringed by a faint edge or shadow; thicker rings close gaps
    for edge_map in (faint, edges):  # (the last one, turned over, is ``_edge_blobs``')
        for radius in (1, 2, BLOB_RADIUS):
            ring = cv2.dilate(edge_map, np.ones((2 * radius + 1, 2 * radius + 1), np.uint8))
            masks.append((cv2.bitwise_not(ring), radius + 0.5))
    return masks, support, np.asarray(faint, np.uint8)


#: Dilation radius (pixels) that joins a patterned back's edges into one blob.
BLOB_RADIUS: Final = 3


def _edge_blobs(masks: list[tuple[npt.NDArray[Any], float]], min_area: float,
                max_area: float, support: npt.NDArray[np.uint8]) -> list[_Candidate]:
    """Card-shaped blobs of dense strong edges (the last of ``_masks``' views, the edge
    ring of radius ``BLOB_RADIUS``, turned over), outlined less that radius."""
    blob = cv2.bitwise_not(masks[-1][0])
    return _candidates_from_mask(np.asarray(blob, np.uint8), min_area, max_area,
                                 -float(BLOB_RADIUS), None, support)


def _candidates_from_outlines(
    edge_map: npt.NDArray[np.uint8], radius: int, min_area: float, max_area: float,
    support: npt.NDArray[np.uint8], max_aspect: float = MAX_ASPECT,
) -> list[_Candidate]:
    """Cards whose outline is an edge ring with gaps.

    A white card on a white or grey table is ringed by a faint edge that breaks here
    and there (a shadow fades, a corner meets the light), so its inside leaks into the
    table in every binary view.  The connected edges of such a card (its outline and
    what is printed on it) still form one blob, and the blob's convex hull is the
    card: each blob of ``edge_map`` thickened by ``radius`` is filled to its hull and
    judged like any region, then kept when three of its sides lie on edges
    (``support``, at least ``OUTLINE_SUPPORT``) and the fourth does on the whole.
    """
    ring = cv2.dilate(edge_map, np.ones((2 * radius + 1, 2 * radius + 1), np.uint8))
    contours, _ = cv2.findContours(ring, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(edge_map.shape[:2], np.uint8)
    for contour in contours:
        hull = cv2.convexHull(contour)
        if min_area <= float(cv2.contourArea(hull)) <= max_area:
            cv2.fillConvexPoly(filled, hull, 255)
    found = []
    for cand in _candidates_from_mask(filled, min_area, max_area, -radius,
                                      max_aspect=max_aspect):
        sides = np.sort(_side_support(cand.quad, support))
        if float(sides[1]) >= OUTLINE_SUPPORT and float(sides.mean()) >= OUTLINE_MEAN_SUPPORT:
            found.append(cand)
    return found


def _unlike_table(bgr: npt.NDArray[np.uint8], kernel: npt.NDArray[Any],
                  big: npt.NDArray[Any]) -> npt.NDArray[np.uint8]:
    """Pixels far from every dominant colour of the image (the table's colours)."""
    small = bgr[::4, ::4].reshape(-1, 3).astype(np.int32)
    codes = (small[:, 0] // 32) * 64 + (small[:, 1] // 32) * 8 + small[:, 2] // 32
    counts = np.bincount(codes, minlength=512)
    order = np.argsort(counts)[::-1]
    # each colour box's pixels summed per channel (integer sums, so exact in float64)
    sums = [np.bincount(codes, weights=small[:, c], minlength=512) for c in range(3)]
    centres = []
    covered = 0
    for code in order[:4]:
        if covered >= 0.6 * len(codes):
            break
        centres.append(np.array([total[code] for total in sums]) / counts[code])
        covered += int(counts[code])
    if not centres:
        return np.zeros(bgr.shape[:2], np.uint8)
    mask: npt.NDArray[Any] = np.full(bgr.shape[:2], 255, np.uint8)
    for centre in centres:
        # (a scalar, not an image of the colour: filling one is most of the time)
        colour: Any = (*(float(v) for v in np.round(centre).astype(np.uint8)), 0.0)
        diff = cv2.absdiff(bgr, colour)
        spread = cv2.max(cv2.max(diff[:, :, 0], diff[:, :, 1]), diff[:, :, 2])
        _, far = cv2.threshold(spread, 40, 255, cv2.THRESH_BINARY)
        mask = cv2.bitwise_and(mask, far)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, big), np.uint8)


def _off_border(candidates: list[_Candidate], shape: tuple[int, ...]) -> list[_Candidate]:
    """The candidates without two corners on the image's border: such an outline is the
    background, or a card cut off by the frame whose true corners are unknown."""
    h, w = shape[:2]
    return [c for c in candidates if int(np.sum(
        (c.quad[:, 0] < 2) | (c.quad[:, 1] < 2) | (c.quad[:, 0] > w - 3) | (c.quad[:, 1] > h - 3)
    )) < 2]


def _polygon_overlap(a: Quad, b: Quad) -> float:
    """Area of the intersection of two convex quadrilaterals."""
    area, _ = cv2.intersectConvexConvex(a.reshape(-1, 1, 2), b.reshape(-1, 1, 2))
    return float(area)


def _nms(ordered: list[_Candidate]) -> tuple[list[_Candidate], dict[int, list[_Candidate]]]:
    """Greedy suppression, largest first; smaller overlapping candidates become children."""
    kept: list[_Candidate] = []
    children: dict[int, list[_Candidate]] = {}
    for cand in ordered:
        conflicts = [
            k for k, other in enumerate(kept)
            if _polygon_overlap(cand.quad, other.quad) > 0.5 * min(cand.area, other.area)]
        if not conflicts:
            kept.append(cand)
            continue
        for k in conflicts:
            other = kept[k]
            if cand.area > 0.75 * other.area:
                if cand.score > other.score + 0.02 and len(conflicts) == 1:
                    children[id(cand)] = children.pop(id(other), [])
                    kept[k] = cand
            else:
                children.setdefault(id(other), []).append(cand)
    return kept, children


def _detail_of(inner: _Candidate, outer: _Candidate) -> bool:
    """Whether ``inner`` is a detail of the clean card outline ``outer`` (a court card's
    picture frame): well inside it on every side and much smaller.  A pile's top card
    inside the outline of its pile shares a side or two with it."""
    if outer.score < DETAIL_OUTER_SCORE or inner.area > DETAIL_AREA * outer.area:
        return False
    margin = DETAIL_MARGIN * _sides(outer.quad)[0]
    contour = outer.quad.reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), True) > margin
               for x, y in inner.quad)


def _card_pieces(cand: _Candidate, children: list[_Candidate]) -> list[_Candidate]:
    """Card-sized, separate candidates inside ``cand`` (two or more: it is a group)."""
    pieces: list[_Candidate] = []
    for child in sorted(children, key=lambda c: c.area, reverse=True):
        if child.area < 0.08 * cand.area or child.score < 0.9:
            continue
        if all(_polygon_overlap(child.quad, p.quad) < 0.3 * min(child.area, p.area)
               for p in pieces):
            pieces.append(child)
    return pieces


def _split_pair(cand: _Candidate, typical_area: float, edges: npt.NDArray[np.uint8],
                white: npt.NDArray[np.uint8] | None = None,
                max_aspect: float = MAX_ASPECT) -> list[_Candidate]:
    """Two cards lying edge to edge merge into one card-shaped outline of twice the
    usual area: cut it across its long sides when both halves are card-shaped and an
    edge (the seam between the two cards) runs along the cut.  With ``white`` (the
    whiteness image), the seam must also run between paper, the cards' white borders:
    a court card's picture has an edge across its middle too."""
    if not 1.6 * typical_area <= cand.area <= 2.5 * typical_area:
        return [cand]
    q = cand.quad
    lengths = _side_lengths(q)
    i = 0 if lengths[0] + lengths[2] >= lengths[1] + lengths[3] else 1  # a long side
    a, b, c, d = (q[(i + k) % 4] for k in range(4))  # a-b and c-d are the long sides
    m1, m2 = (a + b) / 2, (c + d) / 2
    t = np.linspace(0.1, 0.9, 16)[:, None]
    seam = m1[None, :] + (m2 - m1)[None, :] * t
    xs = np.clip(np.round(seam[:, 0]).astype(int), 0, edges.shape[1] - 1)
    ys = np.clip(np.round(seam[:, 1]).astype(int), 0, edges.shape[0] - 1)
    if float((edges[ys, xs] > 0).mean()) < 0.8:
        return [cand]
    if white is not None:
        across = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
        near = np.concatenate([seam + across * 0.04 * _sides(q)[0] * k for k in (-1, 1)])
        inside = _sample_quad_inside(q, 8)
        values = [white[np.clip(np.round(pts[:, 1]).astype(int), 0, white.shape[0] - 1),
                        np.clip(np.round(pts[:, 0]).astype(int), 0, white.shape[1] - 1)]
                  for pts in (near, inside)]
        if float(np.median(values[0])) < 0.6 * float(np.percentile(values[1], 90)):
            return [cand]  # colour on both sides of the seam: a picture, not two cards
    halves = [np.array([a, m1, m2, d], np.float32), np.array([m1, b, c, m2], np.float32)]
    for half in halves:
        short, long = _sides(half)
        if short <= 0 or not MIN_ASPECT <= long / short <= max_aspect:
            return [cand]
    return [_Candidate(h, cand.score * 0.95, cand.area / 2) for h in halves]


def _select(candidates: list[_Candidate], edges: npt.NDArray[np.uint8],
            white: npt.NDArray[np.uint8] | None = None,
            max_aspect: float = MAX_ASPECT) -> list[_Candidate]:
    """One outline per card from the overlapping candidates of all the views.

    Largest first: a smaller candidate inside a kept one is either a detail of that
    card (a pip, a court card's picture frame) or, when two or more card-sized
    pieces lie inside it side by side, one of the cards of a group (overlapping
    cards, or the table itself), which is then dropped and the selection rerun.
    Near-duplicates keep the better fit.  Tiny leftovers (pips of cards whose outline
    was not found) are dropped by their size against the typical card.
    """
    ordered = sorted((c for c in candidates if c.score >= 0.85), key=lambda c: c.area,
                     reverse=True)
    for _ in range(6):
        kept, children = _nms(ordered)
        groups = {id(c) for c in kept if len(_card_pieces(c, children.get(id(c), []))) >= 2}
        if not groups:
            break
        ordered = [c for c in ordered if id(c) not in groups]
    result = kept
    if len(result) >= 2:
        typical = float(np.median([c.area for c in result]))
        result = [c for c in result if c.area >= 0.2 * typical]
        result = [half for c in result
                  for half in _split_pair(c, typical, edges, white, max_aspect)]
    result.sort(key=lambda c: c.score, reverse=True)
    return result


def _drop_table_patches(work: npt.NDArray[np.uint8], kept: list[_Candidate]) -> list[_Candidate]:
    """Drop outlines that are a patch of a coloured or dark table ringed by cards.

    Only where the table itself is clearly not card-white (a white table and a card
    look alike, and the classifier's ``none`` is the judge there).
    """
    if not kept:
        return kept
    small = work[::4, ::4]
    outside = np.ones(small.shape[:2], np.uint8)
    for c in kept:
        cv2.fillConvexPoly(outside, (c.quad / 4).astype(np.int32), 0)
    if int(outside.sum()) < 100:
        return kept
    table = np.median(small[outside > 0].reshape(-1, 3), axis=0)
    hsv = cv2.cvtColor(table.astype(np.uint8).reshape(1, 1, 3), cv2.COLOR_BGR2HSV)[0, 0]
    if int(hsv[2]) - int(hsv[1]) > 110:  # a light, unsaturated table
        return kept
    result = []
    for c in kept:
        x, y, w, h = cv2.boundingRect(c.quad.astype(np.int32))
        x0, y0 = max(x, 0), max(y, 0)
        patch = work[y0:y + h, x0:x + w]
        inside = np.zeros(patch.shape[:2], np.uint8)
        cv2.fillConvexPoly(inside, (c.quad - [x0, y0]).astype(np.int32), 1)
        pixels = patch[inside > 0].reshape(-1, 3).astype(np.float32)
        if len(pixels) == 0:
            continue
        like_table = float((np.abs(pixels - table).max(axis=1) < 30).mean())
        if like_table < 0.75:
            result.append(c)
    return result


def _sample_quad_inside(quad: Quad, n: int = 6) -> npt.NDArray[np.float32]:
    """An n x n grid of points inside a quadrilateral (bilinear)."""
    t = (np.arange(n, dtype=np.float32) + 0.5) / n
    a, b, c, d = quad
    top = a[None, :] + (b - a)[None, :] * t[:, None]
    bottom = d[None, :] + (c - d)[None, :] * t[:, None]
    return (top[:, None, :] + (bottom - top)[:, None, :] * t[None, :, None]).reshape(-1, 2)


def _inside_share(quad: Quad, mask: npt.NDArray[np.uint8]) -> float:
    points = _sample_quad_inside(quad)
    xs = np.round(points[:, 0]).astype(int)
    ys = np.round(points[:, 1]).astype(int)
    ok = (xs >= 0) & (ys >= 0) & (xs < mask.shape[1]) & (ys < mask.shape[0])
    if not ok.any():
        return 0.0
    hits = np.zeros(len(points), bool)
    hits[ok] = mask[ys[ok], xs[ok]] > 0
    return float(hits.mean())


def _cards_in_piles(union: npt.NDArray[np.uint8], edges: npt.NDArray[np.uint8],
                    kept: list[_Candidate], size: tuple[float, float] | None,
                    width_range: tuple[float, float]) -> list[_Candidate]:
    """Whole cards inside groups of overlapping cards.

    A group (a region of the card mask that the cards found so far do not explain)
    is outlined by pieces of its cards' sides.  Each straight piece, taken as one side
    of a card starting at either end, gives a hypothesis; the hypotheses whose four
    sides all lie on edges and that lie inside the group are cards, best first.  The
    top card of a pile shows all four sides; the cards below show only some, so they
    rank lower and overlapping ones are dropped.  The card size is ``size`` when known;
    otherwise each straight piece is tried as a whole short side and as a whole long
    side (ratio 1.45).
    """
    lo, hi = width_range
    contours, _ = cv2.findContours(union, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    added: list[_Candidate] = []
    for contour in contours:
        area = float(cv2.contourArea(contour))
        smallest = size[0] * size[1] * 1.15 if size else lo * lo * 1.4 * 1.15
        largest = size[0] * size[1] * 12 if size else hi * hi * 1.4 * 12
        if not smallest <= area <= largest:
            continue
        hull = cv2.convexHull(contour)
        if len(hull) < 3:
            continue
        hull_quad = hull.reshape(-1, 2).astype(np.float32)
        explained = sum(_polygon_overlap(c.quad, hull_quad) for c in kept + added)
        if explained > 0.85 * area:
            continue
        filled = np.zeros_like(union)
        cv2.fillConvexPoly(filled, hull.reshape(-1, 2), 255)
        if float((edges[filled > 0] > 0).mean()) > MAX_EDGE_DENSITY:
            continue  # edges everywhere (texture, noise): edge support means nothing
        step = 0.02 * (size[0] if size else lo)
        poly = cv2.approxPolyDP(hull, max(step, 1.0), True).reshape(-1, 2).astype(np.float32)
        sides = [float(np.linalg.norm(poly[(i + 1) % len(poly)] - poly[i]))
                 for i in range(len(poly))]
        if size:
            sizes = [(size[0] * k, size[1] * k) for k in (0.92, 1.0, 1.08)]
        else:
            widths = sorted({round(v) for length in sides for v in (length, length / 1.45)
                             if lo <= v <= hi})
            sizes = [(float(v), float(v) * 1.45) for v in widths]
        hypotheses: list[tuple[float, Quad]] = []
        for i in range(len(poly)):
            p, q = poly[i], poly[(i + 1) % len(poly)]
            length = sides[i]
            if length < 0.45 * lo:
                continue
            u = (q - p) / length
            n = np.array([-u[1], u[0]], np.float32)
            probe = (p + q) / 2 + n * 3
            px, py = int(round(float(probe[0]))), int(round(float(probe[1])))
            if not (0 <= px < union.shape[1] and 0 <= py < union.shape[0]) or not filled[py, px]:
                n = -n
            for w, h in sizes:
                for along, across in ((w, h), (h, w)):
                    if length > along * 1.15 or length < 0.45 * along:
                        continue
                    for start in (p, q - u * along):
                        quad = np.array([start, start + u * along,
                                         start + u * along + n * across, start + n * across],
                                        np.float32)
                        support = _edge_support(quad, edges)
                        if support < 0.75:
                            continue
                        inside = _inside_share(quad, filled)
                        if inside >= 0.9:
                            hypotheses.append((support * inside, quad))
        hypotheses.sort(key=lambda x: x[0], reverse=True)
        for value, quad in hypotheses:
            quad_area = float(cv2.contourArea(quad))
            if any(_polygon_overlap(quad, o.quad) > 0.3 * quad_area for o in kept + added):
                continue
            added.append(_Candidate(quad, 0.9 * value, quad_area))
    return added


def _segments(gray: npt.NDArray[np.uint8], shortest: float,
              longest: float = float("inf")) -> npt.NDArray[np.float32]:
    """Straight edge segments (x1, y1, x2, y2) ``shortest`` to ``longest`` pixels long,
    longest first."""
    lines = _LSD.detect(gray)[0]
    if lines is None:
        return np.zeros((0, 4), np.float32)
    segs = lines.reshape(-1, 4).astype(np.float32)
    lengths = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    order = np.argsort(-lengths)
    order = order[(lengths[order] >= shortest) & (lengths[order] <= longest)]
    return segs[order[:MAX_SEGMENTS]]


def _side_support(quad: Quad, edges: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
    """Per side, the fraction of points along it (corners left out) that lie on an edge."""
    t = np.linspace(0.12, 0.88, 16)
    ends = np.roll(quad, -1, axis=0)
    points = quad[:, None, :] + (ends - quad)[:, None, :] * t[None, :, None]
    xs = np.clip(np.round(points[..., 0]).astype(int), 0, edges.shape[1] - 1)
    ys = np.clip(np.round(points[..., 1]).astype(int), 0, edges.shape[0] - 1)
    return np.asarray((edges[ys, xs] > 0).mean(axis=1), np.float64)


def _far_side(corner: npt.NDArray[np.float32], along: npt.NDArray[np.float32], arm: float,
              across: npt.NDArray[np.float32], other_arm: float,
              edges: npt.NDArray[np.uint8], longest: float, count: int | None = 4) -> list[float]:
    """Distances from ``corner`` along ``along`` to the first ``count`` (None: all)
    edges parallel to ``across`` beyond the arm's end: where the card's far side may be."""
    distances = np.arange(0.9 * arm, max(2.0 * longest, 1.1 * arm), 1.0, dtype=np.float32)
    if len(distances) == 0:
        return []
    t = np.linspace(0.15, 0.85, 12, dtype=np.float32) * other_arm
    points = (corner[None, None, :] + distances[:, None, None] * along[None, None, :]
              + t[None, :, None] * across[None, None, :])
    xs = np.rint(points[..., 0]).astype(np.intp)
    ys = np.rint(points[..., 1]).astype(np.intp)
    inside = (xs >= 0) & (ys >= 0) & (xs < edges.shape[1]) & (ys < edges.shape[0])
    hits = np.zeros(xs.shape, bool)
    hits[inside] = edges[ys[inside], xs[inside]] > 0
    support = hits.mean(axis=1)
    strong = support >= 0.75
    # each run of strong distances (a dilated edge is a band) is one candidate side
    starts = np.nonzero(strong & ~np.concatenate([[False], strong[:-1]]))[0]
    ends = np.nonzero(strong & ~np.concatenate([strong[1:], [False]]))[0]
    return [float(distances[(a + b) // 2]) for a, b in zip(starts, ends, strict=True)][:count]


def _paper_within_sides(quad: Quad, paper: npt.NDArray[np.bool_]) -> float:
    """The least, over the four sides, share of a thin band just inside the side that
    is card paper: a card's side has its paper (or the paper of a card lying on it)
    on its inner side, a line of the table's pattern beyond the card does not."""
    short = _sides(quad)[0]
    inset = max(2.0, 0.05 * short)
    t = np.linspace(0.2, 0.8, 12)
    h, w = paper.shape
    worst = 1.0
    for p, u, n, length in _side_lines(quad):
        points = p[None, :] + u[None, :] * (t * length)[:, None] - n[None, :] * inset
        xs = np.clip(np.rint(points[:, 0]).astype(np.intp), 0, w - 1)
        ys = np.clip(np.rint(points[:, 1]).astype(np.intp), 0, h - 1)
        worst = min(worst, float(paper[ys, xs].mean()))
    return worst


#: A card's corner: its point, and (direction, length) of the visible part of each of
#: its two sides, pointing away from it.
Corner = tuple[npt.NDArray[np.float32], tuple[npt.NDArray[np.float32], float],
               tuple[npt.NDArray[np.float32], float]]


def right_angle_corners(segs: npt.NDArray[np.float32], shortest_arm: float) -> list[Corner]:
    """Where two straight segments (``_segments``) meet at about a right angle, end to
    end: a card's corner, with arms at least ``shortest_arm`` long.

    Every pair of segments is judged at once (a patterned cloth gives a few hundred
    segments, so tens of thousands of pairs), in float32 as the segments are."""
    if len(segs) < 2:
        return []
    p1, p2 = segs[:, :2], segs[:, 2:]
    d = p2 - p1
    length = np.hypot(d[:, 0], d[:, 1])
    u = d / length[:, None]
    cos = np.abs(u @ u.T)
    first, second = np.nonzero(np.triu(cos < 0.3, 1))
    a, b = u[first], u[second]
    det = a[:, 0] * -b[:, 1] + b[:, 0] * a[:, 1]
    crossing = np.abs(det) >= 1e-6
    first, second, a, b, det = (v[crossing] for v in (first, second, a, b, det))
    # where the two lines cross
    w = p1[second] - p1[first]
    corner = p1[first] + ((w[:, 0] * -b[:, 1] + b[:, 0] * w[:, 1]) / det)[:, None] * a
    # a card's rounded corner keeps the segments' ends a little off the corner
    near = 0.1 * np.maximum(length[first], length[second]).astype(np.float64) + 3.0
    ok = np.ones(len(first), bool)
    arms = []
    for k in (first, second):
        to_start, to_end = p1[k] - corner, p2[k] - corner
        from_start = np.hypot(to_start[:, 0], to_start[:, 1])
        from_end = np.hypot(to_end[:, 0], to_end[:, 1])
        end_nearer = from_end < from_start
        ok &= np.where(end_nearer, from_end, from_start) <= near
        arm = np.where(end_nearer[:, None], p1[k], p2[k]) - corner  # to the far end
        arm_length = np.hypot(arm[:, 0], arm[:, 1])
        ok &= arm_length >= shortest_arm
        arms.append((arm / arm_length[:, None], arm_length))
    (ua, la), (ub, lb) = arms
    return [(corner[n], (ua[n], float(la[n])), (ub[n], float(lb[n])))
            for n in np.nonzero(ok)[0].tolist()]


def _cards_from_corners(gray: npt.NDArray[np.uint8], edges: npt.NDArray[np.uint8],
                        kept: list[_Candidate], size: tuple[float, float] | None,
                        width_range: tuple[float, float],
                        paper: npt.NDArray[np.bool_] | None = None,
                        max_aspect: float = MAX_ASPECT) -> list[_Candidate]:
    """Cards from their corners: two straight edges meeting at about a right angle.

    Overlapping cards, white cards on a white table and cards on a busy cloth rarely
    give a clean region, but a card's corners usually show: two straight segments
    whose ends meet.  Each such corner, with the card's size (``size``, or the
    visible arms taken as whole sides), gives a card whose four sides must lie on
    edges; the hidden corners of a card lying partly under another are allowed for
    by asking less of the two sides away from the corner.  With ``paper`` (where the
    image is card paper), a card whose side has no paper just inside it is dropped.
    """
    lo, hi = width_range
    # a segment much longer than a card's side is the table's edge or pattern
    segs = _segments(gray, 0.4 * lo, 2.5 * size[1] if size else float("inf"))
    hypotheses: list[tuple[float, Quad]] = []
    for corner, (ua, la), (ub, lb) in right_angle_corners(segs, 0.4 * lo):
        # the far sides: edges parallel to each arm beyond the other arm's end
        far_a = _far_side(corner, ua, la, ub, lb, edges, hi)
        far_b = _far_side(corner, ub, lb, ua, la, edges, hi)
        options = [(da, db) for da in far_a for db in far_b]
        for da in far_a:  # the other far side hidden: a card's usual shape
            options += [(da, da * r) for r in (1 / 1.45, 1.45) if da * r >= 0.85 * lb]
        for db in far_b:
            options += [(db * r, db) for r in (1 / 1.45, 1.45) if db * r >= 0.85 * la]
        for da2, db2 in options:
            short, long = min(da2, db2), max(da2, db2)
            if not (lo <= short <= hi and MIN_ASPECT <= long / short <= max_aspect):
                continue
            if size and not 0.75 * size[0] <= short <= 1.33 * size[0]:
                continue  # not the size of the cards found so far
            quad = np.array([corner, corner + ua * da2, corner + ua * da2 + ub * db2,
                             corner + ub * db2], np.float32)
            sides = _side_support(quad, edges)
            if float(sides.mean()) < 0.6:
                continue
            if paper is not None and _paper_within_sides(quad, paper) < PAPER_WITHIN:
                continue
            hypotheses.append((float(sides.mean()), quad))
    # the best supported first; among about equally good ones, the larger (a box
    # between a card's pips and one of its sides is smaller than the card)
    hypotheses.sort(key=lambda x: (round(x[0] * 10), cv2.contourArea(x[1])), reverse=True)
    added: list[_Candidate] = []
    for value, quad in hypotheses:
        area = float(cv2.contourArea(quad))
        # a card is new unless a card of about its size already lies mostly where it is
        # (details found inside it, such as pips, do not count)
        if any(_polygon_overlap(quad, o.quad) > 0.5 * min(area, o.area)
               for o in kept + added if o.area > 0.3 * area):
            continue
        added.append(_Candidate(quad, 0.85 * value, area))
    return added


def _covered_flags(kept: list[_Candidate], edges: npt.NDArray[np.uint8]) -> list[bool]:
    """Which cards lie partly under another: where two overlap, the card whose sides
    still show as edges inside the other one is on top."""
    covered = [False] * len(kept)
    for i, a in enumerate(kept):
        for j in range(i + 1, len(kept)):
            b = kept[j]
            if _polygon_overlap(a.quad, b.quad) < 0.04 * min(a.area, b.area):
                continue
            a_shows = _edge_support_inside(a.quad, b.quad, edges)
            b_shows = _edge_support_inside(b.quad, a.quad, edges)
            if a_shows is None or b_shows is None or abs(a_shows - b_shows) < 0.1:
                covered[j if a.score >= b.score else i] = True
            elif a_shows > b_shows:
                covered[j] = True
            else:
                covered[i] = True
    return covered


def _edge_support_inside(quad: Quad, other: Quad, edges: npt.NDArray[np.uint8]) -> float | None:
    """Edge support of the part of ``quad``'s sides that lies inside ``other``."""
    t = np.linspace(0.05, 0.95, 24)
    ends = np.roll(quad, -1, axis=0)
    points = (quad[:, None, :] + (ends - quad)[:, None, :] * t[None, :, None]).reshape(-1, 2)
    inside = np.array([cv2.pointPolygonTest(other.reshape(-1, 1, 2), (float(x), float(y)), True)
                       > 3 for x, y in points])
    if inside.sum() < 4:
        return None
    chosen = points[inside]
    xs = np.clip(np.round(chosen[:, 0]).astype(int), 0, edges.shape[1] - 1)
    ys = np.clip(np.round(chosen[:, 1]).astype(int), 0, edges.shape[0] - 1)
    return float((edges[ys, xs] > 0).mean())


def _snap_to_edges(quad: Quad, edges: npt.NDArray[np.uint8], reach: int = 3) -> Quad:
    """Move each side of a quad by up to ``reach`` pixels to where most of it lies on a
    (thin) edge, then intersect the moved sides again: corners to a pixel or so."""
    t = np.linspace(0.15, 0.85, 24)
    offsets = np.arange(-reach, reach + 1, dtype=np.float64)
    centre = quad.mean(axis=0)
    lines = []
    for i in range(4):
        p, q = quad[i].astype(np.float64), quad[(i + 1) % 4].astype(np.float64)
        u = (q - p) / max(float(np.linalg.norm(q - p)), 1e-6)
        n = np.array([-u[1], u[0]])
        if float(np.dot(n, (p + q) / 2 - centre)) < 0:
            n = -n
        points = p[None, :] + (q - p)[None, :] * t[:, None]
        moved = points[None, :, :] + offsets[:, None, None] * n[None, None, :]
        xs = np.clip(np.rint(moved[..., 0]).astype(np.intp), 0, edges.shape[1] - 1)
        ys = np.clip(np.rint(moved[..., 1]).astype(np.intp), 0, edges.shape[0] - 1)
        hits = (edges[ys, xs] > 0).sum(axis=1)
        # most hits; among ties, the smallest move
        best = offsets[int(np.lexsort((np.abs(offsets), -hits))[0])]
        lines.append((p + n * best, u))
    corners = _corners_of_sides([p for p, _ in lines], [u for _, u in lines])
    return quad if corners is None else corners


def _corners_of_sides(starts: Sequence[npt.NDArray[np.float64]],
                      directions: Sequence[npt.NDArray[np.float64]]) -> Quad | None:
    """Where each side line (a point and a unit direction) meets the one before it:
    the quad's corners, or None when two neighbouring sides are (nearly) parallel."""
    corners = []
    for i in range(4):
        p1, u1, p2, u2 = starts[i - 1], directions[i - 1], starts[i], directions[i]
        det = u1[0] * -u2[1] + u2[0] * u1[1]
        if abs(det) < 1e-3:
            return None
        d = p2 - p1
        k = (d[0] * -u2[1] + u2[0] * d[1]) / det
        corners.append(p1 + k * u1)
    return np.array(corners, dtype=np.float32)


def _side_lines(quad: Quad) -> list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                                         npt.NDArray[np.float64], float]]:
    """Per side: its start, unit direction, outward normal and length."""
    centre = quad.mean(axis=0).astype(np.float64)
    out = []
    for i in range(4):
        p, q = quad[i].astype(np.float64), quad[(i + 1) % 4].astype(np.float64)
        length = max(float(np.linalg.norm(q - p)), 1e-6)
        u = (q - p) / length
        n = np.array([-u[1], u[0]])
        if float(np.dot(n, (p + q) / 2 - centre)) < 0:
            n = -n
        out.append((p, u, n, length))
    return out


def _looks_face_up(image: npt.NDArray[np.uint8], corners: Quad) -> bool:
    """Cheap colour test: a face shows mostly white paper, a back mostly pattern."""
    target = np.array([[0, 0], [19, 0], [19, 27], [0, 27]], np.float32)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    view = cv2.warpPerspective(image, matrix, (20, 28), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
    hsv = cv2.cvtColor(view, cv2.COLOR_BGR2HSV)
    value = hsv[:, :, 2].astype(np.int16)
    saturation = hsv[:, :, 1].astype(np.int16)
    paper = (value - saturation) > max(float(np.percentile(value - saturation, 90)) - 60, 40)
    return float(paper.mean()) > 0.35


def _outline_cards(work: npt.NDArray[np.uint8], faint: npt.NDArray[np.uint8],
                   support: npt.NDArray[np.uint8], min_area: float, max_area: float,
                   report: Callable[[str, list[_Candidate]], None],
                   max_aspect: float = MAX_ASPECT) -> list[_Candidate]:
    """``_candidates_from_outlines`` of the faint edges (thickened by each of
    ``OUTLINE_RADII``) and of the fainter edges (``FAINTER_EDGES``: a white card on a
    white table, its side only a shade darker than the table)."""
    gray = cv2.GaussianBlur(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    fainter = np.asarray(cv2.Canny(gray, *FAINTER_EDGES), np.uint8)
    views = [(faint, support, r) for r in OUTLINE_RADII]
    views.append((fainter, np.asarray(cv2.dilate(fainter, np.ones((5, 5), np.uint8)), np.uint8), 1))
    found: list[_Candidate] = []
    for k, (edge_map, edge_support, radius) in enumerate(views):
        cands = _candidates_from_outlines(edge_map, radius, min_area, max_area, edge_support,
                                          max_aspect)
        report(f"outlines {k}", cands)
        found += cands
    return found


def find_cards(
    image: npt.NDArray[np.uint8],
    *,
    min_width: float | None = None,
    max_width: float | None = None,
    card_width: float | None = None,
    piles: bool = True,
    corners: bool = False,
    backs: bool = False,
    max_aspect: float = MAX_ASPECT,
    trace: Callable[[str, list[Quad]], None] | None = None,
) -> list[FoundCard]:
    """Every card outline in a BGR image, best fit first.

    ``min_width``/``max_width`` bound the card's short side in image pixels (default:
    1/25 and 1/2 of the image's short side).  ``card_width`` (pixels), when known
    (the table geometry knows it), lets the finder pick whole cards out of piles;
    ``piles=False`` skips that search (quicker, fewer cards from overlapping groups);
    ``corners=True`` (with ``piles``) also builds cards from their visible corners
    (slower; for photos of overlapping cards and low-contrast tables).  ``backs=True``
    (for table frames, where backs count) also takes card-shaped blobs of dense edges
    where nothing else was found (a dark patterned back on a pale cloth).  For a fresh
    deal on a plain table ``find_cards_quick`` is much quicker.  ``trace`` (for
    diagnostics) is told each stage's outlines, in image pixels.
    """
    if image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 16:
        return []
    height, width = image.shape[:2]
    smallest = min_width if min_width else min(height, width) / 25
    # work small enough to be quick, large enough that the smallest card keeps
    # MIN_WORK_CARD pixels across
    scale = min(1.0, WORK_SIZE / max(height, width), max(MIN_WORK_CARD / smallest, 0.25))
    work = image if scale == 1.0 else np.asarray(cv2.resize(
        image, (round(width * scale), round(height * scale)),
        interpolation=cv2.INTER_AREA if scale < 0.5 else cv2.INTER_LINEAR), dtype=np.uint8)
    lo = smallest * scale
    hi = (max_width if max_width else min(height, width) * 0.5) * scale
    min_area = lo * lo * 1.2
    max_area = hi * hi * 1.7
    card_px = float(np.sqrt(min_area * max_area) ** 0.5)

    def _report(stage: str, cands: list[_Candidate]) -> None:
        if trace is not None:
            trace(stage, [c.quad / scale for c in cands])

    candidates: list[_Candidate] = []
    seen: set[tuple[int, ...]] = set()  # outlines already fitted in another view
    masks, support, thin = _masks(work, card_px)
    for k, (mask, grow) in enumerate(masks):
        from_mask = _candidates_from_mask(mask, min_area, max_area, grow, seen, support,
                                          card_width is not None, max_aspect)
        _report(f"mask {k}", from_mask)
        candidates.extend(from_mask)
    white: npt.NDArray[np.uint8] | None = None
    paper: npt.NDArray[np.bool_] | None = None
    outlined: list[_Candidate] = []
    if corners:
        white = _whiteness(work)
        paper = white >= max(float(np.percentile(white, 90)) - 60, 40)
        outlined = _outline_cards(work, thin, support, min_area, max_area, _report,
                                  max_aspect)
    candidates = _off_border(candidates, work.shape[:2])
    _report("off the border", candidates)
    selected = _select(candidates, support, white, max_aspect)
    _report("selected", selected)
    kept = _drop_table_patches(work, selected)
    _report("not table patches", kept)
    if outlined:
        # after the regions' cards, and only where none lies: a hull can take in a
        # shadow or a neighbour's corner, which a region's outline does not
        outlined = _select(_off_border(outlined, work.shape[:2]), support,
                           max_aspect=max_aspect)
        kept += [o for o in outlined if not any(
            _polygon_overlap(o.quad, k.quad) > 0.3 * min(o.area, k.area) for k in kept)]
        _report("with outline cards", kept)
    size = None
    if card_width:
        size = (card_width * scale, card_width * scale * 1.4)
    elif kept:
        # the cards' size: pips (a diamond is card-shaped) can outnumber the cards, so
        # only outlines of at least a third of the largest one count
        largest = max(c.area for c in kept)
        sides = [_sides(c.quad) for c in kept if c.area >= largest / 3]
        size = (float(np.median([a for a, _ in sides])), float(np.median([b for _, b in sides])))
    if piles:
        # an outline much larger than a card is a pile's top card grown by what sticks
        # out below it: it does not explain its group, and gives way to whole cards
        # found inside the group
        limit = 1.5 * size[0] * size[1] if size else float("inf")
        oversized = [c for c in kept if c.area > limit]
        kept = [c for c in kept if c.area <= limit]
        for union, _ in masks[:2]:
            kept += _cards_in_piles(union, support, kept, size, (lo, hi))
        _report("with pile cards", kept)
        if corners:
            gray = np.asarray(cv2.GaussianBlur(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY), (3, 3), 0),
                              np.uint8)
            corner_cards = _cards_from_corners(gray, support, kept, size, (lo, hi), paper,
                                              max_aspect)
            # what was taken for a card inside a card found by its corners was a detail
            kept = [c for c in kept if not any(
                c.area < 0.3 * n.area and _polygon_overlap(c.quad, n.quad) > 0.7 * c.area
                for n in corner_cards)] + corner_cards
            _report("with corner cards", kept)
        for o in oversized:
            inside = [c for c in kept if _polygon_overlap(o.quad, c.quad) > 0.5 * c.area]
            if all(_detail_of(c, o) for c in inside):
                kept = [c for c in kept if not any(c is i for i in inside)] + [o]
    if backs:
        # where no card was found, a blob of dense edges of a card's shape: a dark
        # patterned back on a pale cloth is in none of the views above (not brighter
        # than the table, not unlike its colour, and its own pattern cuts every
        # edge-free region inside it: dev scenes 2014 and 2059 found no back at all,
        # spit piles included).  Not for photos, where only faces count
        blobs = _drop_table_patches(work, _select(_off_border(
            _edge_blobs(masks, min_area, max_area, support), work.shape[:2]), support))
        kept += [b for b in blobs if not any(
            _polygon_overlap(b.quad, k.quad) > 0.3 * min(b.area, k.area) for k in kept)]
        _report("with edge blobs", kept)
    kept = [_Candidate(_snap_to_edges(c.quad, thin), c.score, c.area) for c in kept]
    covered = _covered_flags(kept, support)

    found: list[FoundCard] = []
    for cand, under in zip(kept, covered, strict=True):
        outline = order_corners(cand.quad / scale)
        found.append(FoundCard(
            corners=outline.astype(np.float32),
            score=round(cand.score, 4),
            covered=under,
            face_up=_looks_face_up(image, outline),
        ))
    return found


def _table_colour(small: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The most common colour of an image (in 16-level bins), taken as the table's."""
    pixels = small[::4, ::4].reshape(-1, 3)
    codes = ((pixels[:, 0] >> 4).astype(np.int32) << 8) | ((pixels[:, 1] >> 4).astype(np.int32)
                                                           << 4) | (pixels[:, 2] >> 4)
    counts = np.bincount(codes, minlength=4096)
    top = int(np.argmax(counts))
    # the mean colour of that bin's pixels, from exact sums one channel at a time
    # (quicker than picking whole pixels out)
    members = codes == top
    sums = [int(pixels[:, c][members].sum(dtype=np.int64)) for c in range(3)]
    return np.asarray((np.array(sums) / counts[top]).round(), np.uint8)


@functools.lru_cache(maxsize=8)
def _side_moves(reach: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                                     npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Every pair of moves (at a side's start, at its end) up to ``reach`` pixels, the
    sample positions along a side, and each pair's move at each position."""
    offsets = np.arange(-reach, reach + 1, dtype=np.float64)
    o1, o2 = (g.ravel() for g in np.meshgrid(offsets, offsets, indexing="ij"))
    t = np.linspace(0.12, 0.88, 20)
    shift = o1[:, None] * (1 - t)[None, :] + o2[:, None] * t[None, :]  # pairs x t
    return o1, o2, t, shift


def _refine_side_lines(gray: npt.NDArray[np.uint8], quad: Quad, reach: int,
                       edge_map: npt.NDArray[np.uint8] | None = None) -> Quad:
    """Fit a rough quad to the card's edges in a full-resolution grey image.

    Each side's two ends move by up to ``reach`` pixels (across the side) to where the
    line between them runs along most edge pixels; the corners are the intersections
    of the moved sides.  The edges are found in a crop around the card only, unless
    ``edge_map`` (the whole image's, as found here) is given for fitting many quads.
    """
    return _refine_quads(gray, [quad], reach, edge_map)[0]


def _side_edges(crop: npt.NDArray[np.uint8], inner: npt.NDArray[np.int32] | None,
                ) -> npt.NDArray[np.uint8]:
    """The edges (Canny, dilated by a pixel) of a crop around a rough card outline, for
    fitting its sides: only outside ``inner`` (a polygon in the crop's pixels, or None).

    The fit reads edges only within its reach (and a pixel of dilation) of the rough
    sides, and Canny's thinning looks a pixel further.  Inside the card, further in
    than that (``inner``, ``SIDE_EDGE_MARGIN``), the gradient is zeroed before Canny: a
    face's pips and pictures are most of a crop's edges and most of Canny's time, and
    they cannot change an edge the fit reads, except through a faint edge continued
    across the card to a strong one (on the dev games' deals no fitted outline moved).
    """
    blurred = cv2.GaussianBlur(crop, (3, 3), 0)
    dx = cv2.Sobel(blurred, cv2.CV_16S, 1, 0, ksize=3, borderType=cv2.BORDER_REPLICATE)
    dy = cv2.Sobel(blurred, cv2.CV_16S, 0, 1, ksize=3, borderType=cv2.BORDER_REPLICATE)
    if inner is not None:
        keep = np.full(crop.shape[:2], 255, np.uint8)
        cv2.fillConvexPoly(keep, inner, 0)
        dx = cv2.bitwise_and(dx, dx, mask=keep)
        dy = cv2.bitwise_and(dy, dy, mask=keep)
    return np.asarray(cv2.dilate(cv2.Canny(dx, dy, 20, 60), np.ones((3, 3), np.uint8)), np.uint8)


def _inner_outlines(outlines: npt.NDArray[np.float32], reach: int) -> list[npt.NDArray[np.int32] | None]:
    """Each outline (quads x 4 x 2) shrunk about its centre until every side has moved in
    by ``reach + SIDE_EDGE_MARGIN`` pixels at least; None for one too small for that."""
    centres = outlines.mean(axis=1, keepdims=True)
    steps = np.roll(outlines, -1, axis=1) - outlines
    half = np.sqrt((steps * steps).sum(axis=2)).min(axis=1) / 2
    inset = reach + SIDE_EDGE_MARGIN
    scale = 1 - inset / np.maximum(half, 1e-6)
    inner = np.rint(centres + (outlines - centres) * scale[:, None, None]).astype(np.int32)
    return [quad if h > inset + 2 else None for quad, h in zip(inner, half.tolist(), strict=True)]


#: How far inside a rough card outline, beyond the fit's reach, ``_side_edges`` still
#: finds edges: a pixel of dilation, a pixel of Canny's thinning (next to the zeroed
#: gradient it sees a false ridge), a pixel of rounding and two spare.
SIDE_EDGE_MARGIN: Final = 5


def _refine_quads(gray: npt.NDArray[np.uint8], quads: Sequence[Quad], reach: int,
                  edge_map: npt.NDArray[np.uint8] | None = None) -> list[Quad]:
    """``_refine_side_lines`` of many quads: the same fits, the array work done once for
    all of them (a deal's dozen cards cost little more than one)."""
    refined: list[Quad] = list(quads)
    if not quads:
        return refined
    fitted: list[int] = []
    origins: list[tuple[int, int]] = []
    crops: list[npt.NDArray[np.uint8]] = []
    outlines = np.stack(quads)
    lows = (np.floor(outlines.min(axis=1)).astype(int) - reach - 2).tolist()
    highs = (np.ceil(outlines.max(axis=1)).astype(int) + reach + 3).tolist()
    inner = _inner_outlines(outlines, reach) if edge_map is None else []
    for k, ((x0, y0), (x1, y1)) in enumerate(zip(lows, highs, strict=True)):
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, gray.shape[1]), min(y1, gray.shape[0])
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        if edge_map is None:
            inside = inner[k]
            edges = _side_edges(gray[y0:y1, x0:x1],
                                None if inside is None else inside - np.array([x0, y0], np.int32))
        else:
            edges = edge_map[y0:y1, x0:x1]
        fitted.append(k)
        origins.append((x0, y0))
        crops.append(np.asarray(edges, np.uint8))
    if not fitted:
        return refined
    # every crop's edge pixels in one flat array: crop k's pixel (x, y) is at
    # first[k] + y * widths[k] + x
    heights = np.array([e.shape[0] for e in crops], np.intp)[:, None, None, None]
    widths = np.array([e.shape[1] for e in crops], np.intp)[:, None, None, None]
    first = np.cumsum([0] + [e.size for e in crops[:-1]])[:, None, None, None]
    edge_pixels = np.concatenate([e.ravel() for e in crops])
    local = np.stack([quads[k].astype(np.float64) - origin
                      for k, origin in zip(fitted, origins, strict=True)])  # quads x 4 x 2
    starts, ends = local, np.roll(local, -1, axis=1)
    units = (ends - starts) / np.maximum(np.linalg.norm(ends - starts, axis=2), 1e-6)[..., None]
    normals = np.stack([-units[..., 1], units[..., 0]], axis=2)
    outward = np.einsum("qsk,qsk->qs", normals,
                        (starts + ends) / 2 - local.mean(axis=1, keepdims=True)) < 0
    normals[outward] *= -1
    o1, o2, t, shift = _side_moves(reach)
    # the points along each side moved by each pair of moves: quads x sides x pairs x t,
    # one coordinate at a time
    xs, ys = (np.rint(starts[:, :, None, None, axis]
                      + (ends - starts)[:, :, None, None, axis] * t[None, None, None, :]
                      + shift[None, None, :, :] * normals[:, :, None, None, axis]).astype(np.intp)
              for axis in (0, 1))
    np.clip(xs, 0, widths - 1, out=xs)
    np.clip(ys, 0, heights - 1, out=ys)
    hits = np.count_nonzero(edge_pixels[first + ys * widths + xs], axis=3)  # quads x sides x pairs
    # most hits; among ties, the smallest move
    score = hits * 1000 - (np.abs(o1) + np.abs(o2))[None, None, :]
    best = np.argmax(score, axis=2)
    line_starts = starts + normals * o1[best][..., None]
    line_ends = ends + normals * o2[best][..., None]
    directions = line_ends - line_starts
    directions /= np.maximum(np.linalg.norm(directions, axis=2), 1e-6)[..., None]
    # each corner is where a side's line meets the line of the side before it
    p1, u1 = np.roll(line_starts, 1, axis=1), np.roll(directions, 1, axis=1)
    p2, u2 = line_starts, directions
    det = u1[..., 0] * -u2[..., 1] + u2[..., 0] * u1[..., 1]
    parallel = np.abs(det) < 1e-3
    d = p2 - p1
    along = (d[..., 0] * -u2[..., 1] + u2[..., 0] * d[..., 1]) / np.where(parallel, 1.0, det)
    corners = (p1 + along[..., None] * u1).astype(np.float32)
    for j, k in enumerate(fitted):
        if parallel[j].any():
            continue  # two neighbouring sides (nearly) parallel: no corner
        moved = corners[j] + np.array(origins[j], np.float32)
        if float(np.abs(moved - quads[k]).max()) <= 2 * reach + 2:
            refined[k] = moved
    return refined


def _paper_inside(image: npt.NDArray[np.uint8], quads: Sequence[Quad]) -> list[bool]:
    """``_looks_face_up`` of each quad from a grid of pixels inside it (no warp)."""
    if not quads:
        return []
    t = (np.arange(8, dtype=np.float32) + 0.5) / 8
    q = np.stack([np.asarray(quad, np.float32) for quad in quads])
    a, b, c, d = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    top = a[:, None, :] + (b - a)[:, None, :] * t[None, :, None]
    bottom = d[:, None, :] + (c - d)[:, None, :] * t[None, :, None]
    points = top[:, :, None, :] + (bottom - top)[:, :, None, :] * t[None, None, :, None]
    xs = np.clip(np.rint(points[..., 0]).astype(np.intp), 0, image.shape[1] - 1).reshape(-1)
    ys = np.clip(np.rint(points[..., 1]).astype(np.intp), 0, image.shape[0] - 1).reshape(-1)
    hsv = cv2.cvtColor(np.ascontiguousarray(image[ys, xs].reshape(1, -1, 3)), cv2.COLOR_BGR2HSV)
    white = (hsv[0, :, 2].astype(np.int16) - hsv[0, :, 1].astype(np.int16)).reshape(len(q), -1)
    level = np.maximum(np.percentile(white, 90, axis=1) - 60, 40)
    paper = white > level[:, None]
    return [bool(share > 0.35) for share in paper.mean(axis=1)]


#: A pile's top card: the least share of any of its four sides that must lie on edges
#: (the cards below it are cut by it, so only the top card shows four whole sides) ...
TOP_SIDE_SUPPORT: Final = 0.8
#: ... tried at these long-over-short ratios (poker 1.40 to bridge 1.56, seen in
#: perspective) and these shares of the pile's expected card width, then fitted.
TOP_ASPECTS: Final = (1.36, 1.48)
TOP_SCALES: Final = (0.97, 1.04)
#: When no outline shows four whole sides, a pile's top may show three, and the fourth
#: faintly: a pale card on pale cards over a cloth of much their shade (dev game 2065,
#: 3C on 2H on a grey dotted cloth: one side on edges at 0.65, read as covered for 2 s
#: in plain view).  ``find_pile_tops(faint=...)``.
FAINT_SIDE_SUPPORT: Final = 0.6
FAINT_OTHER_SIDES: Final = 0.9
#: How many of the best-supported rough outlines are fitted to the edges.
TOP_FITTED: Final = 12


def find_pile_top(image: npt.NDArray[np.uint8], card_width: float) -> FoundCard | None:
    """The top card of a messy pile: the card-sized outline whose four sides all lie on
    edges, or None (``find_pile_tops``' first)."""
    tops = find_pile_tops(image, card_width)
    return tops[0] if tops else None


def find_pile_tops(image: npt.NDArray[np.uint8], card_width: float, fine: bool = False,
                   aspects: Sequence[float] = TOP_ASPECTS,
                   faint: list[FoundCard] | None = None) -> list[FoundCard]:
    """Card-sized outlines whose four sides all lie on edges, the likeliest top card of
    a messy pile first (best supported), then other such outlines that overlap it.

    Cards slapped onto a pile lie offset and turned over each other, so the regions
    ``find_cards`` sees merge the top card with what sticks out below it.  Here the
    card's size is known (``card_width``, its short side in pixels): every straight
    edge segment, taken as one side of a card starting at either of its ends, gives a
    rough card-sized outline; the best supported are fitted to the edges, and the top
    card is the one whose four sides are whole edges (the sides of the cards below are
    cut where the top card covers them).  A card squared up on the one below, or a
    deck's frame line printed just inside the border, also gives outlines a little off
    the card with four sides on edges: those are the later ones, for a second look.
    ``image`` is best a crop around the pile (BGR).  Straight edges are looked for at
    half size when the card stays 24 pixels wide, unless ``fine``: a card's thin printed
    border over the white cards below can vanish at half size.  ``aspects``: the card
    shapes (long side over short) tried, when the deck's is known.  When no outline has
    four whole sides, those with three (``FAINT_OTHER_SIDES``) and the fourth at least
    ``FAINT_SIDE_SUPPORT`` on edges are put in ``faint`` (when given), in the same order.
    """
    if image.ndim != 3 or min(image.shape[:2]) < 16 or card_width < 8:
        return []
    gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    smooth = np.asarray(cv2.GaussianBlur(gray, (3, 3), 0), np.uint8)
    canny = cv2.Canny(smooth, 20, 60)
    tight = np.asarray(cv2.dilate(canny, np.ones((3, 3), np.uint8)), np.uint8)
    # a rough outline is a few pixels off the card's sides: judge it with a wider band
    loose = np.asarray(cv2.dilate(canny, np.ones((7, 7), np.uint8)), np.uint8)
    longest = card_width * max(aspects) * max(TOP_SCALES) * 1.15
    # straight segments at half size when the card stays 24 pixels wide (quicker)
    shrink = 2 if card_width >= 48 and not fine else 1
    small = smooth if shrink == 1 else np.asarray(cv2.resize(
        smooth, (smooth.shape[1] // 2, smooth.shape[0] // 2), interpolation=cv2.INTER_AREA),
        np.uint8)
    segs = _segments(small, 0.3 * card_width / shrink, longest / shrink)[:60] * shrink
    if len(segs) == 0:
        return []
    quads = _side_hypotheses(segs, card_width, aspects)
    if len(quads) == 0:
        return []
    support = _sides_on_edges(quads, loose)
    # the side opposite the segment rests on a guess of the card's size: a rough
    # outline is judged by its three best sides, the fitting finds the fourth
    worst = np.sort(support, axis=1)[:, 1]
    order = np.lexsort((-support.mean(axis=1), -worst))
    centres = quads.mean(axis=1)
    chosen: list[int] = []
    for k in order:
        if worst[k] < 0.6 or len(chosen) >= TOP_FITTED:
            break
        if any(float(np.linalg.norm(centres[k] - centres[j])) < 0.1 * card_width for j in chosen):
            continue  # much the same outline as one to be fitted already
        chosen.append(k)
    if not chosen:
        return []
    rough = [quads[k] for k in chosen]
    fitted = _refine_quads(gray, rough, max(3, int(round(0.07 * card_width))), tight)
    shaped = []
    for quad in fitted:
        short, long = _sides(quad)
        if (0.85 * card_width <= short <= 1.15 * card_width
                and MIN_ASPECT <= long / max(short, 1e-6) <= MAX_ASPECT):
            shaped.append(quad)
    kept: list[tuple[float, float, Quad]] = []
    if shaped:
        on_edges = _sides_on_edges(np.stack(shaped), tight)
        for quad, sides in zip(shaped, on_edges, strict=True):
            if float(sides.min()) >= TOP_SIDE_SUPPORT:
                kept.append((float(sides.min()), float(sides.mean()), quad))
        if not kept and faint is not None:
            three = []
            for quad, sides in zip(shaped, on_edges, strict=True):
                weakest, next_weakest = np.sort(sides)[:2]
                if weakest >= FAINT_SIDE_SUPPORT and next_weakest >= FAINT_OTHER_SIDES:
                    three.append((float(weakest), float(sides.mean()), quad))
            faint += _best_outlines(image, three)
    return _best_outlines(image, kept)


def _best_outlines(image: npt.NDArray[np.uint8], kept: list[tuple[float, float, Quad]],
                   ) -> list[FoundCard]:
    """Outlines given with their weakest and mean side support, best supported first,
    each card once."""
    kept.sort(key=lambda k: k[:2], reverse=True)
    tops: list[FoundCard] = []
    for _, mean, quad in kept:
        area = float(cv2.contourArea(quad))
        if any(_polygon_overlap(quad, t.corners) > 0.95 * area for t in tops):
            continue  # the same card fitted twice
        outline = order_corners(quad)
        tops.append(FoundCard(outline, round(mean, 4), False, _looks_face_up(image, outline)))
    return tops


def _side_hypotheses(segs: npt.NDArray[np.float32], card_width: float,
                     aspects: Sequence[float] = TOP_ASPECTS) -> npt.NDArray[np.float32]:
    """Card-sized quads (N x 4 x 2) with one side along a segment, from either of its
    ends, on either side of it, the segment taken as a short or a long side."""
    p1, p2 = segs[:, :2].astype(np.float64), segs[:, 2:].astype(np.float64)
    length = np.maximum(np.linalg.norm(p2 - p1, axis=1), 1e-6)
    u = (p2 - p1) / length[:, None]
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    quads = []
    for scale in TOP_SCALES:
        for aspect in aspects:
            w, h = card_width * scale, card_width * scale * aspect
            for along, across in ((w, h), (h, w)):
                fits = (length <= 1.15 * along) & (length >= 0.3 * along)
                if not fits.any():
                    continue
                for start in (p1[fits], p2[fits] - u[fits] * along):
                    for sign in (1.0, -1.0):
                        a = start
                        b = start + u[fits] * along
                        c = b + sign * n[fits] * across
                        d = a + sign * n[fits] * across
                        quads.append(np.stack([a, b, c, d], axis=1))
    if not quads:
        return np.zeros((0, 4, 2), np.float32)
    return np.concatenate(quads).astype(np.float32)


def _sides_on_edges(quads: npt.NDArray[np.float32], edges: npt.NDArray[np.uint8]
                    ) -> npt.NDArray[np.float64]:
    """Per quad and side (N x 4), the share of points along the side (corners left
    out) on an edge; points outside the image count as none."""
    t = np.linspace(0.1, 0.9, 20)
    ends = np.roll(quads, -1, axis=1)
    points = quads[:, :, None, :] + (ends - quads)[:, :, None, :] * t[None, None, :, None]
    xs = np.rint(points[..., 0]).astype(np.intp)
    ys = np.rint(points[..., 1]).astype(np.intp)
    inside = (xs >= 0) & (ys >= 0) & (xs < edges.shape[1]) & (ys < edges.shape[0])
    hits = np.zeros(xs.shape, bool)
    hits[inside] = edges[ys[inside], xs[inside]] > 0
    return np.asarray(hits.mean(axis=2), np.float64)


def find_cards_quick(image: npt.NDArray[np.uint8], *, min_width: float,
                     max_width: float | None = None,
                     gray: npt.NDArray[np.uint8] | None = None) -> list[FoundCard] | None:
    """Cards lying apart on a plain table of another colour (a fresh deal), quickly.

    Each card is a region unlike the table's colour in an image shrunk until the
    smallest card is about 12 pixels wide; its rectangle is then fitted to the card's
    edges at full resolution.  None when something on the table (away from the image's
    border) is not such a card: cards touching each other, piles, a hand, or cards on a
    table of their own colour need ``find_cards``, the thorough search.  ``gray``: the
    image in grey, when the caller has it already.
    """
    if image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 16:
        return None
    height, width = image.shape[:2]
    step = max(1, int(min_width // 12))
    small = np.asarray(cv2.resize(image, (width // step, height // step),
                                  interpolation=cv2.INTER_AREA), np.uint8)
    table = _table_colour(small)
    b, g, r = (cv2.absdiff(channel, np.full_like(channel, int(value)))
               for channel, value in zip(cv2.split(small), table, strict=True))
    _, unlike = cv2.threshold(cv2.max(cv2.max(b, g), r), 40, 1, cv2.THRESH_BINARY)
    unlike = cv2.morphologyEx(unlike, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    contours, _ = cv2.findContours(unlike, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    lo = min_width / step
    hi = (max_width if max_width else min(height, width) * 0.5) / step
    if gray is None:
        gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    boxes: list[Quad] = []
    fills: list[float] = []
    small_h, small_w = unlike.shape[:2]
    for contour in contours:
        area = float(cv2.contourArea(contour))
        if area < 0.5 * lo * lo:
            continue  # a speck
        x, y, w, h = cv2.boundingRect(contour)
        if x == 0 or y == 0 or x + w >= small_w or y + h >= small_h:
            continue  # cut by the image's border: the table's edge, an arm, no whole card
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
        short, long = min(rw, rh), max(rw, rh)
        if (area > hi * hi * 1.7 or short < 0.8 * lo or not MIN_ASPECT <= long / short <= MAX_ASPECT
                or area < 0.85 * rw * rh):
            return None  # something that is not a lone card
        fills.append(area / (rw * rh))
        boxes.append(cv2.boxPoints(((cx, cy), (rw, rh), angle)).astype(np.float32))
    # a small pixel covers step x step image pixels; the contour runs through the
    # centres of the region's border pixels
    quads = _refine_quads(gray, [(box + 0.5) * step - 0.5 for box in boxes], step)
    found = [FoundCard(order_corners(quad), round(float(min(fill, 1.0)), 4), False, face_up)
             for quad, fill, face_up in zip(quads, fills, _paper_inside(small, boxes), strict=True)]
    if len(found) >= 3:
        # two cards lying edge to edge make one card-shaped region of twice the area
        areas = [float(cv2.contourArea(f.corners)) for f in found]
        typical = float(np.median(areas))
        if not all(0.6 * typical <= a <= 1.5 * typical for a in areas):
            return None
    found.sort(key=lambda f: f.score, reverse=True)
    return found


#: The third look of ``find_cards_thorough``: the photo through a median filter this
#: wide (pixels) per 1000 pixels of its longer side, odd and at least 3.
SMOOTHED_LOOK_PX: Final = 5.5


#: How far (0-255, the largest channel's difference) a pixel must be from the empty
#: table's picture to count as something laid on it (``find_cards_on_plate``).
PLATE_DIFFERENCE: Final = 25
#: How far (a share of the cards' width) an outline of what changed is moved onto the
#: card's own sides.
PLATE_REFIT: Final = 0.07


def changed_since(image: npt.NDArray[np.uint8], before: npt.NDArray[np.uint8], *,
                  exposure: bool = False) -> npt.NDArray[np.uint8]:
    """255 where ``image`` differs from ``before`` (a BGR picture of the same size) by
    more than ``PLATE_DIFFERENCE`` in some channel, after a 3x3 blur of both; with
    ``exposure``, ``before`` is first scaled by the change of the median colour (mostly
    table in both: a camera's exposure follows what it sees)."""
    now = cv2.GaussianBlur(image, (3, 3), 0)
    then = cv2.GaussianBlur(before, (3, 3), 0)
    if exposure:
        gain = (np.median(now[::8, ::8].reshape(-1, 3), axis=0)
                / np.maximum(np.median(then[::8, ::8].reshape(-1, 3), axis=0), 1.0))
        if np.abs(gain - 1.0).max() > 0.02:
            scale: Any = (*np.clip(gain, 0.5, 2.0).tolist(), 1.0)  # (a scalar per channel)
            then = cv2.multiply(then, scale)
    blue, green, red = cv2.split(cv2.absdiff(now, then))
    _, changed = cv2.threshold(cv2.max(cv2.max(blue, green), red), PLATE_DIFFERENCE, 255,
                               cv2.THRESH_BINARY)
    return np.asarray(changed, np.uint8)


def find_cards_on_plate(image: npt.NDArray[np.uint8], plate: npt.NDArray[np.uint8], *,
                        min_width: float, max_width: float | None = None) -> list[FoundCard]:
    """Cards laid on the table since ``plate``, a picture of it empty from the same
    camera: the regions of ``image`` that differ from it (``PLATE_DIFFERENCE``), each
    outlined by itself.

    A fixed camera over a cloth whose pattern hides pale cards from every other view
    (small cards on pale stripes, dev game 2045: three of twelve dealt cards found)
    still sees them change what the cloth looked like, and the gaps between a deal's
    columns, where the cloth shows as before, keep them apart.  A column's face-down
    cards sticking out under its top card are outlined with it.  The plate is scaled
    to the frame's brightness first (a camera's exposure follows what it sees).
    Returns nothing when the plate is not of this frame's size.
    """
    if image.ndim != 3 or plate.shape != image.shape:
        return []
    changed = np.asarray(cv2.morphologyEx(changed_since(image, plate, exposure=True),
                                          cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)), np.uint8)
    # a card's own print can match the cloth here and there: fill each region's holes
    contours, _ = cv2.findContours(changed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(changed.shape, np.uint8)
    cv2.drawContours(filled, contours, -1, 255, -1)
    height, width = image.shape[:2]
    hi = max_width if max_width else min(height, width) * 0.5
    cands = _off_border(_candidates_from_mask(filled, min_width * min_width * 1.2,
                                              hi * hi * 1.7, 0.0), image.shape[:2])
    ordered = sorted(cands, key=lambda c: c.score, reverse=True)
    quads = [c.quad.astype(np.float32) for c in ordered]
    if quads:
        # what changed takes in the card's shadow and the blur: its sides moved onto the
        # card's own edges
        widths = sorted(min(_sides(q)) for q in quads)
        reach = max(2, int(round(PLATE_REFIT * widths[len(widths) // 2])))
        gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
        quads = _refine_quads(gray, quads, reach)
    found = []
    for cand, quad in zip(ordered, quads, strict=True):
        outline = order_corners(quad)
        found.append(FoundCard(outline.astype(np.float32), round(cand.score, 4), False,
                               _looks_face_up(image, outline)))
    return found


def _look(image: npt.NDArray[np.uint8], look: str) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """Another look at ``image`` ("small": 2/3 size; "smoothed": through a median filter
    ``SMOOTHED_LOOK_PX`` wide), and the scale from its pixels back to the image's."""
    height, width = image.shape[:2]
    if look == "small":
        small = np.asarray(cv2.resize(image, (width * 2 // 3, height * 2 // 3),
                                      interpolation=cv2.INTER_AREA), np.uint8)
        return small, np.array([width / small.shape[1], height / small.shape[0]], np.float32)
    if look == "smoothed":
        kernel = max(3, int(round(SMOOTHED_LOOK_PX * max(height, width) / 1000)) | 1)
        smoothed = np.asarray(cv2.medianBlur(np.ascontiguousarray(image), kernel), np.uint8)
        return smoothed, np.ones(2, np.float32)
    raise ValueError(f"no look {look!r}")


def find_cards_looking(image: npt.NDArray[np.uint8], look: str, *,
                       min_width: float | None = None,
                       max_aspect: float = MAX_ASPECT) -> list[FoundCard]:
    """``find_cards`` with outlines from corners too, on one other ``look`` at the image
    (see ``find_cards_thorough``), in the image's pixels."""
    if image.ndim != 3 or min(image.shape[:2]) < 48:
        return []
    seen, scale = _look(image, look)
    least = None if min_width is None else min_width / float(scale[0])
    return [FoundCard((card.corners * scale).astype(np.float32), card.score, card.covered,
                      card.face_up)
            for card in find_cards(seen, corners=True, min_width=least, max_aspect=max_aspect)]


def find_cards_thorough(image: npt.NDArray[np.uint8]) -> list[FoundCard]:
    """``find_cards`` on the image, on a copy at 2/3 size and on a median-filtered copy,
    merged.

    Faint or broken outlines often close at the smaller size (and fine texture fades),
    so the looks find different cards.  The median filter (``SMOOTHED_LOOK_PX``) wipes
    out a patterned cloth's stripes, dots or checks, finer than a card, while a card's
    sides stay where they are: pale cards on a pale striped cloth, whose outlines the
    stripes cut into pieces in every view of the first two looks, come out whole.  An
    outline from a later look is added when it overlaps no card of an earlier one.  For
    photos (``tablecam recognize``), where time matters less than on a live table.
    """
    found = find_cards(image, corners=True, max_aspect=PHOTO_MAX_ASPECT)
    if image.ndim != 3 or min(image.shape[:2]) < 48:
        return found
    merged = list(found)
    for look in ("small", "smoothed"):
        for card in find_cards_looking(image, look, max_aspect=PHOTO_MAX_ASPECT):
            area = float(cv2.contourArea(card.corners))
            if all(_polygon_overlap(card.corners, f.corners)
                   < 0.3 * min(area, float(cv2.contourArea(f.corners))) for f in merged):
                merged.append(card)
    return merged
