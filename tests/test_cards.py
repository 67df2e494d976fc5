import pytest

from tablecam.cards import FULL_DECK, Card, Rank, Suit
from tablecam.errors import InvalidCardError


@pytest.mark.parametrize(
    ("text", "code"),
    [("10H", "10H"), ("th", "10H"), ("T♥", "10H"), ("q♠", "QS"), (" ac ", "AC"), ("K♦", "KD")],
)
def test_parse_accepts_the_interface_spellings(text: str, code: str) -> None:
    assert Card.parse(text).code == code


@pytest.mark.parametrize("text", ["", "1H", "11S", "10", "HX", "ZZ", "joker", "10HH"])
def test_parse_rejects_bad_codes_with_a_clear_error(text: str) -> None:
    with pytest.raises(InvalidCardError, match="card|rank|suit|joker"):
        Card.parse(text)


def test_codes_round_trip_for_the_whole_deck() -> None:
    assert len(set(FULL_DECK)) == 52
    for card in FULL_DECK:
        assert Card.parse(card.code) == card
        assert Card.from_index(card.index) == card
        assert eval(repr(card)) == card


@pytest.mark.parametrize(
    ("card", "top", "fits"),
    [("7C", "8S", True), ("9H", "8S", True), ("QD", "JH", True), ("AS", "KD", True),
     ("KS", "AD", True), ("2C", "AH", True), ("8C", "8S", False), ("5C", "8S", False),
     ("QD", "10C", False)],
)
def test_fits_on_uses_the_rank_wrap(card: str, top: str, fits: bool) -> None:
    assert Card.parse(card).fits_on(Card.parse(top)) is fits


def test_suit_and_rank_properties() -> None:
    assert Rank.ACE.is_next_to(Rank.KING)
    assert not Rank.ACE.is_next_to(Rank.QUEEN)
    assert Suit.HEARTS.is_red and not Suit.SPADES.is_red
    assert Suit.CLUBS.symbol == "♣"
