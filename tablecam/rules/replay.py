"""Rebuilding a game from an event log, rejecting an impossible one.

``replay(events)`` applies each event in order to a fresh ``Game``.  The first
event the rules cannot accept raises ``EventLogError`` naming it (its number or
line, type, what it did and its time) and saying why, e.g.
``line 3 (play of 7C onto left by A at t=5.5): 7C is not one rank from the top
card 4H of the left pile``.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path

from tablecam.errors import EventLogError, RulesError
from tablecam.events import (
    Deal,
    Event,
    Illegal,
    Move,
    Play,
    Reveal,
    RoundEnd,
    Spit,
    Take,
    Takeback,
    event_from_json,
    read_log_lines,
)
from tablecam.rules.game import Game
from tablecam.rules.settings import Settings


def _card(card: object) -> str:
    code = getattr(card, "code", None)
    return code if isinstance(code, str) else "an unknown card"


def describe_event(event: Event) -> str:
    """A short phrase for an event, used to name it in error messages."""
    match event:
        case Play():
            what = f"play of {_card(event.card)} onto {event.pile} by {event.player}"
        case Reveal():
            what = f"reveal of {_card(event.card)} in {event.player}'s column {event.column}"
        case Move():
            what = (f"move of {_card(event.card)} by {event.player} from column "
                    f"{event.from_column} to {event.to_column}")
        case Takeback():
            what = f"takeback of {_card(event.card)} by {event.player}"
        case Spit():
            what = "spit of " + " and ".join(f"{_card(c)} onto {p}" for p, c in event.cards.items())
        case Take():
            what = f"take of the {event.pile} pile ({event.cards} cards) by {event.player}"
        case RoundEnd():
            what = f"round_end won by {event.winner}"
        case Deal():
            what = f"deal of round {event.round}"
        case _:
            what = event.type
    return f"{what} at t={event.t:g}"


def split_games(events: Iterable[Event]) -> list[list[Event]]:
    """Cut a stream of several games (``simulate --games N --json``) at each round-1 deal."""
    games: list[list[Event]] = []
    for event in events:
        if not games or (isinstance(event, Deal) and event.round == 1 and games[-1]):
            games.append([])
        games[-1].append(event)
    return games


def replay(events: Iterable[Event], settings: Settings | None = None,
           *, check_accounting: bool = True) -> Game:
    """Apply every event to a new game and return it; raise EventLogError at the first impossible one."""
    return _replay(((index, event) for index, event in enumerate(events, start=1)), settings,
                   "event", check_accounting)


def replay_lines(lines: Iterable[str], settings: Settings | None = None,
                 source: str = "event log") -> Game:
    """Replay JSON-lines text; errors name the source and the line number."""
    def parsed() -> Iterable[tuple[int, Event]]:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                yield number, event_from_json(line)
            except EventLogError as error:
                raise EventLogError(f"{source}, line {number}: {error}") from None
    return _replay(parsed(), settings, f"{source}, line", True)


def replay_file(path: str | Path, settings: Settings | None = None) -> Game:
    """Replay a JSON-lines event file."""
    return replay_lines(read_log_lines(path), settings, str(path))


SPIT_HALVES_S = 1.0
"""Two one-card spits onto different piles this close together are one spit."""


def flags(illegal: Event, attempt: Event) -> bool:
    """True when ``illegal`` is the referee's call on ``attempt`` (same time, player, card, place)."""
    if not isinstance(illegal, Illegal) or abs(illegal.t - attempt.t) > 1e-6:
        return False
    if isinstance(attempt, Play):
        same_place = illegal.pile == attempt.pile
    elif isinstance(attempt, Move):
        same_place = illegal.column in (None, attempt.to_column)
    else:
        return False
    cards_agree = illegal.card is None or attempt.card is None or illegal.card == attempt.card
    return illegal.player == attempt.player and same_place and cards_agree


def _replay(numbered: Iterable[tuple[int, Event]], settings: Settings | None, label: str,
            check_accounting: bool) -> Game:
    """Apply events in order, with two readings of what a tracker or referee may log.

    A ``play``/``move`` followed by an ``illegal`` call on it (the referee logs an
    attempted illegal play that way) is applied only if the rules allow it; otherwise
    it was an attempt that never counted, and the ``illegal`` event says so.  Two
    consecutive one-card ``spit`` events onto different piles within a second are the
    two halves of one spit seen in different frames.
    """
    game = Game(settings)

    def apply(number: int, event: Event) -> None:
        try:
            game.apply(event)
            if check_accounting:
                game.check_accounting()
        except RulesError as error:
            raise EventLogError(f"{label} {number} ({describe_event(event)}): {error}") from None

    held: tuple[int, Event] | None = None
    for number, event in numbered:
        if held is not None:
            held_number, waiting = held
            held = None
            if isinstance(waiting, Spit) and isinstance(event, Spit) and halves(waiting, event):
                event = Spit(waiting.t, waiting.round, {**waiting.cards, **event.cards})
                number = held_number
            elif flags(event, waiting):
                with suppress(RulesError):  # refused by the rules, as the illegal call says
                    game.apply(waiting)
            else:
                apply(held_number, waiting)
        if isinstance(event, Play | Move) or (isinstance(event, Spit) and len(event.cards) == 1):
            held = (number, event)
        else:
            apply(number, event)
    if held is not None:
        apply(*held)
    return game


def halves(first: Spit, second: Spit) -> bool:
    """Two one-card spits, one per pile, less than a second apart: one spit seen in two frames."""
    return (len(first.cards) == 1 and len(second.cards) == 1 and set(first.cards) != set(second.cards)
            and first.round == second.round and abs(second.t - first.t) <= SPIT_HALVES_S)
