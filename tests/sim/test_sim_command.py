"""``tablecam simulate``: summary by default, JSON events with --json, clear errors."""

from __future__ import annotations

import pytest

from tablecam.cli import main
from tablecam.events import parse_event_lines
from tablecam.rules import GAME_OVER, replay, replay_lines, split_games


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_summary_reads_as_rounds_stalls_takes_and_winner(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--seed", "4")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Game 1 (seed 4; A average, B average): ")
    assert " wins in " in lines[0]
    assert lines[1].split() == ["round", "stalls", "won", "by", "A", "took", "B", "took", "cards", "after"]
    assert lines[2].split()[0] == "1"
    assert "has no cards left" in lines[-1] or "round limit" in lines[0]


def test_json_events_replay_to_the_same_winner(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--seed", "9", "--json")
    assert code == 0
    game = replay_lines(out.splitlines())
    assert game.phase == GAME_OVER
    _, summary, _ = run(capsys, "--seed", "9")
    assert summary.splitlines()[0].split("): ")[1].startswith(f"{game.winner} wins")


def test_many_games_are_seeded_in_turn_and_totalled(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--games", "3", "--seed", "20", "--players", "fast,slow")
    assert code == 0
    assert [line.split()[2] for line in out.splitlines() if line.startswith("Game ")] == [
        "(seed", "(seed", "(seed"]
    assert "seed 21;" in out and "seed 22;" in out
    assert out.splitlines()[-1].startswith("3 games: A won ")
    _, again, _ = run(capsys, "--games", "3", "--seed", "20", "--players", "fast,slow")
    assert again.splitlines()[:-1] == out.splitlines()[:-1]  # the speed figure may differ
    code, out, _ = run(capsys, "--games", "2", "--json")
    games = split_games(parse_event_lines(out.splitlines()))
    assert [replay(events).phase for events in games] == [GAME_OVER, GAME_OVER]
    code, out, _ = run(capsys, "--seed", "3", "--json", "--mistakes", "0.05")
    assert '"type": "illegal"' in out
    assert replay_lines(out.splitlines()).phase == GAME_OVER


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "quick,slow"], "no player speed 'quick'"),
    (["--players", "fast,slow,average"], "two speeds"),
    (["--games", "0"], "--games must be at least 1"),
    (["--mistakes", "2"], "--mistakes is a chance between 0 and 0.5, not 2"),
])
def test_bad_options_are_one_clear_sentence(capsys: pytest.CaptureFixture[str], args: list[str],
                                            message: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1
