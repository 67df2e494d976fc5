"""A recorded video file through OpenCV; ``t`` is video time (frame index / fps)."""

from __future__ import annotations

import logging
from pathlib import Path

from tablecam.capture import Frame
from tablecam.capture.checks import as_bgr_image
from tablecam.errors import CaptureError

log = logging.getLogger("tablecam.capture")


class VideoFileSource:
    """Frames of ``path`` in order; ``read()`` returns None at the end of the file."""

    def __init__(self, path: str | Path, fps: float | None = None) -> None:
        import cv2

        self.path = Path(path)
        if not self.path.is_file():
            raise CaptureError(f"{self.path}: there is no such video file.")
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            raise CaptureError(f"{self.path} could not be opened as a video "
                               "(is it a video file OpenCV's FFmpeg can read?).")
        found = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps or (found if 0.5 <= found <= 1000 else 0.0)
        if not self.fps:
            raise CaptureError(f"{self.path} does not say its frame rate; give it with --fps.")
        self.frame_count = int(self._capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.index = 0

    def read(self) -> Frame | None:
        while True:
            ok, image = self._capture.read()
            index = self.index
            self.index += 1
            if not ok:
                return None
            checked = as_bgr_image(image, f"{self.path} frame {index}")
            if checked is not None:
                return Frame(t=index / self.fps, image=checked)

    def close(self) -> None:
        self._capture.release()
