"""GPIO buttons on gpiozero's mock pins: presses reach the queue with edge times,
a slap race is ordered to the millisecond, and a bounce counts once."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from tablecam.config import ButtonsConfig, OutputsConfig
from tablecam.inputs import ButtonPress
from tablecam.inputs.clock import PipelineClock
from tablecam.inputs.gpio import GpioButtons, Indicators
from tablecam.inputs.queueing import take_presses

CONFIG = ButtonsConfig(spit="GPIO17", slap_a="GPIO27", slap_b="GPIO22", debounce_ms=30)


class StampedMockPin(MockPin):
    """A mock pin whose next edge can be given an exact timestamp (as lgpio does)."""

    def press_at(self, ticks: float) -> None:
        self._change_state(False)
        self._last_change = ticks
        if self._when_changed is not None:
            self._call_when_changed()


@pytest.fixture()
def factory() -> Iterator[MockFactory]:
    mock = MockFactory(pin_class=StampedMockPin)
    yield mock
    mock.reset()


def _buttons(factory: MockFactory) -> tuple[GpioButtons, queue.Queue[ButtonPress], PipelineClock]:
    presses: queue.Queue[ButtonPress] = queue.Queue()
    clock = PipelineClock()
    return GpioButtons(CONFIG, presses, clock, pin_factory=factory), presses, clock


def test_each_button_reaches_the_queue_with_its_time(factory: MockFactory) -> None:
    buttons, presses, clock = _buttons(factory)
    with buttons:
        before = clock.now()
        factory.pin("GPIO17").drive_low()
        factory.pin("GPIO27").drive_low()
        factory.pin("GPIO22").drive_low()
        after = clock.now()
        got = take_presses(presses)
    assert [(p.button, p.player) for p in got] == [("spit", None), ("slap", "A"), ("slap", "B")]
    assert all(before <= p.t <= after for p in got)
    assert factory.pin("GPIO17").pull == "up"


def test_release_is_not_a_press(factory: MockFactory) -> None:
    buttons, presses, _ = _buttons(factory)
    with buttons:
        pin = factory.pin("GPIO17")
        pin.drive_low()
        pin.drive_high()
        assert presses.qsize() == 1


def test_slaps_a_millisecond_apart_keep_their_edge_order(factory: MockFactory) -> None:
    """B's callback runs first, but A's pad was touched 1 ms earlier: A wins the race."""
    buttons, presses, clock = _buttons(factory)
    with buttons:
        edge = time.monotonic() - 0.010  # edges reported 10 ms after they happened
        pin_b = factory.pin("GPIO22")
        pin_a = factory.pin("GPIO27")
        assert isinstance(pin_a, StampedMockPin) and isinstance(pin_b, StampedMockPin)
        pin_b.press_at(edge + 0.001)
        pin_a.press_at(edge)
        arrived = list(presses.queue)
        got = take_presses(presses)
    assert [p.player for p in arrived] == ["B", "A"]
    assert [p.player for p in got] == ["A", "B"]
    assert got[1].t - got[0].t == pytest.approx(0.001, abs=5e-5)
    assert got[0].t == pytest.approx(clock.at(edge), abs=5e-5)


def test_slaps_driven_in_real_time_are_ordered(factory: MockFactory) -> None:
    buttons, presses, _ = _buttons(factory)
    with buttons:
        factory.pin("GPIO22").drive_low()
        time.sleep(0.001)
        factory.pin("GPIO27").drive_low()
        got = take_presses(presses)
    assert [p.player for p in got] == ["B", "A"]
    assert got[1].t - got[0].t >= 0.001


def test_a_bounce_counts_once(factory: MockFactory) -> None:
    buttons, presses, _ = _buttons(factory)
    with buttons:
        pin = factory.pin("GPIO27")
        for _ in range(4):  # contact chatter within a few milliseconds
            pin.drive_low()
            pin.drive_high()
        assert presses.qsize() == 1
        assert buttons.rejected_bounces == 3
        time.sleep(CONFIG.debounce_ms / 1000 + 0.01)
        pin.drive_low()  # a real second press after the debounce time
        assert presses.qsize() == 2


def test_debounce_is_per_button(factory: MockFactory) -> None:
    buttons, presses, _ = _buttons(factory)
    with buttons:
        factory.pin("GPIO27").drive_low()
        factory.pin("GPIO22").drive_low()
        assert presses.qsize() == 2


def test_close_releases_the_pins(factory: MockFactory) -> None:
    buttons, presses, _ = _buttons(factory)
    buttons.close()
    again, _, _ = _buttons(factory)  # the same pins can be claimed again
    again.close()


def test_indicators_light_and_beep(factory: MockFactory) -> None:
    lights = Indicators(OutputsConfig(led_a="GPIO5", led_b=None, buzzer="GPIO13"),
                        pin_factory=factory)
    try:
        lights.slap("A", seconds=0.05)
        lights.beep(seconds=0.05)
        lights.slap("B")  # no LED configured: nothing happens
        time.sleep(0.02)
        assert factory.pin("GPIO5").state == 1
        assert factory.pin("GPIO13").state == 1
        time.sleep(0.1)
        assert factory.pin("GPIO5").state == 0
    finally:
        lights.close()
