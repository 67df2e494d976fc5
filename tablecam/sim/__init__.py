"""Simulated players and whole simulated games (rules only, no video).

``simulate_game(seed, settings=Settings(), players={"A": AVERAGE, "B": FAST})``
returns a ``SimulatedGame`` with ``.events`` (INTERFACE events, button presses
included), ``.motions`` (when each hand started reaching, for the renderer),
``.rounds`` (each round's deal order and results) and ``.outcome``.
"""

from tablecam.sim.engine import (
    COLLISION_WINDOW,
    Motion,
    RoundRecord,
    SimulatedGame,
    simulate_game,
)
from tablecam.sim.players import AVERAGE, FAST, PROFILES, SLOW, PlayerProfile, profile_named

__all__ = [
    "AVERAGE", "COLLISION_WINDOW", "FAST", "PROFILES", "SLOW", "Motion", "PlayerProfile",
    "RoundRecord", "SimulatedGame", "profile_named", "simulate_game",
]
