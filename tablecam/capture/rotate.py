"""Turning every frame so that player A sits at the bottom edge of the picture.

A camera mounted the other way round (or sideways) would swap the seats; the
``[camera] rotate`` setting turns the frames by 90, 180 or 270 degrees clockwise
before any other stage sees them.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tablecam.capture import Frame, FrameSource
from tablecam.errors import CaptureError


class RotatedSource:
    """``source`` with each frame turned ``degrees`` clockwise."""

    def __init__(self, source: FrameSource, degrees: int) -> None:
        import cv2

        codes = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180,
                 270: cv2.ROTATE_90_COUNTERCLOCKWISE}
        if degrees not in codes:
            raise CaptureError(f"frames can be turned by 90, 180 or 270 degrees, not {degrees}.")
        self.source = source
        self.degrees = degrees
        self._code = codes[degrees]

    def read(self) -> Frame | None:
        import cv2

        frame = self.source.read()
        if frame is None:
            return None
        turned: npt.NDArray[np.uint8] = np.ascontiguousarray(cv2.rotate(frame.image, self._code))
        return Frame(t=frame.t, image=turned)

    def close(self) -> None:
        self.source.close()
