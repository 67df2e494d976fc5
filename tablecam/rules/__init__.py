"""The Spit rules as a pure core: no clock, no I/O, no vision.

- ``Settings``: the rule variants of RULES.md (frozen; defaults as RULES.md says).
- ``Game``: the state of one game, advanced by ``game.apply(event)`` with the events
  of ``tablecam.events``; read with ``legal_plays()``, ``legal_moves()``,
  ``is_stalled()``, ``open_option()``, ``pile_sizes()``, ``next_deal()``,
  ``round_winner``, ``outcome`` and ``snapshot()`` (the dashboard's JSON shape).
- ``replay(events)`` / ``replay_file(path)``: rebuild a game from a log; an impossible
  event raises ``EventLogError`` naming it and saying why.
- ``layout_for(n)``: the columns and spit cards a player with ``n`` cards deals.
"""

from tablecam.rules.game import (
    GAME_END_DUE,
    GAME_OVER,
    PLAYING,
    ROUND_OVER,
    SUMMARY,
    TAKING,
    WAITING_DEAL,
    WAITING_SPIT,
    ColumnView,
    Game,
    Layout,
    MoveOption,
    Outcome,
    PlayOption,
    layout_for,
)
from tablecam.rules.replay import describe_event, replay, replay_file, replay_lines, split_games
from tablecam.rules.settings import Settings

__all__ = [
    "GAME_END_DUE", "GAME_OVER", "PLAYING", "ROUND_OVER", "SUMMARY", "TAKING", "WAITING_DEAL",
    "WAITING_SPIT", "ColumnView", "Game", "Layout", "MoveOption", "Outcome", "PlayOption",
    "Settings", "describe_event", "layout_for", "replay", "replay_file", "replay_lines",
    "split_games",
]
