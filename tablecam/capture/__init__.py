"""Capture: frames from a Pi camera, a USB webcam, a video file or a folder of frames.

Every back-end is a ``FrameSource``; ``read()`` returns the next ``Frame`` or None at
the end of a recording.  ``t`` is seconds from the start of the input (video time for
files, time since opening for live cameras).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class Frame:
    t: float
    image: npt.NDArray[np.uint8]  # H x W x 3, BGR


class FrameSource(Protocol):
    def read(self) -> Frame | None:
        """The next frame, or None when a recording has ended."""

    def close(self) -> None:
        """Release the camera or file."""
