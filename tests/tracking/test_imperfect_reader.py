"""The tracker follows a game through a reader that often cannot name a card.

The real card reader leaves many face-up cards unnamed (``card`` None) while its
likeliest faces (``candidates``) usually include the card; the tracker narrows those
to the cards the game allows and never lets an unnamed read undo what it knows.
"""

from __future__ import annotations

from pathlib import Path

from tablecam.app import referee_readings
from tablecam.cards import Card
from tablecam.events import (
    Button,
    Deal,
    Illegal,
    Move,
    Play,
    Reveal,
    Spit,
    Stall,
    Takeback,
    read_events,
)
from tablecam.inputs import ButtonPress
from tablecam.referee import Referee
from tablecam.referee.referee import Call, RefereeRules
from tablecam.referee.scoring import score_game
from tablecam.tracking import Tracked, Tracker, Unsure
from tablecam.tracking.synthetic import Noise, SyntheticReading, SyntheticZone, synthetic_readings

GOLDEN = Path(__file__).parent.parent / "data" / "game-events.jsonl"


def c(code: str) -> Card:
    return Card.parse(code)


def zone(value: str) -> SyntheticZone:
    """"7C" a named card, "?7C:0.6,7S:0.3" an unnamed one with candidates, "?" one
    without, "down", "empty" or "covered"."""
    if value in ("empty", "covered"):
        return SyntheticZone(value)
    if value == "down":
        return SyntheticZone("face_down")
    if value.startswith("?"):
        pairs = [p.split(":") for p in value[1:].split(",") if p]
        candidates = tuple((c(code), float(p)) for code, p in pairs)
        return SyntheticZone("face_up", None, candidates[0][1] if candidates else 0.1, candidates)
    return SyntheticZone("face_up", c(value))


def run(tracker: Tracker, frames: list[tuple[float, dict[str, str]]],
        reread: tuple[str, ...] = ()) -> list[Tracked]:
    out: list[Tracked] = []
    for t, zones in frames:
        out += tracker.update(SyntheticReading(t, {n: zone(v) for n, v in zones.items()}, reread))
    return out


BASE = {"A1": "7C", "A2": "9D", "B1": "KH", "B2": "QS", "left": "8H", "right": "2S",
        "spitA": "down", "spitB": "down"}


def started(**changes: str) -> Tracker:
    tracker = Tracker(stable_frames=3)
    tracker.expected_columns = {"A": 2, "B": 2}
    out = run(tracker, [(i / 30, dict(BASE, **changes)) for i in range(4)])
    assert isinstance(out[0], Deal)
    tracker.spit_expected = False
    return tracker


def test_golden_game_through_a_reader_that_leaves_a_third_of_the_cards_unnamed() -> None:
    events = read_events(GOLDEN)
    presses = [ButtonPress(e.t, e.button, e.player) for e in events if isinstance(e, Button)]
    for seed in (1, 3):
        readings = synthetic_readings(events, noise=Noise(unread=0.3, drop=0.05), seed=seed)
        calls, _ = referee_readings(readings, presses)
        figures = score_game(events, [call.event for call in calls if call.event is not None]).summary()
        assert figures["plays_right_pct"] == 100.0 and figures["plays_extra"] == 0
        assert figures["round_winners_pct"] == figures["exact_takes_pct"] == 100.0
        assert figures["stalls_called"] == figures["stalls"] and figures["false_stalls"] == 0


def test_an_unnamed_read_of_a_known_card_with_no_hand_over_it_changes_nothing() -> None:
    tracker = started()
    frames = [(0.2 + i / 30, dict(BASE, A1="?", left="?QS:0.5,8H:0.2")) for i in range(30)]
    assert run(tracker, frames, reread=("left", "A1")) == []
    assert not tracker.busy


def test_an_unnamed_card_on_a_pile_is_the_one_possible_candidate() -> None:
    """9D landed on 8H unnamed: 9H is likelier to the reader but lies on the other pile."""
    tracker = started(right="9H")
    frames = [(0.2 + i / 30, dict(BASE, right="9H", A2="covered", left="covered")) for i in range(6)]
    frames += [(0.4 + i / 30, dict(BASE, right="9H", A2="down", left="?9H:0.6,9D:0.3,9C:0.05"))
               for i in range(8)]
    out = run(tracker, frames)
    plays = [e for e in out if isinstance(e, Play)]
    assert [(e.player, e.column, e.card, e.pile) for e in plays] == [("A", 2, c("9D"), "left")]


