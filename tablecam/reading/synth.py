"""Synthetic card views for training and evaluating the card reader.

Each sample is made the way the camera makes one: a card face (rendered from deck
art) lies on a table texture, perhaps over or under other cards, under uneven
light, is seen small by a real sensor (blur, noise, JPEG) and is then cut out by a
finder whose corners are a few pixels off.  The result is the canonical 100x140 view
of ``tablecam/reading/warp.py``, exactly what the classifier sees at run time.

Besides faces the generator makes ``back`` samples (card backs) and ``none``
samples (bare table, hands, two half cards, crops straddling a card edge) so that the
finder can drop outlines that are not a readable card.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.reading.warp import CARD_H, CARD_W, warp_card

Image = npt.NDArray[np.uint8]
Rng = np.random.Generator

KIND_FACE: Final = 0
KIND_BACK: Final = 1
KIND_NONE: Final = 2


@dataclass(frozen=True)
class Sample:
    """One synthetic card view with its labels (rank/suit are -1 unless a face)."""

    image: Image  # CARD_H x CARD_W BGR
    kind: int
    rank: int  # 0..12 (A..K)
    suit: int  # 0..3 (C D H S)


# ---------------------------------------------------------------- backgrounds


def table_texture(rng: Rng, size: int) -> Image:
    """A random table top: plain, wood, cloth, felt or a busy print."""
    base = rng.uniform(20, 235, size=3)
    if rng.random() < 0.3:  # greys and whites are common table colours
        base = np.full(3, rng.uniform(30, 240))
    img = np.empty((size, size, 3), dtype=np.float32)
    img[:] = base
    style = rng.integers(0, 6)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    if style == 1:  # wood grain
        freq = rng.uniform(0.05, 0.3)
        angle = rng.uniform(0, math.pi)
        coord = xx * math.cos(angle) + yy * math.sin(angle)
        wobble = np.sin(yy * rng.uniform(0.01, 0.05)) * rng.uniform(2, 12)
        img *= (1 + 0.15 * np.sin((coord + wobble) * freq))[..., None]
    elif style == 2:  # woven cloth / grid
        period = rng.uniform(3, 14)
        grid = (np.sin(xx * 2 * math.pi / period) * np.sin(yy * 2 * math.pi / period))
        img *= (1 + 0.12 * grid)[..., None]
    elif style == 3:  # busy print: random coloured shapes
        canvas = img.astype(np.uint8)
        for _ in range(int(rng.integers(3, 15))):
            colour = tuple(int(c) for c in rng.integers(0, 256, size=3))
            centre = (int(rng.integers(0, size)), int(rng.integers(0, size)))
            if rng.random() < 0.5:
                cv2.circle(canvas, centre, int(rng.integers(size // 20 + 1, size // 4 + 2)),
                           colour, -1)
            else:
                cv2.line(canvas, centre, (int(rng.integers(0, size)), int(rng.integers(0, size))),
                         colour, int(rng.integers(1, 8)))
        img = canvas.astype(np.float32)
    elif style == 5:  # a printed cloth: dots, crosses or rings on a regular grid
        img = _regular_print(rng, img, xx, yy)
    # low-frequency light variation and fine noise
    small = rng.normal(0, 1, size=(4, 4, 1)).astype(np.float32)
    img *= 1 + 0.08 * cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC)[..., None]
    img += rng.normal(0, rng.uniform(1, 8), size=img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _regular_print(rng: Rng, img: npt.NDArray[np.float32], xx: npt.NDArray[np.float32],
                   yy: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """A motif repeated on a grid (every other row staggered, half the time) over the
    base colour, as polka-dot and other printed table cloths are: pips and index
    strokes of a card's size, so the reader learns that such a cloth is no card."""
    period = float(rng.uniform(6, 40))
    angle = rng.uniform(0, math.pi)
    u = xx * math.cos(angle) + yy * math.sin(angle)
    v = -xx * math.sin(angle) + yy * math.cos(angle)
    row = np.floor(v / period)
    if rng.random() < 0.5:
        u = u + (row % 2) * period / 2
    cu = (u % period) - period / 2
    cv = (v % period) - period / 2
    radius = period * rng.uniform(0.12, 0.35)
    motif = int(rng.integers(0, 3))
    if motif == 0:  # dots
        ink = (cu * cu + cv * cv) < radius * radius
    elif motif == 1:  # crosses
        arm = max(0.8, radius * 0.35)
        ink = ((np.abs(cu) < arm) & (np.abs(cv) < radius)) | ((np.abs(cv) < arm) & (np.abs(cu) < radius))
    else:  # rings
        r = np.sqrt(cu * cu + cv * cv)
        ink = np.abs(r - radius) < max(0.8, radius * 0.3)
    colour = rng.uniform(0, 255, size=3).astype(np.float32)
    strength = rng.uniform(0.3, 1.0)
    mask = cv2.GaussianBlur(ink.astype(np.float32), (0, 0), 0.7)[..., None] * strength
    return np.asarray(img * (1 - mask) + colour * mask, np.float32)


