"""``tablecam demo`` wires the built-in recording, its button presses, the pipeline and the voice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import tablecam.reading.classifier as classifier_module
import tablecam.reading.table_reader as table_reader_module
import tablecam.render.demo as demo_module
from tablecam.capture import Frame
from tablecam.cli import main
from tablecam.events import Button, read_events
from tablecam.tracking.synthetic import Noise, SyntheticReading, synthetic_readings

GOLDEN = Path(__file__).parent / "data" / "game-events.jsonl"
FPS = 30.0


class ReaderOfTheRecording:
    """Stands in for the card reader: what a reader would see in each frame of the recording."""

    def __init__(self, classifier: Any) -> None:
        events = read_events(GOLDEN)
        self.readings = list(synthetic_readings(events, fps=FPS, noise=Noise(misread=0.01), seed=3))

    def read(self, frame: Frame) -> SyntheticReading:
        index = min(int(round(frame.t * FPS)), len(self.readings) - 1)
        return self.readings[index]


@pytest.fixture()
def recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    events = read_events(GOLDEN)
    frames = tmp_path / "frames"
    frames.mkdir()
    count = len(list(synthetic_readings(events, fps=FPS)))
    image = np.zeros((9, 16, 3), np.uint8)
    for i in range(count):
        cv2.imwrite(str(frames / f"{i:06d}.png"), image)
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text("".join(
        f'{{"t": {e.t}, "button": "{e.button}"' + (f', "player": "{e.player}"}}' if e.player else "}") + "\n"
        for e in events if isinstance(e, Button)))

    def no_truth() -> Path:
        raise AssertionError("the demo must never read the recording's truth")

    monkeypatch.setattr(demo_module, "demo_recording", lambda progress=None: frames)
    monkeypatch.setattr(demo_module, "demo_inputs", lambda: inputs)
    monkeypatch.setattr(demo_module, "demo_truth", no_truth)
    monkeypatch.setattr(classifier_module, "CardClassifier", lambda model=None: None)
    monkeypatch.setattr(table_reader_module, "TableReader", ReaderOfTheRecording)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return frames


def test_demo_referees_the_recording_and_announces_the_game(
        recording: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--no-dashboard", "--no-speech", "--speed", "0", "--fps", str(FPS)]) == 0
    out = capsys.readouterr().out
    assert out.count("Spit!") >= 15
    assert "Player B wins round 1." in out
    assert "Player B takes the right pile, 15 cards; player A takes the left pile, 25 cards." in out
    assert "Player B has no cards left and wins the game after 4 rounds." in out



def test_demo_stamps_its_calls_with_the_recordings_time(
        recording: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # At --speed 0 wall seconds follow the reader's pace, not the game: a deal made 3.3 s
    # into the recording was printed at whatever second the slow search for it ended.
    assert main(["demo", "--no-dashboard", "--no-speech", "--speed", "0", "--fps", str(FPS)]) == 0
    lines = capsys.readouterr().out.splitlines()
    deal = read_events(GOLDEN)[0]
    stamp = next(float(line[1:line.index(" s]")]) for line in lines if "Round 1:" in line)
    assert deal.t <= stamp <= deal.t + 1.0
    last = float(lines[-1][1:lines[-1].index(" s]")])
    assert last >= read_events(GOLDEN)[-1].t - 1.0  # the game ends with the recording

def test_demo_refuses_a_negative_speed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--speed", "-1", "--no-dashboard"]) == 2
    assert "--speed must be 0 or more" in capsys.readouterr().err


def test_demo_keeps_records_and_applies_the_pages_settings(
        recording: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The demo's history page has its games, and a rename on its page is said and kept."""
    import json
    import re
    import urllib.request

    import tablecam.app
    from tablecam.records import GameRecords

    real = tablecam.app.run_pipeline

    def pipeline(*args: Any, **kw: Any) -> Any:
        url, pin = re.findall(r"dashboard at (\S+) \(PIN (\d+)\)", capsys.readouterr().err)[0]
        request = urllib.request.Request(url + "api/settings", method="POST",
                                         data=json.dumps({"names": {"B": "Bo"}}).encode(),
                                         headers={"X-Tablecam-Pin": pin})
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert answer.status == 200
        return real(*args, **kw)

    monkeypatch.setattr(tablecam.app, "run_pipeline", pipeline)
    assert main(["demo", "--port", "0", "--no-browser", "--no-speech", "--speed", "0",
                 "--fps", str(FPS)]) == 0
    out = capsys.readouterr().out
    assert "Bo wins round 1." in out
    assert "Bo has no cards left and wins the game after 4 rounds." in out
    with GameRecords(tmp_path / "data" / "tablecam" / "demo.sqlite3") as records:
        [game] = records.games()
        assert game.finished and game.winner == "B" and game.names["B"] == "Bo"
        records.record({"t": 0.0, "round": 1, "type": "button", "button": "spit"})  # interrupted
    # The next demo records a new game; it never resumes one into the recording.
    monkeypatch.setattr(tablecam.app, "run_pipeline", real)
    assert main(["demo", "--no-dashboard", "--no-speech", "--speed", "0", "--fps", str(FPS)]) == 0
    assert "Resuming" not in capsys.readouterr().out
    with GameRecords(tmp_path / "data" / "tablecam" / "demo.sqlite3") as records:
        assert len(records.games()) == 3
