"""The printable ArUco mat: every zone marked on paper, found exactly by its markers.

The mat is the table plane of ``tablecam.geometry.LAYOUT`` (594 x 420 mm, origin at
its centre), printed on two A3 sheets (portrait, side by side) or four A4 sheets
(landscape, two by two).  Four ArUco markers (``DICT_4X4_50``, ids 0-3, 50 mm) lie in
the free band between the rows, beside the centre piles, so that every A4 sheet
carries one; any two of them give the homography from the mat to the image.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.errors import TablecamError
from tablecam.geometry import LAYOUT, TableGeometry, geometry_from_homography

MAT_MM: Final = (594.0, 420.0)
MARKER_MM: Final = 50.0
#: White margin around each marker, and the mat's cloth colour (BGR).
QUIET_MM: Final = 8.0
CLOTH_BGR: Final = (55, 95, 45)
#: Length of the printed corner marks of each zone.
TICK_MM: Final = 10.0
DICTIONARY: Final = cv2.aruco.DICT_4X4_50
#: Marker id -> centre of the marker on the mat (mm).
MARKERS: Final[dict[int, tuple[float, float]]] = {
    0: (-235.0, -45.0), 1: (235.0, -45.0), 2: (235.0, 45.0), 3: (-235.0, 45.0)}
Paper = Literal["a3", "a4"]
PAPER_MM: Final[dict[str, tuple[float, float]]] = {"a3": (297.0, 420.0), "a4": (297.0, 210.0)}

_LABELS: Final = {
    "left": "centre left", "right": "centre right", "spitA": "A spit", "spitB": "B spit"}


class MatError(TablecamError):
    """The mat could not be written or was not found in an image."""


def marker_corners_mm(marker_id: int) -> npt.NDArray[np.float32]:
    """Corners of a marker on the mat, clockwise from its top left, in mm."""
    x, y = MARKERS[marker_id]
    h = MARKER_MM / 2
    return np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]],
                    dtype=np.float32)


def render_mat(dpi: float = 100.0) -> npt.NDArray[np.uint8]:
    """The whole mat as a BGR image at ``dpi``.

    The cloth is a dark green so that white cards stand out from it (a white mat is a
    light table: cards would barely show), with light corner marks and names for each
    zone and the markers on white squares.
    """
    px = dpi / 25.4
    width, height = round(MAT_MM[0] * px), round(MAT_MM[1] * px)
    image = np.empty((height, width, 3), np.uint8)
    image[:] = CLOTH_BGR

    def to_px(points: npt.ArrayLike) -> npt.NDArray[np.int32]:
        pts = np.asarray(points, np.float64) + np.array([MAT_MM[0] / 2, MAT_MM[1] / 2])
        return np.round(pts * px).astype(np.int32)

    thick = max(1, round(0.8 * px))
    font = cv2.FONT_HERSHEY_SIMPLEX
    for zone, rect in LAYOUT.items():
        # corner ticks only: a closed outline the size of a card would look like a card
        # to the finder
        corners = rect.corners()
        for i in range(4):
            here = corners[i]
            for other in (corners[i - 1], corners[(i + 1) % 4]):
                tip = here + (other - here) / np.linalg.norm(other - here) * TICK_MM
                a, b = to_px(np.array([here, tip]))
                cv2.line(image, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), (190, 200, 190),
                         thick, cv2.LINE_AA)
        label = _LABELS.get(zone, zone)
        scale = 0.3 * px
        (tw, th), _ = cv2.getTextSize(label, font, scale, thick)
        cx, cy = to_px([[rect.x, rect.y]])[0]
        cv2.putText(image, label, (int(cx - tw / 2), int(cy + th / 2)), font, scale,
                    (120, 150, 110), thick, cv2.LINE_AA)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    side = round(MARKER_MM * px)
    quiet = round(QUIET_MM * px)
    for marker_id in MARKERS:
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        x0, y0 = to_px(marker_corners_mm(marker_id)[:1])[0]
        image[y0 - quiet:y0 + side + quiet, x0 - quiet:x0 + side + quiet] = 255
        image[y0:y0 + side, x0:x0 + side] = marker[:, :, None]
    return image


def mat_pages(paper: Paper = "a3", dpi: float = 150.0) -> list[npt.NDArray[np.uint8]]:
    """The mat cut into sheets of ``paper``, left to right then top to bottom."""
    if paper not in PAPER_MM:
        raise MatError(f"paper must be a3 or a4, not {paper!r}")
    image = render_mat(dpi)
    px = dpi / 25.4
    sheet_w, sheet_h = (round(v * px) for v in PAPER_MM[paper])
    pages = []
    for top in range(0, image.shape[0], sheet_h):
        for left in range(0, image.shape[1], sheet_w):
            page = np.full((sheet_h, sheet_w, 3), 255, np.uint8)
            part = image[top:top + sheet_h, left:left + sheet_w]
            page[:part.shape[0], :part.shape[1]] = part
            pages.append(page)
    return pages


def write_mat_pdf(path: Path, paper: Paper = "a3", dpi: float = 150.0) -> int:
    """Write the mat as a PDF of ``paper`` sheets; returns the number of pages."""
    from PIL import Image

    pages = [Image.fromarray(cv2.cvtColor(p, cv2.COLOR_BGR2RGB)) for p in mat_pages(paper, dpi)]
    try:
        pages[0].save(path, "PDF", resolution=dpi, save_all=True, append_images=pages[1:])
    except OSError as exc:
        raise MatError(f"cannot write the mat to {path}: {exc.strerror or exc}") from exc
    return len(pages)


@dataclass(frozen=True)
class MatDetection:
    """Markers found: their ids, and the geometry they give."""

    marker_ids: tuple[int, ...]
    geometry: TableGeometry


def find_mat(image: npt.NDArray[np.uint8]) -> MatDetection | None:
    """The mat's geometry from its ArUco markers, or None when fewer than two are seen."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(DICTIONARY), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return None
    src, dst, seen = [], [], []
    for marker_corners, marker_id in zip(corners, ids.ravel(), strict=True):
        if int(marker_id) not in MARKERS or int(marker_id) in seen:
            continue
        seen.append(int(marker_id))
        src.append(marker_corners_mm(int(marker_id)))
        dst.append(np.asarray(marker_corners, np.float32).reshape(4, 2))
    if len(seen) < 2:
        return None
    homography, _ = cv2.findHomography(np.concatenate(src), np.concatenate(dst), 0)
    if homography is None:
        return None
    return MatDetection(tuple(sorted(seen)),
                        geometry_from_homography(np.asarray(homography, np.float64), "mat"))
