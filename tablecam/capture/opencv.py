"""A USB webcam through OpenCV (``cv2.VideoCapture(index)``); ``t`` is pipeline time.

A webcam that stops delivering frames raises ``CaptureError`` from ``read()``; wrap
it in ``ReopeningSource`` (``open_source`` does) so that the game goes on once the
camera is back.
"""

from __future__ import annotations

from tablecam.capture import Frame
from tablecam.capture.checks import as_bgr_image
from tablecam.errors import CaptureError
from tablecam.inputs.clock import PipelineClock

# A webcam that returns this many undecodable frames in a row is treated as gone.
MAX_BAD_FRAMES = 30


class WebcamSource:
    def __init__(self, index: int, clock: PipelineClock, width: int | None = None,
                 height: int | None = None, fps: float | None = None) -> None:
        import cv2

        self.index = index
        self.clock = clock
        # OpenCV's own warnings about a missing device would repeat our one sentence.
        previous = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
        try:
            self._capture = cv2.VideoCapture(index)
        finally:
            cv2.utils.logging.setLogLevel(previous)
        if not self._capture.isOpened():
            self._capture.release()
            raise CaptureError(f"webcam {index} could not be opened; is it plugged in "
                               "(see `ls /dev/video*`)?")
        if width and height:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        if fps:
            self._capture.set(cv2.CAP_PROP_FPS, fps)

    def read(self) -> Frame | None:
        for _ in range(MAX_BAD_FRAMES):
            ok, image = self._capture.read()
            now = self.clock.now()
            if not ok:
                raise CaptureError(f"webcam {self.index} stopped delivering frames.")
            checked = as_bgr_image(image, f"webcam {self.index}")
            if checked is not None:
                return Frame(t=now, image=checked)
        raise CaptureError(f"webcam {self.index} sent {MAX_BAD_FRAMES} corrupt frames in a row.")

    def close(self) -> None:
        self._capture.release()
