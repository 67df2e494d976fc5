"""The issue's targets on simulated games seen through noisy readings (no video)."""

from __future__ import annotations

import pytest

from tablecam.app import referee_readings
from tablecam.events import AnyEvent, Button, GameEnd
from tablecam.inputs import ButtonPress
from tablecam.referee.scoring import Score, score_game, score_games
from tablecam.render.video import simulated_game
from tablecam.sim import simulate_game
from tablecam.tracking.synthetic import Noise, synthetic_readings


def referee_game(seed: int, noise: Noise) -> tuple[list[AnyEvent], list[AnyEvent]]:
    truth = list(simulate_game(seed).events)
    presses = [ButtonPress(e.t, e.button, e.player) for e in truth if isinstance(e, Button)]
    calls, _ = referee_readings(synthetic_readings(truth, noise=noise, seed=seed), presses)
    ours = [c.event for c in calls if c.event is not None]
    return truth, ours


@pytest.mark.slow
def test_targets_on_simulated_games_with_hands_misreads_and_dropped_frames() -> None:
    total = Score()
    for seed in range(2000, 2012):
        total.add(score_game(*referee_game(seed, Noise(misread=0.02, blur=0.02, drop=0.05))))
    figures = total.summary()
    assert figures["plays"] > 1000
    assert figures["plays_right_pct"] >= 99.0
    assert figures["round_winners_pct"] == 100.0
    assert figures["exact_takes_pct"] >= 99.0
    assert figures["false_stalls"] == 0
    assert figures["stall_latency_p95_s"] <= 0.5


def test_a_second_game_dealt_after_the_first_is_refereed_from_its_first_round() -> None:
    """Two simulated games at one table, the cards gathered and dealt afresh between them:
    the camera's readings give both games, each scored from its own round 1."""
    truth, _motions = simulated_game(2048, games=2)
    presses = [ButtonPress(e.t, e.button, e.player) for e in truth if isinstance(e, Button)]
    calls, _ = referee_readings(synthetic_readings(truth, noise=Noise(), seed=2048), presses)
    ours = [c.event for c in calls if c.event is not None]
    assert [(e.type, e.round) for e in ours if e.type == "deal"].count(("deal", 1)) == 2
    assert [e.winner for e in ours if isinstance(e, GameEnd)] == \
        [e.winner for e in truth if isinstance(e, GameEnd)]
    figures = score_games(truth, ours).summary()
    assert figures["plays_right_pct"] == 100.0 and figures["game_winners_pct"] == 100.0
    assert figures["round_winners_pct"] == 100.0 and figures["exact_takes_pct"] == 100.0
