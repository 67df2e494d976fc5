"""Keyboard stand-ins and the ``--inputs`` file reader."""

from __future__ import annotations

import os
import queue
import time
from pathlib import Path

import pytest

from tablecam.errors import EventLogError
from tablecam.inputs import ButtonPress
from tablecam.inputs.clock import PipelineClock
from tablecam.inputs.keyboard import KeyboardButtons
from tablecam.inputs.replay import ScheduledPresses, parse_inputs, read_inputs

DATA = Path(__file__).resolve().parents[1] / "data"


def test_keys_become_presses() -> None:
    read_end, write_end = os.pipe()
    presses: queue.Queue[ButtonPress] = queue.Queue()
    clock = PipelineClock()
    try:
        with KeyboardButtons(presses, clock, fd=read_end):
            os.write(write_end, b" xAb")
            got = [presses.get(timeout=2) for _ in range(3)]
            time.sleep(0.05)
            assert presses.empty()  # "x" is no button
    finally:
        os.close(write_end)
        os.close(read_end)
    assert [(p.button, p.player) for p in got] == [("spit", None), ("slap", "A"), ("slap", "B")]
    assert all(0 <= p.t <= clock.now() for p in got)


def test_inputs_file_is_read_and_sorted(tmp_path: Path) -> None:
    path = tmp_path / "inputs.jsonl"
    path.write_text('{"t": 31.02, "button": "slap", "player": "A"}\n\n'
                    '{"t": 12.40, "button": "spit"}\n')
    assert read_inputs(path) == [ButtonPress(12.40, "spit"), ButtonPress(31.02, "slap", "A")]


def test_game_log_button_lines_drive_a_replay() -> None:
    lines = [line for line in (DATA / "game-events.jsonl").read_text().splitlines()
             if '"type": "button"' in line]
    presses = parse_inputs(lines)
    assert len(presses) == len(lines) > 0
    assert {p.button for p in presses} <= {"spit", "slap"}


@pytest.mark.parametrize("line, words", [
    ('{"t": 1, "button": "slap"}', "line 2: a slap needs"),
    ('{"t": -1, "button": "spit"}', "line 2 needs a time"),
    ('{"t": 1, "button": "jump"}', "must be \"spit\" or \"slap\""),
    ('{"t": 1, "button": "spit", "player": "A"}', "belongs to nobody"),
    ('[1, 2]', "must be a JSON object"),
    ('{"t": 1, ', "line 2 is not valid JSON"),
])
def test_bad_lines_name_the_line(tmp_path: Path, line: str, words: str) -> None:
    path = tmp_path / "inputs.jsonl"
    path.write_text('{"t": 0.5, "button": "spit"}\n' + line + "\n")
    with pytest.raises(EventLogError, match=words.replace("(", r"\(")) as caught:
        read_inputs(path)
    assert str(path) in str(caught.value)


def test_missing_inputs_file(tmp_path: Path) -> None:
    with pytest.raises(EventLogError, match="no such inputs file"):
        read_inputs(tmp_path / "none.jsonl")


def test_presses_are_released_when_video_time_reaches_them() -> None:
    schedule = ScheduledPresses([ButtonPress(2.0, "slap", "B"), ButtonPress(1.0, "spit")])
    target: queue.Queue[ButtonPress] = queue.Queue()
    assert schedule.release(0.5, target) == 0
    assert schedule.release(1.0, target) == 1
    assert target.get_nowait() == ButtonPress(1.0, "spit")
    assert schedule.due(1.5) == []
    assert schedule.due(10.0) == [ButtonPress(2.0, "slap", "B")]
    assert schedule.remaining == 0 and schedule.due(20.0) == []


def test_terminal_mode_is_restored() -> None:
    import pty
    import termios

    leader, follower = pty.openpty()
    try:
        before = termios.tcgetattr(follower)
        presses: queue.Queue[ButtonPress] = queue.Queue()
        keys = KeyboardButtons(presses, PipelineClock(), fd=follower)
        during = termios.tcgetattr(follower)
        assert not during[3] & termios.ICANON  # single keys, no Enter needed
        os.write(leader, b"a")
        assert presses.get(timeout=2).player == "A"
        keys.close()
        assert termios.tcgetattr(follower) == before
    finally:
        os.close(leader)
        os.close(follower)
