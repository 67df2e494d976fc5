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
