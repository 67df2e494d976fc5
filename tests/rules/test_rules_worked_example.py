"""The five checks at the end of RULES.md, against the Portuguese seed's worked example.

"You" are player A (spitting onto the right pile), Ada is player B.
"""

from __future__ import annotations

import pytest

from tablecam.cards import FULL_DECK, Card, Rank
from tablecam.errors import RulesError
from tablecam.events import (
    Button,
    Deal,
    Event,
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
)
from tablecam.rules import Game, Layout, MoveOption, Settings, layout_for


def c(code: str) -> Card:
    return Card.parse(code)


def hand_in_dealing_order(ups: list[str], downs: list[list[str]], spit: list[str]) -> list[Card]:
    """Cards in the order Game.deal_known lays them (row by row), then the spit pile, top first."""
    columns = len(ups)
    order: list[Card] = []
    for row in range(columns):
        order.append(c(ups[row]))
        for col in range(row + 1, columns):
            order.append(c(downs[col][row]))
    return order + [c(code) for code in spit]


def example_game() -> Game:
    """The worked example's deal and spit, with every card known (filler cards where the seed is silent)."""
    used = {"7C", "QD", "3S", "9H", "2D", "KS", "5H", "10C", "8D", "4C", "8S", "JH",
            "JC", "10S", "5C", "2H", "6C"}
    filler = iter(card.code for card in FULL_DECK if card.code not in used)

    def fill(n: int) -> list[str]:
        return [next(filler) for _ in range(n)]

    # Your columns: 7C | QD over JC | 3S over 2 | 9H over 10S (top) and 5C under it | 2D over 4.
    a_downs = [[], ["JC"], fill(2), [*fill(1), "5C", "10S"], fill(4)]
    # Ada: K♠ 5♥ 10♣ 8♦ 4♣; what lies under her 10♣ and 8♦ fits neither ten.
    b_downs = [[], fill(1), [*fill(1), "2H"], [*fill(2), "6C"], fill(4)]
    hand_a = hand_in_dealing_order(["7C", "QD", "3S", "9H", "2D"], a_downs, ["8S", *fill(10)])
    hand_b = hand_in_dealing_order(["KS", "5H", "10C", "8D", "4C"], b_downs, ["JH", *fill(10)])
    game = Game()
    game.deal_known(3.0, 1, {"A": hand_a, "B": hand_b})
    game.apply(Spit(4.0, 1, {"right": c("8S"), "left": c("JH")}))
    return game


def plays_of(game: Game, seat: Seat) -> set[tuple[str, Pile]]:
    return {(p.card.code, p.pile) for p in game.legal_plays(seat)}


def test_check_1_after_the_deal_each_player_shows_five_cards_and_has_eleven_spit_cards() -> None:
    game = Game()
    game.deal_known(3.0, 1, {"A": list(FULL_DECK[:26]), "B": list(FULL_DECK[26:])})
    for seat in ("A", "B"):
        columns = game.columns(seat)
        assert len(columns) == 5
        assert all(col.face_up and col.up is not None for col in columns)
        assert [col.down for col in columns] == [0, 1, 2, 3, 4]
        assert game.spit_count(seat) == 11
    assert layout_for(26) == Layout(5, 11)


def test_check_2_which_cards_fit_on_the_spit_cards() -> None:
    game = example_game()
    assert {("7C", "right"), ("9H", "right"), ("QD", "left")} <= plays_of(game, "A")
    assert ("10C", "left") in plays_of(game, "B")
    assert ("3S", "right") not in plays_of(game, "A")


