"""The wiring ``run``, ``demo`` and ``replay`` share: config rules, page settings, game log."""

from __future__ import annotations

import io
from pathlib import Path

from tablecam.announce.combined import CombinedAnnouncer
from tablecam.announce.console import ConsoleAnnouncer
from tablecam.config import parse_config
from tablecam.records import GameRecords
from tablecam.referee import RefereeRules
from tablecam.session import build_session

BUTTONS = """
[buttons]
spit = "GPIO17"
slap_A = "GPIO27"
slap_B = "GPIO22"
"""
CONFIG = BUTTONS + """
[players]
A = "Ada"
B = "Bo"
[rules]
pile_taking = "slap_race"
hands = 2
stuck_rule = "last_play_wins"
pad_claims = "spit_side"
round_limit = 7
"""


class Spoken:
    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    def close(self) -> None:
        pass


def test_the_referee_gets_every_rule_of_the_config() -> None:
    config = parse_config(CONFIG)
    session = build_session(config)
    assert session.referee.rules == RefereeRules.from_settings(config.rules)
    rules = session.referee.rules
    assert (rules.take, rules.one_hand, rules.stuck_rule, rules.pad_claims, rules.round_limit) == (
        "slap_race", False, "last_play_wins", "spit_side", 7)
    current = session.settings.current()
    assert current.names == {"A": "Ada", "B": "Bo"}
    assert current.variants == {"pile_taking": "slap_race", "hands": 2,
                                "stuck_rule": "last_play_wins", "pad_claims": "spit_side"}
    assert session.referee._name("A") == "Ada"
    assert session.log is None


def test_page_settings_reach_the_referee_the_voice_and_the_records(tmp_path: Path) -> None:
    console, speaker = io.StringIO(), Spoken()
    announcer = CombinedAnnouncer([ConsoleAnnouncer(stream=console), speaker])
    with GameRecords(tmp_path / "games.sqlite3") as records:
        session = build_session(parse_config(CONFIG), announcer, records)
        assert session.settings.current().speech
        session.settings.update({"names": {"A": "Alice"}, "speech": False,
                                 "variants": {"pile_taking": "winner_chooses", "hands": "1"}})
        announcer.say("Alice wins round 1.")
        assert speaker.said == [] and "Alice wins round 1." in console.getvalue()  # muted, printed
        session.settings.update({"speech": True})
        announcer.say("Spit!")
        assert speaker.said == ["Spit!"]
        assert session.referee._name("A") == "Alice"
        session.referee.tick(0.0)  # no round in play: the variants apply at once
        assert session.referee.rules.take == "winner_chooses" and session.referee.rules.one_hand
        assert session.referee.rules.round_limit == 7  # what the page cannot change is kept
        assert session.log is not None
        game_id = session.log.record({"t": 0.0, "round": 1, "type": "button", "button": "spit"})
        game = records.game(game_id)
        assert game.names == {"A": "Alice", "B": "Bo"}
        assert game.variants["pile_taking"] == "winner_chooses"


def test_a_console_only_announcer_has_speech_off() -> None:
    session = build_session(parse_config(BUTTONS), CombinedAnnouncer([ConsoleAnnouncer(stream=io.StringIO())]))
    assert session.switches == [] and not session.settings.current().speech
