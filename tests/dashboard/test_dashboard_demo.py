"""End to end in headless Chromium against ``tablecam demo``.

The real ``tablecam demo`` command runs (pipeline, tracker, referee, hub, server) on
the golden game's recording, with the two stand-ins ``tests/test_demo.py`` uses so it
takes seconds instead of rendering and reading video: blank frames, and a reader that
reports what a reader would see in each frame, here with each card's outline.
"""

from __future__ import annotations

import re
import shutil
import socket
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from playwright.sync_api import BrowserContext, Page, sync_playwright

import tablecam.dashboard.server as server_module
import tablecam.reading.classifier as classifier_module
import tablecam.reading.table_reader as table_reader_module
import tablecam.render.demo as demo_module
from tablecam.capture import Frame
from tablecam.cli import main
from tablecam.events import Button, read_events
from tablecam.tracking.synthetic import Noise, synthetic_readings

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GOLDEN = Path(__file__).parent.parent / "data" / "game-events.jsonl"
FPS = 10.0
SPEED = 10.0
PIN = "9753"
WIDTH, HEIGHT = 640, 360
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def zone_corners(name: str) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Where a zone's card lies in the blank frame: A's columns at the bottom, B's at the top."""
    if name in ("left", "right"):
        cx, cy = WIDTH // 2 + (-60 if name == "left" else 60), HEIGHT // 2
    elif name.startswith("spit"):
        cx, cy = (40, HEIGHT - 50) if name.endswith("A") else (WIDTH - 40, 50)
    else:
        column = int(name[1])
        cx = column * WIDTH // 6 if name[0] == "A" else (6 - column) * WIDTH // 6
        cy = HEIGHT - 50 if name[0] == "A" else 50
    return np.array([[cx - 28, cy - 40], [cx + 28, cy - 40], [cx + 28, cy + 40],
                     [cx - 28, cy + 40]], np.float32)


@dataclass(frozen=True)
class OutlinedZone:
    state: str
    card: Any
    confidence: float
    corners: np.ndarray[Any, np.dtype[np.float32]]


@dataclass(frozen=True)
class OutlinedReading:
    t: float
    zones: dict[str, OutlinedZone]


class ReaderOfTheRecording:
    """Stands in for the card reader: what it would see in each frame, with card outlines."""

    def __init__(self, classifier: Any) -> None:
        self.readings = list(synthetic_readings(read_events(GOLDEN), fps=FPS,
                                                noise=Noise(misread=0.0), seed=3))

    def read(self, frame: Frame) -> OutlinedReading:
        reading = self.readings[min(int(round(frame.t * FPS)), len(self.readings) - 1)]
        return OutlinedReading(reading.t, {
            name: OutlinedZone(z.state, z.card, z.confidence, zone_corners(name))
            for name, z in reading.zones.items()})


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Demo:
    url: str
    thread: threading.Thread
    exit_status: list[int]


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Demo]:
    events = read_events(GOLDEN)
    frames = tmp_path / "frames"
    frames.mkdir()
    count = len(list(synthetic_readings(events, fps=FPS)))
    ok, png = cv2.imencode(".png", np.full((HEIGHT, WIDTH, 3), (58, 91, 29), np.uint8))
    assert ok
    for i in range(count):
        (frames / f"{i:06d}.png").write_bytes(png.tobytes())
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text("".join(
        f'{{"t": {e.t}, "button": "{e.button}"' + (f', "player": "{e.player}"}}' if e.player else "}") + "\n"
        for e in events if isinstance(e, Button)))
    monkeypatch.setattr(demo_module, "demo_recording", lambda progress=None: frames)
    monkeypatch.setattr(demo_module, "demo_inputs", lambda: inputs)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the demo's game records
    monkeypatch.setattr(classifier_module, "CardClassifier", lambda model=None: None)
    monkeypatch.setattr(table_reader_module, "TableReader", ReaderOfTheRecording)
    monkeypatch.setattr(server_module, "make_pin", lambda: PIN)
    port = free_port()
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(main([
        "demo", "--port", str(port), "--no-browser", "--no-speech",
        "--speed", str(SPEED), "--fps", str(FPS)])), daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 20
    while True:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            break
        except OSError:
            if time.monotonic() > deadline or not thread.is_alive():
                pytest.fail("tablecam demo did not serve its dashboard")
            time.sleep(0.1)
    yield Demo(url, thread, result)
    thread.join(timeout=60)