def play_to_the_empty_column_position(game: Game) -> None:
    game.apply(Play(5.0, 1, "A", c("7C"), "right", 1))
    game.apply(Play(5.5, 1, "B", c("8D"), "right", 4))
    game.apply(Play(6.0, 1, "A", c("9H"), "right", 4))
    game.apply(Reveal(6.5, 1, "A", 4, c("10S")))
    game.apply(Reveal(6.6, 1, "B", 4, c("6C")))
    game.apply(Play(6.8, 1, "B", c("10C"), "left", 3))
    game.apply(Reveal(7.2, 1, "B", 3, c("2H")))
    game.apply(Play(7.5, 1, "A", c("10S"), "right", 4))
    game.apply(Reveal(8.0, 1, "A", 4, c("5C")))


def test_check_3_moving_into_the_empty_column_exposes_a_card_that_plays() -> None:
    game = example_game()
    game.apply(Play(5.0, 1, "A", c("7C"), "right", 1))
    assert game.column("A", 1).empty
    game = example_game()
    play_to_the_empty_column_position(game)
    game.apply(Move(9.0, 1, "A", c("QD"), 2, 1))
    assert game.pending_reveals("A") == [2]
    game.apply(Reveal(9.5, 1, "A", 2, None))  # the state knows it is JC
    assert game.column("A", 2).up == c("JC")
    assert ("JC", "right") in plays_of(game, "A")
    game.apply(Play(10.0, 1, "A", c("JC"), "right", 2))
    game.apply(Play(10.5, 1, "A", c("QD"), "right", 1))
    assert game.pile_top("right") == c("QD")


def test_check_4_no_play_onto_a_pile_but_not_stalled_while_the_empty_column_helps() -> None:
    game = example_game()
    play_to_the_empty_column_position(game)
    assert (game.pile_top("right"), game.pile_top("left")) == (c("10S"), c("10C"))
    assert [col.up.code for col in game.columns("A") if col.up] == ["QD", "3S", "5C", "2D"]
    assert game.legal_plays() == []
    assert not game.is_stalled()
    option = game.open_option()
    assert option == MoveOption("A", 2, 1, c("QD"), True)
    assert "exposing a face-down card" in option.describe()


def test_a_card_waiting_to_be_turned_up_keeps_play_open() -> None:
    # A round met part-way (round 3): A holds 3 cards (columns of 1 and 2), B the rest.
    game = Game()
    game.apply(Deal(1.0, 3, {"A": TableauView(2, 0, (c("5H"), c("9C"))),
                             "B": TableauView(5, 34, (c("KD"), c("KH"), c("KS"), c("KC"), c("QC")))}))
    game.apply(Spit(2.0, 3, {"left": c("4D")}))  # B spits alone: one centre pile
    game.apply(Play(3.0, 3, "A", c("5H"), "left", 1))
    game.apply(Move(4.0, 3, "A", c("9C"), 2, 1))
    assert game.legal_plays() == [] and not game.is_stalled()  # the reveal is due
    game.apply(Reveal(4.5, 3, "A", 2, c("2C")))
    assert game.is_stalled()
    with pytest.raises(RulesError, match="the right pile is not in use"):
        game.apply(Play(6.0, 3, "A", c("2C"), "right", 2))


def test_a_move_that_exposes_nothing_does_not_prevent_a_stall() -> None:
    game = Game()
    game.apply(Deal(1.0, 3, {"A": TableauView(2, 0, (c("5H"), c("4C"))),
                             "B": TableauView(5, 34, (c("KD"), c("KH"), c("KS"), c("KC"), c("QC")))}))
    game.apply(Spit(2.0, 3, {"left": c("6D")}))
    game.apply(Play(3.0, 3, "A", c("5H"), "left", 1))
    game.apply(Play(3.5, 3, "A", c("4C"), "left", 2))
    game.apply(Reveal(4.0, 3, "A", 2, c("9S")))
    assert game.legal_moves("A") == [MoveOption("A", 2, 1, c("9S"), False)]
    assert game.is_stalled() and game.open_option() is None
    game.apply(Move(4.5, 3, "A", c("9S"), 2, 1))  # legal, though it exposes nothing
    assert game.is_stalled()


