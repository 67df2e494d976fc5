"""Spit as a pure state machine: ``Game.apply(event)`` for every event of INTERFACE.md.

The game knows the rules and nothing else: no clock (time arrives in the events),
no files, no printing.  Replaying a log is applying its events in order; an event
the rules forbid raises ``RulesError`` quoting the position, and the state is left
exactly as it was.

Hidden information: a watcher sees only face-up cards, so face-down tableau cards
and spit cards are *unknown* (``None``) until a reveal or a spit shows them.  The
simulator, which shuffled the deck itself, deals with ``deal_known`` and so plays
with every card known; the same rules check both.  A card whose identity is known
is tracked to one place (a player's hidden cards, or face up on the table) so that
no card can appear twice.

Unknown cards in events (``card: null``, from a tracker that could not read one):
a ``play``/``move``/``takeback`` of an unknown card means the card the state shows
in that column; an unknown up card at a deal, reveal or spit stays unknown, plays
onto an unknown top are accepted unchecked, and stall checks only count plays
between known cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

from tablecam.cards import Card
from tablecam.errors import RulesError
from tablecam.events import (
    PILES,
    SEATS,
    Button,
    Deal,
    Event,
    GameEnd,
    Illegal,
    Move,
    Pile,
    Play,
    Reveal,
    RoundEnd,
    RoundSummary,
    Seat,
    Spit,
    Stall,
    TableauView,
    Take,
    Takeback,
    other_seat,
)
from tablecam.rules.settings import Settings

Phase: TypeAlias = Literal[
    "waiting_deal", "waiting_spit", "playing", "round_over", "taking", "summary",
    "game_end_due", "game_over",
]
WAITING_DEAL: Final = "waiting_deal"    # before the first deal, or after a round summary
WAITING_SPIT: Final = "waiting_spit"    # dealt; the opening spit has not happened
PLAYING: Final = "playing"              # play is on (``is_stalled()`` says if it is stuck)
ROUND_OVER: Final = "round_over"        # a tableau just emptied; a round_end is due
TAKING: Final = "taking"                # round_end seen; the centre piles are being taken
SUMMARY: Final = "summary"              # piles taken; a round_summary is due
GAME_END_DUE: Final = "game_end_due"    # someone has no cards (or the round limit); game_end is due
GAME_OVER: Final = "game_over"

FIRST_ROUND_CARDS: Final = 26
LATE_REPORT_S: Final = 3.0
"""An event may be logged this much earlier than the one before it (a tracker reporting late)."""


def _code(card: Card | None) -> str:
    return "an unknown card" if card is None else card.code


@dataclass(frozen=True, slots=True)
class Layout:
    """How a player with a number of cards deals: columns used and spit cards left."""

    columns: int
    spit: int

    @property
    def tableau_cards(self) -> int:
        return self.columns * (self.columns + 1) // 2


def layout_for(cards: int) -> Layout:
    """The deal for ``cards`` cards: as many whole columns (1..5 cards) as fit, the rest spit.

    ``layout_for(26) == Layout(5, 11)``, ``layout_for(13) == Layout(4, 3)``.
    """
    if cards < 0 or cards > 52:
        raise RulesError(f"a player cannot hold {cards} cards")
    columns = 0
    while columns < 5 and (columns + 1) * (columns + 2) // 2 <= cards:
        columns += 1
    return Layout(columns, cards - columns * (columns + 1) // 2)


@dataclass(frozen=True, slots=True)
class PlayOption:
    """A legal play: ``player`` moves the face-up card of ``column`` onto ``pile``.

    ``exposes`` is true when a face-down card lies under it.
    """

    player: Seat
    column: int
    pile: Pile
    card: Card
    exposes: bool

    def describe(self) -> str:
        return f"{self.player} can play {self.card.code} from column {self.column} onto {self.pile}"


@dataclass(frozen=True, slots=True)
class MoveOption:
    """A legal move of a face-up card into an empty column of the same player."""

    player: Seat
    from_column: int
    to_column: int
    card: Card | None
    exposes: bool

    def describe(self) -> str:
        tail = ", exposing a face-down card" if self.exposes else ""
        return (f"{self.player} can move {_code(self.card)} from column {self.from_column} "
                f"into empty column {self.to_column}{tail}")


@dataclass(frozen=True, slots=True)
class ColumnView:
    """One column as a watcher sees it: face-down count and the face-up card, if any."""

    down: int
    up: Card | None
    face_up: bool

    @property
    def empty(self) -> bool:
        return not self.face_up and self.down == 0


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``reason`` is ``"no_cards"`` (the rules) or ``"round_limit"``."""

    winner: Seat
    reason: Literal["no_cards", "round_limit"]