def test_an_unnamed_card_whose_candidates_leave_a_choice_stays_unknown() -> None:
    """A face-down card is turned up: any unseen card may be there, and the reader hesitates."""
    tracker = started()
    frames = [(0.2 + i / 30, dict(BASE, A2="down", left="9D")) for i in range(8)]
    frames += [(0.5 + i / 30, dict(BASE, A2="covered", left="9D")) for i in range(4)]
    frames += [(0.7 + i / 30, dict(BASE, A2="?5C:0.4,5S:0.35", left="9D")) for i in range(10)]
    out = run(tracker, frames)
    reveals = [e for e in out if isinstance(e, Reveal)]
    assert [(e.column, e.card) for e in reveals] == [(2, None)]


def test_a_pile_read_again_with_no_hand_over_it_has_no_new_card() -> None:
    """The reader re-reads a pile whose unnamed top it saw land; nothing landed."""
    tracker = started()
    frames = [(0.2 + i / 30, dict(BASE, A1="covered", left="covered")) for i in range(4)]
    frames += [(0.4 + i / 30, dict(BASE, A1="empty", left="?")) for i in range(12)]
    first = run(tracker, frames, reread=("left",))
    plays = [e for e in first if isinstance(e, Play)]
    assert [(e.player, e.column, e.card, e.pile) for e in plays] == [("A", 1, c("7C"), "left")]
    again = [(0.8 + i / 30, dict(BASE, A1="empty", left="?")) for i in range(20)]
    assert run(tracker, again, reread=("left",)) == []


def test_an_unnamed_top_moved_into_an_empty_column_is_a_move_once_named() -> None:
    """A's unnamed top of column 2 went into the emptied column 1 and was named there."""
    tracker = started(A2="?")
    frames = [(0.2 + i / 30, dict(BASE, A1="covered", A2="?", left="covered")) for i in range(4)]
    frames += [(0.4 + i / 30, dict(BASE, A1="empty", A2="?", left="7C")) for i in range(6)]
    frames += [(0.7 + i / 30, dict(BASE, A1="covered", A2="covered", left="7C")) for i in range(4)]
    frames += [(0.9 + i / 30, dict(BASE, A1="5D", A2="down", left="7C")) for i in range(8)]
    out = run(tracker, frames)
    assert not any(isinstance(e, Unsure) for e in out)
    moves = [e for e in out if isinstance(e, Move)]
    assert [(e.card, e.from_column, e.to_column) for e in moves] == [(c("5D"), 2, 1)]


def test_a_deal_is_seen_though_something_stays_over_one_column_between_rounds() -> None:
    tracker = started()
    tracker.spit_expected = True
    cleared = {name: "empty" for name in BASE} | {"A1": "covered"}
    run(tracker, [(0.2 + i / 30, cleared) for i in range(10)])
    assert tracker.waiting_for_deal
    dealt = dict(BASE, A1="6C", left="empty", right="empty")
    out = run(tracker, [(0.6 + i / 30, dealt) for i in range(30)])
    assert isinstance(out[0], Deal)


def test_a_named_card_landing_goes_to_the_unnamed_column_whose_reads_liked_it() -> None:
    """Two unnamed tops leave their columns; the one that lands, named, is the one
    whose column the reader had found likeliest to show it, not the first to leave."""
    tracker = Tracker(stable_frames=3)
    tracker.expected_columns = {"A": 2, "B": 2}
    base = dict(BASE, A1="?7C:0.5,7S:0.4", B1="?KH:0.5,KD:0.45")
    out = run(tracker, [(i / 30, base) for i in range(12)])
    assert isinstance(out[0], Deal) and out[0].players["A"].up == (None, c("9D"))
    tracker.spit_expected = False
    frames = [(0.4 + i / 30, dict(base, A1="covered", B1="covered")) for i in range(3)]
    frames += [(0.5 + i / 30, dict(base, A1="covered", B1="empty")) for i in range(4)]
    frames += [(0.65 + i / 30, dict(base, A1="empty", B1="empty", left="covered")) for i in range(4)]
    frames += [(0.8 + i / 30, dict(base, A1="empty", B1="empty", left="7C")) for i in range(6)]
    out = run(tracker, frames)
    plays = [e for e in out if isinstance(e, Play)]
    assert [(e.player, e.column, e.card, e.pile) for e in plays] == [("A", 1, c("7C"), "left")]