def _skin_colour(rng: Rng) -> tuple[int, int, int]:
    tone = rng.uniform(0.25, 1.0)
    r = 120 + 125 * tone
    g = 70 + 120 * tone
    b = 50 + 110 * tone
    return int(b), int(g), int(r)


def draw_hand(rng: Rng, canvas: Image, centre: tuple[float, float], scale: float) -> None:
    """A rough hand or finger shapes (skin-coloured ellipses) near ``centre``."""
    colour = _skin_colour(rng)
    for _ in range(int(rng.integers(1, 5))):
        cx = int(centre[0] + rng.normal(0, scale * 0.4))
        cy = int(centre[1] + rng.normal(0, scale * 0.4))
        axes = (int(scale * rng.uniform(0.08, 0.5)) + 1, int(scale * rng.uniform(0.08, 0.2)) + 1)
        cv2.ellipse(canvas, (cx, cy), axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)


# ---------------------------------------------------------------- placing cards


def _card_transform(face_h: int, face_w: int, centre: tuple[float, float], height: float,
                    angle: float) -> npt.NDArray[np.float64]:
    """Affine 2x3 matrix placing a face of face_h x face_w at ``centre``, ``height`` px tall."""
    s = height / face_h
    c, n = math.cos(angle) * s, math.sin(angle) * s
    tx = centre[0] - (c * face_w / 2 - n * face_h / 2)
    ty = centre[1] - (n * face_w / 2 + c * face_h / 2)
    return np.array([[c, -n, tx], [n, c, ty]], dtype=np.float64)


def paste(canvas: Image, face: Image, matrix: npt.NDArray[np.float64]) -> None:
    """Alpha-composite a BGRA face onto ``canvas`` through an affine ``matrix``."""
    size = (canvas.shape[1], canvas.shape[0])
    warped = cv2.warpAffine(face, matrix, size, flags=cv2.INTER_AREA,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    blended = canvas.astype(np.float32) * (1 - alpha) + warped[..., :3].astype(np.float32) * alpha
    canvas[:] = blended.astype(np.uint8)


def corners_of(face: Image, matrix: npt.NDArray[np.float64]) -> npt.NDArray[np.float32]:
    """The face's corners (clockwise from its top left) under ``matrix``."""
    h, w = face.shape[:2]
    pts = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], dtype=np.float64)
    return (pts @ matrix.T).astype(np.float32)


def jitter_corners(rng: Rng, corners: npt.NDArray[np.float32], card_h: float,
                   strength: float = 1.0) -> npt.NDArray[np.float32]:
    """Corners as an imperfect finder would give them: shifted, scaled, turned a little."""
    centre = corners.mean(axis=0)
    scale = rng.uniform(1 - 0.08 * strength, 1 + 0.08 * strength)
    angle = math.radians(rng.normal(0, 2.0 * strength))
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    out = (corners - centre) @ rot.T * scale + centre
    out += rng.normal(0, 0.02 * card_h * strength, size=(1, 2))  # whole-card shift
    out += rng.normal(0, 0.015 * card_h * strength, size=(4, 2))  # each corner
    return out.astype(np.float32)


# ---------------------------------------------------------------- camera and light


