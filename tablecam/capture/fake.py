"""A camera for tests: frames from a list, with failures where a test wants them.

``FakeCamera(images, fps=10)`` yields one ``Frame`` per image with ``t = i / fps``.
``fail_at`` indexes make ``read()`` raise ``CaptureError`` there, as an unplugged
camera does; ``None`` entries are corrupt frames (skipped with a warning).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from tablecam.capture import Frame
from tablecam.capture.checks import as_bgr_image
from tablecam.errors import CaptureError


def pattern_image(width: int = 64, height: int = 48, value: int = 0) -> npt.NDArray[np.uint8]:
    """A small BGR picture whose first pixel holds ``value`` (to tell frames apart)."""
    image = np.full((height, width, 3), 90, dtype=np.uint8)
    image[0, 0] = value % 256
    return image


class FakeCamera:
    """A ``FrameSource`` over ``images``; ``endless`` repeats the last one like a live camera."""

    def __init__(self, images: Sequence[npt.NDArray[np.uint8] | None], fps: float = 10.0,
                 fail_at: Iterable[int] = (), endless: bool = False) -> None:
        self.images = list(images)
        self.fps = fps
        self.fail_at = set(fail_at)
        self.endless = endless
        self.index = 0
        self.closed = False

    def read(self) -> Frame | None:
        while True:
            if self.closed:
                raise CaptureError("the fake camera is closed.")
            index = self.index
            if index >= len(self.images) and not self.endless:
                return None
            self.index += 1
            if index in self.fail_at:
                self.fail_at.discard(index)
                raise CaptureError(f"the fake camera failed at frame {index}.")
            raw = self.images[min(index, len(self.images) - 1)]
            image = as_bgr_image(raw, "fake camera")
            if image is not None:
                return Frame(t=index / self.fps, image=image)

    def close(self) -> None:
        self.closed = True
