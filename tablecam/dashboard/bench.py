"""``tablecam bench dashboard``: 20 viewers on localhost for a whole game (the load test).

The full run plays the golden game (140 s) in real time at 10 camera frames per
second; ``--quick`` plays it four times faster (so 40 frames per wall second).
"""

from __future__ import annotations

from collections.abc import Callable

from tablecam.bench import Figure, peak_memory_mb

VIEWERS = 20


def dashboard_load(quick: bool) -> list[Figure]:
    from tablecam.dashboard.loadtest import run_load_test

    speed = 4.0 if quick else 1.0
    r = run_load_test(viewers=VIEWERS, speed=speed, fps=10.0)
    return [
        Figure(f"viewers (whole {r.game_s:.0f} s game at {speed:g}x)", r.viewers, "viewers"),
        Figure("wall time to play the game", r.wall_s, "s"),
        Figure("publisher's worst lag behind the game clock", r.publisher_late_s * 1000, "ms"),
        Figure("publish call, 99th percentile", r.publish_p99_ms, "ms"),
        Figure("publish call, worst", r.publish_max_ms, "ms"),
        Figure("events published", r.events_published, "events"),
        Figure("events received by the worst viewer", r.events_received_min, "events"),
        Figure("event to viewer, 95th percentile", r.event_latency_p95_ms, "ms"),
        Figure("event to viewer, worst", r.event_latency_max_ms, "ms"),
        Figure("frames published per second", r.frames_per_s_published, "fps"),
        Figure("frames fetched per viewer per second", r.frames_per_s_per_viewer, "fps"),
        Figure("server process CPU (publisher + server)", r.server_cpu_percent, "% core"),
        Figure("viewer errors", r.viewer_errors, "errors"),
        Figure("peak memory of the server process", peak_memory_mb(), "MB"),
    ]


BENCHMARKS: dict[str, Callable[[bool], list[Figure]]] = {"dashboard": dashboard_load}