def test_a_card_that_can_only_have_gone_onto_one_pile_is_played_there_soon() -> None:
    """9D left A's column 2 and its landing was never read; 9D fits the 8H on the left
    pile, not the 2S on the right, and A has no empty column: it went onto the left pile,
    said within a second though a hand stays over B's side."""
    tracker = started()
    frames = [(0.2 + i / 30, dict(BASE, A2="covered", B2="covered")) for i in range(4)]
    frames += [(0.35 + i / 30, dict(BASE, A2="down", B2="covered")) for i in range(40)]
    out = run(tracker, frames)
    plays = [e for e in out if isinstance(e, Play)]
    assert [(e.player, e.column, e.card, e.pile) for e in plays] == [("A", 2, c("9D"), "left")]
    assert plays[0].t < 0.35 + 1.0


def test_an_unread_top_named_right_after_a_hand_passed_is_read_at_last_not_replaced() -> None:
    """A's column-2 top could not be named (5D or 5H); a hand passes over it and it is
    then read as 5D, which the reader had listed for it: the same card, now known."""
    tracker = Tracker(stable_frames=3)
    tracker.expected_columns = {"A": 2, "B": 2}
    base = dict(BASE, A2="?5D:0.6,5H:0.3")
    out = run(tracker, [(i / 30, dict(base, left="empty", right="empty")) for i in range(12)])
    out += run(tracker, [(0.4 + i / 30, base) for i in range(4)])
    assert isinstance(out[0], Deal) and out[0].players["A"].up == (c("7C"), None)
    tracker.spit_expected = False
    frames = [(0.6 + i / 30, dict(base, A2="covered")) for i in range(3)]
    frames += [(0.7 + i / 30, dict(base, A2="5D")) for i in range(8)]
    out = run(tracker, frames)
    assert [type(e).__name__ for e in out] == ["Identified"]
    assert not tracker.busy


def refereed_play(played: str, hand_frames: int = 3) -> list[Call]:
    """A 2-column deal (A: 7C and ``played`` over a face-down card), spit 8H / 2S, then
    A plays ``played`` onto the left pile under a hand that stays ``hand_frames``."""
    base = dict(BASE, A2=played, left="empty", right="empty")
    frames = [(i / 30, base) for i in range(6)]
    frames += [(i / 30, dict(base, left="8H", right="2S")) for i in range(6, 16)]
    frames += [(i / 30, dict(base, A2="covered", left="covered", right="2S"))
               for i in range(16, 16 + hand_frames)]
    frames += [(i / 30, dict(base, A2="down", left=played, right="2S"))
               for i in range(16 + hand_frames, 40 + hand_frames)]
    readings = [SyntheticReading(t, {n: zone(v) for n, v in zones.items()}) for t, zones in frames]
    calls, _ = referee_readings(readings, [], Referee(RefereeRules(first_round_cards=3)))
    assert any(isinstance(call.event, Play) and call.event.card == c(played) for call in calls)
    return calls


def test_a_play_seen_whole_that_breaks_the_rules_is_called_illegal() -> None:
    calls = refereed_play("3C")
    assert [call.say for call in calls if isinstance(call.event, Illegal)] == [
        "Illegal play by player A: 3C, 3C is not one rank from 8H on the left pile."]


def test_a_wrong_looking_play_a_one_rank_misread_would_explain_is_only_doubted() -> None:
    calls = refereed_play("10C")  # a 9C or a JC read as 10C would have been legal
    assert not any(isinstance(call.event, Illegal) for call in calls)
    assert any(call.say and call.say.startswith("I could not be sure of that play by player A: 10C")
               for call in calls)


def test_a_wrong_looking_play_under_a_long_hand_is_only_doubted() -> None:
    calls = refereed_play("3C", hand_frames=24)  # a card may have gone under it unseen
    assert not any(isinstance(call.event, Illegal) for call in calls)
    assert any(call.say and "I could not be sure" in call.say for call in calls)


