"""The composition root runs every stage in order and survives bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tablecam.app import judge, referee_readings, run_pipeline
from tablecam.capture import Frame
from tablecam.errors import TablecamError
from tablecam.events import Button, event_to_dict, read_events
from tablecam.inputs import ButtonPress
from tablecam.records import GameRecords
from tablecam.referee import Referee
from tablecam.tracking import Unsure
from tablecam.tracking.synthetic import Noise, SyntheticReading, synthetic_readings

GOLDEN = Path(__file__).parent / "data" / "game-events.jsonl"
DECIDED = ("stall", "round_end", "take", "round_summary", "game_end")


class FakeSource:
    """Frames at the synthetic readings' times; one frame of another size; a camera stop."""

    def __init__(self, times: list[float], odd_at: int | None = None) -> None:
        self.times = times
        self.index = 0
        self.odd_at = odd_at
        self.closed = False

    def read(self) -> Frame | None:
        if self.index >= len(self.times):
            return None
        t = self.times[self.index]
        self.index += 1
        size = (48, 64) if self.index - 1 == self.odd_at else (36, 64)
        return Frame(t, np.zeros((*size, 3), np.uint8))

    def close(self) -> None:
        self.closed = True


class FakeReader:
    def __init__(self, readings: dict[float, SyntheticReading]) -> None:
        self.readings = readings

    def read(self, frame: Frame) -> SyntheticReading:
        if frame.t not in self.readings:
            raise TablecamError("no table in this frame")
        return self.readings[frame.t]


class ListAnnouncer:
    def __init__(self) -> None:
        self.said: list[str] = []
        self.closed = False

    def say(self, text: str) -> None:
        self.said.append(text)

    def close(self) -> None:
        self.closed = True


def golden_inputs(gap: tuple[float, float] | None = None) -> tuple[FakeSource, FakeReader, list[ButtonPress]]:
    events = read_events(GOLDEN)
    readings = {r.t: r for r in synthetic_readings(events, noise=Noise(misread=0.01, drop=0.02), seed=7)
                if gap is None or not gap[0] <= r.t < gap[1]}
    times = sorted(readings)
    presses = [ButtonPress(e.t, e.button, e.player) for e in events if isinstance(e, Button)]
    return FakeSource(times, odd_at=400), FakeReader(readings), presses


def test_pipeline_referees_the_golden_game_and_closes_its_stages(tmp_path: Path) -> None:
    source, reader, presses = golden_inputs(gap=(60.0, 63.0))
    # Presses at the wrong time: a spit while moves remain, a slap mid-round.
    presses += [ButtonPress(6.5, "spit"), ButtonPress(7.0, "slap", "A")]
    announcer = ListAnnouncer()
    records = GameRecords(tmp_path / "games.sqlite3")
    result = run_pipeline(source, reader, Referee(), announcer=announcer, presses=presses, log=records)
    assert source.closed and announcer.closed
    truth = [event_to_dict(e) for e in read_events(GOLDEN) if e.type in DECIDED and e.type != "stall"]
    ours = [event_to_dict(e) for e in result.events if e.type in DECIDED and e.type != "stall"]
    for d in truth + ours:
        d.pop("t")
    assert ours == truth
    assert any(s.startswith("Skipping frames of 64x48") for s in announcer.said)
    assert any(s.startswith("The camera gave no picture for 3.") for s in announcer.said)
    assert "No round has ended; the slap by player A does nothing." in announcer.said
    assert any(s.startswith("Not stuck yet: ") for s in announcer.said)
    stored = records.events(records.games()[0].id)
    assert [e["type"] for e in stored if e["type"] in DECIDED] == [e.type for e in result.events
                                                                   if e.type in DECIDED]


def test_a_lost_card_is_said_in_play_and_not_once_the_game_is_over() -> None:
    events = read_events(GOLDEN)
    presses = [ButtonPress(e.t, e.button, e.player) for e in events if isinstance(e, Button)]
    referee = Referee()
    referee_readings([r for r in synthetic_readings(events, seed=7) if r.t < 20.0], presses, referee)
    lost = Unsure(20.0, "lost sight of 6C from A's column 4")
    assert referee.phase == "playing"
    assert [c.say for c in judge([lost], referee)] == [
        "I could not follow that: lost sight of 6C from A's column 4."]
    finished = Referee()
    calls, _ = referee_readings(synthetic_readings(events, seed=7), presses, finished)
    assert finished.phase == "game_over"
    assert "game_end" in [c.event.type for c in calls if c.event is not None]
    # the collision's loser still in A's hand after B's last card (the demo's 6C)
    assert judge([lost], finished) == []


def test_a_restarted_pipeline_resumes_the_game_from_the_log(tmp_path: Path) -> None:
    source, reader, presses = golden_inputs()
    cut = next(i for i, t in enumerate(source.times) if t > 70.0)
    first = FakeSource(source.times[:cut])
    with GameRecords(tmp_path / "games.sqlite3") as records:
        run_pipeline(first, reader, Referee(), presses=[p for p in presses if p.t < 70.0], log=records)
        logged = len(records.resume_events())
    second = FakeSource(source.times[cut:])
    announcer = ListAnnouncer()
    with GameRecords(tmp_path / "games.sqlite3") as records:  # a new process
        result = run_pipeline(second, reader, Referee(), announcer=announcer,
                              presses=[p for p in presses if p.t >= 70.0], log=records)
        # The rest of the game is appended to the game it resumed, not a new one.
        [game] = records.games()
        assert game.finished and game.winner == "B"
        assert len(records.events(game.id)) == logged + len(result.events)
    assert announcer.said[0] == "Resuming round 2 of the unfinished game."
    summaries = [e for e in result.events if e.type == "round_summary"]
    assert [dict(s.cards) for s in summaries] == [{"A": 38, "B": 14}, {"A": 46, "B": 6}]  # type: ignore[attr-defined]
    assert [e.winner for e in result.events if e.type == "game_end"] == ["B"]  # type: ignore[attr-defined]


def test_the_source_is_closed_when_a_stage_fails() -> None:
    source, _, _ = golden_inputs()

    class Broken:
        def read(self, frame: Frame) -> SyntheticReading:
            raise RuntimeError("reader crashed")

    announcer = ListAnnouncer()
    with pytest.raises(RuntimeError):
        run_pipeline(source, Broken(), announcer=announcer)
    assert source.closed and announcer.closed


def test_the_tracker_is_told_when_the_rounds_takes_are_settled() -> None:
    """``inform`` passes on, before each frame, whether the referee has settled who takes
    which pile and awaits the next deal (not before the first deal)."""
    from tablecam.app import inform
    from tablecam.tracking import Tracker

    tracker, referee = Tracker(), Referee()
    inform(tracker, referee)
    assert referee.phase == "waiting_deal" and not tracker.round_settled
    referee.round = 1  # (as after a round whose takes were settled)
    inform(tracker, referee)
    assert tracker.round_settled
    referee.phase = "round_over"  # the slaps not yet decided
    inform(tracker, referee)
    assert not tracker.round_settled
