"""A camera above the table: pinhole projection with radial lens distortion.

Table coordinates are millimetres on the table plane: ``x`` to the right of the
image, ``y`` towards player B (the top of the image), ``z`` up from the cloth.  The
camera hangs ``height_mm`` above the point it looks at (the table centre), tilted by
``tilt_deg`` towards B (negative: towards A) and turned ``roll_deg`` about its axis.
The field of view is measured on the distorted image, as a lens datasheet gives it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.errors import TablecamError

LENSES: Final[dict[str, tuple[float, float, float]]] = {
    # name: horizontal and vertical field of view (degrees), radial distortion k1
    "module3": (66.0, 41.0, -0.05),
    "module3-wide": (102.0, 67.0, -0.06),
}
"""Raspberry Pi Camera Module 3 and its Wide version, with a typical barrel distortion."""

RESOLUTIONS: Final = ((1280, 720), (1920, 1080))


class CameraError(TablecamError, ValueError):
    """A camera setting is outside what the renderer supports."""


@dataclass(frozen=True)
class Camera:
    """Where the camera is and what lens it has; ``project`` maps table mm to pixels."""

    width: int = 1280
    height: int = 720
    lens: str = "module3"
    height_mm: float = 800.0
    tilt_deg: float = 0.0
    roll_deg: float = 0.0
    k1_scale: float = 1.0

    def __post_init__(self) -> None:
        if self.lens not in LENSES:
            raise CameraError(f"unknown lens {self.lens!r}; use one of {', '.join(LENSES)}")
        if not 300 <= self.height_mm <= 2000:
            raise CameraError(f"camera height {self.height_mm} mm is outside 300..2000 mm")
        if not -30 <= self.tilt_deg <= 30:
            raise CameraError(f"camera tilt {self.tilt_deg} degrees is outside -30..30")
        if self.width < 64 or self.height < 64:
            raise CameraError(f"image size {self.width}x{self.height} is too small")

    @cached_property
    def k1(self) -> float:
        return LENSES[self.lens][2] * self.k1_scale

    @cached_property
    def focal(self) -> float:
        """Focal length in pixels such that the horizontal field of view, after
        distortion, spans the image width."""
        half = math.radians(LENSES[self.lens][0] / 2)
        r = math.tan(half)
        return (self.width / 2) / (r * (1 + self.k1 * r * r))

    @cached_property
    def centre(self) -> npt.NDArray[np.float64]:
        """The camera's position in table coordinates (mm)."""
        tilt = math.radians(self.tilt_deg)
        return np.array([0.0, -self.height_mm * math.tan(tilt), self.height_mm])

    @cached_property
    def rotation(self) -> npt.NDArray[np.float64]:
        """Rows are the camera's x (image right), y (image down), z (forward) axes."""
        forward = -self.centre / np.linalg.norm(self.centre)
        right = np.array([1.0, 0.0, 0.0])
        down = np.cross(forward, right)
        down /= np.linalg.norm(down)
        right = np.cross(down, forward)
        roll = math.radians(self.roll_deg)
        c, s = math.cos(roll), math.sin(roll)
        r2, d2 = c * right + s * down, -s * right + c * down
        return np.stack([r2, d2, forward])

    def project(self, points: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Image pixels (N x 2) of table points (N x 2 at z=0, or N x 3), distortion included."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, np.shape(points)[-1])
        if pts.shape[1] == 2:
            pts = np.hstack([pts, np.zeros((len(pts), 1))])
        cam = (pts - self.centre) @ self.rotation.T
        z = np.maximum(cam[:, 2], 1e-6)
        xn, yn = cam[:, 0] / z, cam[:, 1] / z
        r2 = xn * xn + yn * yn
        factor = 1 + self.k1 * r2
        if self.k1 < 0:
            # past r_max the barrel model folds back into the picture; keep far-off points
            # (a hand resting beyond the table edge) moving outwards instead
            r_max = math.sqrt(1 / (3 * -self.k1))
            r = np.sqrt(r2)
            beyond = r > r_max
            if beyond.any():
                edge = r_max * (1 + self.k1 * r_max * r_max)
                factor[beyond] = (edge + (r[beyond] - r_max) * 0.5) / r[beyond]
        u = self.focal * xn * factor + self.width / 2
        v = self.focal * yn * factor + self.height / 2
        return np.stack([u, v], axis=1)

    def mm_per_pixel(self) -> float:
        """Roughly how many table millimetres one pixel spans at the image centre."""
        return self.height_mm / self.focal

    def table_grid(self, step: int = 1) -> tuple[npt.NDArray[np.float32],
                                                  npt.NDArray[np.float32]]:
        """For every image pixel, the table point (x, y in mm) it sees: the remap grid
        that lays a table texture under the camera, distortion included.  With
        ``step`` > 1 it is solved every ``step`` pixels and interpolated (the map is
        smooth, and this is most of a scene's setup time)."""
        if step > 1:
            cols, rows = -(-self.width // step), -(-self.height // step)
            # sample where cv2.resize's pixel-centre convention puts the coarse pixels
            us = (np.arange(cols) + 0.5) * (self.width / cols) - 0.5
            vs = (np.arange(rows) + 0.5) * (self.height / rows) - 0.5
            cx, cy = self._grid_at(*np.meshgrid(us, vs))
            size = (self.width, self.height)
            return (np.asarray(cv2.resize(cx, size, interpolation=cv2.INTER_LINEAR), np.float32),
                    np.asarray(cv2.resize(cy, size, interpolation=cv2.INTER_LINEAR), np.float32))
        return self._grid_at(*np.meshgrid(np.arange(self.width, dtype=np.float64),
                                          np.arange(self.height, dtype=np.float64)))

    def _grid_at(self, u: npt.NDArray[np.float64], v: npt.NDArray[np.float64]
                 ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The table points seen at pixel positions ``u``, ``v`` (arrays of one shape)."""
        xd = (u.ravel() - self.width / 2) / self.focal
        yd = (v.ravel() - self.height / 2) / self.focal
        # undo r_d = r_u (1 + k1 r_u^2) by Newton's method on the radius
        r_d = np.hypot(xd, yd)
        r_u = r_d.copy()
        # beyond r_max the barrel model folds back: no pixel should map there
        r_max = math.sqrt(1 / (3 * -self.k1)) if self.k1 < 0 else 1e6
        for _ in range(8):
            f = r_u * (1 + self.k1 * r_u * r_u) - r_d
            r_u = np.clip(r_u - f / (1 + 3 * self.k1 * r_u * r_u), 0, r_max * 0.999)
        scale = np.where(r_d > 1e-12, r_u / np.maximum(r_d, 1e-12), 1.0)
        xu, yu = xd * scale, yd * scale
        normal = np.stack([xu, yu], axis=1)
        rays = np.hstack([normal, np.ones((len(normal), 1))]) @ self.rotation
        scale = -self.centre[2] / np.minimum(rays[:, 2], -1e-3)
        # the table is a few metres across at most; beyond it, repeat its edge
        table = np.clip(self.centre[:2] + rays[:, :2] * scale[:, None], -3000, 3000)
        x = table[:, 0].reshape(u.shape).astype(np.float32)
        y = table[:, 1].reshape(u.shape).astype(np.float32)
        return x, y