def refereed(frames: list[tuple[float, dict[str, str]]], reread: tuple[str, ...] = ()) -> list[Call]:
    readings = [SyntheticReading(t, {n: zone(v) for n, v in zones.items()}, reread) for t, zones in frames]
    calls, _ = referee_readings(readings, [], Referee(RefereeRules(first_round_cards=5)))
    return calls


def test_no_spit_is_called_on_a_pile_card_the_reader_neither_named_nor_likes_best() -> None:
    """A plays 9D, which the reader liked best in A2 but never named there, on the 8H
    under a hand; the reader does not name the pile's new card and likes B's QS (in
    plain view in its column) best for it, so the tracker takes 9D from the hand.  Then
    A turns up 5C: nothing fits 9D or 2S, but no "Spit!" rests on a pile card the reader
    would not pick itself -- until it likes 9D best (at least 50 %).  (A card named in
    its column and the one card in a hand is another matter: ``test_stalls``.)"""
    base = dict(BASE, A2="?9D:0.7,9H:0.2", left="empty", right="empty")
    frames = [(i / 30, base) for i in range(6)]
    frames += [(i / 30, dict(base, left="8H", right="2S")) for i in range(6, 16)]
    frames += [(i / 30, dict(base, A2="covered", left="covered", right="2S")) for i in range(16, 19)]
    frames += [(i / 30, dict(base, A2="down", left="?QS:0.6,9D:0.2", right="2S")) for i in range(19, 31)]
    frames += [(i / 30, dict(base, A2="5C", left="?QS:0.6,9D:0.2", right="2S")) for i in range(31, 46)]
    calls = refereed(frames)
    assert [(e.card, e.pile) for call in calls if isinstance(e := call.event, Play)] == [(c("9D"), "left")]
    assert any(isinstance(call.event, Reveal) for call in calls)
    assert not any(isinstance(call.event, Stall) for call in calls)
    frames += [(i / 30, dict(base, A2="5C", left="?9D:0.6,QS:0.2", right="2S")) for i in range(46, 60)]
    stalls = [call.t for call in refereed(frames) if isinstance(call.event, Stall)]
    assert len(stalls) == 1 and 46 / 30 <= stalls[0] < 50 / 30


def test_an_unread_spit_card_named_later_with_no_hand_over_it_is_no_new_spit() -> None:
    base = dict(BASE, left="empty", right="empty")
    frames = [(i / 30, base) for i in range(6)]
    frames += [(i / 30, dict(base, left="?", right="2S")) for i in range(6, 30)]
    frames += [(i / 30, dict(base, left="5H", right="2S")) for i in range(30, 50)]
    calls = refereed(frames)
    spits = [call.event for call in calls if isinstance(call.event, Spit)]
    assert len(spits) == 1 and spits[0].cards == {"left": None, "right": c("2S")}
    # ... and the referee knows the pile's top now: 9D is no play on 5H, 7C is none on 2S.
    plays = [call.event for call in calls if isinstance(call.event, Play | Stall)]
    assert [type(e).__name__ for e in plays] == ["Stall"]


def test_an_unread_card_landing_in_play_is_the_card_in_a_hand_though_the_top_looked_wrong() -> None:
    base = dict(BASE, A2="3C", left="empty", right="empty")
    frames = [(i / 30, base) for i in range(6)]
    frames += [(i / 30, dict(base, left="8H", right="2S")) for i in range(6, 16)]
    frames += [(i / 30, dict(base, A2="covered", left="covered")) for i in range(16, 19)]
    frames += [(i / 30, dict(base, A2="down", left="?", right="2S")) for i in range(19, 50)]
    calls = refereed(frames)
    landed = [call.event for call in calls if isinstance(call.event, Play | Spit)]
    assert landed[1:] == [Play(landed[1].t, 1, "A", c("3C"), "left", 2)]  # not a spit card
    assert not any(isinstance(call.event, Illegal) for call in calls)


