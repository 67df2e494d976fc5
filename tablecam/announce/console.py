"""Every announcement on the console, with the pipeline time it was made at."""

from __future__ import annotations

import sys
import threading
from typing import TextIO

from tablecam.inputs.clock import PipelineClock


class ConsoleAnnouncer:
    """Prints ``[  12.3 s] Spit!`` lines to ``stream`` (stdout by default)."""

    def __init__(self, clock: PipelineClock | None = None, stream: TextIO | None = None) -> None:
        self.clock = clock or PipelineClock()
        self.stream = stream
        self._lock = threading.Lock()

    def say(self, text: str) -> None:
        stream = self.stream or sys.stdout
        with self._lock:
            print(f"[{self.clock.now():7.1f} s] {text}", file=stream, flush=True)

    def close(self) -> None:
        pass
