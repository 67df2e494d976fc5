"""GPIO buttons through gpiozero: the spit button and a slap pad per player.

Each button connects its pin to ground and uses the Pi's internal pull-up.  The
callback runs on gpiozero's event thread and does only three things: read the clock,
turn the edge's timestamp into pipeline seconds, and put a ``ButtonPress`` on the
queue.  The debounce is done here in software, on the edge timestamps, so it behaves
the same on every pin factory (gpiozero's ``bounce_time`` is not implemented by the
mock pins and differs between the lgpio and RPi.GPIO back-ends).

Tests pass ``pin_factory=MockFactory()`` and drive the pins with ``drive_low()``.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from tablecam.config import ButtonsConfig, OutputsConfig
from tablecam.errors import HardwareError
from tablecam.events import ButtonName, Seat
from tablecam.inputs import ButtonPress
from tablecam.inputs.clock import PipelineClock

log = logging.getLogger(__name__)

# An edge timestamp more than this far from "now" is on another clock (some lgpio
# builds stamp events with wall-clock time); the callback's own reading is used then.
MAX_EDGE_LATENCY_S = 1.0


def _edge_button_class() -> type:
    """A gpiozero input device (a button without hold timing) that hands the edge's ticks to ``on_press``.

    gpiozero passes the pin's event ticks to ``_fire_events`` (the hook it documents
    for descendants) but not to ``when_pressed``; this subclass forwards them.
    """
    from gpiozero import DigitalInputDevice

    class EdgeButton(DigitalInputDevice):
        on_press: Callable[[Any], None] | None = None

        def _fire_events(self, ticks: Any, new_active: bool) -> None:
            was_active = self._last_active
            if was_active is False and new_active and self.on_press is not None:
                self.on_press(ticks)
            super()._fire_events(ticks, new_active)

    return EdgeButton


class GpioButtons:
    """The three buttons of the config, putting timestamped presses on ``presses``.

    A context manager like gpiozero's devices; ``close()`` releases the pins.
    """

    def __init__(self, config: ButtonsConfig, presses: queue.Queue[ButtonPress],
                 clock: PipelineClock, *, pin_factory: Any = None) -> None:
        self.presses = presses
        self.clock = clock
        self.debounce_s = config.debounce_ms / 1000.0
        self._lock = threading.Lock()
        self._last_edge: dict[tuple[ButtonName, Seat | None], Any] = {}
        self.rejected_bounces = 0
        self._buttons: list[Any] = []
        try:
            edge_button = _edge_button_class()
        except ImportError:
            raise HardwareError("gpiozero is not installed; install it or use the keyboard "
                                "stand-ins (space, a, b).") from None
        wiring: tuple[tuple[str, ButtonName, Seat | None], ...] = (
            (config.spit, "spit", None), (config.slap_a, "slap", "A"),
            (config.slap_b, "slap", "B"))
        try:
            for pin, button, player in wiring:
                device = edge_button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                device.on_press = self._handler(device, button, player)
                self._buttons.append(device)
        except Exception as error:
            self.close()
            raise HardwareError(f"could not set up the GPIO buttons ({error}); "
                                "run `tablecam check` on the Pi to test the wiring.") from None

    def _handler(self, device: Any, button: ButtonName,
                 player: Seat | None) -> Callable[[Any], None]:
        factory = device.pin_factory

        def on_press(ticks: Any) -> None:
            # the pin's clock first, then ours: the press is then placed a few
            # microseconds late at worst, never before its edge (the other way round
            # the time between the two readings put it before the edge, and a test
            # that presses right after reading the clock saw a press from before it)
            try:
                latency = factory.ticks_diff(factory.ticks(), ticks)
            except (TypeError, ValueError):
                latency = None
            now = time.monotonic()
            if latency is None or not 0.0 <= latency <= MAX_EDGE_LATENCY_S:
                latency = 0.0
            key = (button, player)
            with self._lock:
                last = self._last_edge.get(key)
                if last is not None and factory.ticks_diff(ticks, last) < self.debounce_s:
                    self.rejected_bounces += 1
                    return
                self._last_edge[key] = ticks
            self.presses.put(ButtonPress(t=self.clock.at(now - latency), button=button,
                                         player=player))
        return on_press

    def close(self) -> None:
        for device in self._buttons:
            device.close()
        self._buttons.clear()

    def __enter__(self) -> GpioButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Indicators:
    """Optional status LEDs (one per player) and a buzzer from the ``[outputs]`` config.

    ``slap(seat)`` lights that player's LED for a second; ``beep()`` sounds the buzzer
    briefly.  Both return at once (gpiozero blinks on its own thread).  Outputs left
    out of the config are simply absent.
    """

    def __init__(self, config: OutputsConfig, *, pin_factory: Any = None) -> None:
        from gpiozero import LED, Buzzer

        self._leds: dict[Seat, Any] = {}
        self._buzzer: Any = None
        try:
            if config.led_a:
                self._leds["A"] = LED(config.led_a, pin_factory=pin_factory)
            if config.led_b:
                self._leds["B"] = LED(config.led_b, pin_factory=pin_factory)
            if config.buzzer:
                self._buzzer = Buzzer(config.buzzer, pin_factory=pin_factory)
        except Exception as error:
            self.close()
            raise HardwareError(f"could not set up the status LEDs or buzzer ({error}).") from None

    def slap(self, seat: Seat, seconds: float = 1.0) -> None:
        led = self._leds.get(seat)
        if led is not None:
            led.blink(on_time=seconds, off_time=0, n=1, background=True)

    def beep(self, seconds: float = 0.15) -> None:
        if self._buzzer is not None:
            self._buzzer.beep(on_time=seconds, off_time=0, n=1, background=True)

    def close(self) -> None:
        for led in self._leds.values():
            led.close()
        self._leds.clear()
        if self._buzzer is not None:
            self._buzzer.close()
            self._buzzer = None


def on_raspberry_pi() -> bool:
    """True on a Raspberry Pi (the device tree names the board)."""
    try:
        with open("/proc/device-tree/model", "rb") as model:
            return b"Raspberry Pi" in model.read()
    except OSError:
        return False
