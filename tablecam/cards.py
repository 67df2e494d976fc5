"""Playing cards as small frozen values with one text form each.

The text form is the code of INTERFACE.md: rank ``A 2 3 4 5 6 7 8 9 10 J Q K``
followed by suit ``C D H S``.  The parser also accepts ``T`` for ten, lower case
and the suit symbols.  Jokers are not cards in Spit and are rejected.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from tablecam.errors import InvalidCardError


class Rank(IntEnum):
    """Card ranks; the value is the rank number with A = 1 and K = 13."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def code(self) -> str:
        return _RANK_CODES[self.value - 1]

    def is_next_to(self, other: Rank) -> bool:
        """True when the ranks are one apart, with A next to both 2 and K."""
        return (self.value - other.value) % 13 in (1, 12)


class Suit(IntEnum):
    """Suits in the order of their codes C D H S."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def code(self) -> str:
        return "CDHS"[self.value]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self.value]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_RANK_CODES: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_BY_CODE: Final = {code: Rank(i + 1) for i, code in enumerate(_RANK_CODES)} | {"T": Rank.TEN}
_SUIT_BY_CODE: Final = {
    "C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES,
    "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES,
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card.  ``Card.parse("10H").code == "10H"``."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card code such as ``10H``, ``th``, ``Q♠``; raise InvalidCardError."""
        if not isinstance(text, str):
            raise InvalidCardError(f"a card code must be text like '10H', not {text!r}")
        cleaned = text.strip().upper()
        if cleaned in ("JOKER", "JK", "X", "*"):
            raise InvalidCardError(f"{text!r} is a joker; Spit is played without jokers")
        if len(cleaned) < 2:
            raise InvalidCardError(
                f"{text!r} is not a card code: expected a rank (A 2-10 J Q K) then a suit (C D H S)"
            )
        rank_text, suit_text = cleaned[:-1], cleaned[-1]
        rank = _RANK_BY_CODE.get(rank_text)
        suit = _SUIT_BY_CODE.get(suit_text)
        if rank is None:
            raise InvalidCardError(f"{text!r} has no valid rank: use A, 2-10 (or T), J, Q or K")
        if suit is None:
            raise InvalidCardError(f"{text!r} has no valid suit: use C, D, H or S")
        return cls(rank, suit)

    @property
    def code(self) -> str:
        return self.rank.code + self.suit.code

    @property
    def index(self) -> int:
        """0..51, suit-major: AC=0 ... KC=12, AD=13, ... KS=51."""
        return self.suit.value * 13 + self.rank.value - 1

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise InvalidCardError(f"card index {index} is outside 0..51")
        return cls(Rank(index % 13 + 1), Suit(index // 13))

    def fits_on(self, top: Card) -> bool:
        """True when this card may go on a centre pile whose top card is ``top``."""
        return self.rank.is_next_to(top.rank)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


def parse_card(text: str) -> Card:
    """Parse one card code; see ``Card.parse``."""
    return Card.parse(text)


def parse_optional_card(value: object) -> Card | None:
    """Parse a JSON card value, where ``null`` means unknown or face down."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidCardError(f"a card must be a code like '10H' or null, not {value!r}")
    return Card.parse(value)


FULL_DECK: Final[tuple[Card, ...]] = tuple(Card.from_index(i) for i in range(52))
