"""The printable ArUco mat: pages, PDF, and zones found exactly from its markers."""

from pathlib import Path

import cv2
import numpy as np

from tablecam.cli import main
from tablecam.geometry import LAYOUT, ZONE_IDS
from tablecam.geometry.mat import MARKERS, MAT_MM, find_mat, mat_pages, render_mat


def _photograph_mat(tilt: float, hide: tuple[int, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    """The mat seen by a tilted camera in a 1280x720 frame, and the mm -> image homography."""
    dpi = 60.0
    mat = render_mat(dpi)
    px = dpi / 25.4
    for marker in hide:  # cover a marker with a hand-coloured patch
        x, y = MARKERS[marker]
        cx, cy = round((x + MAT_MM[0] / 2) * px), round((y + MAT_MM[1] / 2) * px)
        cv2.circle(mat, (cx, cy), round(40 * px), (120, 150, 200), -1)
    h, w = mat.shape[:2]
    d = tilt * 900
    dst = np.array([[190 + d, 40], [1090 - d, 40], [1110, 690], [170, 690]], np.float32)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    to_frame = cv2.getPerspectiveTransform(src, dst)
    frame = cv2.warpPerspective(mat, to_frame, (1280, 720), borderValue=(40, 70, 110))
    mm_to_px = np.array([[px, 0, MAT_MM[0] / 2 * px], [0, px, MAT_MM[1] / 2 * px], [0, 0, 1]])
    return frame, to_frame @ mm_to_px


def _zone_error(geometry_quad: np.ndarray, zone: str, homography: np.ndarray) -> float:
    truth = cv2.perspectiveTransform(
        LAYOUT[zone].corners().reshape(-1, 1, 2).astype(np.float64), homography).reshape(4, 2)
    return float(np.linalg.norm(geometry_quad - truth, axis=1).max())


def test_the_mat_gives_every_zone_exactly_under_tilt() -> None:
    for tilt in (0.0, 0.12):
        frame, homography = _photograph_mat(tilt)
        found = find_mat(frame)
        assert found is not None
        assert found.marker_ids == (0, 1, 2, 3)
        assert set(found.geometry.zones) == set(ZONE_IDS)
        for zone in ZONE_IDS:
            assert _zone_error(found.geometry.zones[zone], zone, homography) < 4.0


def test_two_markers_are_enough_and_one_is_not() -> None:
    frame, homography = _photograph_mat(0.05, hide=(0, 2))
    found = find_mat(frame)
    assert found is not None and found.marker_ids == (1, 3)
    assert _zone_error(found.geometry.zones["A1"], "A1", homography) < 8.0
    frame, _ = _photograph_mat(0.05, hide=(0, 1, 3))
    assert find_mat(frame) is None
    assert find_mat(np.zeros((720, 1280, 3), np.uint8)) is None


def test_pages_tile_the_mat_on_a3_and_a4() -> None:
    assert len(mat_pages("a3", dpi=30)) == 2
    a4 = mat_pages("a4", dpi=30)
    assert len(a4) == 4
    # every A4 sheet carries one whole marker, so each can be checked on its own
    for page in a4:
        detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
        big = cv2.resize(page, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST)
        _, ids, _ = detector.detectMarkers(cv2.cvtColor(big, cv2.COLOR_BGR2GRAY))
        assert ids is not None and len(ids) == 1


def test_mat_command_writes_a_pdf_and_refuses_bad_paths(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "mat.pdf"
    assert main(["mat", "--out", str(out), "--paper", "a4", "--dpi", "40"]) == 0
    assert out.read_bytes()[:5] == b"%PDF-"
    assert main(["mat", "--out", str(tmp_path / "missing" / "mat.pdf")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["mat", "--out", str(tmp_path / "mat.txt")]) == 2
