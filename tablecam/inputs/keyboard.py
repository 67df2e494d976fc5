"""Keyboard stand-ins for the buttons on a desktop: space = spit, a / b = slaps.

A thread reads single key presses from the terminal (in cbreak mode, restored on
close) without blocking the game, and puts a ``ButtonPress`` on the queue with the
time the key was read.  Other keys are ignored.  Any readable file descriptor works,
so tests feed it from a pipe.
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import sys
import threading
from typing import Any, Final

from tablecam.events import ButtonName, Seat
from tablecam.inputs import ButtonPress
from tablecam.inputs.clock import PipelineClock

KEYS: Final[dict[str, tuple[ButtonName, Seat | None]]] = {
    " ": ("spit", None),
    "a": ("slap", "A"),
    "b": ("slap", "B"),
}
KEY_HELP: Final = "keys: space = spit, a = slap A, b = slap B"


class KeyboardButtons:
    """Reads ``fd`` (default: the terminal on stdin) on a thread until closed."""

    def __init__(self, presses: queue.Queue[ButtonPress], clock: PipelineClock,
                 fd: int | None = None) -> None:
        self.presses = presses
        self.clock = clock
        self.fd = sys.stdin.fileno() if fd is None else fd
        self._saved_mode: list[Any] | None = None
        self._stop = threading.Event()
        if os.isatty(self.fd):
            import termios
            import tty

            self._saved_mode = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        self._thread = threading.Thread(target=self._read_keys, name="keyboard-buttons",
                                        daemon=True)
        self._thread.start()

    def _read_keys(self) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.1)
            except (OSError, ValueError):
                return
            if not ready:
                continue
            try:
                data = os.read(self.fd, 64)
            except OSError:
                return
            now = self.clock.now()
            if not data:
                return  # end of input: no more keys will come
            for char in data.decode("utf-8", "ignore").lower():
                mapped = KEYS.get(char)
                if mapped is not None:
                    self.presses.put(ButtonPress(t=now, button=mapped[0], player=mapped[1]))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=1.0)
        if self._saved_mode is not None:
            import termios

            with contextlib.suppress(OSError):
                termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved_mode)
            self._saved_mode = None

    def __enter__(self) -> KeyboardButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
