"""The pipeline's time base: seconds since the pipeline started.

Live inputs take their timestamps from ``time.monotonic()`` (or a GPIO edge's own
timestamp) and convert them here, so a slap and the frame that shows it are compared
on one clock.  ``ButtonPress.t`` and ``Frame.t`` are both in this time base.
"""

from __future__ import annotations

import time


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
