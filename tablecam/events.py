"""Game events: frozen values with one JSON form each (INTERFACE.md, "Events").

Every stage speaks this vocabulary: the simulator and renderer write it as truth,
the tracker and referee produce it from video, the rules core replays it, the
dashboard and game log store it.  ``event_to_json`` and ``event_from_json`` are a
parse/format pair; malformed input raises ``EventLogError`` naming the line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias, cast

from tablecam.cards import Card, parse_optional_card
from tablecam.errors import EventLogError, InvalidCardError

Seat: TypeAlias = Literal["A", "B"]
Pile: TypeAlias = Literal["left", "right"]
ButtonName: TypeAlias = Literal["spit", "slap"]

SEATS: Final[tuple[Seat, Seat]] = ("A", "B")
PILES: Final[tuple[Pile, Pile]] = ("left", "right")


def other_seat(seat: Seat) -> Seat:
    return "B" if seat == "A" else "A"


def other_pile(pile: Pile) -> Pile:
    return "right" if pile == "left" else "left"


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events: ``t`` seconds from the start of the input, 1-based ``round``."""

    t: float
    round: int

    type: str = field(default="", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class TableauView:
    """One player's tableau as laid at a deal: columns used, spit cards, face-up cards."""

    columns: int
    spit: int
    up: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class Deal(Event):
    players: Mapping[Seat, TableauView]
    type: str = field(default="deal", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Spit(Event):
    """Spit cards turned onto the centre; a pile missing from ``cards`` was not fed."""

    cards: Mapping[Pile, Card | None]
    type: str = field(default="spit", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Play(Event):
    player: Seat
    card: Card | None
    pile: Pile
    column: int
    type: str = field(default="play", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Reveal(Event):
    player: Seat
    column: int
    card: Card | None
    type: str = field(default="reveal", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Move(Event):
    player: Seat
    card: Card | None
    from_column: int
    to_column: int
    type: str = field(default="move", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Takeback(Event):
    player: Seat
    card: Card | None
    pile: Pile
    type: str = field(default="takeback", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Illegal(Event):
    """A play the rules forbid; fields that do not apply are None."""

    reason: str
    player: Seat | None = None
    card: Card | None = None
    pile: Pile | None = None
    column: int | None = None
    type: str = field(default="illegal", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Stall(Event):
    type: str = field(default="stall", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class RoundEnd(Event):
    """A tableau emptied (or, in the stuck variant, the round was decided); ``winner`` won it."""

    winner: Seat
    type: str = field(default="round_end", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Take(Event):
    player: Seat
    pile: Pile
    cards: int
    type: str = field(default="take", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class RoundSummary(Event):
    cards: Mapping[Seat, int]
    type: str = field(default="round_summary", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class GameEnd(Event):
    winner: Seat
    type: str = field(default="game_end", init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Button(Event):
    """A physical (or on-screen) button press; ``player`` is set for slaps only."""

    button: ButtonName
    player: Seat | None = None
    type: str = field(default="button", init=False, repr=False)


AnyEvent: TypeAlias = (
    Deal | Spit | Play | Reveal | Move | Takeback | Illegal | Stall | RoundEnd | Take
    | RoundSummary | GameEnd | Button
)


def _code(card: Card | None) -> str | None:
    return None if card is None else card.code


def _time(t: float) -> float:
    return round(float(t), 3)


def event_to_dict(event: Event) -> dict[str, Any]:
    """The JSON object of an event, keys in the order of INTERFACE.md."""
    out: dict[str, Any] = {"t": _time(event.t), "round": event.round, "type": event.type}
    match event:
        case Deal(players=players):
            out["players"] = {
                seat: {"columns": view.columns, "spit": view.spit, "up": [_code(c) for c in view.up]}
                for seat, view in sorted(players.items())
            }
        case Spit(cards=cards):
            out["cards"] = {pile: _code(cards[pile]) for pile in PILES if pile in cards}
        case Play():
            out.update(player=event.player, card=_code(event.card), pile=event.pile, column=event.column)
        case Reveal():
            out.update(player=event.player, column=event.column, card=_code(event.card))
        case Move():
            out.update(player=event.player, card=_code(event.card))
            out["from"] = event.from_column
            out["to"] = event.to_column
        case Takeback():
            out.update(player=event.player, card=_code(event.card), pile=event.pile)
        case Illegal():
            for key in ("player", "pile", "column"):
                value = getattr(event, key)
                if value is not None:
                    out[key] = value
            if event.card is not None:
                out["card"] = event.card.code
            out["reason"] = event.reason
        case Stall():
            pass
        case RoundEnd() | GameEnd():
            out["winner"] = event.winner
        case Take():
            out.update(player=event.player, pile=event.pile, cards=event.cards)
        case RoundSummary(cards=cards):
            out["cards"] = {seat: cards[seat] for seat in SEATS if seat in cards}
        case Button():
            out["button"] = event.button
            if event.player is not None:
                out["player"] = event.player
        case _:
            raise TypeError(f"not an event: {event!r}")
    return out


def event_to_json(event: Event) -> str:
    return json.dumps(event_to_dict(event), ensure_ascii=False)


class _Fields:
    """Typed access to one event object's fields, with errors that name the field."""

    def __init__(self, data: Mapping[str, Any], kind: str) -> None:
        self.data = data
        self.kind = kind

    def _get(self, key: str) -> Any:
        if key not in self.data:
            raise EventLogError(f"a '{self.kind}' event needs the field '{key}'")
        return self.data[key]

    def seat(self, key: str = "player") -> Seat:
        value = self._get(key)
        if value not in SEATS:
            raise EventLogError(f"'{key}' must be \"A\" or \"B\", not {value!r}")
        return cast(Seat, value)

    def optional_seat(self, key: str = "player") -> Seat | None:
        return None if self.data.get(key) is None else self.seat(key)

    def pile(self, key: str = "pile") -> Pile:
        value = self._get(key)
        if value not in PILES:
            raise EventLogError(f"'{key}' must be \"left\" or \"right\", not {value!r}")
        return cast(Pile, value)

    def column(self, key: str = "column") -> int:
        value = self._get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 5:
            raise EventLogError(f"'{key}' must be a column number 1..5, not {value!r}")
        return value

    def count(self, key: str) -> int:
        value = self._get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 52:
            raise EventLogError(f"'{key}' must be a card count 0..52, not {value!r}")
        return value

    def card(self, key: str = "card") -> Card | None:
        return _card(self._get(key), key)

    def text(self, key: str) -> str:
        value = self._get(key)
        if not isinstance(value, str):
            raise EventLogError(f"'{key}' must be text, not {value!r}")
        return value


def _card(value: object, key: str) -> Card | None:
    try:
        return parse_optional_card(value)
    except InvalidCardError as error:
        raise EventLogError(f"'{key}': {error}") from None


def _tableau(value: object, seat: str) -> TableauView:
    if not isinstance(value, Mapping):
        raise EventLogError(f"the deal for player {seat} must be an object with columns, spit and up")
    fields = _Fields(value, "deal")
    columns = fields.count("columns")
    if columns > 5:
        raise EventLogError(f"player {seat} cannot have {columns} columns; a tableau has at most 5")
    up = fields._get("up")
    if not isinstance(up, list) or len(up) != columns:
        raise EventLogError(f"'up' for player {seat} must list one card per column ({columns})")
    return TableauView(columns, fields.count("spit"), tuple(_card(c, "up") for c in up))


def event_from_dict(data: Mapping[str, Any]) -> AnyEvent:
    """Build an event from its JSON object; raise EventLogError saying what is wrong."""
    if not isinstance(data, Mapping):
        raise EventLogError(f"an event must be a JSON object, not {data!r}")
    t = data.get("t")
    if not isinstance(t, int | float) or isinstance(t, bool) or t < 0 or t != t:
        raise EventLogError(f"'t' must be a time in seconds >= 0, not {t!r}")
    rnd = data.get("round")
    if not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 1:
        raise EventLogError(f"'round' must be a round number >= 1, not {rnd!r}")
    kind = data.get("type")
    f = _Fields(data, str(kind))
    t = float(t)
    match kind:
        case "deal":
            players = f._get("players")
            if not isinstance(players, Mapping) or set(players) != set(SEATS):
                raise EventLogError("a 'deal' event needs 'players' with exactly A and B")
            return Deal(t, rnd, {s: _tableau(players[s], s) for s in SEATS})
        case "spit":
            cards = f._get("cards")
            if not isinstance(cards, Mapping) or not cards or not set(cards) <= set(PILES):
                raise EventLogError("a 'spit' event needs 'cards' keyed by 'left' and/or 'right'")
            return Spit(t, rnd, {p: _card(cards[p], p) for p in PILES if p in cards})
        case "play":
            return Play(t, rnd, f.seat(), f.card(), f.pile(), f.column())
        case "reveal":
            return Reveal(t, rnd, f.seat(), f.column(), f.card())
        case "move":
            return Move(t, rnd, f.seat(), f.card(), f.column("from"), f.column("to"))
        case "takeback":
            return Takeback(t, rnd, f.seat(), f.card(), f.pile())
        case "illegal":
            return Illegal(
                t, rnd, f.text("reason"), f.optional_seat(),
                _card(data.get("card"), "card"),
                f.pile() if data.get("pile") is not None else None,
                f.column() if data.get("column") is not None else None,
            )
        case "stall":
            return Stall(t, rnd)
        case "round_end":
            return RoundEnd(t, rnd, f.seat("winner"))
        case "take":
            return Take(t, rnd, f.seat(), f.pile(), f.count("cards"))
        case "round_summary":
            cards = f._get("cards")
            if not isinstance(cards, Mapping) or set(cards) != set(SEATS):
                raise EventLogError("a 'round_summary' event needs 'cards' with counts for A and B")
            counts = _Fields(cards, "round_summary")
            return RoundSummary(t, rnd, {s: counts.count(s) for s in SEATS})
        case "game_end":
            return GameEnd(t, rnd, f.seat("winner"))
        case "button":
            button = f._get("button")
            if button not in ("spit", "slap"):
                raise EventLogError(f"'button' must be \"spit\" or \"slap\", not {button!r}")
            if button == "slap":
                return Button(t, rnd, "slap", f.seat())
            return Button(t, rnd, "spit", None)
        case _:
            raise EventLogError(f"unknown event type {kind!r}")


def event_from_json(line: str) -> AnyEvent:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise EventLogError(f"not valid JSON ({error.msg} at column {error.colno})") from None
    return event_from_dict(data)


def parse_event_lines(lines: Iterable[str], source: str = "event log") -> Iterator[AnyEvent]:
    """Parse JSON lines, skipping blank ones; errors name the source and line number."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield event_from_json(line)
        except EventLogError as error:
            raise EventLogError(f"{source}, line {number}: {error}") from None


def read_log_lines(path: str | Path) -> list[str]:
    """The lines of an event log file; a missing or unreadable file is an EventLogError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EventLogError(f"there is no event log at {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise EventLogError(f"cannot read the event log {path}: {error}") from None
    return text.splitlines()


def read_events(path: str | Path) -> list[AnyEvent]:
    """Read a JSON-lines event file."""
    return list(parse_event_lines(read_log_lines(path), str(path)))


def write_events(events: Iterable[Event], path: str | Path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for event in events:
            out.write(event_to_json(event) + "\n")