def test_a_hand_passing_over_an_unread_pile_top_that_looks_the_same_after_lays_no_card() -> None:
    unread = "?AD:0.6,KD:0.2"
    base = dict(BASE, left="empty", right="empty")
    frames = [(i / 30, base) for i in range(6)]
    frames += [(i / 30, dict(base, left="8H", right=unread)) for i in range(6, 21)]
    frames += [(i / 30, dict(base, A2="covered", left="8H", right="covered")) for i in range(21, 24)]
    frames += [(i / 30, dict(base, A2="down", left="8H", right=unread)) for i in range(24, 31)]
    frames += [(i / 30, dict(base, A2="down", left="covered", right=unread)) for i in range(31, 34)]
    frames += [(i / 30, dict(base, A2="down", left="9D", right=unread)) for i in range(34, 50)]
    calls = refereed(frames, reread=("left", "right"))
    landed = [call.event for call in calls if isinstance(call.event, Play | Spit)]
    assert len(landed) == 2 and isinstance(landed[0], Spit)
    assert landed[1] == Play(landed[1].t, 1, "A", c("9D"), "left", 2)


UNREAD_9D = "?10S:0.21,5S:0.16,JS:0.09"  # 9D on 8H as the reader sees it, unnamed


def unread_play_then_a_hand_passes() -> tuple[Tracker, list[Tracked], float]:
    """A's 9D lands unread on the left pile; then B plays KH onto the right pile, his hand
    passing over the left one.  Returns the tracker, its output and the next frame's time."""
    tracker = started(right="QC")
    base = dict(BASE, right="QC")
    steps = [(3, {"A2": "covered"}), (3, {"A2": "down", "left": "covered"}),
             (8, {"A2": "down", "left": UNREAD_9D}),
             (3, {"A2": "down", "B1": "covered", "left": UNREAD_9D}),
             (3, {"A2": "down", "B1": "empty", "left": "covered", "right": "covered"}),
             (10, {"A2": "down", "B1": "empty", "left": "?10S:0.22,5S:0.13,JS:0.1", "right": "KH"})]
    frames, t = [], 1.0
    for count, zones in steps:
        for _ in range(count):
            frames.append((t, dict(base, **zones)))
            t += 1 / 30
    return tracker, run(tracker, frames, reread=("left", "right")), t


def test_a_card_landed_unread_keeps_its_name_while_the_pile_looks_the_same_after_a_hand() -> None:
    """The demo's left pile: 7C landed unread (liked as 8S 0.21); B's hand passed over
    the pile with another card.  The same look after the hand is still 7C, not 8S turned
    up from a column and played unseen."""
    _tracker, out, _t = unread_play_then_a_hand_passes()
    assert [(type(e).__name__, getattr(e, "card", None)) for e in out] == [
        ("Play", c("9D")), ("Play", c("KH"))]


def test_an_unread_top_is_no_spit_card_when_spit_cards_become_due() -> None:
    """Dev game 2040: 4S, unread on the right pile and liked as 3C 0.45, was taken for a
    spit card 3C as soon as "Spit!" was called, though no hand had come near the pile."""
    tracker = started()
    look = "?10S:0.45,JS:0.1,5S:0.05"  # 9D on 8H, unnamed; 10S would fit 9D
    frames = [(1.0 + i / 30, dict(BASE, A2="covered", left="covered")) for i in range(3)]
    frames += [(1.1 + i / 30, dict(BASE, A2="down", left=look)) for i in range(10)]
    out = run(tracker, frames, reread=("left", "right"))
    assert [(type(e).__name__, getattr(e, "card", None)) for e in out] == [("Play", c("9D"))]
    tracker.spit_expected = True  # "Spit!" called; nobody has turned a card yet
    frames = [(1.5 + i / 30, dict(BASE, A2="down", left=look)) for i in range(45)]
    assert run(tracker, frames, reread=("left", "right")) == []


