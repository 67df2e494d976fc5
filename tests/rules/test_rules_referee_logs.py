"""The contract between stages: what the tracker and referee log, the rules core can replay.

Simulated games are turned into per-frame readings (``tracking.synthetic``), tracked and
refereed exactly as ``benchmarks/eval_referee.py --synthetic`` does, and the referee's
events must replay through ``tablecam.rules`` to the winner the simulation had.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tablecam.rules import GAME_OVER, replay

HARNESS = Path(__file__).parents[2] / "benchmarks" / "eval_referee.py"


def harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("eval_referee", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_refereed_synthetic_games_replay_to_the_true_winner(seed: int) -> None:
    module = harness()
    from tablecam.tracking.synthetic import Noise

    truth, ours, _ = module.synthetic_game(seed, Noise())
    game = replay(ours)
    assert game.phase == GAME_OVER
    assert game.winner == truth[-1].winner


def test_late_plays_count_those_whose_pile_a_hand_still_covered() -> None:
    # the figure that says how much of the landing latency no reading could have saved
    module = harness()
    from tablecam.cards import Card
    from tablecam.events import Play
    from tablecam.tracking.synthetic import SyntheticReading, SyntheticZone

    card = Card.parse("7C")

    def play(t: float) -> Play:
        return Play(t, 1, "A", card, "left", 1)

    def readings(covered_until: float) -> list[SyntheticReading]:
        return [SyntheticReading(1.0 + k / 30, {"left": SyntheticZone(
            "covered" if 1.0 + k / 30 <= covered_until + 1e-9 else "face_up",
            None if 1.0 + k / 30 <= covered_until + 1e-9 else card)}) for k in range(10)]

    hidden = module.late_plays([play(1.0)], [play(1.2)], readings(1.0 + 4 / 30), 0.15)
    assert "7C from A1 to left" in hidden[0]
    assert hidden[-1].endswith("in 1")
    seen = module.late_plays([play(1.0)], [play(1.2)], readings(1.0 + 1 / 30), 0.15)
    assert seen[-1].endswith("in 0")
    assert module.late_plays([play(1.0)], [play(1.1)], readings(1.0), 0.15)[-1].startswith("0 plays")


def test_misses_list_each_play_take_round_and_stall_the_referee_got_wrong() -> None:
    # what --misses prints for a game: the diagnostic every tracker change starts from
    module = harness()
    from tablecam.cards import Card
    from tablecam.events import Play, RoundEnd, Stall, Take

    c = Card.parse
    truth = [Play(1.0, 1, "A", c("7C"), "left", 1), Play(2.0, 1, "B", c("9D"), "right", 2),
             Stall(3.0, 1), Stall(9.0, 1), RoundEnd(10.0, 1, "A"),
             Take(11.0, 1, "A", "left", 20), Take(11.0, 1, "B", "right", 12)]
    ours = [Play(1.1, 1, "A", c("7C"), "left", 1), Play(2.1, 1, "B", c("9H"), "right", 2),
            Stall(3.8, 1), Stall(6.0, 1), RoundEnd(10.1, 1, "B"),
            Take(11.0, 1, "A", "left", 21), Take(11.0, 1, "B", "right", 11)]
    lines = [" ".join(line.split()) for line in module.misses(truth, ours)]
    assert lines == [
        "2.00 missed: round 1, B 9D from column 2 to right",
        "2.10 not played: round 1, B 9H from column 2 to right",
        "10.00 round 1 won by B, truth A",
        "round 1 takes [('A', 'left', 21), ('B', 'right', 11)], truth [('A', 'left', 20), ('B', 'right', 12)]",
        "3.00 stall called 0.80 s late",
        "6.00 false stall",
        "9.00 stall not called",
    ]
    assert module.misses(truth, truth) == []
