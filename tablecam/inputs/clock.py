"""The pipeline's time base: seconds since the pipeline started.

Live inputs take their timestamps from ``time.monotonic()`` (or a GPIO edge's own
timestamp) and convert them here, so a slap and the frame that shows it are compared
on one clock.  ``ButtonPress.t`` and ``Frame.t`` are both in this time base.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tablecam.capture import Frame, FrameSource


class PipelineClock:
    """Converts monotonic seconds to pipeline seconds (0 at ``start``)."""

    def __init__(self, start: float | None = None) -> None:
        self.start = time.monotonic() if start is None else start

    def now(self) -> float:
        """Pipeline seconds now."""
        return time.monotonic() - self.start

    def at(self, monotonic_seconds: float) -> float:
        """Pipeline seconds at a ``time.monotonic()`` reading taken earlier."""
        return monotonic_seconds - self.start


class RecordingClock(PipelineClock):
    """The time of a recording played through the pipeline: the ``t`` of the latest
    frame read through ``follow``, whatever the playback speed (``tablecam demo``)."""

    def __init__(self) -> None:
        super().__init__()
        self.t = 0.0

    def now(self) -> float:
        return self.t

    def follow(self, source: FrameSource) -> FrameSource:
        """``source``, with every frame read setting this clock to the frame's time."""
        return _Followed(source, self)


class _Followed:
    def __init__(self, source: FrameSource, clock: RecordingClock) -> None:
        self.source = source
        self.clock = clock

    def read(self) -> Frame | None:
        frame = self.source.read()
        if frame is not None:
            self.clock.t = frame.t
        return frame

    def close(self) -> None:
        self.source.close()
