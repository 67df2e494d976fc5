"""Benchmarks of the rules core and the simulator (``tablecam bench rules``).

Everything runs in this one process, so the figures are for one core.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tablecam.bench import Figure


def bench_rules(quick: bool) -> list[Figure]:
    """Whole simulated games a minute, and replays (with full checking) a minute.

    Figures per minute of this process's CPU time (one core), which a busy shared
    machine does not distort, and the simulation's wall-clock rate beside it.
    """
    from tablecam.rules import replay
    from tablecam.sim import simulate_game

    count = 40 if quick else 400
    wall, cpu = time.perf_counter(), time.process_time()
    games = [simulate_game(seed) for seed in range(count)]
    simulated_wall, simulated = time.perf_counter() - wall, time.process_time() - cpu
    events = sum(len(g.events) for g in games)
    cpu = time.process_time()
    for game in games:
        replay(game.events, game.settings)
    replayed = time.process_time() - cpu
    cpu = time.process_time()
    for game in games:
        replay(game.events, game.settings, check_accounting=False)
    applied = time.process_time() - cpu
    return [
        Figure("simulated games a minute (one core, CPU time)", count / simulated * 60, "games/min"),
        Figure("simulated games a minute (wall clock)", count / simulated_wall * 60, "games/min"),
        Figure("replayed games a minute, checking all 52 cards", count / replayed * 60, "games/min"),
        Figure("events applied a second (no accounting check)", events / applied, "events/s"),
        Figure("mean events a simulated game", events / count, "events"),
    ]


BENCHMARKS: dict[str, Callable[[bool], list[Figure]]] = {"rules": bench_rules}