def photometric(rng: Rng, img: Image, strength: float = 1.0) -> Image:
    """Room light and a small camera: shadows, glare, white balance, blur, noise, JPEG."""
    out = img.astype(np.float32)
    h, w = out.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.35 * strength:  # soft shadow across part of the view
        angle = rng.uniform(0, 2 * math.pi)
        d = (xx - w / 2) * math.cos(angle) + (yy - h / 2) * math.sin(angle)
        edge = rng.uniform(-0.3, 0.3) * w
        mask = 1 / (1 + np.exp(np.clip(-(d - edge) / rng.uniform(2, 15), -30, 30)))
        out *= (1 - rng.uniform(0.2, 0.55) * mask)[..., None]
    if rng.random() < 0.3 * strength:  # glare blob
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sigma = rng.uniform(0.05, 0.3) * w
        blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2))
        out += (rng.uniform(60, 200) * strength * blob)[..., None]
    # white balance (colour temperature), brightness, contrast, gamma
    temp = rng.normal(0, 0.12 * strength)
    out *= np.array([1 - temp, 1 - 0.2 * abs(temp), 1 + temp], dtype=np.float32)
    out = (out - 128) * rng.uniform(1 - 0.35 * strength, 1 + 0.25 * strength) + 128
    out += rng.uniform(-50, 40) * strength
    out = np.clip(out, 0, 255)
    gamma = math.exp(rng.normal(0, 0.25 * strength))
    out = np.asarray(255 * (out / 255) ** gamma, dtype=np.float32)
    u8 = np.clip(out, 0, 255).astype(np.uint8)
    blur = rng.random()
    if blur < 0.3 * strength:
        k = float(rng.uniform(0.3, 1.6))
        u8 = np.asarray(cv2.GaussianBlur(u8, (0, 0), k), dtype=np.uint8)
    elif blur < 0.45 * strength:  # motion blur
        length = int(rng.integers(3, 8))
        kernel = np.zeros((length, length), dtype=np.float32)
        kernel[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                      float(rng.uniform(0, 180)), 1.0)
        kernel = np.asarray(cv2.warpAffine(kernel, rot, (length, length)), dtype=np.float32)
        kernel /= max(kernel.sum(), 1e-6)
        u8 = np.asarray(cv2.filter2D(u8, -1, kernel), dtype=np.uint8)
    noisy = u8.astype(np.float32) + rng.normal(0, rng.uniform(0, 7) * strength, size=u8.shape)
    u8 = np.clip(noisy, 0, 255).astype(np.uint8)
    if rng.random() < 0.6 * strength:
        ok, buf = cv2.imencode(".jpg", u8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 90))])
        if ok:
            u8 = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), dtype=np.uint8)
    return u8


# ---------------------------------------------------------------- samples


@dataclass
class SceneCards:
    """The pool of art a sample may use: faces by card index, and backs."""

    faces: Sequence[Image]  # 52 BGRA faces of one deck, index = Card.index
    backs: Sequence[Image]  # BGRA backs (any decks)
    others: Sequence[Image]  # BGRA faces of any decks, for neighbouring cards


#: the card heights a view is made at, in camera pixels (drawn log-uniformly)
HEIGHTS: Final = (70.0, 200.0)


def _scene(rng: Rng, target: Image, pool: SceneCards, occlude: bool, strength: float = 1.0,
           heights: tuple[float, float] = HEIGHTS,
           ) -> tuple[Image, npt.NDArray[np.float32], float]:
    """A table scene with ``target`` in the middle; returns it, the corners, card height."""
    card_h = float(math.exp(rng.uniform(math.log(heights[0]), math.log(heights[1]))))
    size = int(card_h * 1.9)
    canvas = table_texture(rng, size)
    centre = (size / 2 + rng.normal(0, 2), size / 2 + rng.normal(0, 2))
    angle = rng.uniform(-math.pi, math.pi)
    # neighbours underneath (a messy pile or a column) peeking out around the card
    for _ in range(int(rng.integers(0, 3))):
        other = pool.others[int(rng.integers(0, len(pool.others)))]
        offset = rng.normal(0, 0.35, size=2) * card_h
        m = _card_transform(other.shape[0], other.shape[1],
                            (centre[0] + offset[0], centre[1] + offset[1]), card_h,
                            angle + rng.normal(0, 0.3))
        paste(canvas, other, m)
    matrix = _card_transform(target.shape[0], target.shape[1], centre, card_h, angle)
    paste(canvas, target, matrix)
    corners = corners_of(target, matrix)
    if occlude and rng.random() < 0.5 * strength:
        # something over one index corner (a card back, a sleeve, a hand), leaving the
        # opposite index visible; never another index, which would make the view ambiguous
        corner = corners[0] if rng.random() < 0.5 else corners[2]
        inward = (centre - corner) / np.linalg.norm(centre - corner)
        depth = rng.uniform(0.1, 0.3) * card_h
        if rng.random() < 0.6 and pool.backs:
            cover = pool.backs[int(rng.integers(0, len(pool.backs)))]
            place = corner - inward * (0.5 * card_h - depth)
            m = _card_transform(cover.shape[0], cover.shape[1],
                                (float(place[0]), float(place[1])), card_h,
                                angle + rng.normal(0, 0.5))
            paste(canvas, cover, m)
        else:
            c = corner + inward * depth * 0.5
            draw_hand(rng, canvas, (float(c[0]), float(c[1])), card_h * 0.5)
    return canvas, corners, card_h


