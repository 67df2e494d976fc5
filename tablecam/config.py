"""The table box's configuration: one validated tree read from a TOML file.

``load_config(path)`` reads pins, camera, speech, rules variants, player names and the
dashboard port, checks every value, and returns a frozen ``Config``.  Any problem is a
``ConfigError`` whose message is one sentence naming the file and the line, so a
person editing ``/etc/tablecam.toml`` on the Pi can fix it without reading a traceback.
``default_config()`` is the shipped ``tablecam/tablecam.toml`` (the same file as
``hardware/tablecam.toml``).

Pins are named the way gpiozero names BCM pins: ``"GPIO17"``.  The config also accepts
``"BCM17"``, a bare BCM number ``17`` and a physical header pin ``"BOARD11"``; all are
normalised to ``"GPIO<n>"``.  Only GPIO2..GPIO27 on the 40-pin header are allowed
(GPIO0/1 are the HAT EEPROM bus).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

from tablecam.errors import ConfigError
from tablecam.rules.settings import PAD_CLAIMS, PILE_TAKING, STUCK_RULES, Settings

DEFAULT_CONFIG_NAME: Final = "tablecam.toml"

# Physical header pin -> BCM GPIO number on every 40-pin Raspberry Pi (Pi 2 to Pi 5).
BOARD_TO_BCM: Final[dict[int, int]] = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24,
    19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
    36: 16, 37: 26, 38: 20, 40: 21,
}
USABLE_BCM: Final = range(2, 28)

CAMERA_KINDS: Final = ("auto", "picamera2", "opencv", "video", "frames")
SPEECH_ENGINES: Final = ("espeak-ng", "console")


@dataclass(frozen=True, slots=True)
class ButtonsConfig:
    """GPIO pins (``"GPIO<n>"``) of the spit button and the two slap pads."""

    spit: str
    slap_a: str
    slap_b: str
    debounce_ms: float = 30.0


@dataclass(frozen=True, slots=True)
class OutputsConfig:
    """Optional status LEDs (one per player, lit when that player's slap counts) and buzzer."""

    led_a: str | None = None
    led_b: str | None = None
    buzzer: str | None = None


@dataclass(frozen=True, slots=True)
class CameraConfig:
    """Which camera, at what size, and the fixed picture settings that stop it hunting.

    ``exposure_us``, ``analogue_gain`` and ``focus_m`` left out mean: let the camera
    settle for ``settle_s`` seconds at start-up, then lock what it chose.
    ``rotate`` (0, 90, 180, 270 degrees clockwise) turns the picture so that player A
    sits at its bottom edge however the camera is mounted.
    """

    source: str = "auto"
    width: int = 2304
    height: int = 1296
    fps: float = 15.0
    exposure_us: int | None = None
    analogue_gain: float | None = None
    focus_m: float | None = None
    settle_s: float = 2.0
    reopen_max_backoff_s: float = 5.0
    rotate: int = 0


@dataclass(frozen=True, slots=True)
class SpeechConfig:
    engine: str = "espeak-ng"
    voice: str = "en"
    words_per_minute: int = 175
    amplitude: int = 100




@dataclass(frozen=True, slots=True)
class DashboardConfig:
    host: str = "0.0.0.0"
    port: int = 8080


@dataclass(frozen=True, slots=True)
class Config:
    buttons: ButtonsConfig
    outputs: OutputsConfig = field(default_factory=OutputsConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    speech: SpeechConfig = field(default_factory=SpeechConfig)
    rules: Settings = field(default_factory=Settings)
    dashboard: DashboardConfig = field(default_factory=DashboardConfig)
    players: dict[str, str] = field(default_factory=lambda: {"A": "Player A", "B": "Player B"})
    path: str = "<default>"

    def player_name(self, seat: str) -> str:
        return self.players.get(seat, f"Player {seat}")


def parse_pin(value: object) -> str:
    """A pin name in any accepted spelling -> ``"GPIO<n>"``; ValueError says why not."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a pin name")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        text = value.strip().upper()
        match = re.fullmatch(r"(GPIO|BCM|BOARD|)(\d+)", text)
        if match is None:
            raise ValueError(
                f"{value!r} is not a pin name (use GPIO17, BCM17, 17 or BOARD11)")
        prefix, digits = match.group(1), int(match.group(2))
        if prefix == "BOARD":
            if digits not in BOARD_TO_BCM:
                raise ValueError(f"header pin {value!r} is not a usable GPIO pin on the 40-pin header")
            number = BOARD_TO_BCM[digits]
        else:
            number = digits
    else:
        raise ValueError(f"{value!r} is not a pin name")
    if number not in USABLE_BCM:
        raise ValueError(f"{value!r} is not a usable GPIO pin (GPIO2 to GPIO27)")
    return f"GPIO{number}"


class _Reader:
    """Pulls typed values out of one parsed TOML table, naming the file and line on error."""

    def __init__(self, path: str, text: str, data: dict[str, Any]) -> None:
        self.path = path
        self.lines = text.splitlines()
        self.data = data

    def line_of(self, section: str, key: str | None = None) -> int | None:
        """1-based line where ``[section]`` (or ``key`` inside it) is written, if found."""
        current = ""
        header = re.compile(r"^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]")
        for number, line in enumerate(self.lines, start=1):
            found = header.match(line)
            if found:
                current = found.group(1)
                if key is None and current == section:
                    return number
                continue
            if key is not None and current == section and re.match(
                    rf"^\s*\"?{re.escape(key)}\"?\s*=", line):
                return number
        return None

    def fail(self, section: str, key: str | None, problem: str) -> ConfigError:
        line = self.line_of(section, key)
        where = f"{self.path}, line {line}" if line else self.path
        name = f"{section}.{key}" if key else f"[{section}]"
        return ConfigError(f"{where}: {name} {problem}.")

    def table(self, section: str, known: tuple[str, ...]) -> dict[str, Any]:
        raw = self.data.get(section, {})
        if not isinstance(raw, dict):
            raise self.fail(section, None, "must be a table")
        for key in raw:
            if key not in known:
                raise self.fail(section, key,
                                f"is not a known setting (known: {', '.join(known)})")
        return raw

    def get(self, section: str, key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        table = self.data.get(section, {})
        if key not in table:
            return default
        value = table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(section, key, f"must be {_kind_name(kinds)}, not {value!r}")
        if not isinstance(value, kinds):
            raise self.fail(section, key, f"must be {_kind_name(kinds)}, not {value!r}")
        return value

    def number(self, section: str, key: str, default: float | None, low: float,
               high: float) -> float | None:
        value = self.get(section, key, (int, float), default)
        if value is None:
            return None
        if not low <= value <= high:
            raise self.fail(section, key, f"must be between {low:g} and {high:g}, not {value!r}")
        return float(value)

    def choice(self, section: str, key: str, default: str, choices: tuple[str, ...],
               number: bool = False) -> str:
        value = self.get(section, key, int if number else str, default)
        if str(value) not in choices:
            raise self.fail(section, key,
                            f"must be one of {', '.join(choices)}, not {value!r}")
        return str(value)

    def pin(self, section: str, key: str, required: bool) -> str | None:
        table = self.data.get(section, {})
        if key not in table or table[key] in ("", None):
            if required:
                line = self.line_of(section)
                where = f"{self.path}, line {line}" if line else self.path
                raise ConfigError(f"{where}: {section}.{key} is missing; give it a pin such as \"GPIO17\".")
            return None
        try:
            return parse_pin(table[key])
        except ValueError as error:
            raise self.fail(section, key, f"is wrong: {error}") from None


def _kind_name(kinds: tuple[type, ...]) -> str:
    names = {int: "a whole number", float: "a number", str: "text", bool: "true or false"}
    return " or ".join(dict.fromkeys(names.get(k, k.__name__) for k in kinds))


def parse_config(text: str, path: str = "<config>") -> Config:
    """Parse and validate a config file's text; ``path`` only names it in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        found = re.search(r"\(at line (\d+), column \d+\)", message)
        reason = re.sub(r"\s*\(at .*\)$", "", message).rstrip(".")
        where = f"{path}, line {found.group(1)}" if found else path
        raise ConfigError(f"{where}: this is not valid TOML ({reason[:1].lower()}{reason[1:]}).") from None
    r = _Reader(path, text, data)
    sections = ("players", "buttons", "outputs", "camera", "speech", "rules", "dashboard")
    for section in data:
        if section not in sections:
            line = r.line_of(section) or r.line_of("", section)
            where = f"{path}, line {line}" if line else path
            raise ConfigError(f"{where}: [{section}] is not a known section "
                              f"(known: {', '.join(sections)}).")

    r.table("players", ("A", "B"))
    players = {seat: r.get("players", seat, str, f"Player {seat}") for seat in ("A", "B")}

    r.table("buttons", ("spit", "slap_A", "slap_B", "debounce_ms"))
    spit = r.pin("buttons", "spit", required=True)
    slap_a = r.pin("buttons", "slap_A", required=True)
    slap_b = r.pin("buttons", "slap_B", required=True)
    assert spit is not None and slap_a is not None and slap_b is not None
    debounce = r.number("buttons", "debounce_ms", 30.0, 0.0, 500.0)
    buttons = ButtonsConfig(spit=spit, slap_a=slap_a, slap_b=slap_b,
                            debounce_ms=debounce if debounce is not None else 30.0)

    r.table("outputs", ("led_A", "led_B", "buzzer"))
    outputs = OutputsConfig(led_a=r.pin("outputs", "led_A", required=False),
                            led_b=r.pin("outputs", "led_B", required=False),
                            buzzer=r.pin("outputs", "buzzer", required=False))

    used: dict[str, tuple[str, str]] = {}
    for section, key, pin in (("buttons", "spit", buttons.spit),
                              ("buttons", "slap_A", buttons.slap_a),
                              ("buttons", "slap_B", buttons.slap_b),
                              ("outputs", "led_A", outputs.led_a),
                              ("outputs", "led_B", outputs.led_b),
                              ("outputs", "buzzer", outputs.buzzer)):
        if pin is None:
            continue
        if pin in used:
            first_section, first_key = used[pin]
            first_line = r.line_of(first_section, first_key)
            also = f" (line {first_line})" if first_line else ""
            raise r.fail(section, key, f"uses {pin}, which {first_section}.{first_key}{also} "
                                       "already uses; give each its own pin")
        used[pin] = (section, key)

    camera_keys = ("source", "width", "height", "fps", "exposure_us", "analogue_gain",
                   "focus_m", "settle_s", "reopen_max_backoff_s", "rotate")
    r.table("camera", camera_keys)
    source = r.get("camera", "source", str, "auto")
    if source.split(":", 1)[0] not in CAMERA_KINDS:
        raise r.fail("camera", "source",
                     f"must start with one of {', '.join(CAMERA_KINDS)}, not {source!r}")
    exposure = r.number("camera", "exposure_us", None, 50, 1_000_000)
    camera = CameraConfig(
        source=source,
        width=int(r.number("camera", "width", 2304, 64, 10000) or 2304),
        height=int(r.number("camera", "height", 1296, 64, 10000) or 1296),
        fps=r.number("camera", "fps", 15.0, 1, 120) or 15.0,
        exposure_us=int(exposure) if exposure is not None else None,
        analogue_gain=r.number("camera", "analogue_gain", None, 1.0, 16.0),
        focus_m=r.number("camera", "focus_m", None, 0.1, 10.0),
        settle_s=r.number("camera", "settle_s", 2.0, 0.0, 30.0) or 0.0,
        reopen_max_backoff_s=r.number("camera", "reopen_max_backoff_s", 5.0, 0.1, 600.0) or 5.0,
        rotate=int(r.choice("camera", "rotate", "0", ("0", "90", "180", "270"), number=True)),
    )

    r.table("speech", ("engine", "voice", "words_per_minute", "amplitude"))
    speech = SpeechConfig(
        engine=r.choice("speech", "engine", "espeak-ng", SPEECH_ENGINES),
        voice=r.get("speech", "voice", str, "en"),
        words_per_minute=int(r.number("speech", "words_per_minute", 175, 80, 450) or 175),
        amplitude=int(r.number("speech", "amplitude", 100, 0, 200) or 0),
    )

    r.table("rules", ("pile_taking", "hands", "stuck_rule", "pad_claims", "round_limit"))
    round_limit = r.number("rules", "round_limit", 100, 0, 100000)
    rules = Settings(
        pile_taking=r.choice("rules", "pile_taking", "winner_chooses", PILE_TAKING),  # type: ignore[arg-type]
        hands=int(r.choice("rules", "hands", "1", ("1", "2"), number=True)),
        stuck_rule=r.choice("rules", "stuck_rule", "fewer_cards_wins", STUCK_RULES),  # type: ignore[arg-type]
        pad_claims=r.choice("rules", "pad_claims", "smaller", PAD_CLAIMS),  # type: ignore[arg-type]
        round_limit=int(round_limit) if round_limit else None,
    )

    r.table("dashboard", ("host", "port"))
    port = r.number("dashboard", "port", 8080, 0, 65535)
    dashboard = DashboardConfig(
        host=r.get("dashboard", "host", str, "0.0.0.0"),
        port=8080 if port is None else int(port),  # 0: any free port
    )
    return Config(buttons=buttons, outputs=outputs, camera=camera, speech=speech, rules=rules,
                  dashboard=dashboard, players=players, path=path)


def load_config(path: str | Path | None = None) -> Config:
    """Read the config file at ``path``, or the shipped default when ``path`` is None."""
    if path is None:
        return default_config()
    location = Path(path)
    try:
        text = location.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{location}: there is no such config file; copy "
                          "hardware/tablecam.toml there or pass --config FILE.") from None
    except IsADirectoryError:
        raise ConfigError(f"{location} is a folder, not a config file.") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{location} is not a UTF-8 text file.") from None
    except OSError as error:
        raise ConfigError(f"{location} could not be read ({error.strerror}).") from None
    return parse_config(text, str(location))


def default_config_text() -> str:
    return resources.files("tablecam").joinpath(DEFAULT_CONFIG_NAME).read_text(encoding="utf-8")


def default_config() -> Config:
    """The configuration shipped in the package (``hardware/tablecam.toml``)."""
    return parse_config(default_config_text(), "<default tablecam.toml>")
