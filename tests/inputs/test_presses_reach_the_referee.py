"""GPIO presses on mock pins reach the referee with their edge times and decide a
slap race in the order the hands touched the pads, not the order the callbacks ran."""

from __future__ import annotations

import queue
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from tablecam.config import ButtonsConfig
from tablecam.events import Take, read_events
from tablecam.inputs import ButtonPress
from tablecam.inputs.clock import PipelineClock
from tablecam.inputs.gpio import GpioButtons
from tablecam.inputs.queueing import take_presses
from tablecam.referee.referee import Referee, RefereeRules

GAME = Path(__file__).resolve().parents[1] / "data" / "game-events.jsonl"
TABLE_EVENTS = ("deal", "spit", "play", "reveal", "move", "takeback")


class StampedMockPin(MockPin):
    def press_at(self, ticks: float) -> None:
        self._change_state(False)
        self._last_change = ticks
        if self._when_changed is not None:
            self._call_when_changed()


def _referee_at_round_end() -> tuple[Referee, float]:
    """A slap-race referee that has seen round 1 of the golden game end."""
    referee = Referee(RefereeRules(take="slap_race"))
    for event in read_events(GAME):
        if event.type not in TABLE_EVENTS:
            continue
        calls = referee.observe(event)
        if any(call.event is not None and call.event.type == "round_end" for call in calls):
            return referee, event.t
    raise AssertionError("the golden game has no round end")


def test_slap_race_from_the_pads_to_the_referee() -> None:
    factory = MockFactory(pin_class=StampedMockPin)
    presses: queue.Queue[ButtonPress] = queue.Queue()
    referee, round_end_t = _referee_at_round_end()
    # pipeline time 0 is chosen so that "now" is a second after the round ended
    clock = PipelineClock(start=time.monotonic() - (round_end_t + 1.0))
    buttons = GpioButtons(ButtonsConfig("GPIO17", "GPIO27", "GPIO22", 30), presses, clock,
                          pin_factory=factory)
    try:
        edge = time.monotonic() - 0.050
        pin_a, pin_b = factory.pin("GPIO27"), factory.pin("GPIO22")
        assert isinstance(pin_a, StampedMockPin) and isinstance(pin_b, StampedMockPin)
        pin_b.press_at(edge + 0.010)  # B's callback runs first ...
        pin_a.press_at(edge)          # ... but A touched the pad 10 ms earlier
        calls = []
        for press in take_presses(presses):
            calls += referee.press(press)
        calls += referee.tick(clock.now() + 1.0)
    finally:
        buttons.close()
        factory.reset()
    echoed = [call.event for call in calls if call.event is not None and call.event.type == "button"]
    assert [getattr(event, "player", None) for event in echoed] == ["A", "B"]
    assert echoed[0].t == pytest.approx(clock.at(edge), abs=1e-4)
    assert echoed[1].t - echoed[0].t == pytest.approx(0.010, abs=1e-4)
    takes = [call.event for call in calls if isinstance(call.event, Take)]
    first = {take.player: take.cards for take in takes}
    assert first["A"] < first["B"]  # the first slap takes the smaller pile
