"""Taking presses off the shared queue in the order they happened."""

from __future__ import annotations

import queue

from tablecam.inputs import ButtonPress


def take_presses(presses: queue.Queue[ButtonPress]) -> list[ButtonPress]:
    """Every press waiting on ``presses`` now, sorted by edge time.

    Presses from different buttons can reach the queue out of order (each callback
    runs when its thread gets the CPU); sorting by ``t`` puts a slap race back in the
    order the hands touched the pads.
    """
    taken: list[ButtonPress] = []
    while True:
        try:
            taken.append(presses.get_nowait())
        except queue.Empty:
            break
    taken.sort(key=lambda press: press.t)
    return taken
