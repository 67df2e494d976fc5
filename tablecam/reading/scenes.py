"""Small synthetic table scenes with known card outlines, for the finder's tests and
benchmarks.

A scene is a background (flat colour plus noise, or a light wood-like texture) with
card images pasted at given centres, angles and sizes, optionally seen through a
tilted camera (a homography) — so every card's true corners are known exactly.
``plain_face`` draws a simple card (white, rounded corners, rank and suit marks in
red or black) when no deck artwork is wanted; ``spit_deal_scene`` lays a dealt Spit
table in the zones of ``tablecam.geometry.LAYOUT``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.cards import Card
from tablecam.geometry import LAYOUT, project

Image = npt.NDArray[np.uint8]


def plain_face(card: Card, width: int = 100) -> Image:
    """A simple card face: white, rounded corners, indices in both corners, a few pips."""
    height = round(width * 1.4)
    face = np.full((height, width, 3), 255, np.uint8)
    colour = (30, 30, 200) if card.suit.is_red else (20, 20, 20)
    scale = width / 100
    font = cv2.FONT_HERSHEY_SIMPLEX
    thickness = max(1, round(2 * scale))
    cv2.putText(face, card.rank.code, (round(6 * scale), round(24 * scale)), font,
                0.8 * scale, colour, thickness, cv2.LINE_AA)
    cv2.putText(face, "CDHS"[card.suit.value], (round(8 * scale), round(46 * scale)), font,
                0.6 * scale, colour, thickness, cv2.LINE_AA)
    rng = np.random.default_rng(card.index)
    for _ in range(min(card.rank.value, 10)):
        x = int(rng.integers(round(30 * scale), round(70 * scale)))
        y = int(rng.integers(round(35 * scale), round(105 * scale)))
        cv2.circle(face, (x, y), max(2, round(6 * scale)), colour, -1, cv2.LINE_AA)
    face[height // 2:] = np.rot90(face[: height - height // 2], 2)[: height - height // 2]
    return face


def plain_back(width: int = 100) -> Image:
    """A card back: a blue lattice inside a thin white border."""
    height = round(width * 1.4)
    back = np.full((height, width, 3), 255, np.uint8)
    border = max(2, width // 20)
    back[border:-border, border:-border] = (150, 60, 20)
    for k in range(-height, width, max(4, width // 10)):
        cv2.line(back, (k, 0), (k + height, height), (200, 120, 60), max(1, width // 40))
        cv2.line(back, (k + height, 0), (k, height), (200, 120, 60), max(1, width // 40))
    back[:border] = back[-border:] = 255
    back[:, :border] = back[:, -border:] = 255
    return back


def background(size: tuple[int, int], colour: tuple[int, int, int], seed: int = 0,
               wood: bool = False) -> Image:
    """A table: ``size`` is (width, height); noise, and wood-like streaks if ``wood``."""
    width, height = size
    rng = np.random.default_rng(seed)
    table = np.empty((height, width, 3), np.float32)
    table[:] = colour
    if wood:
        streaks = np.sin(np.linspace(0, 60, height)[:, None] + rng.normal(0, 0.3, (1, width)))
        table += 10 * streaks[:, :, None]
    table += rng.normal(0, 4, table.shape)
    return np.clip(table, 0, 255).astype(np.uint8)


@dataclass(frozen=True, eq=False)
class Placed:
    """A card pasted into a scene: its true corners (clockwise from its top left)."""

    corners: npt.NDArray[np.float32]
    face: Image


def paste(scene: Image, face: Image, centre: tuple[float, float], angle_deg: float,
          width: float, corner_radius: float = 0.06) -> npt.NDArray[np.float32]:
    """Paste a card image (BGR with rounded corners drawn here, or BGRA deck art) with
    a soft shadow, and return its corners."""
    fh, fw = face.shape[:2]
    height = width * fh / fw
    theta = np.deg2rad(angle_deg)
    u = np.array([np.cos(theta), np.sin(theta)])  # the card's "right"
    v = np.array([-np.sin(theta), np.cos(theta)])  # the card's "down"
    c = np.array(centre, np.float64)
    corners = np.array([c - u * width / 2 - v * height / 2, c + u * width / 2 - v * height / 2,
                        c + u * width / 2 + v * height / 2, c - u * width / 2 + v * height / 2],
                       np.float32)
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, corners)
    if face.ndim == 3 and face.shape[2] == 4:  # deck art brings its own outline
        alpha = np.ascontiguousarray(face[:, :, 3])
        face = np.ascontiguousarray(face[:, :, :3])
    else:
        alpha = np.zeros((fh, fw), np.uint8)
        r = max(1, round(corner_radius * fw))
        cv2.rectangle(alpha, (r, 0), (fw - r, fh), 255, -1)
        cv2.rectangle(alpha, (0, r), (fw, fh - r), 255, -1)
        for x, y in ((r, r), (fw - r - 1, r), (r, fh - r - 1), (fw - r - 1, fh - r - 1)):
            cv2.circle(alpha, (x, y), r, 255, -1, cv2.LINE_AA)
    size = (scene.shape[1], scene.shape[0])
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(alpha, matrix, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    shadow = cv2.GaussianBlur(mask, (0, 0), max(1.0, width / 60))
    shadow = np.roll(shadow, (max(1, round(width / 50)),) * 2, axis=(0, 1))
    out = scene.astype(np.float32) * (1 - 0.35 * shadow[:, :, None] * (1 - mask[:, :, None]))
    out = out * (1 - mask[:, :, None]) + warped.astype(np.float32) * mask[:, :, None]
    scene[:] = np.clip(out, 0, 255).astype(np.uint8)
    return corners


def tilt(scene: Image, corners: Sequence[npt.NDArray[np.float32]], amount: float,
         ) -> tuple[Image, list[npt.NDArray[np.float32]]]:
    """View the scene through a tilted camera: the far (top) edge shrinks by ``amount``."""
    h, w = scene.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    d = amount * w / 2
    dst = np.array([[d, 0], [w - d, 0], [w, h], [0, h]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(scene, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)
    moved = [cv2.perspectiveTransform(c.reshape(-1, 1, 2), matrix).reshape(4, 2) for c in corners]
    return np.asarray(out, np.uint8), [m.astype(np.float32) for m in moved]


@dataclass(frozen=True, eq=False)
class DealScene:
    image: Image
    #: zone -> the true corners of the top card there, and its card (None = face down)
    truth: dict[str, tuple[npt.NDArray[np.float32], Card | None]]
    #: table plane (mm) -> image homography used to lay it out
    table_to_image: npt.NDArray[np.float64]


def spit_deal_scene(up_cards: Sequence[Card], size: tuple[int, int] = (1280, 720),
                    colour: tuple[int, int, int] = (40, 90, 40), px_per_mm: float = 1.2,
                    seed: int = 0, jitter_mm: float = 3.0, faces: dict[Card, Image] | None = None,
                    back: Image | None = None, centre: Sequence[Card] = (),
                    table: Image | None = None) -> DealScene:
    """A dealt Spit table: ten face-up cards (A1..A5 then B1..B5), the spit piles face
    down, and optionally cards on the centre piles (``left`` then ``right``).  ``table``
    (an image of ``size``) replaces the plain cloth, e.g. a picture of the ArUco mat."""
    rng = np.random.default_rng(seed)
    width, height = size
    scene = background(size, colour, seed) if table is None else table.copy()
    homography = np.array([[px_per_mm, 0, width / 2], [0, px_per_mm, height / 2], [0, 0, 1]],
                          np.float64)
    card_w = 63 * px_per_mm
    back_image = back if back is not None else plain_back()
    truth: dict[str, tuple[npt.NDArray[np.float32], Card | None]] = {}
    zones = [f"A{i}" for i in range(1, 6)] + [f"B{i}" for i in range(1, 6)]
    lay: list[tuple[str, Card | None]] = list(zip(zones, up_cards, strict=True))
    lay += [("spitA", None), ("spitB", None)]
    lay += list(zip(("left", "right"), centre, strict=False))
    for zone, card in lay:
        rect = LAYOUT[zone]
        jitter = rng.normal(0, jitter_mm, 2)
        x, y = project(homography, [[rect.x + jitter[0], rect.y + jitter[1]]])[0]
        angle = float(rng.normal(0, 3)) + (180.0 if zone.startswith("B") else 0.0)
        if zone in ("left", "right"):
            angle = float(rng.uniform(-25, 25))
        if card is None:
            image = back_image
        elif faces is not None and card in faces:
            image = faces[card]
        else:
            image = plain_face(card)
        corners = paste(scene, image, (float(x), float(y)), angle, card_w)
        from tablecam.reading.warp import order_corners
        truth[zone] = (order_corners(corners), card)
    return DealScene(scene, truth, homography)
