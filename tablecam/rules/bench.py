"""Benchmarks of the rules core and the simulator (``tablecam bench rules``).

Everything runs in this one process, so the figures are for one core.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tablecam.bench import Figure


def bench_rules(quick: bool) -> list[Figure]:
    """Whole simulated games a minute, and replays (with full checking) a minute."""
    from tablecam.rules import replay
    from tablecam.sim import simulate_game

    count = 40 if quick else 400
    started = time.perf_counter()
    games = [simulate_game(seed) for seed in range(count)]
    simulated = time.perf_counter() - started
    events = sum(len(g.events) for g in games)
    started = time.perf_counter()
    for game in games:
        replay(game.events, game.settings)
    replayed = time.perf_counter() - started
    started = time.perf_counter()
    for game in games:
        replay(game.events, game.settings, check_accounting=False)
    applied = time.perf_counter() - started
    return [
        Figure("simulated whole games a minute (one core)", count / simulated * 60, "games/min"),
        Figure("replayed games a minute, checking all 52 cards", count / replayed * 60, "games/min"),
        Figure("events applied a second (no accounting check)", events / applied, "events/s"),
        Figure("mean events a simulated game", events / count, "events"),
    ]


BENCHMARKS: dict[str, Callable[[bool], list[Figure]]] = {"rules": bench_rules}
