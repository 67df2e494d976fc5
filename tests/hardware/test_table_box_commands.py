"""``tablecam check`` and ``tablecam run``'s table box, on fakes: a frame with the mat
gets its zones drawn, each button is asked for in turn, presses reach the pipeline."""

from __future__ import annotations

import io
import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from tablecam.capture.fake import FakeCamera
from tablecam.cards import FULL_DECK
from tablecam.cli import main
from tablecam.commands.check import check_buttons, check_camera, check_speech
from tablecam.commands.run import build_table_box
from tablecam.config import ButtonsConfig, parse_config
from tablecam.geometry.mat import render_mat
from tablecam.inputs import ButtonPress
from tablecam.inputs.clock import PipelineClock
from tablecam.inputs.gpio import GpioButtons
from tablecam.reading.scenes import background, spit_deal_scene

BUTTONS = ButtonsConfig(spit="GPIO17", slap_a="GPIO27", slap_b="GPIO22", debounce_ms=30)
PIN_OF = {"the spit button": "GPIO17", "player A's slap pad": "GPIO27",
          "player B's slap pad": "GPIO22"}


@pytest.fixture()
def factory() -> Iterator[MockFactory]:
    mock = MockFactory()
    yield mock
    mock.reset()


def test_camera_step_draws_the_mat_zones(tmp_path: Path) -> None:
    out = tmp_path / "check.png"
    mat = render_mat(dpi=100)
    result = check_camera(FakeCamera([mat]), out)
    assert result.ok, result.message
    assert "14 zones from the ArUco mat" in result.message
    assert "3.9 px/mm" in result.message
    saved = cv2.imread(str(out))
    assert saved.shape == mat.shape
    assert np.count_nonzero(np.all(saved == (0, 220, 0), axis=2)) > 1000  # zone outlines


def test_camera_step_says_when_the_table_is_too_far(tmp_path: Path) -> None:
    result = check_camera(FakeCamera([render_mat(dpi=40)]), tmp_path / "far.png")
    assert not result.ok and "1.6 px/mm" in result.message and "too few" in result.message


def test_camera_step_without_a_table(tmp_path: Path) -> None:
    blank = np.full((480, 640, 3), 60, np.uint8)
    result = check_camera(FakeCamera([blank]), tmp_path / "blank.png")
    assert result.ok and "no table zones seen" in result.message
    assert not check_camera(FakeCamera([]), tmp_path / "none.png").ok


def test_camera_step_shows_a_deal_with_a_column_not_found(tmp_path: Path) -> None:
    # B3's card is not found (painted over with the cloth): the zones the table reader
    # would take after a second are drawn, and the message says they were inferred
    scene = spit_deal_scene(FULL_DECK[:10], size=(1920, 1080), px_per_mm=2.2, seed=3)
    image = scene.image.copy()
    cloth = background((1920, 1080), (40, 90, 40), 3)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(scene.truth["B3"][0]).astype(np.int32), 255)
    mask = cv2.dilate(mask, np.ones((9, 9), np.uint8))
    image[mask > 0] = cloth[mask > 0]
    result = check_camera(FakeCamera([image]), tmp_path / "partial.png")
    assert result.ok, result.message
    assert "14 zones from the dealt cards as best they fit" in result.message
    assert "column(s) not found" in result.message


def _press_later(factory: MockFactory, pin: str) -> None:
    """A hand on the button a moment (longer than the debounce) after the prompt."""
    time.sleep(0.05)
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def _press_when_asked(factory: MockFactory, wrong: dict[str, str] | None = None,
                      ) -> tuple[Callable[[str], None], list[str]]:
    asked: list[str] = []

    def ask(line: str) -> None:
        asked.append(line)
        for name, pin in PIN_OF.items():
            if line.startswith(f"Press {name}"):
                target = (wrong or {}).get(name, pin)
                threading.Thread(target=_press_later, args=(factory, target)).start()
    return ask, asked


def test_button_step_asks_for_each_button(factory: MockFactory) -> None:
    presses: queue.Queue[ButtonPress] = queue.Queue()
    ask, asked = _press_when_asked(factory)
    with GpioButtons(BUTTONS, presses, PipelineClock(), pin_factory=factory):
        result = check_buttons(presses, ask, timeout=2.0)
    assert result.ok, asked
    assert [line for line in asked if line.startswith("Press")] == [
        "Press the spit button now (2 s)...", "Press player A's slap pad now (2 s)...",
        "Press player B's slap pad now (2 s)..."]


