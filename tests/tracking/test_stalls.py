"""A "Spit!" is called on time when the table is stuck, and never on a doubt."""

from __future__ import annotations

from tablecam.app import referee_readings
from tablecam.cards import Card
from tablecam.events import Stall
from tablecam.referee import Referee
from tablecam.referee.referee import Call, RefereeRules
from tablecam.tracking.synthetic import SyntheticReading, SyntheticZone

# Nothing fits 8H or 2S once the spit cards are down: the table is stuck.
STUCK = {"A1": "5C", "A2": "JD", "B1": "KH", "B2": "QS", "left": "empty", "right": "empty",
         "spitA": "down", "spitB": "down"}


def zone(value: str) -> SyntheticZone:
    """"7C" a named card, "?7C:0.3" an unnamed one with candidates, "down", "empty", "covered"."""
    if value in ("empty", "covered"):
        return SyntheticZone(value)
    if value == "down":
        return SyntheticZone("face_down")
    if value.startswith("?"):
        candidates = tuple((Card.parse(code), float(p)) for code, p in
                           (pair.split(":") for pair in value[1:].split(",")))
        return SyntheticZone("face_up", None, candidates[0][1], candidates)
    return SyntheticZone("face_up", Card.parse(value))


def stalls(frames: list[tuple[float, dict[str, str]]]) -> list[float]:
    readings = [SyntheticReading(t, {n: zone(v) for n, v in zones.items()}) for t, zones in frames]
    calls: list[Call]
    calls, _ = referee_readings(readings, [], Referee(RefereeRules(first_round_cards=5)))
    return [call.t for call in calls if isinstance(call.event, Stall)]


def covered_game(column_before_cover: str, cover_frames: int) -> list[tuple[float, dict[str, str]]]:
    """A deal, then B2 covered (a sleeve resting on it) while the spit cards land."""
    frames = [(i / 30, dict(STUCK, B2=column_before_cover)) for i in range(6)]
    frames += [(i / 30, dict(STUCK, B2="covered", left="8H", right="2S")) for i in range(6, 6 + cover_frames)]
    return frames


def test_a_column_left_covered_over_its_named_card_does_not_hold_back_the_spit_call() -> None:
    # A sleeve resting on a column whose card the reader named: every pile is in view,
    # so no card can reach one unseen, and that card fits no pile.  The stall is called
    # as soon as it would be with the column in plain view.
    in_view = stalls([(i / 30, dict(STUCK)) for i in range(6)]
                     + [(i / 30, dict(STUCK, left="8H", right="2S")) for i in range(6, 40)])
    assert len(in_view) == 1 and in_view[0] < 12 / 30
    assert stalls(covered_game("QS", 90)) == in_view
    # So does a column seen empty before the cover (no card left a column for it).
    assert stalls(covered_game("empty", 90)) == in_view


def test_a_hand_resting_by_a_spit_pile_does_not_hold_back_the_spit_call() -> None:
    # dev game 2048: A's hand rested over A's spit pile as the table stuck; spit cards
    # go down only after the call, and a card from a column would be in a hand already
    in_view = stalls([(i / 30, dict(STUCK)) for i in range(6)]
                     + [(i / 30, dict(STUCK, left="8H", right="2S")) for i in range(6, 40)])
    resting = stalls([(i / 30, dict(STUCK)) for i in range(6)]
                     + [(i / 30, dict(STUCK, left="8H", right="2S")) for i in range(6, 8)]
                     + [(i / 30, dict(STUCK, left="8H", right="2S", spitA="covered"))
                        for i in range(8, 40)])
    assert resting == in_view


def test_a_column_covered_over_a_card_the_reader_never_named_holds_the_call() -> None:
    # QS might be a card that fits: no "Spit!" rests on it until the camera shows it.
    assert stalls(covered_game("?QS:0.3,KS:0.2", 90)) == []


def test_an_unread_column_top_of_a_sure_rank_that_fits_no_pile_bears_the_spit_call() -> None:
    # The reader cannot tell 5C from 5S, but no five fits 8H or 2S: the table is stuck.
    frames = [(i / 30, dict(STUCK, A1="?5C:0.54,5S:0.46")) for i in range(6)]
    frames += [(i / 30, dict(STUCK, A1="?5C:0.54,5S:0.46", left="8H", right="2S")) for i in range(6, 30)]
    called = stalls(frames)
    assert len(called) == 1 and called[0] < 12 / 30
    # Unsure of the rank (a seven would fit 8H), it waits for the card to be named.
    unsure = [(t, dict(zones, A1="?5C:0.5,7C:0.45")) for t, zones in frames]
    assert stalls(unsure) == []
    # Unsure between two ranks that both fit neither pile (dev game 2008: a small 6C
    # read as 8C 0.75, 6C 0.21), it is stuck all the same.
    either = [(t, dict(zones, A1="?5C:0.75,4C:0.21,7D:0.02")) for t, zones in frames]
    called = stalls(either)
    assert len(called) == 1 and called[0] < 12 / 30
    # ... but not when what the likeliest faces leave unsaid could still fit.
    assert stalls([(t, dict(zones, A1="?5C:0.6,4C:0.3")) for t, zones in frames]) == []