@pytest.fixture
def browser() -> Iterator[BrowserContext]:
    with tempfile.TemporaryDirectory(prefix="tablecam-chromium-") as profile, \
            sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=shutil.which("chromium") or "/usr/bin/chromium",
            args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1280, "height": 900})
        yield context
        context.close()


def open_page(browser: BrowserContext, url: str) -> Page:
    page = browser.new_page()
    page.goto(url)
    page.wait_for_function("window.tablecamStats && window.tablecamStats.snapshots > 0")
    return page


def shown(page: Page) -> dict[str, str]:
    return {part: page.locator(selector).inner_text()
            for part, selector in (("feed", "#feed"), ("table", "[data-testid=state]"),
                                   ("rounds", "#round-table"), ("round", "#round"))}


def test_tablecam_demo_on_the_page(browser: BrowserContext, demo: Demo) -> None:
    page = open_page(browser, demo.url)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # The page loads and the recognised cards appear outlined and labelled.
    page.wait_for_selector("#outlines text.card-label[data-card='8S']", timeout=15000)
    page.wait_for_function("document.querySelectorAll('#outlines text.card-label').length >= 8")
    # One frame's overlay, read at once (frames keep arriving).
    labels, outlines = page.evaluate("""() => [
        [...document.querySelectorAll('#outlines text.card-label')].map((t) => t.textContent),
        document.querySelectorAll('#outlines polygon').length]""")
    assert len(labels) >= 8 and all(re.fullmatch(r"(10|[2-9AJQK])[♣♦♥♠]", t) for t in labels)
    assert outlines == len(labels)
    # Events arrive, with the referee's announcements.
    page.wait_for_function("window.tablecamStats.events >= 10", timeout=10000)
    assert "Round 1: player A has 26 cards, player B has 26." in page.locator("#feed").inner_text()
    # The controls need the PIN; with it, a press reaches the demo's referee, which answers.
    page.get_by_test_id("slap-A").click()
    page.get_by_test_id("pin-dialog").wait_for(state="visible")
    page.get_by_test_id("pin-input").fill("0000")
    page.get_by_test_id("pin-ok").click()
    page.wait_for_selector("[data-testid=pin-error] >> text=wrong PIN")
    page.get_by_test_id("pin-input").fill(PIN)
    page.get_by_test_id("pin-ok").click()
    page.wait_for_selector("[data-testid=control-status] >> text=Slap for Player A sent.")
    page.wait_for_selector("#feed >> text=the slap by player A does nothing", timeout=5000)
    # A second viewer and a reload mid-game.
    second = open_page(browser, demo.url)
    page.reload()
    page.wait_for_function("window.tablecamStats.snapshots > 0")
    # A round summary shows: who won round 1, the piles taken, the cards for round 2.
    row = page.locator("#round-table tr[data-round='1']")
    # The demo's page shows the config's player names.
    row.locator("text=/Player A \\d+ · Player B \\d+/").wait_for(timeout=20000)
    assert re.search(r"\tPlayer [AB]\tPlayer A \d+, Player B \d+\t", row.inner_text())
    # When the demo ends, both viewers got everything and show the same game.
    demo.thread.join(timeout=60)
    assert demo.exit_status == [0]
    for viewer in (page, second):
        viewer.wait_for_selector("[data-testid=connection] >> text=reconnecting", timeout=5000)
    assert shown(page) == shown(second)
    assert page.locator("#round-table tbody tr").count() >= 2
    assert errors == []