def test_a_card_played_unread_gives_its_pile_a_rank_where_column_and_pile_agree() -> None:
    """Dev game 2066: 2C, read 2C 0.74 / 2S 0.26 in its column and 2S 0.61 / 2C 0.39 on
    the pile, was played unnamed.  Both are sure it is a two: the referee may judge plays
    onto it (and a stall) by that rank.  A pile read sure of another rank is not trusted."""
    for pile_look, ranks in (("?10S:0.61,10C:0.39", {"left": frozenset({c("10C").rank})}),
                             ("?JS:0.61,JC:0.39", {})):
        tracker = started()
        steps = [(3, {"A2": "covered"}), (3, {"A2": "down", "left": "covered"}),
                 (6, {"A2": "down", "left": "9D"}), (3, {"A2": "covered", "left": "9D"}),
                 (20, {"A2": "?10C:0.74,10S:0.26", "left": "9D"}),
                 (3, {"A2": "covered", "left": "9D"}), (3, {"A2": "empty", "left": "covered"}),
                 (12, {"A2": "empty", "left": pile_look})]
        frames, t = [], 1.0
        for count, zones in steps:
            for _ in range(count):
                frames.append((t, dict(BASE, **zones)))
                t += 1 / 30
        out = run(tracker, frames, reread=("left",))
        assert [(type(e).__name__, getattr(e, "card", None)) for e in out] == [
            ("Play", c("9D")), ("Reveal", None), ("Play", None)]
        assert tracker.sure_ranks() == ranks, pile_look


def test_the_hand_that_laid_a_card_named_under_it_is_no_hand_since() -> None:
    """Dev game 2064: AH, named under the hand laying it, was read 8H at 0.98 as the hand
    left and taken for a card come since (a spit card there).  With no other hand over
    the pile, a never-seen card read there is the top misread."""
    tracker = started()
    out: list[Tracked] = []
    t = 1.0
    for count, zones, hint in ((3, {"A2": "covered"}, None), (4, {"A2": "down"}, None),
                               (1, {"A2": "down"}, "9D"), (20, {"A2": "down", "left": "6H"}, None)):
        for _ in range(count):
            seen = {name: zone(value) for name, value in dict(BASE, **zones).items()}
            if hint is not None:
                seen["left"] = SyntheticZone("covered", c(hint), under_hand=True)
            out += tracker.update(SyntheticReading(t, seen, ("left",)))
            t += 1 / 30
    assert out == [Play(out[0].t, 1, "A", c("9D"), "left", 2)]


def test_a_pile_read_is_not_taken_for_a_card_still_lying_in_plain_view_in_its_column() -> None:
    base = dict(BASE, B2="9S", left="empty", right="empty")
    frames = [(i / 30, base) for i in range(6)]
    frames += [(i / 30, dict(base, left="8H", right="2S")) for i in range(6, 16)]
    frames += [(i / 30, dict(base, B2="covered", left="covered", right="2S")) for i in range(16, 19)]
    # The reader likes A's 7C best, but 7C still lies in A's column for all to see.
    frames += [(i / 30, dict(base, B2="down", left="?7C:0.5,9S:0.1", right="2S")) for i in range(19, 50)]
    calls = refereed(frames)
    plays = [call.event for call in calls if isinstance(call.event, Play)]
    assert plays == [Play(plays[0].t, 1, "B", c("9S"), "left", 2)]


def test_a_never_seen_card_read_on_a_pile_no_hand_came_near_is_a_misread_not_a_spit() -> None:
    base = dict(BASE, left="empty", right="empty")
    frames = [(i / 30, base) for i in range(6)]
    frames += [(i / 30, dict(base, left="8H", right="2S")) for i in range(6, 20)]
    frames += [(i / 30, dict(base, left="6H", right="2S")) for i in range(20, 60)]  # 8H misread
    calls = refereed(frames)
    landed = [call.event for call in calls if isinstance(call.event, Play | Spit)]
    assert len(landed) == 1 and isinstance(landed[0], Spit)


def refereed_looks(frames: list[tuple[float, dict[str, str], tuple[str, ...]]]) -> list[Call]:
    """Like ``refereed``, with the zones the reader looked at afresh given per frame."""
    readings = [SyntheticReading(t, {n: zone(v) for n, v in zones.items()}, looked)
                for t, zones, looked in frames]
    calls, _ = referee_readings(readings, [], Referee(RefereeRules(first_round_cards=5)))
    return calls


def dealt_then(right: str, frames: list[tuple[float, dict[str, str], tuple[str, ...]]],
               ) -> list[Call]:
    """Deal (A: 7C, 9D over a face-down card), spit 8H / ``right``, then ``frames``."""
    base = dict(BASE, left="empty", right="empty")
    start = [(i / 30, base, ()) for i in range(6)]
    start += [(i / 30, dict(base, left="8H", right=right), ("left", "right") if i == 6 else ())
              for i in range(6, 16)]
    return refereed_looks(start + frames)


