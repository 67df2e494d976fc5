"""The table as the referee keeps it: tableaux, spit counts and exact centre piles.

A small pure model (no clock, no I/O) that the referee updates from table events
and asks the questions a referee needs: which moves are still open, is the game
stuck, how many cards lie where.  Centre piles are kept as the list of cards on
them, so the count a player takes is exact and a takeback can be undone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablecam.cards import Card, Rank
from tablecam.events import PILES, SEATS, Pile, Seat
from tablecam.rules.game import Layout, layout_for


def deal_for(cards: int) -> Layout:
    """How a player with ``cards`` cards deals (``rules.layout_for``): the most whole
    columns, at most 5, and the rest spit cards; a count drifted outside 0..52 is held to
    those bounds rather than refused."""
    return layout_for(min(max(cards, 0), 52))


def columns_for(cards: int) -> int:
    """Columns a player lays with ``cards`` cards: the most whole columns, at most 5."""
    return deal_for(cards).columns


@dataclass(slots=True)
class Column:
    """One tableau column: face-down cards under one face-up top (None when unknown)."""

    down: int
    up: Card | None = None
    has_up: bool = False
    awaiting_reveal: bool = False

    @property
    def cards(self) -> int:
        return self.down + (1 if self.has_up else 0)

    @property
    def is_empty(self) -> bool:
        return self.cards == 0


@dataclass(slots=True)
class Side:
    """Everything on one player's side of the table."""

    columns: list[Column] = field(default_factory=list)
    spit: int = 0

    @property
    def tableau_cards(self) -> int:
        return sum(c.cards for c in self.columns)

    @property
    def total(self) -> int:
        return self.tableau_cards + self.spit


@dataclass(frozen=True, slots=True)
class OpenMove:
    """A move still open to a player, worded for announcing."""

    player: Seat
    kind: str  # "play", "move" or "reveal"
    card: Card | None
    column: int
    pile: Pile | None = None
    to_column: int | None = None

    def describe(self) -> str:
        who = f"player {self.player}"
        card = self.card.code if self.card is not None else "a card"
        if self.kind == "play":
            return f"{who} can play {card} from column {self.column} on the {self.pile} pile"
        if self.kind == "move":
            return f"{who} can move {card} from column {self.column} into empty column {self.to_column}"
        return f"{who} still has to turn up the card in column {self.column}"


class TableModel:
    """Tableaux, spit counts and centre piles of the current round."""

    def __init__(self) -> None:
        self.sides: dict[Seat, Side] = {s: Side() for s in SEATS}
        self.piles: dict[Pile, list[Card | None]] = {p: [] for p in PILES}
        #: the rank of a centre pile's top whose card is not known, where the camera is
        #: sure of it (kept up to date by the referee, frame by frame): plays onto it
        #: are judged by rank
        self.top_ranks: dict[Pile, Rank] = {}

    def deal(self, counts: dict[Seat, int], up: dict[Seat, tuple[Card | None, ...]]) -> None:
        """Lay both tableaux as seen (``up``: one top card per column); the rest of each
        player's ``counts`` cards is their spit pile."""
        self.piles = {p: [] for p in PILES}
        self.top_ranks = {}
        for seat in SEATS:
            cols = [Column(down=i, up=card, has_up=True) for i, card in enumerate(up[seat])]
            laid = sum(c.cards for c in cols)
            self.sides[seat] = Side(cols, max(0, counts[seat] - laid))

    def top(self, pile: Pile) -> Card | None:
        cards = self.piles[pile]
        return cards[-1] if cards else None

    def may_play(self, card: Card | None, pile: Pile) -> bool:
        """May ``card`` (None: a face that could not be read) go onto ``pile``'s top?
        A top whose card is not known takes any card, unless its rank is
        (``top_ranks``)."""
        top = self.top(pile)
        if card is None:
            return True
        if top is None:
            rank = self.top_ranks.get(pile)
            return rank is None or card.rank.is_next_to(rank)
        return card.fits_on(top)

    def column(self, seat: Seat, column: int) -> Column | None:
        cols = self.sides[seat].columns
        return cols[column - 1] if 1 <= column <= len(cols) else None

    def find_top(self, seat: Seat, card: Card) -> int | None:
        """The column whose face-up top is ``card``, or None."""
        for i, col in enumerate(self.sides[seat].columns, start=1):
            if col.has_up and col.up == card:
                return i
        return None

    def remove_top(self, seat: Seat, column: int) -> None:
        """The face-up top of a column left it; a face-down card under it awaits its reveal."""
        col = self.column(seat, column)
        if col is None or not col.has_up:
            return
        col.has_up = False
        col.up = None
        col.awaiting_reveal = col.down > 0

    def reveal(self, seat: Seat, column: int, card: Card | None) -> None:
        col = self.column(seat, column)
        if col is None:
            return
        if col.down > 0:
            # With a top still shown, that top left unseen: the count still drops by one.
            col.down -= 1
        col.up = card
        col.has_up = True
        col.awaiting_reveal = False

    def put_on_column(self, seat: Seat, column: int, card: Card | None) -> None:
        """A card goes (back) onto a column as its face-up top."""
        col = self.column(seat, column)
        if col is None:
            return
        if col.has_up:  # an illegal stack: keep the count, the new card is on top
            col.down += 1
        col.up = card
        col.has_up = True
        col.awaiting_reveal = False

    def fed_piles(self) -> list[Pile]:
        return [p for p in PILES if self.piles[p]]

    def open_moves(self) -> list[OpenMove]:
        """Every move that keeps the game going: plays, pending reveals, useful empty-column moves.

        A face-up card that could not be read counts as a possible play, so the
        referee never calls a stall it cannot be sure of.
        """
        moves: list[OpenMove] = []
        for seat in SEATS:
            cols = self.sides[seat].columns
            for i, col in enumerate(cols, start=1):
                if col.awaiting_reveal:
                    moves.append(OpenMove(seat, "reveal", None, i))
                if not col.has_up:
                    continue
                for pile in self.fed_piles():
                    if self.may_play(col.up, pile):
                        moves.append(OpenMove(seat, "play", col.up, i, pile))
            empties = [i for i, c in enumerate(cols, start=1) if c.is_empty and not c.awaiting_reveal]
            if empties:
                for i, col in enumerate(cols, start=1):
                    if col.has_up and col.down > 0:
                        moves.append(OpenMove(seat, "move", col.up, i, to_column=empties[0]))
        return moves

    def is_stuck(self) -> bool:
        """No play, reveal or useful empty-column move is open to anyone (piles must be fed)."""
        return bool(self.fed_piles()) and not self.open_moves()

    def snapshot(self) -> dict[str, object]:
        """The visible table as plain data, for the dashboard and the game log."""
        return {
            "players": {
                seat: {
                    "spit": side.spit,
                    "tableau": side.tableau_cards,
                    "columns": [
                        {"down": c.down, "up": _code(c.up) if c.has_up else None}
                        for c in side.columns
                    ],
                }
                for seat, side in self.sides.items()
            },
            "piles": {
                pile: {"top": _code(self.top(pile)), "cards": len(cards)}
                for pile, cards in self.piles.items()
            },
        }


def _code(card: Card | None) -> str | None:
    return None if card is None else card.code