def test_a_column_top_liked_best_bears_no_call_while_another_likely_rank_of_it_fits() -> None:
    # Dev game 2546: A4's 9H, never named, was liked as 8H 0.70, 10H 0.16 or 9H 0.14 on
    # piles of 3H and 10D; taken for 8H, it bore a "Spit!" 0.55 s before the table stuck.
    # Here A1, liked as 5C at the deal, might be a seven, which fits 8H: no call.
    def game(a1: str) -> list[tuple[float, dict[str, str]]]:
        frames = [(i / 30, dict(STUCK, A1=a1)) for i in range(6)]
        return frames + [(i / 30, dict(STUCK, A1=a1, left="8H", right="2S")) for i in range(6, 40)]

    assert stalls(game("?5C:0.7,4C:0.16,7C:0.14")) == []
    # The same doubt over a rank that fits no pile is no reason to wait.
    called = stalls(game("?5C:0.7,4C:0.16,10C:0.14"))
    assert len(called) == 1 and called[0] < 12 / 30


def test_a_collision_loser_still_in_its_hand_does_not_hold_back_the_spit_call() -> None:
    # A's 9C and B's 7D both go for 8H; 9C lands first, and 7D, which fits neither 9C
    # nor 2S, can only go back to B1.  A turns up 4S, and nothing fits: "Spit!" is
    # called while B still holds 7D, not once it is seen back in its column.
    deal = dict(STUCK, A2="9C", B1="7D")
    frames = [(i / 30, dict(deal)) for i in range(6)]
    frames += [(i / 30, dict(deal, left="8H", right="2S")) for i in range(6, 30)]
    frames += [(i / 30, dict(deal, left="covered", right="2S", A2="covered", B1="covered"))
               for i in range(30, 36)]
    frames += [(i / 30, dict(deal, left="9C", right="2S", A2="down", B1="covered")) for i in range(36, 42)]
    frames += [(i / 30, dict(deal, left="9C", right="2S", A2="4S", B1="empty")) for i in range(42, 60)]
    frames += [(i / 30, dict(deal, left="9C", right="2S", A2="4S")) for i in range(60, 80)]
    called = stalls(frames)
    assert len(called) == 1 and 42 / 30 < called[0] < 55 / 30
    # With 6S on the right pile, 7D in the hand may still be played there: no call.
    frames = [(t, dict(zones, right="6S") if zones.get("right") == "2S" else zones) for t, zones in frames]
    assert stalls(frames) == []


def test_a_card_laid_under_the_hands_just_before_the_slap_is_in_the_takes() -> None:
    # dev game 2048: B emptied the tableau; A's 3C, lifted from under A's hand over the
    # column, landed on the pile 0.09 s before B's slap, unseen; the piles were settled
    # at the slap with 3C still counted in A's column, and B took a card too few
    from tablecam.events import Take
    from tablecam.inputs import ButtonPress

    deal = dict(STUCK, A1="10C", B1="9C", B2="3D")
    step = 1 / 30
    frames: list[tuple[float, dict[str, str]]] = [(i * step, dict(deal)) for i in range(6)]
    table = dict(deal, left="8H", right="2S")
    frames += [(i * step, dict(table)) for i in range(6, 30)]

    def hand(zones: dict[str, str], start: int, cover: list[str], after: dict[str, str]) -> int:
        frames.extend((i * step, dict(zones, **{z: "covered" for z in cover}))
                      for i in range(start, start + 4))
        zones.update(after)
        frames.extend((i * step, dict(zones)) for i in range(start + 4, start + 12))
        return start + 12

    i = hand(table, 30, ["B1", "left"], {"B1": "empty", "left": "9C"})    # B: 9C on 8H
    i = hand(table, i, ["B2", "right"], {"B2": "down", "right": "3D"})   # B: 3D on 2S
    i = hand(table, i, ["B2"], {"B2": "4D"})                             # B turns 4D
    i = hand(table, i, ["B2", "right"], {"B2": "empty", "right": "4D"})  # B's last card
    # A's hand over A1 and the left pile: 10C goes onto 9C; B slaps meanwhile
    slap = (i + 9) * step
    frames += [(k * step, dict(table, A1="covered", left="covered")) for k in range(i, i + 14)]
    # A's hand leaves A1 empty; B's hands take the piles
    frames += [(k * step, dict(table, A1="empty", left="covered", right="covered"))
               for k in range(i + 14, i + 20)]
    frames += [(k * step, dict(table, A1="empty", left="empty", right="empty"))
               for k in range(i + 20, i + 40)]
    readings = [SyntheticReading(t, {n: zone(v) for n, v in zones.items()}) for t, zones in frames]
    calls, _ = referee_readings(readings, [ButtonPress(slap, "slap", "B")],
                                Referee(RefereeRules(first_round_cards=5)))
    takes = [call.event for call in calls if isinstance(call.event, Take)]
    assert sum(take.cards for take in takes) == 6  # 8H 9C 10C and 2S 3D 4D


