"""``tablecam replay`` from the command line: clear one-sentence errors, events as JSON lines."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tablecam.cli import main
from tablecam.reading.classifier import default_model_path

needs_model = pytest.mark.skipif(not default_model_path().is_file(),
                                 reason="the card-reading model is not built in this checkout")


def test_missing_recording_is_one_sentence_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["replay", str(tmp_path / "nope.mp4")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tablecam replay: there is no recording at ") and err.count("\n") == 1


def test_bad_inputs_file_names_the_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "000000.png"), np.zeros((72, 128, 3), np.uint8))
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text('{"t": 1.0, "button": "spit"}\n{"t": 2.0, "button": "slap"}\n')
    assert main(["replay", str(frames), "--inputs", str(inputs)]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "slap" in err and "Traceback" not in err


@needs_model
def test_a_video_that_is_not_a_spit_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    rng = np.random.default_rng(0)
    for i in range(10):
        image = rng.integers(0, 255, (180, 320, 3), dtype=np.uint8)
        cv2.imwrite(str(frames / f"{i:06d}.png"), image)
    assert main(["replay", str(frames), "--json", "--fps", "10"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("tablecam replay: no Spit deal was seen in ")
    assert captured.out == ""


@needs_model
@pytest.mark.slow
def test_replay_of_the_shipped_demo_recording(capsys: pytest.CaptureFixture[str]) -> None:
    from tablecam.events import Deal, Play, parse_event_lines, read_events
    from tablecam.render.demo import demo_inputs, demo_recording, demo_truth

    assert main(["replay", str(demo_recording()), "--inputs", str(demo_inputs()), "--json"]) == 0
    ours = list(parse_event_lines(capsys.readouterr().out.splitlines(), "replay output"))
    truth = read_events(demo_truth())
    deals = [e for e in ours if isinstance(e, Deal)]
    assert len(deals) == 2  # the demo's two rounds
    # Every stall called is one the truth has (none of them false).
    truth_stalls = [e.t for e in truth if e.type == "stall"]
    assert all(any(-1.0 <= e.t - s <= 1.5 for s in truth_stalls) for e in ours if e.type == "stall")
    # Plays whose card was read name the right player and pile.
    truth_plays = {(e.card, e.player, e.pile) for e in truth if isinstance(e, Play)}
    read = [e for e in ours if isinstance(e, Play) and e.card is not None]
    assert read and sum((e.card, e.player, e.pile) in truth_plays for e in read) >= 0.6 * len(read)
