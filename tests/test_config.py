"""The config file: the shipped default is valid, and every broken file gives one
sentence naming the file and the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablecam.cli import main
from tablecam.config import (
    default_config,
    default_config_text,
    load_config,
    parse_config,
    parse_pin,
)
from tablecam.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]

GOOD = """\
[players]
A = "Ada"
B = "Bo"

[buttons]
spit = "GPIO17"
slap_A = "BOARD13"
slap_B = 22
debounce_ms = 20

[outputs]
led_A = "BCM5"

[camera]
source = "video:game.mp4"
exposure_us = 8000
focus_m = 0.85

[speech]
engine = "console"
"""


def _error(text: str, tmp_path: Path) -> str:
    path = tmp_path / "tablecam.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert "\n" not in message and message.endswith(".")
    assert str(path) in message
    return message


def test_shipped_default_is_valid_and_matches_hardware_copy() -> None:
    config = default_config()
    assert (config.buttons.spit, config.buttons.slap_a, config.buttons.slap_b) == (
        "GPIO17", "GPIO27", "GPIO22")
    assert default_config_text() == (ROOT / "hardware" / "tablecam.toml").read_text()


def test_good_file_is_normalised(tmp_path: Path) -> None:
    path = tmp_path / "tablecam.toml"
    path.write_text(GOOD)
    config = load_config(path)
    assert config.buttons.slap_a == "GPIO27"  # header pin 13
    assert config.buttons.slap_b == "GPIO22"
    assert config.buttons.debounce_ms == 20
    assert config.outputs.led_a == "GPIO5" and config.outputs.buzzer is None
    assert config.camera.exposure_us == 8000 and config.camera.analogue_gain is None
    assert config.player_name("A") == "Ada"
    assert config.speech.engine == "console"


@pytest.mark.parametrize("name, expected", [
    ("GPIO4", "GPIO4"), ("gpio27", "GPIO27"), ("BCM2", "GPIO2"), (17, "GPIO17"),
    ("BOARD40", "GPIO21"), ("board3", "GPIO2")])
def test_pin_spellings(name: object, expected: str) -> None:
    assert parse_pin(name) == expected


@pytest.mark.parametrize("name", ["GPIO28", "GPIO1", "BOARD1", "BOARD6", "PIN7", 0, True, 1.5])
def test_bad_pins_are_refused(name: object) -> None:
    with pytest.raises(ValueError):
        parse_pin(name)


def test_wrong_pin_name_names_the_line(tmp_path: Path) -> None:
    message = _error(GOOD.replace('slap_B = 22', 'slap_B = "GPIO99"'), tmp_path)
    assert "line 8" in message and "buttons.slap_B" in message and "GPIO99" in message


def test_pin_used_twice_names_both_keys(tmp_path: Path) -> None:
    message = _error(GOOD.replace('led_A = "BCM5"', 'led_A = "GPIO17"'), tmp_path)
    assert "line 12" in message and "outputs.led_A" in message
    assert "buttons.spit (line 6)" in message and "GPIO17" in message


def test_same_pin_in_two_spellings_is_caught(tmp_path: Path) -> None:
    message = _error(GOOD.replace('slap_B = 22', 'slap_B = "BOARD11"'), tmp_path)
    assert "buttons.slap_B" in message and "buttons.spit" in message


def test_missing_file_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.toml")


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    message = _error(GOOD.replace('debounce_ms = 20', 'debounce_ms = '), tmp_path)
    assert "line 9" in message and "not valid TOML" in message


@pytest.mark.parametrize("change, words", [
    (('debounce_ms = 20', 'debounce_ms = "fast"'), ["line 9", "buttons.debounce_ms", "number"]),
    (('debounce_ms = 20', 'debounce_ms = 9000'), ["line 9", "between"]),
    (('engine = "console"', 'engine = "festival"'), ["line 20", "speech.engine", "espeak-ng"]),
    (('focus_m = 0.85', 'focus = 0.85'), ["line 17", "camera.focus", "not a known setting"]),
    (('source = "video:game.mp4"', 'source = "webcam"'), ["line 15", "camera.source"]),
    (('focus_m = 0.85', 'rotate = 45'), ["line 17", "camera.rotate", "0, 90, 180, 270"]),
    (('[speech]', '[voice]'), ["line 19", "[voice]", "not a known section"]),
    (('[players]', 'port = 8080\n[players]'), ["line 1", "[port]", "not a known section"]),
    (('spit = "GPIO17"\n', ''), ["line 5", "buttons.spit is missing"]),
])
def test_semantic_errors_name_the_line(tmp_path: Path, change: tuple[str, str],
                                       words: list[str]) -> None:
    message = _error(GOOD.replace(*change), tmp_path)
    for word in words:
        assert word in message


def test_parse_config_defaults_everything_but_the_buttons() -> None:
    config = parse_config('[buttons]\nspit = 17\nslap_A = 27\nslap_B = 22\n')
    assert config.camera.source == "auto" and config.dashboard.port == 8080
    assert config.rules.pile_taking == "winner_chooses" and config.rules.hands == 1


def test_cli_prints_one_sentence_not_a_traceback(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(GOOD.replace('slap_B = 22', 'slap_B = 17'))
    assert main(["check", "--config", str(path), "--no-camera", "--no-buttons",
                 "--no-speech"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1 and "slap_B" in err
