"""Button inputs: the spit button and each player's slap pad.

Every back-end (gpiozero buttons, keyboard, the dashboard's on-screen buttons, a
replayed ``--inputs`` file) only puts a ``ButtonPress`` on a ``queue.Queue``; no game
logic runs on an input thread.  ``t`` is taken at the edge, in the pipeline's time
base (seconds from the start of the input), so a slap race is decided to the
millisecond.
"""

from __future__ import annotations

from dataclasses import dataclass

from tablecam.events import ButtonName, Seat


@dataclass(frozen=True, slots=True, order=True)
class ButtonPress:
    t: float
    button: ButtonName
    player: Seat | None = None