class _Column:
    """Mutable column: face-down cards bottom to top, then an optional face-up card."""

    __slots__ = ("down", "face_up", "up")

    def __init__(self, down: list[Card | None], up: Card | None, face_up: bool) -> None:
        self.down = down
        self.up = up
        self.face_up = face_up

    @property
    def empty(self) -> bool:
        return not self.face_up and not self.down

    @property
    def pending(self) -> bool:
        """A face-down card is on top and waits to be turned up."""
        return not self.face_up and bool(self.down)

    def count(self) -> int:
        return len(self.down) + (1 if self.face_up else 0)

    def copy(self) -> _Column:
        return _Column(list(self.down), self.up, self.face_up)


class _Side:
    """One player's cards: tableau columns, spit pile (top last), taken pile, gathered hand."""

    __slots__ = ("columns", "hand", "spit", "taken")

    def __init__(self) -> None:
        self.columns: list[_Column] = []
        self.spit: list[Card | None] = []
        self.taken: list[Card | None] = []
        self.hand: list[Card | None] = []

    def tableau_count(self) -> int:
        return sum(col.count() for col in self.columns)

    def total(self) -> int:
        return self.tableau_count() + len(self.spit) + len(self.taken) + len(self.hand)

    def copy(self) -> _Side:
        side = _Side()
        side.columns = [col.copy() for col in self.columns]
        side.spit = list(self.spit)
        side.taken = list(self.taken)
        side.hand = list(self.hand)
        return side


