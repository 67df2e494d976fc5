"""Replaying event logs: the golden game, and logs that are malformed or impossible."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tablecam.cards import Card
from tablecam.errors import EventLogError, RulesError
from tablecam.events import Illegal, Play, Spit, Stall, Takeback, read_events
from tablecam.rules import GAME_OVER, Settings, replay, replay_file, replay_lines

GOLDEN = Path(__file__).parent.parent / "data" / "game-events.jsonl"


def golden() -> list[dict[str, Any]]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


def as_lines(rows: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(row) for row in rows]


def find(rows: list[dict[str, Any]], **match: Any) -> int:
    return next(i for i, row in enumerate(rows) if all(row.get(k) == v for k, v in match.items()))


def test_the_golden_game_replays_to_bs_win() -> None:
    game = replay_file(GOLDEN)
    assert game.phase == GAME_OVER
    assert game.outcome is not None and game.outcome.winner == "B"
    assert game.round == 4
    snapshot = game.snapshot()
    assert snapshot["winner"] == "B"
    assert snapshot["players"]["B"]["total"] == 0
    assert snapshot["players"]["A"]["total"] == 52 - snapshot["centre"]["right"]["count"]
    json.dumps(snapshot)


def test_snapshot_has_the_dashboard_shape_mid_game() -> None:
    events = read_events(GOLDEN)
    game = replay(events[:8])
    snap = game.snapshot()
    assert set(snap) == {"round", "phase", "players", "centre", "winner"}
    assert snap["phase"] == "playing" and snap["round"] == 1 and snap["winner"] is None
    for seat in ("A", "B"):
        player = snap["players"][seat]
        assert set(player) == {"columns", "spit", "total"}
        assert len(player["columns"]) == 5
        assert player["spit"] == 10
    assert snap["players"]["B"]["columns"][0] == {"down": 0, "up": "4D"}  # moved in from column 5
    assert snap["players"]["B"]["columns"][4] == {"down": 4, "up": None}  # its reveal is due
    assert snap["players"]["B"]["columns"][2] == {"down": 1, "up": "AC"}
    assert snap["centre"] == {"left": {"top": "AH", "count": 4}, "right": {"top": "6D", "count": 1}}
    total = sum(p["total"] for p in snap["players"].values()) + sum(
        pile["count"] for pile in snap["centre"].values())
    assert total == 52


def test_round_summaries_and_next_deals_match_the_log() -> None:
    events = read_events(GOLDEN)
    summary = next(i for i, e in enumerate(events) if e.type == "round_summary")
    game = replay(events[: summary + 1])
    layouts = game.next_deal()
    assert layouts is not None
    assert (layouts["A"].columns, layouts["A"].spit) == (5, 17)
    assert (layouts["B"].columns, layouts["B"].spit) == (5, 5)


def test_unknown_cards_from_a_tracker_are_accepted_where_the_state_knows_them() -> None:
    rows = golden()
    for row in rows:
        if row["type"] in ("play", "move", "takeback"):
            row["card"] = None
    game = replay_lines(as_lines(rows))
    assert game.winner == "B"
    assert game.pile_top("right") == Card.parse("KH")


def test_an_unreadable_up_card_stays_unknown_and_plays_onto_it_are_not_checked() -> None:
    rows = golden()
    rows[0]["players"]["B"]["up"][0] = None  # B's 3S could not be read at the deal
    rows[2]["card"] = None                   # ... nor when it was played
    game = replay_lines(as_lines(rows[:3]))
    assert game.pile_top("left") is None and game.pile_size("left") == 2
    assert game.snapshot()["centre"]["left"] == {"top": None, "count": 2}


def mutated(change: str) -> list[dict[str, Any]]:
    rows = golden()
    if change == "play does not fit":
        rows[find(rows, type="play", card="3S")]["pile"] = "right"
    elif change == "reveal missing":
        del rows[find(rows, type="reveal", card="AC")]
    elif change == "card twice":
        rows[find(rows, type="reveal", card="AC")]["card"] = "4H"
    elif change == "wrong take count":
        rows[find(rows, type="take", cards=15)]["cards"] = 14
    elif change == "loser takes first":
        first = find(rows, type="take", cards=15)
        rows[first], rows[first + 1] = rows[first + 1], rows[first]
        rows[first]["t"], rows[first + 1]["t"] = rows[first + 1]["t"], rows[first]["t"]
    elif change == "wrong summary":
        rows[find(rows, type="round_summary")]["cards"] = {"A": 30, "B": 22}
    elif change == "stall too early":
        rows.insert(2, {"t": 4.2, "round": 1, "type": "stall"})
    elif change == "time goes back":
        rows[5]["t"] = 1.0
    elif change == "wrong next deal":
        deal = rows[find(rows, type="deal", round=2)]
        deal["players"]["B"]["spit"] = 6
    elif change == "wrong game winner":
        rows[-1]["winner"] = "A"
    elif change == "play after game end":
        rows.append({"t": 141.0, "round": 4, "type": "play", "player": "A", "card": "QS",
                     "pile": "right", "column": 3})
    elif change == "spit when not stalled":
        rows.insert(3, {"t": 5.6, "round": 1, "type": "spit", "cards": {"left": "2S", "right": "9S"}})
    elif change == "wrong round number":
        rows[3]["round"] = 2
    elif change == "play from a missing column":
        rows[find(rows, type="play", card="10H")]["column"] = 5
    elif change == "move onto a full column":
        rows[find(rows, type="move", card="4D")]["to"] = 2
    elif change == "lone spitter switches pile":
        rows[find(rows, type="spit", cards={"right": "10S"})]["cards"] = {"left": "10S"}
    elif change == "card the other player gathered":
        rows[find(rows, type="deal", round=2)]["players"]["B"]["up"][0] = "4H"
    elif change == "wrong round winner":
        rows[find(rows, type="round_end")]["winner"] = "A"
    return rows


@pytest.mark.parametrize(("change", "where", "why"), [
    ("play does not fit", "(play of 3S onto right by B at t=5.519)",
     "3S is not one rank from the top card 6D of the right pile"),
    ("reveal missing", "(stall at t=9.062)", "column 3 of B still has a card to turn up"),
    ("card twice", "(reveal of 4H in B's column 3 at t=6.703)", "4H is already face up on the table"),
    ("wrong take count", "(take of the right pile (14 cards) by B", "the right pile holds 15 cards, not 14"),
    ("loser takes first", "(take of the left pile (25 cards) by A", "B takes a pile first, not A"),
    ("wrong summary", "(round_summary at t=48.26)", "A holds 32 cards and B holds 20, not 30 and 22"),
    ("stall too early", "(stall at t=4.2)", "play is not stuck: B can play 3S from column 1 onto left"),
    ("time goes back", "(play of AH onto left by A at t=1)", "5.7 s earlier than the previous event (t=6.703)"),
    ("wrong next deal", "(deal of round 2 at t=51.735)",
     "B holds 20 cards, so deals 5 column(s) and 5 spit card(s), not 5 and 6"),
    ("wrong game winner", "(game_end at t=139.966)", "B won the game, not A"),
    ("play after game end", "(play of QS onto right by A at t=141)", "the game is over"),
    ("spit when not stalled", "(spit of 2S onto left and 9S onto right at t=5.6)", "nobody is stalled"),
    ("wrong round number", "(play of 2D onto left by B", "marked round 2 but round 1 is being played"),
    ("play from a missing column", "(play of 10H onto right by B", "B has no column 5: 3 column(s) were dealt"),
    ("move onto a full column", "(move of 4D by B from column 5 to 2", "column 2 is not empty"),
    ("lone spitter switches pile", "(spit of 10S onto left", "spits alone onto the right pile"),
    ("wrong round winner", "(round_end won by A", "B emptied their tableau first, not A"),
    ("card the other player gathered", "(deal of round 2 at t=51.735)", "4H is among A's cards, not B's"),
])
def test_impossible_logs_are_rejected_naming_the_event_and_why(change: str, where: str, why: str) -> None:
    with pytest.raises(EventLogError) as caught:
        replay_lines(as_lines(mutated(change)), source="game.jsonl")
    message = str(caught.value)
    assert message.startswith("game.jsonl, line ")
    assert where in message
    assert why in message
    assert "\n" not in message


def test_malformed_lines_name_the_line() -> None:
    lines = as_lines(golden()[:3]) + ["{not json"]
    with pytest.raises(EventLogError, match=r"^log, line 4: not valid JSON"):
        replay_lines(lines, source="log")
    lines = as_lines(golden()[:3]) + ['{"t": 6, "round": 1, "type": "play", "player": "B"}']
    with pytest.raises(EventLogError, match="line 4: a 'play' event needs the field 'card'"):
        replay_lines(lines, source="log")


def test_a_log_that_does_not_start_with_a_deal_is_rejected() -> None:
    with pytest.raises(EventLogError, match="event 1 .*no deal has been seen yet"):
        replay([Stall(1.0, 1)])


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EventLogError, match="there is no event log at"):
        replay_file(tmp_path / "nothing.jsonl")


def test_a_rejected_event_leaves_the_game_untouched() -> None:
    events = read_events(GOLDEN)
    game = replay(events[:10])
    before = game.snapshot()
    bad = [
        Play(9.5, 1, "A", Card.parse("QD"), "left", 3),   # QD does not fit on 2D
        Play(9.5, 1, "A", Card.parse("7D"), "left", 3),   # column 3 shows QD
        Play(9.5, 1, "B", Card.parse("4D"), "left", 1),   # 4D fits neither... left top is AH
    ]
    for event in bad:
        with pytest.raises(RulesError):
            game.apply(event)
        assert game.snapshot() == before
    assert game.is_stalled()


def test_variants_change_what_a_log_may_say() -> None:
    rows = golden()
    end = find(rows, type="round_end")
    # Under slap race, A slapping first takes the smaller pile.
    race = rows[: end + 1] + [
        {"t": 45.8, "round": 1, "type": "button", "button": "slap", "player": "A"},
        {"t": 45.8, "round": 1, "type": "take", "player": "A", "pile": "right", "cards": 15},
        {"t": 46.5, "round": 1, "type": "take", "player": "B", "pile": "left", "cards": 25},
        {"t": 48.3, "round": 1, "type": "round_summary", "cards": {"A": 22, "B": 30}},
    ]
    game = replay_lines(as_lines(race), Settings(pile_taking="slap_race"))
    assert game.hand("A").count(None) < 22  # A knows some of the cards it took
    with pytest.raises(EventLogError, match="B takes a pile first, not A"):
        replay_lines(as_lines(race), Settings())


def test_landings_are_judged_by_time_the_first_card_stays() -> None:
    events = read_events(GOLDEN)
    covering = next(i for i, e in enumerate(events) if isinstance(e, Play) and e.card
                    and e.card.code == "QC")          # A's QC covers KD on the right at t=18.939
    game = replay(events[: covering + 1])
    column = next(n for n, col in enumerate(game.columns("B"), start=1) if col.up and col.up.code == "QH")
    verdict = game.judge_landing("B", column, "right", 18.954)
    assert isinstance(verdict, Takeback) and verdict.card == Card.parse("QH")
    assert verdict == events[covering + 1]             # what the log says happened
    late = game.judge_landing("B", column, "right", 19.6)
    assert isinstance(late, Illegal)
    assert late.reason == "QH is not one rank from the top card QC of the right pile"
    fits = game.judge_landing("B", column, "left", 19.6)  # left top is 10H
    assert isinstance(fits, Illegal)
    before = game.snapshot()
    game.apply(fits)                                   # an illegal play changes nothing
    assert game.snapshot() == before
    option = game.legal_plays()[0]
    verdict = game.judge_landing(option.player, option.column, option.pile, 19.7)
    assert verdict == Play(19.7, 1, option.player, option.card, option.pile, option.column)


def test_events_built_in_code_with_bad_fields_are_refused() -> None:
    game = replay(read_events(GOLDEN)[:2])
    for event in (Play(5.0, 1, "C", Card.parse("3S"), "left", 1),      # type: ignore[arg-type]
                  Play(5.0, 1, "B", Card.parse("3S"), "middle", 1),    # type: ignore[arg-type]
                  Spit(5.0, 1, {"middle": Card.parse("2S")}),          # type: ignore[dict-item]
                  Play(5.0, 1, "B", Card.parse("3S"), "left", 0)):
        with pytest.raises(RulesError):
            game.apply(event)


def test_a_copy_plays_on_without_touching_the_original() -> None:
    events = read_events(GOLDEN)
    game = replay(events[:40])
    before = game.snapshot()
    branch = game.copy()
    for event in events[40:]:
        branch.apply(event)
    assert game.snapshot() == before
    assert branch.snapshot() == replay(events).snapshot()


def test_a_refereed_illegal_attempt_logged_as_play_and_illegal_replays() -> None:
    rows = golden()
    spit = find(rows, type="spit")
    attempt = {"t": 4.9, "round": 1, "type": "play", "player": "A", "card": "8S", "pile": "left",
               "column": 1}
    call = {"t": 4.9, "round": 1, "type": "illegal", "player": "A", "card": "8S", "pile": "left",
            "column": 1, "reason": "8S is not one rank from 4H on the left pile"}
    back = {"t": 5.3, "round": 1, "type": "takeback", "player": "A", "card": "8S", "pile": "left"}
    refereed = rows[: spit + 1] + [attempt, call, back] + rows[spit + 1:]
    assert replay_lines(as_lines(refereed)).snapshot() == replay_file(GOLDEN).snapshot()
    # Without the referee's call the same play is an impossible log.
    with pytest.raises(EventLogError, match="line 3 .*8S is not one rank from the top card 4H"):
        replay_lines(as_lines(rows[: spit + 1] + [attempt] + rows[spit + 1:]))


def test_a_card_landing_just_after_the_round_ended_still_counts_if_it_fits() -> None:
    rows = golden()
    end = [i for i, row in enumerate(rows) if row["type"] == "round_end"][1]   # B wins round 2 at t=80.318
    late = {"t": 80.5, "round": 2, "type": "play", "player": "A", "card": "6S", "pile": "right", "column": 4}
    finish = [
        {"t": 80.63, "round": 2, "type": "button", "button": "slap", "player": "B"},
        {"t": 80.63, "round": 2, "type": "take", "player": "B", "pile": "right", "cards": 14},
        {"t": 81.3, "round": 2, "type": "take", "player": "A", "pile": "left", "cards": 17},
        {"t": 83.05, "round": 2, "type": "round_summary", "cards": {"A": 37, "B": 15}},
    ]
    game = replay_lines(as_lines(rows[: end + 1] + [late] + finish))
    assert game.next_deal() is not None and game.next_deal()["B"].spit == 0  # type: ignore[index]
    ended = replay_lines(as_lines(rows[: end + 1]))
    assert isinstance(ended.judge_landing("A", 4, "right", 80.5), Play)
    assert isinstance(ended.judge_landing("A", 4, "left", 80.5), Takeback)   # 6S on 10C
    assert isinstance(ended.judge_landing("A", 4, "right", 81.0), Illegal)   # too late
    with pytest.raises(EventLogError, match="line .* at t=81\\): the round is over"):
        replay_lines(as_lines(rows[: end + 1] + [{**late, "t": 81.0}]))


def test_an_event_reported_a_little_late_is_accepted() -> None:
    rows = golden()
    reveal = find(rows, type="reveal", card="AC")       # t=6.703, after B's 2D play at 6.134
    rows[reveal]["t"] = 6.0
    assert replay_lines(as_lines(rows)).winner == "B"


def test_a_spit_seen_in_two_frames_is_one_spit() -> None:
    rows = golden()
    spit = find(rows, type="spit")                      # {"left": "4H", "right": "6D"} at t=4.126
    halves = [{**rows[spit], "cards": {"left": "4H"}},
              {**rows[spit], "t": 4.3, "cards": {"right": "6D"}}]
    split = rows[:spit] + halves + rows[spit + 1:]
    assert replay_lines(as_lines(split)).snapshot() == replay_file(GOLDEN).snapshot()
    with pytest.raises(EventLogError, match="both players have spit cards, so both centre piles"):
        replay_lines(as_lines(rows[:spit] + halves[:1] + rows[spit + 1:]))
