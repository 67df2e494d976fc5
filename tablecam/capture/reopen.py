"""A live source that survives its camera disappearing.

``ReopeningSource(open_camera)`` calls ``open_camera()`` to get a ``FrameSource``.
When ``read()`` or opening raises ``CaptureError`` (cable pulled, driver reset), it
logs one clear message, closes what is left, and tries again with a growing pause
(0.25 s doubling up to ``max_backoff_s``) until the camera is back; then the game goes
on from the next frame.  Frames of a different size than before (a different camera
plugged in, a mode change) are passed on with a warning and counted in
``size_changes``; the consumer decides what to do (geometry re-finds the table).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from tablecam.capture import Frame, FrameSource
from tablecam.errors import CaptureError

log = logging.getLogger("tablecam.capture")


class ReopeningSource:
    def __init__(self, open_camera: Callable[[], FrameSource], name: str = "camera",
                 max_backoff_s: float = 5.0, give_up_after_s: float | None = None,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.open_camera = open_camera
        self.name = name
        self.max_backoff_s = max_backoff_s
        self.give_up_after_s = give_up_after_s
        self.sleep = sleep
        self.clock = clock
        self.reopens = 0
        self.size_changes = 0
        self.size: tuple[int, int] | None = None
        self._source: FrameSource | None = open_camera()

    def read(self) -> Frame | None:
        lost_since: float | None = None
        backoff = 0.25
        while True:
            if self._source is not None:
                try:
                    frame = self._source.read()
                except CaptureError as error:
                    log.warning("%s lost: %s Reopening it; the game goes on when it is back.",
                                self.name, str(error).rstrip("."))
                    self._drop()
                else:
                    if lost_since is not None:
                        log.warning("%s is back after %.1f s", self.name,
                                    self.clock() - lost_since)
                    if frame is not None:
                        self._check_size(frame)
                    return frame
            if lost_since is None:
                lost_since = self.clock()
            if (self.give_up_after_s is not None
                    and self.clock() - lost_since > self.give_up_after_s):
                raise CaptureError(f"{self.name} did not come back within "
                                   f"{self.give_up_after_s:g} s.")
            self.sleep(backoff)
            backoff = min(backoff * 2, self.max_backoff_s)
            try:
                self._source = self.open_camera()
                self.reopens += 1
            except CaptureError as error:
                log.info("%s not back yet: %s", self.name, error)

    def _check_size(self, frame: Frame) -> None:
        height, width = frame.image.shape[:2]
        if self.size is not None and self.size != (width, height):
            self.size_changes += 1
            log.warning("%s frames changed size from %dx%d to %dx%d", self.name,
                        self.size[0], self.size[1], width, height)
        self.size = (width, height)

    def _drop(self) -> None:
        if self._source is not None:
            try:
                self._source.close()
            except Exception as error:  # closing a vanished camera may fail too
                log.debug("closing %s: %s", self.name, error)
        self._source = None

    def close(self) -> None:
        self._drop()