def rank_chain(start: Rank, length: int, pool: dict[int, list[Card]]) -> list[Card]:
    """``length`` cards of consecutive ranks from ``start`` (wrapping K to A), each of an unused suit."""
    return [pool[(start.value - 1 + i) % 13].pop() for i in range(length)]


def test_check_5_winning_with_seven_spit_cards_and_taking_six_gives_a_four_column_tableau() -> None:
    pool: dict[int, list[Card]] = {r: [card for card in FULL_DECK if card.rank.value - 1 == r]
                                   for r in range(13)}
    right = rank_chain(Rank.ACE, 19, pool)   # A's spit card, then B's 3 plays, then A's 15
    left = rank_chain(Rank.SEVEN, 6, pool)   # B's spit card, then B's 5 plays
    spare = [pool[r].pop() for r in (10, 3)]  # B's untouched column-5 card and a last reveal
    a_cards = right[4:]
    b_plays = right[1:4] + left[1:]
    events: list[Event] = []
    t = iter(x / 4 for x in range(10, 1000))
    # Met at round 2: A holds 15 + 8 cards, B 15 + 14.
    events.append(Deal(next(t), 2, {
        "A": TableauView(5, 8, (a_cards[0], a_cards[1], a_cards[3], a_cards[6], a_cards[10])),
        "B": TableauView(5, 14, (b_plays[0], b_plays[1], b_plays[3], b_plays[6], spare[0])),
    }))
    events.append(Spit(next(t), 2, {"right": right[0], "left": left[0]}))

    def play_columns(seat: Seat, cards: list[Card], piles: list[Pile], columns: int) -> None:
        index = 0
        for column in range(1, columns + 1):
            for depth in range(column):
                card = cards[index]
                if depth:
                    events.append(Reveal(next(t), 2, seat, column, card))
                events.append(Play(next(t), 2, seat, card, piles[index], column))
                index += 1
                if index == len(cards):
                    return

    play_columns("B", b_plays, ["right"] * 3 + ["left"] * 5, 4)
    events.append(Reveal(next(t), 2, "B", 4, spare[1]))
    play_columns("A", a_cards, ["right"] * 15, 5)
    end = next(t)
    events += [RoundEnd(end, 2, "A"), Button(end + 0.3, 2, "slap", "A"),
               Take(end + 0.3, 2, "A", "left", 6), Take(end + 1.0, 2, "B", "right", 19),
               RoundSummary(end + 2.0, 2, {"A": 13, "B": 39})]
    game = Game()
    for event in events:
        game.apply(event)
        game.check_accounting()
    assert game.next_deal() == {"A": Layout(4, 3), "B": Layout(5, 24)}
    with pytest.raises(RulesError, match="A holds 13 cards, so deals 4 column"):
        game.apply(Deal(end + 5, 3, {
            "A": TableauView(5, 0, (None,) * 5), "B": TableauView(5, 24, (None,) * 5)}))
    game.apply(Deal(end + 5, 3, {
        "A": TableauView(4, 3, (None,) * 4), "B": TableauView(5, 24, (None,) * 5)}))
    assert game.spit_count("A") == 3 and game.spit_count("B") == 24


def test_a_pad_slap_claims_the_smaller_pile_or_either_when_equal() -> None:
    game = example_game()
    assert game.claimed_piles("A") == ["left", "right"]
    game.apply(Play(5.0, 1, "A", c("7C"), "right", 1))
    assert game.claimed_piles("B") == ["left"]
    assert Game(Settings(pad_claims="spit_side")).claimed_piles("B") == ["left"]