class Game:
    """The state of one game of Spit, advanced by ``apply(event)``.

    Read it with ``legal_plays()``, ``legal_moves()``, ``is_stalled()``, ``open_option()``,
    ``column()``, ``pile_top()``/``pile_size()``, ``spit_count()``, ``cards_held()``,
    ``next_deal()``, ``round_winner``, ``outcome`` and ``snapshot()``.
    """

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings if settings is not None else Settings()
        self.round = 0
        self.phase: Phase = WAITING_DEAL
        self.t = 0.0
        self._sides: dict[Seat, _Side] = {"A": _Side(), "B": _Side()}
        self._piles: dict[Pile, list[Card | None]] = {"left": [], "right": []}
        self.round_winner: Seat | None = None
        self.previous_round_winner: Seat | None = None
        self.outcome: Outcome | None = None
        self.one_pile = False
        self.lone_pile: Pile | None = None
        self.last_to_pile: Seat | None = None
        self.slaps: list[Seat] = []
        self.taken_by: dict[Pile, Seat] = {}
        self.stalls = 0
        self._known: dict[Card, str] = {}
        self._covered: dict[Pile, tuple[float, Seat | None]] = {}
        self._round_ended_at: float | None = None

    # ------------------------------------------------------------------ reading
    @property
    def winner(self) -> Seat | None:
        """The winner of the game once it has one."""
        return None if self.outcome is None else self.outcome.winner

    def columns(self, seat: Seat) -> list[ColumnView]:
        """The columns ``seat`` dealt this round (fewer than five when cards ran short)."""
        return [ColumnView(len(c.down), c.up, c.face_up) for c in self._sides[seat].columns]

    def column(self, seat: Seat, column: int) -> ColumnView:
        col = self._column(seat, column)
        return ColumnView(len(col.down), col.up, col.face_up)

    def hidden_card(self, seat: Seat, column: int) -> Card | None:
        """The face-down card that a reveal of this column will show, if it is known."""
        col = self._column(seat, column)
        return col.down[-1] if col.down else None

    def next_spit_card(self, seat: Seat) -> Card | None:
        spit = self._sides[seat].spit
        return spit[-1] if spit else None

    def spit_count(self, seat: Seat) -> int:
        return len(self._sides[seat].spit)

    def tableau_count(self, seat: Seat) -> int:
        return self._sides[seat].tableau_count()

    def cards_held(self, seat: Seat) -> int:
        """Every card on ``seat``'s side: tableau, spit, a pile taken this round, gathered hand."""
        return self._sides[seat].total()

    def hand(self, seat: Seat) -> list[Card | None]:
        """The cards ``seat`` gathered at the last round summary (unknown ones are ``None``)."""
        return list(self._sides[seat].hand)

    def pile_top(self, pile: Pile) -> Card | None:
        cards = self._piles[pile]
        return cards[-1] if cards else None

    def pile_size(self, pile: Pile) -> int:
        return len(self._piles[pile])

    def pile_cards(self, pile: Pile) -> list[Card | None]:
        """The cards of a centre pile, bottom first."""
        return list(self._piles[pile])

    def pile_sizes(self) -> dict[Pile, int]:
        return {pile: len(self._piles[pile]) for pile in PILES}

    def pending_reveals(self, seat: Seat) -> list[int]:
        """Columns of ``seat`` whose top card is face down and waits to be turned up."""
        return [i + 1 for i, col in enumerate(self._sides[seat].columns) if col.pending]

    def legal_plays(self, seat: Seat | None = None) -> list[PlayOption]:
        """Plays onto a centre pile that the rules allow now (known cards only)."""
        if self.phase != PLAYING:
            return []
        tops = [(pile, cards[-1]) for pile, cards in self._piles.items() if cards]
        plays: list[PlayOption] = []
        for player in (SEATS if seat is None else (seat,)):
            for i, col in enumerate(self._sides[player].columns):
                card = col.up
                if not col.face_up or card is None:
                    continue
                for pile, top in tops:
                    if top is not None and card.rank.is_next_to(top.rank):
                        plays.append(PlayOption(player, i + 1, pile, card, bool(col.down)))
        return plays

    def legal_moves(self, seat: Seat | None = None) -> list[MoveOption]:
        """Moves of a face-up card into an empty column that the rules allow now."""
        if self.phase != PLAYING:
            return []
        moves: list[MoveOption] = []
        for player in (SEATS if seat is None else (seat,)):
            columns = self._sides[player].columns
            empties = [i for i, col in enumerate(columns) if col.empty]
            if not empties:
                continue
            for i, col in enumerate(columns):
                if col.face_up:
                    for j in empties:
                        moves.append(MoveOption(player, i + 1, j + 1, col.up, bool(col.down)))
        return moves

    def open_option(self) -> PlayOption | MoveOption | None:
        """One play or exposing move still open, or None: what to tell a player who called Spit wrongly."""
        plays = self.legal_plays()
        if plays:
            return plays[0]
        for move in self.legal_moves():
            if move.exposes:
                return move
        return None

    def judge_landing(self, player: Seat, column: int, pile: Pile, t: float) -> Play | Takeback | Illegal:
        """What it is when the face-up card of ``player``'s ``column`` touches ``pile`` at ``t``.

        A ``Play`` when it may go there now; a ``Takeback`` when it lost a collision (the
        pile was covered, or the round ended, at most ``collision_window`` seconds
        before, and the card fitted the card underneath); otherwise an ``Illegal``
        with the reason.  Collisions are so resolved by time: the first card stays.
        """
        col = self._column(player, column)
        card = col.up if col.face_up else None
        window = self.settings.collision_window
        if self.phase == PLAYING and col.face_up:
            cards = self._piles[pile]
            top = cards[-1] if cards else None
            if cards and (card is None or top is None or card.rank.is_next_to(top.rank)):
                return Play(t, self.round, player, card, pile, column)
            covered_at, _ = self._covered.get(pile, (-1e9, None))
            under = cards[-2] if len(cards) >= 2 else None
            if (0 <= t - covered_at <= window and card is not None and under is not None
                    and card.rank.is_next_to(under.rank)):
                return Takeback(t, self.round, player, card, pile)
            reason = (f"the {pile} pile is not in use this round" if not cards else
                      f"{_code(card)} is not one rank from the top card {_code(top)} of the {pile} pile")
            return Illegal(t, self.round, reason, player, card, pile, column)
        if col.face_up and self._just_after_round_end(t, player):
            cards = self._piles[pile]
            top = cards[-1] if cards else None
            if cards and (card is None or top is None or card.rank.is_next_to(top.rank)):
                return Play(t, self.round, player, card, pile, column)  # as good as simultaneous
            return Takeback(t, self.round, player, card, pile)
        if not col.face_up:
            reason = f"{player}'s column {column} shows no face-up card"
        else:
            try:
                self._need_phase(PLAYING)
                reason = "play is not on"
            except RulesError as error:
                reason = str(error)
        return Illegal(t, self.round, reason, player, card, pile, column)

    def is_stalled(self) -> bool:
        """True when play is on and nobody can play onto a centre pile or expose a card.

        A move into an empty column counts as progress only when it exposes a
        face-down card; a card still waiting to be turned up also counts.
        """
        if self.phase != PLAYING:
            return False
        for side in self._sides.values():
            columns = side.columns
            has_empty = False
            has_exposing = False
            for col in columns:
                if col.face_up:
                    if col.down:
                        has_exposing = True
                elif col.down:
                    return False  # a reveal is still due
                else:
                    has_empty = True
            if has_empty and has_exposing:
                return False
        tops = [cards[-1] for cards in self._piles.values() if cards]
        for side in self._sides.values():
            for col in side.columns:
                card = col.up
                if card is not None and col.face_up:
                    for top in tops:
                        if top is not None and card.rank.is_next_to(top.rank):
                            return False
        return True

    def spit_feeders(self) -> dict[Pile, Seat]:
        """Who spits onto which pile at the next spit (a lone spitter's pile once chosen)."""
        spitters = [seat for seat in SEATS if self._sides[seat].spit]
        if len(spitters) == 2:
            return {self.settings.spit_pile(seat): seat for seat in SEATS}
        if len(spitters) == 1:
            seat = spitters[0]
            return {self.lone_pile or self.settings.spit_pile(seat): seat}
        return {}

    def allowed_takes(self) -> list[tuple[Seat, Pile]]:
        """The (player, pile) takes the rules allow now, after a round ended."""
        if self.phase != TAKING or self.round_winner is None:
            return []
        winner = self.round_winner
        loser = other_seat(winner)
        used = [pile for pile in PILES if self._piles[pile] and pile not in self.taken_by]
        if self.one_pile:
            return [(loser, pile) for pile in used]
        if self.taken_by:
            first_taker = next(iter(self.taken_by.values()))
            return [(other_seat(first_taker), pile) for pile in used]
        if self.settings.pile_taking == "winner_chooses":
            takers: list[Seat] = [winner]
            slapper: Seat | None = winner if winner in self.slaps else None
        elif self.slaps:
            takers = [self.slaps[0]]
            slapper = self.slaps[0]
        else:
            takers = list(SEATS)
            slapper = None
        piles = self.claimed_piles(slapper) if slapper is not None else used
        return [(seat, pile) for seat in takers for pile in piles]

    def claimed_piles(self, seat: Seat) -> list[Pile]:
        """The pile(s) a slap on ``seat``'s pad claims (both when equal in size)."""
        if self.settings.pad_claims == "spit_side":
            return [self.settings.spit_pile(seat)]
        sizes = self.pile_sizes()
        smallest = min(sizes.values())
        return [pile for pile in PILES if sizes[pile] == smallest]

    def next_deal(self) -> dict[Seat, Layout] | None:
        """The layout each player must deal next round, once the round summary is in."""
        if self.phase != WAITING_DEAL or self.round == 0:
            return None
        return {seat: layout_for(len(self._sides[seat].hand)) for seat in SEATS}

    def snapshot(self) -> dict[str, Any]:
        """A JSON-able picture of the table for the dashboard (shape in docs/ARCHITECTURE.md)."""
        players: dict[str, Any] = {}
        for seat in SEATS:
            side = self._sides[seat]
            columns: list[dict[str, Any] | None] = [
                {"down": len(col.down), "up": col.up.code if col.face_up and col.up else None}
                for col in side.columns
            ]
            columns += [None] * (5 - len(columns))
            players[seat] = {"columns": columns, "spit": len(side.spit), "total": side.total()}
        centre = {
            pile: {"top": (top.code if (top := self.pile_top(pile)) else None),
                   "count": len(self._piles[pile])}
            for pile in PILES
        }
        winner = self.winner or self.round_winner
        return {"round": self.round, "phase": self.phase, "players": players,
                "centre": centre, "winner": winner}

    def check_accounting(self) -> None:
        """Raise RulesError unless all 52 cards are accounted for and no known card is twice."""
        if self.round == 0:
            return
        total = sum(side.total() for side in self._sides.values())
        total += sum(len(cards) for cards in self._piles.values())
        if total != 52:
            raise RulesError(f"the table holds {total} cards, not 52")
        seen: set[Card] = set()
        hidden_known = {"A": 0, "B": 0}
        for seat, side in self._sides.items():
            cards = [c for col in side.columns for c in col.down]
            cards += [col.up for col in side.columns if col.face_up]
            cards += side.spit + side.taken + side.hand
            for card in cards:
                if card is None:
                    continue
                if card in seen:
                    raise RulesError(f"{card.code} is in two places")
                seen.add(card)
            unknown_hidden = sum(1 for col in side.columns for c in col.down if c is None)
            unknown_hidden += sum(1 for c in side.spit + side.hand if c is None)
            hidden_known[seat] = unknown_hidden
        for cards in self._piles.values():
            for card in cards:
                if card is not None:
                    if card in seen:
                        raise RulesError(f"{card.code} is in two places")
                    seen.add(card)
        for seat in SEATS:
            floating = sum(1 for c, where in self._known.items() if where == seat and c not in seen)
            if floating > hidden_known[seat]:
                raise RulesError(f"{seat} is known to hold {floating} cards that its "
                                 f"{hidden_known[seat]} hidden places cannot all hold")

    def copy(self) -> Game:
        game = Game(self.settings)
        for name in ("round", "phase", "t", "round_winner", "previous_round_winner", "outcome",
                     "one_pile", "lone_pile", "last_to_pile", "stalls", "_round_ended_at"):
            setattr(game, name, getattr(self, name))
        game._sides = {seat: side.copy() for seat, side in self._sides.items()}
        game._piles = {pile: list(cards) for pile, cards in self._piles.items()}
        game.slaps = list(self.slaps)
        game.taken_by = dict(self.taken_by)
        game._known = dict(self._known)
        game._covered = dict(self._covered)
        return game

    def __repr__(self) -> str:
        tops = ", ".join(f"{p}={_code(self.pile_top(p)) if self._piles[p] else '-'}" for p in PILES)
        return f"<Game round={self.round} phase={self.phase} {tops}>"

    # ------------------------------------------------------------------ applying
    def apply(self, event: Event) -> None:
        """Advance the game by one event; raise RulesError (state unchanged) if it is impossible."""
        if event.t < self.t - LATE_REPORT_S:
            raise RulesError(f"it is {self.t - event.t:.3g} s earlier than the previous event "
                             f"(t={self.t:g}); an event may be reported at most {LATE_REPORT_S:g} s late")
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise RulesError(f"{type(event).__name__} is not a game event")
        if not isinstance(event, Deal | Button):
            self._check_round(event)
        for name in ("player", "winner"):
            seat = getattr(event, name, None)
            if seat is not None and seat not in SEATS:
                raise RulesError(f"{name} must be A or B, not {seat!r}")
        named: list[object] = list(event.cards) if isinstance(event, Spit) else [
            getattr(event, "pile", None)]
        for pile_name in named:
            if pile_name is not None and pile_name not in PILES:
                raise RulesError(f"a pile is 'left' or 'right', not {pile_name!r}")
        handler(self, event)
        self.t = max(self.t, event.t)

    def deal_known(self, t: float, round_number: int, hands: Mapping[Seat, Sequence[Card]]) -> Deal:
        """Deal from fully known hands (the simulator's view) and return the Deal event.

        Each hand is in dealing order: row by row, the first card of a row face up on
        the next column and one face-down card on each column to its right; what is
        left is the spit pile, the first of it on top.
        """
        layouts = {seat: layout_for(len(hands[seat])) for seat in SEATS}
        rows: dict[Seat, tuple[list[list[Card]], list[Card | None], list[Card]]] = {}
        for seat in SEATS:
            cards = list(hands[seat])
            k = layouts[seat].columns
            downs: list[list[Card]] = [[] for _ in range(k)]
            ups: list[Card | None] = [None] * k
            position = 0
            for row in range(k):
                ups[row] = cards[position]
                position += 1
                for col in range(row + 1, k):
                    downs[col].append(cards[position])
                    position += 1
            spit = list(reversed(cards[position:]))
            rows[seat] = (downs, ups, spit)
        every = [c for seat in SEATS for c in hands[seat]]
        if len(set(every)) != len(every):
            raise RulesError("the hands to deal hold a card twice")
        for seat in SEATS:
            known_hand = self._sides[seat].hand
            if self.round and all(c is not None for c in known_hand) and (
                    sorted(c for c in known_hand if c is not None) != sorted(hands[seat])):
                raise RulesError(f"the hand dealt to {seat} is not the cards {seat} gathered")
        deal = Deal(t, round_number, {
            seat: TableauView(layouts[seat].columns, layouts[seat].spit, tuple(rows[seat][1]))
            for seat in SEATS})
        self.apply(deal)
        for seat in SEATS:
            downs, _, spit = rows[seat]
            side = self._sides[seat]
            for column, down in zip(side.columns, downs, strict=True):
                column.down = list(down)
            side.spit = list(spit)
            for card in [c for d in downs for c in d] + spit:
                if card is not None:
                    self._known[card] = seat
        return deal

    # -- helpers
    def _check_round(self, event: Event) -> None:
        if self.round == 0:
            raise RulesError("no deal has been seen yet")
        if event.round != self.round:
            raise RulesError(f"it is marked round {event.round} but round {self.round} is being played")

    def _column(self, seat: Seat, column: int) -> _Column:
        columns = self._sides[seat].columns
        if not 1 <= column <= len(columns):
            raise RulesError(f"{seat} has no column {column}: {len(columns)} column(s) were dealt")
        return columns[column - 1]

    def _check_new(self, card: Card | None, seat: Seat) -> None:
        """A card comes into view from ``seat``'s hidden cards: it must not be elsewhere."""
        if card is None:
            return
        where = self._known.get(card)
        if where is None or where == seat:
            return
        if where == "table":
            raise RulesError(f"{card.code} is already face up on the table")
        raise RulesError(f"{card.code} is among {where}'s cards, not {seat}'s")

    def _need_phase(self, *phases: str) -> None:
        if self.phase in phases:
            return
        why = {
            WAITING_DEAL: "the cards have not been dealt",
            WAITING_SPIT: "play has not started: nobody has spat yet",
            PLAYING: "play is still on",
            ROUND_OVER: "the round is over",
            TAKING: "the round is over and the piles are being taken",
            SUMMARY: "the round is over and its summary is due",
            GAME_END_DUE: "the game is over and its end is due",
            GAME_OVER: "the game is over",
        }[self.phase]
        raise RulesError(why)

    def stuck_winner(self) -> Seat:
        """Who wins a round stuck with no spit cards, under the settings' stuck rule."""
        if self.settings.stuck_rule == "fewer_cards_wins":
            a, b = self.tableau_count("A"), self.tableau_count("B")
            if a != b:
                return "A" if a < b else "B"
        return self.last_to_pile or self.previous_round_winner or "A"

    def _explain_not_stalled(self) -> str:
        for seat in SEATS:
            pending = self.pending_reveals(seat)
            if pending:
                return f"column {pending[0]} of {seat} still has a card to turn up"
        option = self.open_option()
        return option.describe() if option is not None else "play is still open"

    # -- one handler per event type
    def _deal(self, e: Deal) -> None:
        self._need_phase(WAITING_DEAL)
        if set(e.players) != set(SEATS):
            raise RulesError("a deal needs tableaux for both A and B")
        if self.round == 0:
            counts = {seat: cards_in_view(e.players[seat]) for seat in SEATS}
            if sum(counts.values()) != 52:
                raise RulesError(f"the deal holds {sum(counts.values())} cards, not 52")
            if e.round == 1 and counts != {"A": FIRST_ROUND_CARDS, "B": FIRST_ROUND_CARDS}:
                raise RulesError("the first round deals 26 cards to each player")
        else:
            if e.round != self.round + 1:
                raise RulesError(f"round {self.round + 1} is next, not round {e.round}")
            counts = {seat: len(self._sides[seat].hand) for seat in SEATS}
        seen_here: set[Card] = set()
        for seat in SEATS:
            view = e.players[seat]
            want = layout_for(counts[seat])
            if (view.columns, view.spit) != (want.columns, want.spit):
                raise RulesError(
                    f"{seat} holds {counts[seat]} cards, so deals {want.columns} column(s) and "
                    f"{want.spit} spit card(s), not {view.columns} and {view.spit}")
            if len(view.up) != view.columns:
                raise RulesError(f"{seat} shows {len(view.up)} up cards for {view.columns} columns")
            for card in view.up:
                if card is None:
                    continue
                if card in seen_here:
                    raise RulesError(f"{card.code} is shown twice")
                seen_here.add(card)
                self._check_new(card, seat)
            known_up = [c for c in view.up if c is not None]
            hand = self._sides[seat].hand
            if self.round and all(c is not None for c in hand):
                missing = [c.code for c in known_up if c not in hand]
                if missing:
                    raise RulesError(f"{seat} shows {', '.join(missing)}, which {seat} did not gather")
        # Valid: lay the tableaux.
        for seat in SEATS:
            view = e.players[seat]
            side = _Side()
            side.columns = [_Column([None] * i, card, True) for i, card in enumerate(view.up)]
            side.spit = [None] * view.spit
            self._sides[seat] = side
            for card in view.up:
                if card is not None:
                    self._known[card] = "table"
        self._piles = {"left": [], "right": []}
        self.round = e.round
        self.phase = WAITING_SPIT
        self.one_pile = any(e.players[seat].spit == 0 for seat in SEATS)
        self.lone_pile = None
        self.last_to_pile = None
        self.round_winner = None
        self.slaps = []
        self.taken_by = {}
        self.stalls = 0
        self._covered = {}
        self._round_ended_at = None

    def _spit(self, e: Spit) -> None:
        if self.phase == PLAYING and not self.is_stalled():
            raise RulesError(f"nobody is stalled: {self._explain_not_stalled()}")
        self._need_phase(WAITING_SPIT, PLAYING)
        spitters = [seat for seat in SEATS if self._sides[seat].spit]
        if not spitters:
            raise RulesError("nobody has spit cards left")
        if len(spitters) == 2:
            feeders = self.spit_feeders()
            if set(e.cards) != set(PILES):
                raise RulesError("both players have spit cards, so both centre piles get one")
        else:
            seat = spitters[0]
            if len(e.cards) != 1:
                raise RulesError(f"only {seat} has spit cards, so only one card is spat")
            pile = next(iter(e.cards))
            if self.lone_pile is not None and pile != self.lone_pile:
                raise RulesError(f"{seat} spits alone onto the {self.lone_pile} pile, "
                                 f"as chosen earlier this round, not onto {pile}")
            feeders = {pile: seat}
        cards: dict[Pile, Card | None] = {}
        for pile, seat in feeders.items():
            shown = e.cards[pile]
            hidden = self._sides[seat].spit[-1]
            if shown is not None and hidden is not None and shown != hidden:
                raise RulesError(f"{seat}'s next spit card is {hidden.code}, not {shown.code}")
            card = shown if shown is not None else hidden
            self._check_new(card, seat)
            cards[pile] = card
        known = [c for c in cards.values() if c is not None]
        if len(set(known)) != len(known):
            raise RulesError("the same card cannot be spat onto both piles")
        for pile, seat in feeders.items():
            self._sides[seat].spit.pop()
            card = cards[pile]
            self._piles[pile].append(card)
            self._covered[pile] = (e.t, None)
            if card is not None:
                self._known[card] = "table"
        if len(feeders) == 1:
            self.lone_pile = next(iter(feeders))
            self.last_to_pile = next(iter(feeders.values()))
        self.phase = PLAYING

    def _shown_card(self, seat: Seat, col: _Column, column: int, card: Card | None) -> Card | None:
        if col.up is not None and card is not None and col.up != card:
            raise RulesError(f"{seat}'s column {column} shows {col.up.code}, not {card.code}")
        if col.up is None and card is not None:
            self._check_new(card, seat)
        return card if card is not None else col.up

    def _face_up(self, seat: Seat, column: int) -> _Column:
        col = self._column(seat, column)
        if col.pending:
            raise RulesError(f"{seat}'s column {column} has a face-down card that was never turned up")
        if col.empty:
            raise RulesError(f"{seat}'s column {column} is empty")
        return col

    def _just_after_round_end(self, t: float, player: Seat) -> bool:
        """Within ``collision_window`` after the round ended, before any pile was taken,
        the other player's card still lands: the two were as good as simultaneous."""
        ended = self._round_ended_at
        return (ended is not None and self.phase in (ROUND_OVER, TAKING, GAME_END_DUE)
                and not self.taken_by and player != self.round_winner
                and 0 <= t - ended <= self.settings.collision_window)

    def _play(self, e: Play) -> None:
        late = self._just_after_round_end(e.t, e.player)
        if not late:
            self._need_phase(PLAYING)
        col = self._face_up(e.player, e.column)
        card = self._shown_card(e.player, col, e.column, e.card)
        pile = self._piles[e.pile]
        if not pile:
            raise RulesError(f"the {e.pile} pile is not in use this round")
        top = pile[-1]
        if card is not None and top is not None and not card.fits_on(top):
            raise RulesError(f"{card.code} is not one rank from the top card {top.code} of the {e.pile} pile")
        pile.append(card)
        col.up = None
        col.face_up = False
        if card is not None:
            self._known[card] = "table"
        self.last_to_pile = e.player
        self._covered[e.pile] = (e.t, e.player)
        if not late and all(c.empty for c in self._sides[e.player].columns):
            self.phase = ROUND_OVER
            self.round_winner = e.player
            self._round_ended_at = e.t

    def _reveal(self, e: Reveal) -> None:
        self._need_phase(PLAYING, ROUND_OVER, TAKING, GAME_END_DUE)
        col = self._column(e.player, e.column)
        if not col.pending:
            state = (f"already shows {_code(col.up)}" if col.face_up else "is empty")
            raise RulesError(f"{e.player}'s column {e.column} {state}; there is nothing to turn up")
        hidden = col.down[-1]
        if hidden is not None and e.card is not None and hidden != e.card:
            raise RulesError(f"the face-down card of {e.player}'s column {e.column} is {hidden.code}, "
                             f"not {e.card.code}")
        card = e.card if e.card is not None else hidden
        self._check_new(card, e.player)
        col.down.pop()
        col.up = card
        col.face_up = True
        if card is not None:
            self._known[card] = "table"

    def _move(self, e: Move) -> None:
        self._need_phase(PLAYING)
        if e.from_column == e.to_column:
            raise RulesError("a card cannot move into its own column")
        source = self._face_up(e.player, e.from_column)
        target = self._column(e.player, e.to_column)
        if not target.empty:
            raise RulesError(f"{e.player}'s column {e.to_column} is not empty; "
                             "cards move only into an empty column")
        card = self._shown_card(e.player, source, e.from_column, e.card)
        target.up = card
        target.face_up = True
        source.up = None
        source.face_up = False
        if card is not None:
            self._known[card] = "table"

    def _takeback(self, e: Takeback) -> None:
        self._need_phase(PLAYING, ROUND_OVER, TAKING, GAME_END_DUE)
        if e.card is None:
            return
        columns = self._sides[e.player].columns
        shows = [col.up for col in columns if col.face_up]
        if e.card not in shows and None not in shows:
            raise RulesError(f"{e.player} shows no {e.card.code} to take back")

    def _illegal(self, e: Illegal) -> None:
        self._need_phase(WAITING_SPIT, PLAYING, ROUND_OVER, TAKING)

    def _stall(self, e: Stall) -> None:
        self._need_phase(PLAYING)
        if not self.is_stalled():
            raise RulesError(f"play is not stuck: {self._explain_not_stalled()}")
        self.stalls += 1

    def _round_end(self, e: RoundEnd) -> None:
        if self.phase == PLAYING:
            if not self.is_stalled():
                raise RulesError(f"no tableau is empty and play is not stuck: {self._explain_not_stalled()}")
            if any(self._sides[seat].spit for seat in SEATS):
                raise RulesError("no tableau is empty and there are spit cards left to spit")
            winner = self.stuck_winner()
            if e.winner != winner:
                raise RulesError(f"play is stuck with no spit cards, and under the "
                                 f"{self.settings.stuck_rule} rule {winner} wins the round, not {e.winner}")
            self.round_winner = winner
            self._round_ended_at = e.t
        else:
            self._need_phase(ROUND_OVER)
            if e.winner != self.round_winner:
                raise RulesError(f"{self.round_winner} emptied their tableau first, not {e.winner}")
        side = self._sides[e.winner]
        if side.tableau_count() == 0 and not side.spit:
            self.phase = GAME_END_DUE
            self.outcome = Outcome(e.winner, "no_cards")
        else:
            self.phase = TAKING

    def _take(self, e: Take) -> None:
        self._need_phase(TAKING)
        allowed = self.allowed_takes()
        if (e.player, e.pile) not in allowed:
            raise RulesError(self._explain_take(e, allowed))
        pile = self._piles[e.pile]
        if e.cards != len(pile):
            raise RulesError(f"the {e.pile} pile holds {len(pile)} cards, not {e.cards}")
        side = self._sides[e.player]
        side.taken.extend(pile)
        for card in pile:
            if card is not None:
                self._known[card] = e.player
        self._piles[e.pile] = []
        self.taken_by[e.pile] = e.player
        if not any(self._piles.values()):
            self.phase = SUMMARY

    def _explain_take(self, e: Take, allowed: list[tuple[Seat, Pile]]) -> str:
        if not self._piles[e.pile]:
            return f"the {e.pile} pile is empty or already taken"
        if self.one_pile:
            return (f"with one centre pile the round winner {self.round_winner} takes nothing; "
                    f"{other_seat(self.round_winner or 'A')} takes the pile")
        takers = sorted({seat for seat, _ in allowed})
        piles = sorted({pile for _, pile in allowed})
        if e.player not in takers:
            return f"{' or '.join(takers)} takes a pile first, not {e.player}"
        return f"{e.player} takes the {' or '.join(piles)} pile, not {e.pile}"

    def _round_summary(self, e: RoundSummary) -> None:
        self._need_phase(SUMMARY)
        counts = {seat: self._sides[seat].total() for seat in SEATS}
        if dict(e.cards) != counts:
            raise RulesError(f"A holds {counts['A']} cards and B holds {counts['B']}, "
                             f"not {e.cards.get('A')} and {e.cards.get('B')}")
        for seat in SEATS:
            side = self._sides[seat]
            hand = [c for col in side.columns for c in col.down]
            hand += [col.up for col in side.columns if col.face_up]
            hand += side.spit + side.taken
            for card in hand:
                if card is not None:
                    self._known[card] = seat
            gathered = _Side()
            gathered.hand = hand
            self._sides[seat] = gathered
        self.previous_round_winner = self.round_winner
        limit = self.settings.round_limit
        if limit is not None and self.round >= limit:
            a, b = counts["A"], counts["B"]
            winner: Seat = ("A" if a < b else "B") if a != b else (self.round_winner or "A")
            self.outcome = Outcome(winner, "round_limit")
            self.phase = GAME_END_DUE
        else:
            self.phase = WAITING_DEAL

    def _game_end(self, e: GameEnd) -> None:
        self._need_phase(GAME_END_DUE)
        assert self.outcome is not None
        if e.winner != self.outcome.winner:
            raise RulesError(f"{self.outcome.winner} won the game, not {e.winner}")
        self.phase = GAME_OVER

    def _button(self, e: Button) -> None:
        if self.round and e.round not in (self.round, self.round + 1):
            raise RulesError(f"it is marked round {e.round} but round {self.round} is being played")
        if e.button == "slap" and e.player is not None and self.round_winner is not None \
                and e.player not in self.slaps:
            self.slaps.append(e.player)


def cards_in_view(view: TableauView) -> int:
    """The number of cards a dealt tableau view holds."""
    return view.columns * (view.columns + 1) // 2 + view.spit


_HANDLERS: Final[dict[type, Any]] = {
    Deal: Game._deal, Spit: Game._spit, Play: Game._play, Reveal: Game._reveal,
    Move: Game._move, Takeback: Game._takeback, Illegal: Game._illegal, Stall: Game._stall,
    RoundEnd: Game._round_end, Take: Game._take, RoundSummary: Game._round_summary,
    GameEnd: Game._game_end, Button: Game._button,
}