def _played_unread(also_held: bool = False, unread: str = "?JH:0.24,JD:0.1,QH:0.07",
                   early: bool = False) -> list[tuple[float, dict[str, str]]]:
    """A lays 7H, named in A2, on 8H; the reader cannot name it on the pile (``unread``:
    it likes JH a little).  A2 then turns up 4S, and nothing fits 7H or 2S.  With
    ``also_held``, B lifts KH from B1 in the same moment (B1 shows empty) and puts it
    back later.  With ``early``, the pile shows the card while A2 is still covered."""
    deal = dict(STUCK, A2="7H")
    table = dict(deal, left="8H", right="2S")
    lifted = {"A2": "covered", "left": "covered"} | ({"B1": "covered"} if also_held else {})
    frames = [(i / 30, dict(deal)) for i in range(6)]
    frames += [(i / 30, dict(table)) for i in range(6, 30)]
    frames += [(i / 30, dict(table, **lifted)) for i in range(30, 36)]
    if early:
        frames += [(i / 30, dict(table, A2="covered", left=unread)) for i in range(36, 42)]
    frames += [(i / 30, dict(table, A2="down", left=unread, **({"B1": "empty"} if also_held else {})))
               for i in range(42 if early else 36, 48)]
    frames += [(i / 30, dict(table, A2="4S", left=unread)) for i in range(48, 90)]
    return frames


def test_a_card_named_in_its_column_and_laid_unread_as_the_one_card_in_a_hand_bears_the_call() -> None:
    # dev game 2065: A's 7D, named in A3, laid on the right pile and read there only as
    # JH 0.24; nothing else had left a column, so the pile's top could be no other
    # card, yet the "Spit!" waited a second for the players' press.
    called = stalls(_played_unread())
    assert len(called) == 1 and 48 / 30 < called[0] < 60 / 30
    # So it does when the reader likes another face best, short of all but naming it
    # (dev game 2064: 9C, the one card in a hand, read as 6S 0.55 on the pile) ...
    assert stalls(_played_unread(unread="?6H:0.6,7H:0.3")) == called
    # ... and when the pile shows it before its column is seen without it, the reader
    # listing it among its faint likes there (dev game 2040: B's 4S laid on 3S) ...
    assert stalls(_played_unread(unread="?8S:0.3,5D:0.2,7H:0.1", early=True)) == called
    # ... but not when it all but names another card there,
    assert stalls(_played_unread(unread="?JH:0.95,7H:0.03")) == []
    # nor with B's KH in a hand as well: the unread card might be either.
    assert stalls(_played_unread(also_held=True)) == []


def test_a_card_named_in_its_column_and_moved_unread_into_an_empty_one_bears_the_call() -> None:
    # dev game 2065: A's KC, named in A5, moved into the empty A1 and read there only
    # as JC 0.34, QC 0.14 or KC 0.13; the "Spit!" due waited for the players' press.
    deal = dict(STUCK, A1="9C", A2="KD")
    table = dict(deal, left="8H", right="2S")
    frames = [(i / 30, dict(deal)) for i in range(6)]
    frames += [(i / 30, dict(table)) for i in range(6, 30)]
    frames += [(i / 30, dict(table, A1="covered", left="covered")) for i in range(30, 36)]
    table.update(A1="empty", left="9C")
    frames += [(i / 30, dict(table)) for i in range(36, 50)]
    frames += [(i / 30, dict(table, A1="covered", A2="covered")) for i in range(50, 56)]
    table.update(A1="?JD:0.3,QD:0.2,KD:0.1", A2="down")
    frames += [(i / 30, dict(table)) for i in range(56, 66)]
    table.update(A2="4S")
    frames += [(i / 30, dict(table)) for i in range(66, 100)]
    called = stalls(frames)
    assert len(called) == 1 and 66 / 30 < called[0] < 78 / 30
