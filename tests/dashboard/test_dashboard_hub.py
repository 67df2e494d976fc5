"""The hub gives every viewer the same picture and never lets a slow viewer hold up the game."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from tablecam.dashboard import (
    LiveHub,
    LiveSettings,
    Settings,
    SettingsError,
    SpeechSwitch,
    round_summaries,
)
from tablecam.dashboard.hub import MESSAGE_LOG, Cursor
from tablecam.dashboard.replay import replay_to_hub
from tablecam.events import read_events

GOLDEN = Path(__file__).parent.parent / "data" / "game-events.jsonl"
CARD = {"card": "8H", "corners": [[1.0, 2.0], [3.0, 2.0], [3.0, 5.0], [1.0, 5.0]], "zone": "A1"}


def golden_dicts() -> list[dict[str, object]]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


def test_round_summaries_of_the_golden_game() -> None:
    rounds = round_summaries(golden_dicts())
    assert [r["round"] for r in rounds] == [1, 2, 3, 4]
    assert rounds[0]["cards_at_deal"] == {"A": 26, "B": 26}
    assert rounds[0]["taken"] == {"A": 25, "B": 15}
    assert rounds[0]["cards_after"] == {"A": 32, "B": 20}
    assert rounds[1]["cards_at_deal"] == {"A": 32, "B": 20}
    assert rounds[3]["winner"] == "B" and rounds[3]["game_winner"] == "B"


def test_a_new_viewer_gets_the_whole_current_picture() -> None:
    hub = LiveHub()
    hub.publish_settings({"names": {"A": "Ada", "B": "Bo"}})
    hub.publish_frame(1.0, b"old", [])
    hub.publish_frame(1.1, b"jpeg", [CARD])
    for event in golden_dicts()[:20]:
        hub.publish_event(event, "said" if event["type"] == "deal" else None)
    hub.publish_state({"round": 1, "phase": "playing"})
    first = hub.snapshot()
    _, second = hub.connect()
    assert first == second
    assert first["settings"]["names"] == {"A": "Ada", "B": "Bo"}
    assert first["state"] == {"round": 1, "phase": "playing"}
    assert [m["event"] for m in first["events"]] == golden_dicts()[:20]
    assert first["events"][0]["announcement"] == "said"
    assert first["rounds"][0]["cards_at_deal"] == {"A": 26, "B": 26}
    assert first["frame"] == {"seq": 2, "t": 1.1, "cards": [CARD]}
    frame = hub.frame(first["frame"]["seq"])
    assert frame is not None and frame.jpeg == b"jpeg"
    old = hub.frame(1)
    assert old is not None and old.jpeg == b"old"


def test_a_slow_viewer_gets_every_event_but_only_the_latest_frame() -> None:
    hub = LiveHub()
    cursor, _ = hub.connect()
    events = golden_dicts()[:30]
    for i, event in enumerate(events):
        hub.publish_frame(i / 10, f"frame{i}".encode(), [])
        hub.publish_event(event, None)
    update = hub.wait(cursor, timeout=1.0)
    kinds = [kind for kind, _ in update.messages]
    assert kinds.count("frame") == 1
    assert update.messages[-1] == ("frame", {"seq": 30, "t": 2.9, "cards": []})
    got = [data["event"] for kind, data in update.messages if kind == "event"]
    assert got == events
    assert hub.wait(cursor, timeout=0.05).messages == []


def test_a_viewer_that_fell_behind_the_log_starts_again_from_a_snapshot() -> None:
    hub = LiveHub()
    cursor, _ = hub.connect()
    for i in range(MESSAGE_LOG + 10):
        hub.publish_state({"round": 1, "n": i})
    update = hub.wait(cursor, timeout=1.0)
    assert [kind for kind, _ in update.messages] == ["snapshot"]
    assert update.messages[0][1]["state"] == {"round": 1, "n": MESSAGE_LOG + 9}


def test_publishing_wakes_a_waiting_viewer_at_once() -> None:
    hub = LiveHub()
    cursor, _ = hub.connect()
    woke: list[float] = []

    def viewer() -> None:
        update = hub.wait(cursor, timeout=5.0)
        assert update.messages
        woke.append(time.monotonic())

    thread = threading.Thread(target=viewer)
    thread.start()
    time.sleep(0.1)
    sent = time.monotonic()
    hub.publish_event(golden_dicts()[0], None)
    thread.join(timeout=5)
    assert woke and woke[0] - sent < 0.2


def test_a_new_game_after_game_end_clears_the_feed() -> None:
    hub = LiveHub()
    events = golden_dicts()
    for event in events:
        hub.publish_event(event, None)
    assert len(hub.snapshot()["events"]) == len(events)
    cursor, _ = hub.connect()
    hub.publish_event(events[0], None)
    snapshot = hub.snapshot()
    assert [m["event"] for m in snapshot["events"]] == [events[0]]
    assert len(snapshot["rounds"]) == 1
    kinds = [kind for kind, _ in hub.wait(cursor, 0.1).messages]
    assert kinds[:2] == ["new_game", "event"]


def test_numpy_values_and_bad_outlines_never_break_a_viewer() -> None:
    hub = LiveHub()
    cursor, _ = hub.connect()
    corners = np.array([[10, 20], [30, 20], [30, 60], [10, 60]], dtype=np.int32)
    hub.publish_frame(np.float64(1.5), b"x", [
        {"card": "QS", "corners": corners, "zone": "B2"},
        {"card": "KS", "corners": [[1, 2]]},  # not four corners: left out
        {"card": "JS"},
    ])
    hub.publish_state({"round": np.int64(2), "phase": "playing"})
    update = hub.wait(cursor, timeout=1.0)
    assert update.wire[0] == 'event: state\ndata: {"round":2,"phase":"playing"}\n\n'
    frame = json.loads(update.wire[1].split("data: ", 1)[1])
    assert frame == {"seq": 1, "t": 1.5, "cards": [
        {"card": "QS", "corners": [[10, 20], [30, 20], [30, 60], [10, 60]], "zone": "B2"}]}


def test_a_round_one_deal_in_the_middle_of_a_game_starts_a_new_game() -> None:
    hub = LiveHub()
    events = golden_dicts()
    second_round = next(i for i, e in enumerate(events) if e["round"] == 2)
    for event in events[:second_round + 5]:
        hub.publish_event(event, None)
    hub.publish_event(events[0], None)  # the table was dealt afresh
    assert [m["event"] for m in hub.snapshot()["events"]] == [events[0]]
    # A repeated round-1 deal within round 1 is not a new game.
    hub.publish_event(events[0], None)
    assert len(hub.snapshot()["events"]) == 2


def test_button_time_is_in_the_pipeline_time_base() -> None:
    assert LiveHub(clock=lambda: 42.5).now() == 42.5
    hub = LiveHub()
    hub.publish_frame(12.0, b"x", [])
    assert 12.0 <= hub.now() < 12.5


def test_close_ends_every_viewer() -> None:
    hub = LiveHub()
    cursor = Cursor()
    hub.close()
    assert hub.wait(cursor, timeout=5.0).closed


def test_a_replayed_game_reaches_the_hub_through_the_referee() -> None:
    hub = LiveHub()
    stats = replay_to_hub(hub, read_events(GOLDEN), speed=0, fps=2)
    snapshot = hub.snapshot()
    decided = [m["event"]["type"] for m in snapshot["events"] if m["event"]]
    assert decided.count("round_summary") == 3 and decided[-2:] == ["game_end", "button"]
    assert snapshot["state"]["phase"] == "game_over"
    assert snapshot["rounds"][-1]["game_winner"] == "B"
    assert any(m["announcement"] == "Spit!" for m in snapshot["events"])
    assert stats.frames >= 2 * 139
    frame = hub.frame()
    assert frame is not None and frame.jpeg[:2] == b"\xff\xd8"


# -------------------------------------------------------------------- settings
def test_settings_changes_are_validated_and_applied() -> None:
    applied: list[Settings] = []
    settings = LiveSettings(on_change=applied.append)
    assert settings.current().variants["pile_taking"] == "winner_chooses"
    new = settings.update({"names": {"A": "  Ada  Lovelace "}, "speech": False,
                           "variants": {"hands": "2", "pile_taking": "slap_race"}})
    assert new.names == {"A": "Ada Lovelace", "B": "B"}
    assert new.speech is False and new.variants["hands"] == 2
    assert applied == [new]


def test_the_speech_switch_silences_only_while_off() -> None:
    said: list[str] = []

    class Voice:
        def say(self, text: str) -> None:
            said.append(text)

        def close(self) -> None:
            said.append("closed")

    switch = SpeechSwitch(Voice())
    settings = LiveSettings(on_change=lambda s: setattr(switch, "enabled", s.speech))
    switch.say("one")
    settings.update({"speech": False})
    switch.say("two")
    settings.update({"speech": True})
    switch.say("three")
    switch.close()
    assert said == ["one", "three", "closed"]


@pytest.mark.parametrize("change, message", [
    ({"names": {"C": "x"}}, "keyed by seat"),
    ({"names": {"A": ""}}, "non-empty"),
    ({"names": {"A": "x" * 40}}, "longer than"),
    ({"speech": "yes"}, "true or false"),
    ({"variants": {"hands": 3}}, "cannot be 3"),
    ({"variants": {"colour": "red"}}, "unknown rule variant"),
    ({"volume": 3}, "unknown setting"),
])
def test_bad_settings_are_refused_and_nothing_changes(change: dict[str, object],
                                                      message: str) -> None:
    settings = LiveSettings()
    before = settings.current()
    with pytest.raises(SettingsError, match=message):
        settings.update(change)
    assert settings.current() == before
