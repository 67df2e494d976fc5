"""Game records keep every game, round and event, resume a game, export and delete."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tablecam.cli import main
from tablecam.events import event_from_dict
from tablecam.records import GameRecords, RecordsError

GOLDEN = Path(__file__).parent.parent / "data" / "game-events.jsonl"
NAMES = {"A": "Ada", "B": "Bo"}


def golden() -> list[dict[str, object]]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


def record_all(records: GameRecords, events: list[dict[str, object]]) -> int:
    game_id = 0
    for event in events:
        game_id = records.record(event, names=NAMES, variants={"pile_taking": "winner_chooses"})
    return game_id


def test_a_whole_game_is_stored_with_its_rounds_and_winner(tmp_path: Path) -> None:
    with GameRecords(tmp_path / "games.sqlite3") as records:
        game_id = record_all(records, golden())
        game = records.game(game_id)
    assert game.finished and game.winner == "B"
    assert game.names == NAMES and game.variants == {"pile_taking": "winner_chooses"}
    assert [r.round for r in game.rounds] == [1, 2, 3, 4]
    first = game.rounds[0]
    # Round 1 of the golden game: B won, A took 25 cards from the left pile, B 15 from the right.
    assert first.winner == "B"
    assert first.taken == {"A": 25, "B": 15} and first.piles == {"A": "left", "B": "right"}
    assert first.cards_after == {"A": 32, "B": 20}
    assert game.rounds[-1].winner == "B" and game.rounds[-1].cards_after is None


def test_events_come_back_in_order_and_parse(tmp_path: Path) -> None:
    events = golden()
    with GameRecords(tmp_path / "g.sqlite3") as records:
        game_id = record_all(records, events)
        stored = records.events(game_id)
    assert stored == events
    for event in stored:
        event_from_dict(event)


def test_an_unfinished_game_resumes_after_a_restart(tmp_path: Path) -> None:
    events = golden()
    path = tmp_path / "g.sqlite3"
    with GameRecords(path) as records:
        game_id = record_all(records, events[:100])
    with GameRecords(path) as reopened:
        assert reopened.unfinished_game() == game_id
        assert reopened.resume_events() == events[:100]
        reopened.continue_game(game_id)
        for event in events[100:]:
            assert reopened.record(event) == game_id
        assert reopened.unfinished_game() is None
        assert reopened.events(game_id) == events
        assert reopened.game(game_id).winner == "B"
        with pytest.raises(RecordsError, match="finished"):
            reopened.continue_game(game_id)


def test_a_new_deal_after_a_finished_game_starts_another_game(tmp_path: Path) -> None:
    events = golden()
    late_slap = {"t": 141.0, "round": 4, "type": "button", "button": "slap", "player": "A"}
    with GameRecords(tmp_path / "g.sqlite3") as records:
        first = record_all(records, events)
        # A late press after game_end stays with the game it belongs to.
        assert records.record(late_slap) == first
        second = record_all(records, events[:10])
        assert second != first
        assert [g.id for g in records.games()] == [second, first]
        assert records.events(first)[-1] == late_slap
        assert len(records.events(second)) == 10
        assert records.unfinished_game() == second


def test_the_next_rounds_deal_after_a_mistaken_game_end_opens_that_game_again(tmp_path: Path) -> None:
    events = golden()
    third_round = next(i for i, e in enumerate(events) if e["round"] == 3)
    called_over = {"t": events[third_round - 1]["t"], "round": 2, "type": "game_end", "winner": "B"}
    path = tmp_path / "g.sqlite3"
    with GameRecords(path) as records:
        game_id = record_all(records, [*events[:third_round], called_over])
        assert records.game(game_id).finished
        assert record_all(records, events[third_round:third_round + 5]) == game_id
        assert not records.game(game_id).finished
    with GameRecords(path) as reopened:
        assert reopened.unfinished_game() == game_id  # a restart resumes it
        reopened.continue_game(game_id)
        assert record_all(reopened, events[third_round + 5:]) == game_id
        game = reopened.game(game_id)
    assert game.finished and game.winner == "B" and [r.round for r in game.rounds] == [1, 2, 3, 4]


def test_a_fresh_deal_mid_game_starts_a_new_game_but_a_repeated_first_deal_does_not(
        tmp_path: Path) -> None:
    events = golden()
    second_round = next(i for i, e in enumerate(events) if e["round"] == 2)
    with GameRecords(tmp_path / "g.sqlite3") as records:
        first = record_all(records, events[:3])
        assert records.record(events[0]) == first  # round 1 dealt again: same game
        record_all(records, events[3:second_round + 2])
        second = records.record(events[0])
        assert second != first
        assert records.events(second) == [events[0]]


def test_delete_removes_a_game_with_its_rounds_and_events(tmp_path: Path) -> None:
    with GameRecords(tmp_path / "g.sqlite3") as records:
        keep = record_all(records, golden())
        gone = record_all(records, golden())
        records.delete_game(gone)
        assert [g.id for g in records.games()] == [keep]
        with pytest.raises(RecordsError, match=f"no game {gone}"):
            records.events(gone)
        with pytest.raises(RecordsError, match=f"no game {gone}"):
            records.delete_game(gone)
        assert len(records.events(keep)) == len(golden())


def test_exports_hold_rounds_as_csv_and_everything_as_json(tmp_path: Path) -> None:
    with GameRecords(tmp_path / "g.sqlite3") as records:
        game_id = record_all(records, golden())
        rows = list(csv.DictReader(io.StringIO(records.export_csv())))
        document = json.loads(records.export_json([game_id]))
    assert [row["round"] for row in rows] == ["1", "2", "3", "4"]
    assert rows[0]["player_a"] == "Ada" and rows[0]["taken_a"] == "25"
    assert rows[2]["pile_b"] == "left" and rows[2]["cards_b"] == "6"
    (game,) = document["games"]
    assert game["winner"] == "B" and len(game["rounds"]) == 4
    assert game["events"] == golden()


def test_bad_input_is_a_clear_error_and_the_store_survives(tmp_path: Path) -> None:
    with pytest.raises(RecordsError, match="cannot open"):
        GameRecords(tmp_path)  # a folder, not a file
    with GameRecords(tmp_path / "g.sqlite3") as records:
        with pytest.raises(RecordsError, match="needs t, round and type"):
            records.record({"type": "play"})
        game_id = record_all(records, golden()[:5])
        assert len(records.events(game_id)) == 5


# ------------------------------------------------------------------ tablecam history
@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "games.sqlite3"
    with GameRecords(path) as records:
        record_all(records, golden())
        record_all(records, golden()[:40])
    return path


def test_history_lists_games_and_rounds(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "game 1" in out and "Ada (A) v Bo (B)" in out and "Bo (B) won" in out
    assert "round 1: Bo won; Ada took 25 (left), Bo took 15 (right); next: Ada 32, Bo 20" in out
    assert "game 2" in out and "in progress" in out


def test_history_json_and_csv(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--db", str(db), "--json"]) == 0
    games = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [g["id"] for g in games] == [1, 2]
    assert games[0]["rounds"][1]["taken"] == {"A": 17, "B": 13}
    assert main(["history", "--db", str(db), "--csv", "--game", "1"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 4 and {r["game"] for r in rows} == {"1"}


def test_history_exports_and_deletes(db: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "all.json"
    assert main(["history", "--db", str(db), "--export", str(out)]) == 0
    assert len(json.loads(out.read_text())["games"]) == 2
    assert main(["history", "--db", str(db), "--delete", "2"]) == 0
    assert main(["history", "--db", str(db), "--export", str(tmp_path / "a.csv")]) == 0
    assert (tmp_path / "a.csv").read_text().count("\n") == 5  # header + 4 rounds of game 1


@pytest.mark.parametrize("argv, message", [
    (["--db", "{missing}"], "no game records at"),
    (["--game", "9"], "no game 9"),
    (["--delete", "9"], "no game 9"),
    (["--export", "{tmp}/x.txt"], "name it .json or .csv"),
    (["--export", "{tmp}/no/such/dir/x.csv"], "cannot write"),
])
def test_history_errors_are_one_sentence_with_status_2(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        argv: list[str], message: str) -> None:
    argv = [a.format(missing=tmp_path / "missing.sqlite3", tmp=tmp_path) for a in argv]
    if "--db" not in argv:
        argv = ["--db", str(db), *argv]
    assert main(["history", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_file_that_is_not_a_database_is_a_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_text("shopping list")
    assert main(["history", "--db", str(path)]) == 2
    assert "cannot open the game records" in capsys.readouterr().err
    assert path.read_text() == "shopping list"
