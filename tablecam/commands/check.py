"""``tablecam check``: a self-test a person runs at the table before playing.

Three steps, each reported as one line: the camera (one frame saved with the table
zones it sees drawn on it, and the resolution on the table in pixels per millimetre),
the buttons (asked for one at a time: spit, slap A, slap B), and the speaker (a test
phrase).  Exit status 0 when every step that ran passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from tablecam.announce import Announcer
    from tablecam.capture import FrameSource
    from tablecam.inputs import ButtonPress

HELP = "self-test at the table: a camera frame with its zones, each button, the speaker"

TEST_PHRASE = "Spit! This is tablecam. Can you hear me?"
BUTTONS: tuple[tuple[str, str | None, str], ...] = (
    ("spit", None, "the spit button"),
    ("slap", "A", "player A's slap pad"),
    ("slap", "B", "player B's slap pad"),
)
# Card width on the table (poker cards), for pixels per millimetre.
CARD_WIDTH_MM = 63.0
NEEDED_PX_PER_MM = 2.0


@dataclass(frozen=True, slots=True)
class StepResult:
    name: str
    ok: bool
    message: str


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None, metavar="FILE",
                        help="config file (default: the shipped hardware/tablecam.toml)")
    parser.add_argument("--camera", default=None, metavar="SOURCE",
                        help="override the config's camera: picamera2, opencv:0, "
                             "video:FILE, frames:DIR")
    parser.add_argument("--out", type=Path, default=Path("tablecam-check.png"), metavar="FILE",
                        help="where to save the annotated camera frame (PNG)")
    parser.add_argument("--timeout", type=float, default=15.0, metavar="S",
                        help="seconds to wait for each button (default 15)")
    parser.add_argument("--keyboard", action="store_true",
                        help="test the keyboard stand-ins instead of the GPIO buttons")
    parser.add_argument("--no-camera", action="store_true", help="skip the camera step")
    parser.add_argument("--no-buttons", action="store_true", help="skip the button step")
    parser.add_argument("--no-speech", action="store_true", help="skip the speaker step")


def zones_from_image(image: npt.NDArray[np.uint8]) -> tuple[Any, str]:
    """The table geometry seen in ``image`` (mat first, then a dealt layout), and how."""
    from tablecam.geometry import DealtCard, GeometryError, LayoutMisfitError, geometry_from_deal
    from tablecam.geometry.mat import find_mat
    from tablecam.reading.finder import find_cards

    mat = find_mat(image)
    if mat is not None:
        return mat.geometry, f"from the ArUco mat (markers {sorted(mat.marker_ids)})"
    found = find_cards(image, backs=True)  # as the table reader looks
    try:
        geometry = geometry_from_deal([DealtCard(card.corners, card.face_up) for card in found])
    except LayoutMisfitError as misfit:
        # what the table reader would take after a second: show it, with the reason
        return misfit.layout, (f"from the dealt cards as best they fit ({misfit}); "
                               "check the drawn zones lie on the cards")
    except GeometryError as error:
        return None, f"no table zones seen: {error}; lay the mat or deal both tableaux"
    return geometry, "from the dealt cards"


def draw_zones(image: npt.NDArray[np.uint8], geometry: Any) -> npt.NDArray[np.uint8]:
    """A copy of ``image`` with every zone outlined and labelled."""
    import cv2
    import numpy as np

    canvas = image.copy()
    thickness = max(2, image.shape[1] // 600)
    for zone, quad in geometry.zones.items():
        points = np.round(quad).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(canvas, [points], True, (0, 220, 0), thickness)
        x, y = np.round(quad.min(axis=0)).astype(int)
        cv2.putText(canvas, str(zone), (int(x) + 4, int(y) + 24), cv2.FONT_HERSHEY_SIMPLEX,
                    0.4 * thickness, (0, 220, 0), thickness)
    return canvas


def check_camera(source: FrameSource, out: Path, warm_up_frames: int = 0) -> StepResult:
    """Read one frame, find the zones, save the picture with the zones drawn.

    A live webcam's first frames are often dark while its exposure settles, so
    ``warm_up_frames`` frames are read and dropped first.
    """
    import cv2

    try:
        frame = source.read()
        for _ in range(warm_up_frames):
            frame = source.read() or frame
    finally:
        source.close()
    if frame is None:
        return StepResult("camera", False, "the camera gave no frame")
    height, width = frame.image.shape[:2]
    geometry, how = zones_from_image(frame.image)
    picture = draw_zones(frame.image, geometry) if geometry is not None else frame.image
    if not cv2.imwrite(str(out), picture):
        return StepResult("camera", False, f"{width}x{height} frame, but {out} could not be written")
    if geometry is None:
        return StepResult("camera", True, f"{width}x{height} frame saved to {out}; {how}")
    px_per_mm = geometry.card_width / CARD_WIDTH_MM
    verdict = ("enough" if px_per_mm >= NEEDED_PX_PER_MM
               else f"too few, needs {NEEDED_PX_PER_MM:g}: lower the camera or raise the resolution")
    return StepResult("camera", px_per_mm >= NEEDED_PX_PER_MM,
                      f"{width}x{height} frame saved to {out}; {len(geometry.zones)} zones "
                      f"{how}; {px_per_mm:.1f} px/mm on the table ({verdict})")


def check_buttons(presses: queue.Queue[ButtonPress], ask: Callable[[str], None],
                  timeout: float) -> StepResult:
    """Ask for each button in turn and wait for exactly that press."""
    failed: list[str] = []
    for button, player, name in BUTTONS:
        while not presses.empty():
            presses.get_nowait()
        ask(f"Press {name} now ({timeout:g} s)...")
        deadline = time.monotonic() + timeout
        wrong: list[str] = []
        got = False
        while (left := deadline - time.monotonic()) > 0:
            try:
                press = presses.get(timeout=left)
            except queue.Empty:
                break
            if press.button == button and press.player == player:
                got = True
                break
            wrong.append(press.button + (f" {press.player}" if press.player else ""))
        if got:
            ask(f"  {name}: OK")
        else:
            extra = f" (got {', '.join(wrong)} instead; check the wiring table)" if wrong else ""
            ask(f"  {name}: nothing{extra}")
            failed.append(name)
    if failed:
        return StepResult("buttons", False, f"no press from {', '.join(failed)}")
    return StepResult("buttons", True, "all three buttons work")


def check_speech(announcer: Announcer) -> StepResult:
    announcer.say(TEST_PHRASE)
    announcer.close()
    return StepResult("speech", True, f"said {TEST_PHRASE!r}; if you heard nothing, check "
                                      "the speaker and `aplay -l`")


def run(args: argparse.Namespace) -> int:
    from tablecam.config import load_config
    from tablecam.inputs.clock import PipelineClock

    config = load_config(args.config)
    clock = PipelineClock()
    results: list[StepResult] = []

    def say(line: str) -> None:
        print(line, flush=True)

    if not args.no_camera:
        from tablecam.capture import open_source
        from tablecam.errors import CaptureError

        say("Camera: reading one frame...")
        try:
            from tablecam.capture.reopen import ReopeningSource

            source = open_source(args.camera or config.camera.source, config.camera, clock)
            live = isinstance(source, ReopeningSource)
            results.append(check_camera(source, args.out, warm_up_frames=15 if live else 0))
        except CaptureError as error:
            results.append(StepResult("camera", False, str(error)))
        say(f"  {results[-1].message}")

    if not args.no_buttons:
        results.append(_buttons_step(config, clock, args, say))

    if not args.no_speech:
        from tablecam.announce.combined import make_announcer

        say("Speaker: saying a test phrase...")
        results.append(check_speech(make_announcer(config.speech, clock)))

    for result in results:
        say(f"{result.name:>8}: {'OK  ' if result.ok else 'FAIL'} {result.message}")
    return 0 if all(result.ok for result in results) else 1


def _buttons_step(config: Any, clock: Any, args: argparse.Namespace,
                  say: Callable[[str], None]) -> StepResult:
    from tablecam.errors import HardwareError
    from tablecam.inputs.gpio import GpioButtons, on_raspberry_pi
    from tablecam.inputs.keyboard import KEY_HELP, KeyboardButtons

    presses: queue.Queue[ButtonPress] = queue.Queue()
    if args.keyboard or not on_raspberry_pi():
        if not sys.stdin.isatty():
            return StepResult("buttons", False, "not on a Raspberry Pi and no terminal for "
                                                "the keyboard stand-ins")
        say(f"Buttons (keyboard stand-ins, {KEY_HELP}):")
        with KeyboardButtons(presses, clock):
            return check_buttons(presses, say, args.timeout)
    say("Buttons (GPIO):")
    try:
        buttons = GpioButtons(config.buttons, presses, clock)
    except HardwareError as error:
        return StepResult("buttons", False, str(error))
    with buttons:
        return check_buttons(presses, say, args.timeout)