def test_a_lone_spitter_chooses_a_pile_once_and_keeps_to_it() -> None:
    # Met at round 3: A holds 17 cards (2 spit), B 35 (20 spit); nothing fits a 2 or a 5.
    game = Game()
    game.apply(Deal(1.0, 3, {
        "A": TableauView(5, 2, tuple(c(x) for x in ("7S", "7H", "7D", "7C", "8S"))),
        "B": TableauView(5, 20, tuple(c(x) for x in ("8H", "8D", "8C", "9S", "9H")))}))
    game.apply(Spit(2.0, 3, {"right": c("2C"), "left": c("2D")}))
    assert game.is_stalled()
    game.apply(Spit(3.0, 3, {"right": c("2H"), "left": c("2S")}))
    assert game.spit_count("A") == 0 and game.spit_feeders() == {"left": "B"}
    with pytest.raises(RulesError, match="only B has spit cards, so only one card is spat"):
        game.apply(Spit(4.0, 3, {"right": c("5C"), "left": c("5D")}))
    game.apply(Spit(4.0, 3, {"right": c("5C")}))        # B chooses A's side this time
    assert game.spit_feeders() == {"right": "B"} and game.is_stalled()
    with pytest.raises(RulesError, match="B spits alone onto the right pile, as chosen earlier"):
        game.apply(Spit(5.0, 3, {"left": c("5H")}))
    game.apply(Spit(5.0, 3, {"right": c("5H")}))
    assert (game.pile_size("left"), game.pile_size("right")) == (2, 4)


@pytest.mark.parametrize(("rule", "winner"), [("fewer_cards_wins", "A"), ("last_play_wins", "B")])
def test_a_round_stuck_with_no_spit_cards_is_decided_by_the_stuck_rule(rule: str, winner: str) -> None:
    # Met at round 3: A holds 15 cards (no spit: one centre pile), B 15 + 22 spit cards.
    game = Game(Settings(stuck_rule=rule))  # type: ignore[arg-type]
    game.apply(Deal(1.0, 3, {
        "A": TableauView(5, 0, tuple(c(x) for x in ("7C", "7D", "7H", "7S", "10C"))),
        "B": TableauView(5, 22, tuple(c(x) for x in ("9C", "9D", "9H", "9S", "10D")))}))
    quiet = [card for card in FULL_DECK if card.rank.code in ("A", "2", "3", "4", "5", "Q", "K")]
    spits = quiet[:4] + [c("6C")] + quiet[4:21]
    t = 2.0
    for number, card in enumerate(spits, start=1):
        if number > 1:
            game.apply(Stall(t, 3))
        game.apply(Spit(t + 0.5, 3, {"left": card}))
        t += 1.0
        if card == c("6C"):
            game.apply(Play(t, 3, "A", c("7C"), "left", 1))  # A puts a card down...
            assert not game.is_stalled()                      # ...and may fill column 1
            game.apply(Move(t + 0.2, 3, "A", c("7D"), 2, 1))
            game.apply(Reveal(t + 0.4, 3, "A", 2, c("10H")))
            t += 1.0
    assert game.is_stalled() and game.spit_feeders() == {}
    assert (game.tableau_count("A"), game.tableau_count("B"), game.last_to_pile) == (14, 15, "B")
    game.apply(Stall(t, 3))
    with pytest.raises(RulesError, match="nobody has spit cards left"):
        game.apply(Spit(t + 0.5, 3, {"left": c("QC")}))
    loser = "B" if winner == "A" else "A"
    with pytest.raises(RulesError, match=f"{winner} wins the round, not {loser}"):
        game.apply(RoundEnd(t + 1, 3, loser))  # type: ignore[arg-type]
    game.apply(RoundEnd(t + 1, 3, winner))  # type: ignore[arg-type]
    assert game.allowed_takes() == [(loser, "left")]  # one centre pile: the winner takes nothing
    game.apply(Take(t + 2, 3, loser, "left", 23))  # type: ignore[arg-type]
    held = {"A": 14 + (23 if loser == "A" else 0), "B": 15 + (23 if loser == "B" else 0)}
    game.apply(RoundSummary(t + 3, 3, held))  # type: ignore[arg-type]
    assert game.next_deal() == {seat: layout_for(held[seat]) for seat in ("A", "B")}