def test_an_unread_card_landing_on_a_pile_that_a_card_in_a_hand_fits_is_reported_at_once() -> None:
    """9D leaves A's column 2 and lands on the 8H; the reader, looking at the pile afresh,
    no longer likes 8H best but cannot name 9D: 9D is reported on the first frames, not
    held back until it leaves the one-pile rule's 0.7 s, and no takeback follows."""
    base = dict(BASE, left="empty", right="2S")
    frames = [(i / 30, dict(base, A2="covered", left="covered"), ()) for i in range(16, 19)]
    frames += [(i / 30, dict(base, A2="down", left="?8S:0.55,8H:0.37,9D:0.02"),
                ("left",) if i == 19 else ()) for i in range(19, 60)]
    calls = dealt_then("2S", frames)
    events = [call.event for call in calls if isinstance(call.event, Play | Takeback)]
    assert events == [Play(events[0].t, 1, "A", c("9D"), "left", 2)]
    assert events[0].t <= 22 / 30


def test_a_pile_read_that_still_likes_its_top_best_after_a_hand_is_no_landing() -> None:
    """The same, but the fresh look still likes the 8H best: the hand passed (9D went on
    to the other pile, read there)."""
    base = dict(BASE, left="empty", right="10S")
    frames = [(i / 30, dict(base, A2="covered", left="covered", right="covered"), ())
              for i in range(16, 19)]
    frames += [(i / 30, dict(base, A2="down", left="?8H:0.55,8S:0.37", right="covered"),
                ("left",) if i == 19 else ()) for i in range(19, 24)]
    frames += [(i / 30, dict(base, A2="down", left="?8H:0.55,8S:0.37", right="9D"),
                ("right",) if i == 24 else ()) for i in range(24, 60)]
    calls = dealt_then("10S", frames)
    events = [call.event for call in calls if isinstance(call.event, Play | Takeback)]
    assert events == [Play(events[0].t, 1, "A", c("9D"), "right", 2)]


def test_a_card_put_on_the_wrong_pile_unread_is_moved_when_read_on_the_other() -> None:
    """9D fits both the 8H and the 10S; the left pile, looked at afresh, seems changed and
    9D is put there; then the right pile names 9D itself: it lay there.  Said as a
    correction, and the right pile holds it."""
    base = dict(BASE, left="empty", right="10S")
    frames = [(i / 30, dict(base, A2="covered", left="covered", right="covered"), ())
              for i in range(16, 19)]
    frames += [(i / 30, dict(base, A2="down", left="?8S:0.55,8H:0.37", right="covered"),
                ("left",) if i == 19 else ()) for i in range(19, 26)]
    frames += [(i / 30, dict(base, A2="down", left="?8S:0.55,8H:0.37", right="9D"),
                ("right",) if i == 26 else ()) for i in range(26, 60)]
    calls = dealt_then("10S", frames)
    events = [call.event for call in calls if isinstance(call.event, Play | Takeback)]
    assert [(type(e).__name__, e.card, e.pile) for e in events] == [
        ("Play", c("9D"), "left"), ("Takeback", c("9D"), "left"), ("Play", c("9D"), "right")]
    assert "Correction: 9D went onto the right pile, not the left." in [call.say for call in calls]
    assert not any(call.say and "Collision" in call.say for call in calls)


def test_a_pile_whose_known_top_is_still_liked_best_gets_no_card_that_does_not_fit_it() -> None:
    """3C leaves A's column 2 under a hand that also passes over both piles; the left
    pile's fresh look still likes its 8H best (9H close behind), and 3C does not fit 8H:
    3C did not land there.  It fits only the right pile's 2S, so it goes there."""
    base = dict(BASE, A2="3C", left="empty", right="empty")
    frames = [(i / 30, base, ()) for i in range(6)]
    frames += [(i / 30, dict(base, left="8H", right="2S"), ("left", "right") if i == 6 else ())
               for i in range(6, 16)]
    frames += [(i / 30, dict(base, A2="covered", left="covered", right="covered"), ())
               for i in range(16, 19)]
    frames += [(i / 30, dict(base, A2="down", left="?8H:0.4,9H:0.3", right="?2S:0.6,3C:0.1"),
                ("left", "right") if i == 19 else ()) for i in range(19, 60)]
    calls = refereed_looks(frames)
    events = [call.event for call in calls if isinstance(call.event, Play | Takeback)]
    assert events == [Play(events[0].t, 1, "A", c("3C"), "right", 2)]


