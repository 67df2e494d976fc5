"""Twenty viewers watching do not slow the referee below real time."""

from __future__ import annotations

import pytest

from tablecam.dashboard.loadtest import run_load_test


@pytest.mark.slow
def test_twenty_viewers_keep_up_and_never_hold_up_the_publisher() -> None:
    # The first minute of the golden game at 6x real time: 60 frames per wall second.
    r = run_load_test(viewers=20, speed=6.0, fps=10.0, until_t=60.0)
    assert r.viewer_errors == 0, r
    assert r.events_received_min == r.events_published > 50, r
    # The game finished on time and the publisher never fell far behind its clock
    # (bounds loose enough for a shared CI machine; typical figures are ~20 ms).
    assert r.wall_s < r.game_s / r.speed + 1.0, r
    assert r.publisher_late_s < 0.25, r
    assert r.publish_p99_ms < 20, r
    assert r.event_latency_p95_ms < 200, r
    assert r.frames_per_s_per_viewer > 5, r
