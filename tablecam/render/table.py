"""The table under the camera: surface textures, light, white balance, glare, noise.

Everything here is computed once per scene, so that a frame only copies a layer
and adds what moves.  Textures are made in table millimetres and laid under the
camera with its remap grid, so lens distortion bends the wood grain as it would.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final, Literal

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.render.camera import Camera

Surface = Literal["wood", "felt", "cloth", "pattern"]
SURFACES: Final[tuple[Surface, ...]] = ("wood", "felt", "cloth", "pattern")

Image = npt.NDArray[np.uint8]
FloatImage = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Look:
    """How the table and its light look; drawn from a seed by ``random_look``."""

    surface: Surface = "wood"
    base_bgr: tuple[int, int, int] = (60, 95, 140)
    accent_bgr: tuple[int, int, int] = (40, 60, 100)
    light_angle: float = 0.6  # radians: where the light comes from, in the image plane
    light_slope: float = 0.25  # brightness change across the image
    vignette: float = 0.35
    exposure: float = 1.0
    white_balance: float = 0.0  # >0 warm (more red), <0 cool (more blue)
    glare: float = 0.0  # 0..1 strength of a soft specular blob
    glare_xy: tuple[float, float] = (0.6, 0.3)  # where, as a fraction of the image
    noise: float = 3.0  # sensor noise sigma in grey levels
    shadow: float = 0.35  # how dark soft shadows are
    crf: int = 23  # video compression quality (x264 CRF)


def random_look(rng: np.random.Generator) -> Look:
    """A varied table: surface, colours, light, white balance, glare and noise."""
    surface: Surface = SURFACES[int(rng.integers(len(SURFACES)))]
    if surface == "wood":
        tone = rng.uniform(0.5, 1.3)
        base = (45 * tone, 85 * tone, 135 * tone)
        accent = (base[0] * 0.6, base[1] * 0.6, base[2] * 0.65)
    elif surface == "felt":
        palette = [(50, 110, 35), (110, 60, 20), (40, 40, 120), (70, 70, 70), (90, 110, 30)]
        base = palette[int(rng.integers(len(palette)))]
        accent = tuple(c * 0.8 for c in base)  # type: ignore[assignment]
    else:
        # household tablecloths: muted colours, a print a little darker than the cloth
        cloths = [(200, 205, 210), (170, 190, 215), (120, 140, 170), (160, 150, 120),
                  (90, 110, 140), (140, 160, 150), (185, 175, 165), (100, 100, 150),
                  (150, 120, 110), (210, 215, 220)]
        picked = np.array(cloths[int(rng.integers(len(cloths)))], np.float64)
        picked *= rng.uniform(0.85, 1.1, 3)
        base = (float(picked[0]), float(picked[1]), float(picked[2]))
        shade = rng.uniform(0.45, 0.8) * rng.uniform(0.85, 1.15, 3)
        accent = (float(picked[0] * shade[0]), float(picked[1] * shade[1]),
                  float(picked[2] * shade[2]))
    return Look(
        surface=surface,
        base_bgr=(int(base[0]), int(base[1]), int(base[2])),
        accent_bgr=(int(accent[0]), int(accent[1]), int(accent[2])),
        light_angle=float(rng.uniform(0, 2 * math.pi)),
        light_slope=float(rng.uniform(0.05, 0.4)),
        vignette=float(rng.uniform(0.1, 0.45)),
        exposure=float(rng.uniform(0.85, 1.15)),
        white_balance=float(rng.uniform(-0.12, 0.12)),
        glare=float(rng.uniform(0, 0.8) ** 2),
        glare_xy=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))),
        noise=float(rng.uniform(1.5, 6.0)),
        shadow=float(rng.uniform(0.2, 0.45)),
        crf=int(rng.integers(20, 30)),
    )


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]
                  ) -> FloatImage:
    """Smooth random field in -1..1: random values on a coarse grid, resized up."""
    small = rng.uniform(-1, 1, (max(2, cells[0]), max(2, cells[1]))).astype(np.float32)
    return np.asarray(cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC),
                      dtype=np.float32)


def _fbm(rng: np.random.Generator, shape: tuple[int, int], base_cells: int,
         octaves: int = 4) -> FloatImage:
    total = np.zeros(shape, np.float32)
    amp, norm = 1.0, 0.0
    for octave in range(octaves):
        cells = base_cells * 2 ** octave
        aspect = shape[1] / shape[0]
        total += amp * _smooth_noise(rng, shape, (cells, max(2, int(cells * aspect))))
        norm += amp
        amp *= 0.5
    return total / norm


def surface_texture(look: Look, rng: np.random.Generator, x_range: tuple[float, float],
                    y_range: tuple[float, float], px_per_mm: float) -> Image:
    """The table surface over ``x_range`` x ``y_range`` mm at ``px_per_mm`` (BGR).
    Image row 0 is the largest y (towards B), as the camera sees it."""
    width = max(8, int((x_range[1] - x_range[0]) * px_per_mm))
    height = max(8, int((y_range[1] - y_range[0]) * px_per_mm))
    shape = (height, width)
    base = np.array(look.base_bgr, np.float32)
    accent = np.array(look.accent_bgr, np.float32)
    xs = (np.arange(width, dtype=np.float32) / px_per_mm)[None, :]
    ys = (np.arange(height, dtype=np.float32) / px_per_mm)[:, None]
    mottle = _fbm(rng, shape, 3)
    image: npt.NDArray[Any]
    if look.surface == "wood":
        # planks along x; grain as warped stripes along each plank
        plank = float(rng.uniform(90, 200))
        warp = _fbm(rng, shape, 3) * float(rng.uniform(5, 14)) + _smooth_noise(
            rng, shape, (40, 6)) * 2
        stripes = np.sin((ys + warp) * (2 * math.pi / float(rng.uniform(2.5, 7))))
        grain = (0.5 + 0.5 * stripes) ** 2
        fine = _smooth_noise(rng, shape, (max(2, height // 2), max(2, width // 60)))
        row = np.floor((ys + 0 * xs) / plank).astype(np.int32)
        tone = rng.uniform(-0.12, 0.12, int(row.max()) + 2).astype(np.float32)[row]
        mix = np.clip(grain * 0.45 + fine * 0.3 + 0.25 + tone, 0, 1)[..., None]
        image = base * (1 - mix) + accent * mix
        image *= (1 + 0.08 * mottle)[..., None]
        seams = (np.abs((ys + 0 * xs) % plank) < 1.2 / px_per_mm + 0.8)
        image[seams] *= 0.55
    elif look.surface == "felt":
        fuzz = np.asarray(cv2.GaussianBlur(rng.normal(0, 1, shape).astype(np.float32),
                                           (0, 0), 0.7), np.float32)
        image = base * (1 + 0.10 * mottle + 0.06 * fuzz)[..., None]
    else:
        period = float(rng.uniform(0.8, 1.6))
        weave = (np.sin(xs * 2 * math.pi / period) * np.sin(ys * 2 * math.pi / period))
        image = base * (1 + 0.06 * weave + 0.06 * mottle)[..., None]
        if look.surface == "pattern":
            kind = int(rng.integers(3))
            size = float(rng.uniform(12, 40))
            if kind == 0:  # gingham check
                band = ((np.floor(xs / size) % 2) + (np.floor(ys / size) % 2)) / 2
            elif kind == 1:  # stripes
                band = (np.floor((xs + ys * float(rng.uniform(-1, 1))) / size) % 2) * 1.0
            else:  # dots
                cx = (xs % size) - size / 2
                cy = (ys % size) - size / 2
                band = ((cx * cx + cy * cy) < (size * 0.2) ** 2) * 1.0
            band = np.broadcast_to(band, shape).astype(np.float32)
            band = cv2.GaussianBlur(band, (0, 0), 0.8)[..., None]
            image = image * (1 - band * 0.6) + accent * band * 0.6
    return np.clip(image, 0, 255).astype(np.uint8)


def light_map(look: Look, width: int, height: int) -> FloatImage:
    """Per-pixel gain (H x W x 3): exposure, a light gradient, vignette, white balance."""
    u = (np.arange(width, dtype=np.float32) / width - 0.5)[None, :]
    v = (np.arange(height, dtype=np.float32) / height - 0.5)[:, None]
    direction = math.cos(look.light_angle) * u + math.sin(look.light_angle) * v
    gain = look.exposure * (1 + look.light_slope * direction * 2)
    r2 = (u * u + v * v * (height / width) ** 2) * 4
    gain = gain * (1 - look.vignette * r2 * 0.6)
    balance = np.array([1 - look.white_balance, 1.0, 1 + look.white_balance], np.float32)
    return (np.asarray(gain, np.float32)[..., None] * balance).astype(np.float32)


def glare_map(look: Look, width: int, height: int) -> FloatImage:
    """Additive soft specular highlight (H x W, grey levels)."""
    if look.glare <= 0.01:
        return np.zeros((height, width), np.float32)
    gx, gy = look.glare_xy[0] * width, look.glare_xy[1] * height
    u = np.arange(width, dtype=np.float32)[None, :] - gx
    v = np.arange(height, dtype=np.float32)[:, None] - gy
    radius = 0.12 * width
    return (look.glare * 110 * np.exp(-(u * u * 0.6 + v * v) / (2 * radius * radius))
            ).astype(np.float32)


def table_albedo(camera: Camera, look: Look, rng: np.random.Generator) -> Image:
    """The bare table as the camera sees it, before light (BGR, distortion included)."""
    grid_x, grid_y = camera.table_grid(step=4)
    px_per_mm = min(3.0, 1.3 / camera.mm_per_pixel())
    x_range = (float(grid_x.min()) - 5, float(grid_x.max()) + 5)
    y_range = (float(grid_y.min()) - 5, float(grid_y.max()) + 5)
    texture = surface_texture(look, rng, x_range, y_range, px_per_mm)
    map_x = (grid_x - x_range[0]) * px_per_mm
    map_y = (y_range[1] - grid_y) * px_per_mm
    return np.asarray(cv2.remap(texture, map_x, map_y, cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT), np.uint8)


def noise_tiles(rng: np.random.Generator, width: int, height: int, sigma: float
                ) -> tuple[Image, Image]:
    """Positive and negative sensor-noise tiles, a little larger than a frame, so a
    frame takes a random window of each: two saturating adds instead of new noise."""
    shape = (height + 64, width + 64, 3)
    noise = rng.normal(0, sigma, shape).astype(np.float32)
    noise[..., 1] = noise[..., 0] * 0.8 + noise[..., 1] * 0.2  # mostly luminance noise
    noise[..., 2] = noise[..., 0] * 0.8 + noise[..., 2] * 0.2
    positive = np.clip(noise, 0, 255).astype(np.uint8)
    negative = np.clip(-noise, 0, 255).astype(np.uint8)
    return positive, negative
