"""``tablecam run [--config FILE]``: live at a real table.

Builds the table box from the config: one pipeline clock, the camera (reopened if it
goes away), the buttons (gpiozero on a Raspberry Pi, the keyboard elsewhere), the
status LEDs and buzzer, and the announcer (console plus espeak-ng); then hands them
to the composition root ``tablecam.app.run_pipeline`` with the card reader, the
referee, the dashboard and the game records.  Everything is closed in ``finally``.
"""

from __future__ import annotations

import argparse
import logging
import queue
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tablecam.announce import Announcer
    from tablecam.capture import FrameSource
    from tablecam.config import Config
    from tablecam.inputs import ButtonPress
    from tablecam.inputs.clock import PipelineClock

HELP = "live at a real table: camera, buttons, speech, dashboard"

log = logging.getLogger("tablecam.run")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None, metavar="FILE",
                        help="config file (default: the shipped hardware/tablecam.toml)")
    parser.add_argument("--camera", default=None, metavar="SOURCE",
                        help="override the config's camera: picamera2, opencv:0, "
                             "video:FILE, frames:DIR")
    parser.add_argument("--keyboard", action="store_true",
                        help="use the keyboard stand-ins even on a Raspberry Pi")
    parser.add_argument("--model", type=Path, default=None,
                        help="card-reading model (default: the shipped one)")
    parser.add_argument("--port", type=int, default=None,
                        help="dashboard port (default: the config's, 8080; 0 = any free port)")


class PressForwarder:
    """Moves presses from the button queue to the pipeline's, lighting the LEDs on the way.

    The GPIO callbacks only enqueue; this thread gives the players feedback (their
    LED for a slap, a beep for spit) without touching the presses' timestamps.
    """

    def __init__(self, source: queue.Queue[ButtonPress], target: queue.Queue[ButtonPress],
                 indicators: Any) -> None:
        self.source, self.target, self.indicators = source, target, indicators
        self._thread = threading.Thread(target=self._forward, name="press-forwarder",
                                        daemon=True)
        self._thread.start()

    def _forward(self) -> None:
        while (press := self.source.get()) is not None:
            self.target.put(press)
            if press.button == "slap" and press.player is not None:
                self.indicators.slap(press.player)
            else:
                self.indicators.beep()

    def close(self) -> None:
        self.source.put(None)  # type: ignore[arg-type]
        self._thread.join(timeout=1.0)


@dataclass
class TableBox:
    """The hardware a live game needs, built from one config."""

    config: Config
    clock: PipelineClock
    source: FrameSource
    presses: queue.Queue[ButtonPress]
    announcer: Announcer
    closers: list[Any] = field(default_factory=list)

    def close(self) -> None:
        for part in reversed(self.closers):
            try:
                part.close()
            except Exception as error:  # closing one part must not keep the others open
                log.warning("closing %s: %s", type(part).__name__, error)
        self.closers.clear()


def build_table_box(config: Config, camera: str | None = None, keyboard: bool = False,
                    pin_factory: Any = None) -> TableBox:
    """Open the camera, buttons, lights and announcer; closes what it opened on failure."""
    from tablecam.announce.combined import make_announcer
    from tablecam.capture import open_source
    from tablecam.inputs.clock import PipelineClock
    from tablecam.inputs.gpio import GpioButtons, Indicators, on_raspberry_pi
    from tablecam.inputs.keyboard import KEY_HELP, KeyboardButtons

    clock = PipelineClock()
    closers: list[Any] = []
    try:
        presses: queue.Queue[ButtonPress] = queue.Queue()
        use_gpio = pin_factory is not None or (on_raspberry_pi() and not keyboard)
        if use_gpio:
            raw: queue.Queue[ButtonPress] = queue.Queue()
            closers.append(GpioButtons(config.buttons, raw, clock, pin_factory=pin_factory))
            indicators = Indicators(config.outputs, pin_factory=pin_factory)
            closers.append(indicators)
            closers.append(PressForwarder(raw, presses, indicators))
        elif sys.stdin.isatty():
            closers.append(KeyboardButtons(presses, clock))
            print(f"tablecam run: no GPIO here; {KEY_HELP}", file=sys.stderr)
        else:
            print("tablecam run: no GPIO and no terminal: only the dashboard's buttons work",
                  file=sys.stderr)
        announcer = make_announcer(config.speech, clock)
        closers.append(announcer)
        source = open_source(camera or config.camera.source, config.camera, clock)
        closers.append(source)
    except BaseException:
        TableBox(config, clock, None, queue.Queue(), None, closers).close()  # type: ignore[arg-type]
        raise
    return TableBox(config, clock, source, presses, announcer, closers)


def run(args: argparse.Namespace) -> int:
    import importlib.util

    from tablecam.config import load_config
    from tablecam.errors import TablecamError

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    config = load_config(args.config)
    box = build_table_box(config, args.camera, args.keyboard)
    try:
        if importlib.util.find_spec("tablecam.app") is None:  # pragma: no cover
            raise TablecamError("the camera, buttons and speaker are ready, but the live "
                                "pipeline (tablecam/app.py) is not in this build yet; "
                                "`tablecam check` tests the table box meanwhile.")
        return _play(box, args)
    finally:
        box.close()


def _play(box: TableBox, args: argparse.Namespace) -> int:
    """Join the table box to the reader, referee, dashboard and records, and play a game.

    One process plays one game: at ``game_end`` it returns and the service manager
    (``Restart=always`` in ``hardware/tablecam.service``) starts a fresh one.
    """
    from tablecam.app import run_pipeline
    from tablecam.dashboard import LiveHub
    from tablecam.reading.classifier import CardClassifier
    from tablecam.reading.table_reader import TableReader
    from tablecam.records import GameRecords
    from tablecam.session import build_session

    config = box.config
    reader = TableReader(CardClassifier(args.model))
    records = GameRecords()
    box.closers.append(records)
    session = build_session(config, box.announcer, records)
    hub = LiveHub(clock=box.clock.now)
    port = config.dashboard.port if args.port is None else args.port
    with session.serve(hub, port, config.dashboard.host, controls=box.presses) as server:
        print(f"tablecam run: dashboard at {server.url} (PIN {server.pin}); "
              f"game records in {records.path}", file=sys.stderr)
        box.announcer.say(f"tablecam is ready. Dashboard PIN {' '.join(server.pin)}.")
        run_pipeline(box.source, reader, session.referee, announcer=box.announcer,
                     presses=box.presses, hub=hub, log=session.log)
    return 0