def test_button_step_names_a_miswired_pad(factory: MockFactory) -> None:
    presses: queue.Queue[ButtonPress] = queue.Queue()
    ask, asked = _press_when_asked(factory, wrong={"player B's slap pad": "GPIO27"})
    with GpioButtons(BUTTONS, presses, PipelineClock(), pin_factory=factory):
        result = check_buttons(presses, ask, timeout=0.3)
    assert not result.ok and "player B's slap pad" in result.message
    assert "  player B's slap pad: nothing (got slap A instead; check the wiring table)" in asked


def test_speech_step_announces() -> None:
    said: list[str] = []

    class Recorder:
        def say(self, text: str) -> None:
            said.append(text)

        def close(self) -> None:
            said.append("<closed>")

    assert check_speech(Recorder()).ok and said[0].startswith("Spit!") and said[-1] == "<closed>"


def test_check_command_on_a_video(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    video = tmp_path / "table.avi"
    mat = render_mat(dpi=60)
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10,
                             (mat.shape[1], mat.shape[0]))
    writer.write(mat)
    writer.release()
    out = tmp_path / "check.png"
    assert main(["check", "--camera", f"video:{video}", "--out", str(out),
                 "--no-buttons", "--no-speech"]) == 0
    printed = capsys.readouterr().out
    assert "camera: OK" in printed and "zones from the ArUco mat" in printed and out.is_file()


def test_check_command_reports_a_missing_camera(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--camera", f"video:{tmp_path}/none.mp4", "--no-buttons",
                 "--no-speech"]) == 1
    assert "camera: FAIL" in capsys.readouterr().out


CONSOLE_CONFIG = """\
[buttons]
spit = "GPIO17"
slap_A = "GPIO27"
slap_B = "GPIO22"
[outputs]
led_A = "GPIO5"
buzzer = "GPIO13"
[speech]
engine = "console"
"""


def test_table_box_brings_presses_to_the_pipeline_with_feedback(
        factory: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdout", io.StringIO())
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), np.zeros((48, 64, 3), np.uint8))
    box = build_table_box(parse_config(CONSOLE_CONFIG), camera=f"frames:{frames}",
                          pin_factory=factory)
    try:
        factory.pin("GPIO27").drive_low()
        press = box.presses.get(timeout=2)
        assert press.button == "slap" and press.player == "A" and press.t >= 0
        time.sleep(0.05)
        assert factory.pin("GPIO5").state == 1  # A's LED lights for the slap
        frame = box.source.read()
        assert frame is not None and frame.image.shape == (48, 64, 3)
        box.announcer.say("Spit!")
    finally:
        box.close()
    # the pins were released: they can be claimed again
    GpioButtons(BUTTONS, queue.Queue(), PipelineClock(), pin_factory=factory).close()


def test_table_box_closes_what_it_opened_when_the_camera_is_missing(
        factory: MockFactory, tmp_path: Path) -> None:
    from tablecam.errors import CaptureError

    with pytest.raises(CaptureError, match="no such folder"):
        build_table_box(parse_config(CONSOLE_CONFIG), camera=f"frames:{tmp_path}/nothing",
                        pin_factory=factory)
    GpioButtons(BUTTONS, queue.Queue(), PipelineClock(), pin_factory=factory).close()