def test_a_card_that_fits_one_pile_only_is_played_there_sooner_while_a_hand_is_over_it() -> None:
    """9D left A's column 2 and fits only the left pile's 8H; a hand stays over that pile
    (laying it): reported after half a second, not the 0.7 s of a pile in plain view."""
    tracker = started()
    frames = [(0.2 + i / 30, dict(BASE, A2="covered", left="covered")) for i in range(4)]
    frames += [(0.35 + i / 30, dict(BASE, A2="down", left="covered")) for i in range(40)]
    out = run(tracker, frames)
    plays = [e for e in out if isinstance(e, Play)]
    assert [(e.player, e.column, e.card, e.pile) for e in plays] == [("A", 2, c("9D"), "left")]
    assert plays[0].t < 0.35 + 0.6


def test_a_never_seen_card_landing_from_under_a_hand_is_the_covered_unread_column_top() -> None:
    """A1's top was never named (the reader liked 9C for it); a hand covers A1 and 9C
    lands on 8H: A played its unread top, it is no spit card nobody was due to turn."""
    base = dict(BASE, A1="?9C:0.7,9S:0.25", left="empty", right="empty")
    frames = [(i / 30, base) for i in range(6)]
    frames += [(i / 30, dict(base, left="8H", right="2S")) for i in range(6, 16)]
    frames += [(i / 30, dict(base, A1="covered", left="covered", right="2S")) for i in range(16, 19)]
    frames += [(i / 30, dict(base, A1="covered", left="9C", right="2S")) for i in range(19, 40)]
    frames += [(i / 30, dict(base, A1="empty", left="9C", right="2S")) for i in range(40, 50)]
    calls = refereed(frames)
    landed = [call.event for call in calls if isinstance(call.event, Play | Spit)]
    assert len(landed) == 2 and isinstance(landed[0], Spit)
    assert landed[1] == Play(landed[1].t, 1, "A", c("9C"), "left", 1) and landed[1].t < 26 / 30


def test_spit_cards_down_before_the_deal_settles_are_spit_cards_not_an_unread_column_played() -> None:
    """The reader takes B's column-2 top for a back, and the left spit card is down before
    the deal is seen, the right one a few frames after: both are the spit, together (not
    B2's card turned up and played, with a lone spit card on the other pile)."""
    dealt = dict(BASE, B2="down", left="8H", right="empty")
    frames = [(i / 30, dealt) for i in range(6)]
    frames += [(i / 30, dict(dealt, right="2S")) for i in range(6, 20)]
    calls = refereed(frames)
    events = [call.event for call in calls if call.event is not None]
    assert not any(isinstance(e, Reveal | Play) for e in events)
    spits = [e for e in events if isinstance(e, Spit)]
    assert len(spits) == 1 and dict(spits[0].cards) == {"left": c("8H"), "right": c("2S")}


def test_a_card_played_onto_a_spit_card_still_waiting_for_its_partner_lies_on_it() -> None:
    # The left spit card is down when the deal is seen, the right one not yet, and A
    # plays 9D onto the left: the spit goes down first, so the left pile's top is 9D.
    tracker = Tracker(stable_frames=3)
    tracker.expected_columns = {"A": 2, "B": 2}
    dealt = dict(BASE, right="empty")
    out = run(tracker, [(i / 30, dealt) for i in range(4)])
    assert isinstance(out[0], Deal) and not any(isinstance(e, Spit) for e in out)
    out += run(tracker, [(0.2 + i / 30, dict(dealt, A2="down", left="9D")) for i in range(4)])
    kinds = [type(e).__name__ for e in out if not isinstance(e, Unsure)]
    assert kinds[:3] == ["Deal", "Spit", "Play"]
    assert tracker._top("left") == c("9D")
