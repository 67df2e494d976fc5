"""Twenty viewers watching do not slow the referee below real time."""

from __future__ import annotations

import pytest

from tablecam.dashboard.loadtest import run_load_test


@pytest.mark.slow
def test_twenty_viewers_keep_up_and_never_hold_up_the_publisher() -> None:
    # The first minute of the golden game at 6x real time: 60 frames per wall second.
    result = run_load_test(viewers=20, speed=6.0, fps=10.0, until_t=60.0)
    assert result.viewer_errors == 0
    assert result.events_received_min == result.events_published > 50
    assert result.publisher_late_s < 0.1
    assert result.publish_p99_ms < 10
    assert result.event_latency_p95_ms < 200
    assert result.frames_per_s_per_viewer > 5