def test_run_with_a_broken_config_is_one_sentence(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--config", str(tmp_path / "missing.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such config file" in err


class _NoCards:
    """Stands in for the card model: the blank frames show nothing to read."""

    def __init__(self, model_path: object = None) -> None:
        pass

    def read(self, cards: object) -> list[object]:
        return []


def _blank_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three blank frames for ``--camera frames:``, a reader that sees nothing, and the
    app's data (game records) under ``tmp_path / "data"``; returns the frames folder."""
    monkeypatch.setattr("tablecam.reading.classifier.CardClassifier", _NoCards)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    frames = tmp_path / "frames"
    frames.mkdir()
    for index in range(3):
        cv2.imwrite(str(frames / f"{index:04d}.png"), np.full((120, 160, 3), 40, np.uint8))
    return frames


def test_run_plays_a_recording_through_the_whole_pipeline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``tablecam run`` on a folder of frames with console speech and the dashboard on a
    free port: the table box reaches the composition root and the game log is kept.
    The card model is replaced by a reader that sees nothing (the frames are blank)."""
    frames = _blank_table(tmp_path, monkeypatch)
    config = tmp_path / "tablecam.toml"
    config.write_text(CONSOLE_CONFIG.split("[outputs]")[0] + '[speech]\nengine = "console"\n'
                      '[dashboard]\nhost = "127.0.0.1"\nport = 0\n')
    assert main(["run", "--config", str(config), "--camera", f"frames:{frames}"]) == 0
    captured = capsys.readouterr()
    assert "tablecam is ready" in captured.out
    assert "dashboard at http://" in captured.err
    assert (tmp_path / "data" / "tablecam").is_dir()


def test_camera_step_lets_a_live_camera_settle(tmp_path: Path) -> None:
    dark = np.zeros((480, 640, 3), np.uint8)
    result = check_camera(FakeCamera([dark] * 5 + [render_mat(dpi=100)]), tmp_path / "c.png",
                          warm_up_frames=5)
    assert result.ok and "zones from the ArUco mat" in result.message


def _golden_until_round_2() -> list[dict[str, object]]:
    lines = (Path(__file__).resolve().parents[1] / "data" / "game-events.jsonl").read_text().splitlines()
    events = [json.loads(line) for line in lines if line.strip()]
    return events[:next(i for i, e in enumerate(events) if e["type"] == "deal" and e["round"] == 2)]


def test_run_resumes_the_game_with_the_configs_rules_and_the_pages_settings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A restarted ``tablecam run`` carries on the unfinished game of its records, with
    every rule of the config, the dashboard on ``--port``, and the page's settings applied."""
    import re
    import socket
    import urllib.request

    import tablecam.app
    from tablecam.records import GameRecords
    frames = _blank_table(tmp_path, monkeypatch)
    logged = _golden_until_round_2()  # round 1 over, the cards not yet dealt again
    with GameRecords(tmp_path / "data" / "tablecam" / "games.sqlite3") as records:
        for event in logged:
            records.record(event, names={"A": "Ada", "B": "B"})
    config = tmp_path / "tablecam.toml"
    config.write_text(CONSOLE_CONFIG.split("[outputs]")[0] + '[speech]\nengine = "console"\n'
                      '[players]\nA = "Ada"\n'
                      '[rules]\nstuck_rule = "last_play_wins"\nhands = 2\n'
                      'round_limit = 5\n[dashboard]\nhost = "127.0.0.1"\nport = 1\n')
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    seen: dict[str, object] = {}
    real = tablecam.app.run_pipeline

    def pipeline(source: object, reader: object, referee: object, **kw: object) -> object:
        url, pin = re.findall(r"dashboard at (\S+) \(PIN (\d+)\)", capsys.readouterr().err)[0]
        change = json.dumps({"names": {"B": "Bo"},
                             "variants": {"pile_taking": "slap_race"}}).encode()
        request = urllib.request.Request(url + "api/settings", data=change, method="POST",
                                         headers={"X-Tablecam-Pin": pin,
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert answer.status == 200
        seen.update(url=url, referee=referee)
        return real(source, reader, referee, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(tablecam.app, "run_pipeline", pipeline)
    assert main(["run", "--config", str(config), "--camera", f"frames:{frames}",
                 "--port", str(port)]) == 0
    assert seen["url"] == f"http://127.0.0.1:{port}/"  # --port overrides the config
    assert "Resuming round 1 of the unfinished game." in capsys.readouterr().out
    referee = seen["referee"]
    assert isinstance(referee, tablecam.app.Referee)
    assert referee.round == 1 and referee.counts == {"A": 32, "B": 20}
    assert (referee.rules.stuck_rule, referee.rules.one_hand, referee.rules.round_limit) == (
        "last_play_wins", False, 5)
    assert referee.rules.take == "slap_race"  # from the page; between rounds, so at once
    assert (referee._name("A"), referee._name("B")) == ("Ada", "Bo")
    with GameRecords(tmp_path / "data" / "tablecam" / "games.sqlite3") as records:
        [game] = records.games()
        assert len(records.events(game.id)) == len(logged)


def test_games_are_recorded_with_the_tables_names_and_variants(tmp_path: Path) -> None:
    from tablecam.config import parse_config
    from tablecam.records import GameRecords
    from tablecam.session import build_session

    first_event = _golden_until_round_2()[0]
    config = parse_config(CONSOLE_CONFIG + '[players]\nA = "Ada"\nB = "Bo"\n'
                          '[rules]\npile_taking = "slap_race"\n')
    with GameRecords(tmp_path / "games.sqlite3") as records:
        log = build_session(config, records=records).log
        assert log is not None
        game_id = log.record(first_event, source="tablecam")
        game = records.game(game_id)
        assert game.names == {"A": "Ada", "B": "Bo"}
        assert game.variants["pile_taking"] == "slap_race"
        assert log.resume_events() == [first_event]