def _finish(rng: Rng, canvas: Image, corners: npt.NDArray[np.float32], card_h: float,
            strength: float) -> Image:
    canvas = photometric(rng, canvas, strength)
    quad = jitter_corners(rng, corners, card_h, strength)
    if rng.random() < 0.5:  # the finder may give the card upside down
        quad = np.roll(quad, 2, axis=0)
    return warp_card(canvas, quad)


def face_sample(rng: Rng, pool: SceneCards, index: int, strength: float = 1.0,
                heights: tuple[float, float] = HEIGHTS) -> Sample:
    """A face-up card (``index`` = Card.index) seen by the camera and the finder, at a
    card height drawn from ``heights``."""
    canvas, corners, card_h = _scene(rng, pool.faces[index], pool, True, strength, heights)
    image = _finish(rng, canvas, corners, card_h, strength)
    return Sample(image, KIND_FACE, index % 13, index // 13)


def back_sample(rng: Rng, pool: SceneCards, strength: float = 1.0) -> Sample:
    """A face-down card."""
    back = pool.backs[int(rng.integers(0, len(pool.backs)))]
    canvas, corners, card_h = _scene(rng, back, pool, True, strength)
    return Sample(_finish(rng, canvas, corners, card_h, strength), KIND_BACK, -1, -1)


def none_sample(rng: Rng, pool: SceneCards, strength: float = 1.0) -> Sample:
    """An outline that is not one card: bare table, a hand, two halves, an edge crop."""
    style = int(rng.integers(0, 4))
    card_h = float(math.exp(rng.uniform(math.log(70), math.log(200))))
    size = int(card_h * 2.6)
    canvas = table_texture(rng, size)
    centre = np.array([size / 2, size / 2], dtype=np.float32)
    angle = rng.uniform(-math.pi, math.pi)
    aspect = rng.uniform(0.62, 0.75)
    if style == 1:
        draw_hand(rng, canvas, (float(centre[0]), float(centre[1])), card_h)
    elif style in (2, 3):
        # cards placed so that the outline straddles two of them or a card's edge
        shift_dir = np.array([math.cos(angle), math.sin(angle)], dtype=np.float32)
        count = 2 if style == 2 else 1
        for k in range(count):
            other = pool.others[int(rng.integers(0, len(pool.others)))]
            side = (k * 2 - 1) if count == 2 else rng.choice([-1, 1])
            dist = rng.uniform(0.5, 0.62) * card_h * aspect if count == 2 \
                else rng.uniform(0.5, 0.9) * card_h * aspect
            pos = centre + side * dist * shift_dir
            m = _card_transform(other.shape[0], other.shape[1], (float(pos[0]), float(pos[1])),
                                card_h, angle + rng.normal(0, 0.05))
            paste(canvas, other, m)
    if rng.random() < 0.3:
        draw_hand(rng, canvas, (float(centre[0]), float(centre[1])), card_h * 0.6)
    w = card_h * aspect
    local = np.array([[-w / 2, -card_h / 2], [w / 2, -card_h / 2], [w / 2, card_h / 2],
                      [-w / 2, card_h / 2]], dtype=np.float32)
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    corners = (local @ rot.T + centre).astype(np.float32)
    return Sample(_finish(rng, canvas, corners, card_h, strength), KIND_NONE, -1, -1)


def clean_view(face: Image) -> Image:
    """A face warped to the canonical view with no disturbance (for quick checks)."""
    h, w = face.shape[:2]
    bgr = face[..., :3].astype(np.float32)
    alpha = face[..., 3:4].astype(np.float32) / 255 if face.shape[2] == 4 else 1.0
    flat = (bgr * alpha + 90 * (1 - alpha)).astype(np.uint8)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    view = warp_card(flat, corners)
    assert view.shape[:2] == (CARD_H, CARD_W)
    return view
