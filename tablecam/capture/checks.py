"""Checks every back-end applies to a decoded picture before it becomes a ``Frame``."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import numpy.typing as npt

log = logging.getLogger("tablecam.capture")


def as_bgr_image(image: Any, where: str) -> npt.NDArray[np.uint8] | None:
    """``image`` as an H x W x 3 uint8 BGR array, or None (with a warning) if it is corrupt.

    Grey pictures are widened to three channels and BGRA loses its alpha; anything
    else (empty, wrong type, wrong shape) is a corrupt frame that the caller skips.
    """
    if not isinstance(image, np.ndarray) or image.size == 0 or image.dtype != np.uint8:
        log.warning("%s: skipped a corrupt frame (no 8-bit picture)", where)
        return None
    if image.ndim == 2:
        return np.ascontiguousarray(np.repeat(image[:, :, None], 3, axis=2))
    if image.ndim == 3 and image.shape[2] == 4:
        return np.ascontiguousarray(image[:, :, :3])
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    log.warning("%s: skipped a corrupt frame of shape %s", where, image.shape)
    return None
