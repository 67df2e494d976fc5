"""Button presses from an ``--inputs`` file, released as the video's time reaches them.

The file is JSON lines in the video's time base (INTERFACE.md, "Button inputs file"):
``{"t": 12.40, "button": "spit"}`` and ``{"t": 31.02, "button": "slap", "player": "A"}``.
``read_inputs`` parses and checks it; ``ScheduledPresses`` hands each press to the
pipeline once the frame time passes its ``t``, exactly as a live button would have.
Event-log ``button`` lines (with ``round`` and ``type``) are accepted too, so a
recorded game log can drive a replay.
"""

from __future__ import annotations

import json
import math
import queue
from collections.abc import Iterable
from pathlib import Path

from tablecam.errors import EventLogError
from tablecam.inputs import ButtonPress


def parse_input_line(line: str, where: str = "line") -> ButtonPress:
    """One JSON line -> ``ButtonPress``; ``EventLogError`` naming ``where`` otherwise."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise EventLogError(f"{where} is not valid JSON ({error.msg}).") from None
    if not isinstance(data, dict):
        raise EventLogError(f"{where} must be a JSON object such as "
                            '{"t": 12.4, "button": "spit"}.')
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or t < 0:
        raise EventLogError(f"{where} needs a time \"t\" in seconds, zero or more, not {t!r}.")
    if data.get("type", "button") != "button":
        raise EventLogError(f"{where} is a {data.get('type')!r} event, not a button press.")
    button = data.get("button")
    player = data.get("player")
    if button == "spit":
        if player is not None:
            raise EventLogError(f"{where}: the spit button belongs to nobody, so it takes no "
                                "\"player\".")
        return ButtonPress(t=float(t), button="spit")
    if button == "slap":
        if player not in ("A", "B"):
            raise EventLogError(f"{where}: a slap needs \"player\": \"A\" or \"B\", not {player!r}.")
        return ButtonPress(t=float(t), button="slap", player=player)
    raise EventLogError(f"{where}: \"button\" must be \"spit\" or \"slap\", not {button!r}.")


def parse_inputs(lines: Iterable[str], name: str = "inputs") -> list[ButtonPress]:
    """Every press in ``lines`` (blank lines skipped), sorted by time."""
    presses = [parse_input_line(line, f"{name} line {number}")
               for number, line in enumerate(lines, start=1) if line.strip()]
    presses.sort(key=lambda press: press.t)
    return presses


def read_inputs(path: str | Path) -> list[ButtonPress]:
    """The presses in an ``--inputs`` file, sorted by time."""
    location = Path(path)
    try:
        text = location.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EventLogError(f"{location}: there is no such inputs file.") from None
    except (OSError, UnicodeDecodeError):
        raise EventLogError(f"{location} could not be read as a text file of JSON lines.") from None
    return parse_inputs(text.splitlines(), str(location))


class ScheduledPresses:
    """Releases recorded presses when the pipeline's time reaches them.

    Call ``due(t)`` with each frame's time: it returns (and ``release(t, queue)`` puts)
    the presses with ``press.t <= t`` not released before, in time order.
    """

    def __init__(self, presses: Iterable[ButtonPress]) -> None:
        self._pending = sorted(presses, key=lambda press: press.t)
        self._next = 0

    def due(self, t: float) -> list[ButtonPress]:
        start = self._next
        while self._next < len(self._pending) and self._pending[self._next].t <= t:
            self._next += 1
        return self._pending[start:self._next]

    def release(self, t: float, presses: queue.Queue[ButtonPress]) -> int:
        released = self.due(t)
        for press in released:
            presses.put(press)
        return len(released)

    @property
    def remaining(self) -> int:
        return len(self._pending) - self._next
