"""The live page in headless Chromium: cards labelled, events live, rounds, PIN, same picture.

The box here is the real server and hub fed by the golden game through the real
referee (``replay_to_hub``); ``test_dashboard_demo.py`` drives ``tablecam demo``.
"""

from __future__ import annotations

import json
import queue
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, sync_playwright

from tablecam.dashboard import DashboardServer, LiveHub
from tablecam.dashboard.replay import replay_to_hub
from tablecam.events import read_events
from tablecam.inputs import ButtonPress
from tablecam.records import GameRecords

pytestmark = pytest.mark.browser

GOLDEN = Path(__file__).parent.parent / "data" / "game-events.jsonl"
PIN = "2468"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail("Debian's chromium is not installed; run scripts/setup.sh")


@pytest.fixture(scope="module")
def browser() -> Iterator[BrowserContext]:
    with tempfile.TemporaryDirectory(prefix="tablecam-chromium-") as profile, \
            sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1280, "height": 900})
        yield context
        context.close()


class Box:
    def __init__(self, tmp_path: Path) -> None:
        self.hub = LiveHub()
        self.controls: queue.Queue[ButtonPress] = queue.Queue()
        self.records = GameRecords(tmp_path / "games.sqlite3")
        self.server = DashboardServer(self.hub, port=0, pin=PIN, controls=self.controls,
                                      records=self.records, host="127.0.0.1")
        self.events = read_events(GOLDEN)
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []

    def play(self, speed: float, until_t: float | None = None) -> threading.Thread:
        events = [e for e in self.events if until_t is None or e.t <= until_t]
        thread = threading.Thread(
            target=replay_to_hub, args=(self.hub, events),
            kwargs={"speed": speed, "fps": 10.0, "on_event": self.records.record,
                    "stop": self.stop}, daemon=True)
        thread.start()
        self.threads.append(thread)
        return thread

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=10)
        self.records.close()


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Box]:
    b = Box(tmp_path)
    with b.server:
        yield b
        b.close()


def new_page(browser: BrowserContext, url: str) -> Page:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_function("window.tablecamStats && window.tablecamStats.snapshots > 0")
    setattr(page, "js_errors", errors)  # noqa: B010 - read back by the tests
    return page


def stats(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("window.tablecamStats")
    return result


def test_the_live_page_shows_labelled_cards_events_and_round_summaries(
        browser: BrowserContext, box: Box) -> None:
    page = new_page(browser, box.server.url)
    playing = box.play(speed=12.0, until_t=90.0)  # round 1 ends at 80 s of game time
    # Cards outlined and labelled on the camera view.
    # read labels and outlines of one and the same frame (the view is redrawn every frame,
    # so a separate wait and read can fall between two frames on a loaded machine)
    seen = page.wait_for_function("""() => {
        const labels = [...document.querySelectorAll('#outlines text.card-label')]
            .map((t) => t.textContent);
        const outlines = document.querySelectorAll('#outlines polygon').length;
        return labels.length >= 10 && labels.includes('8\u2660') ? [labels, outlines] : null;
    }""", timeout=5000)
    labels, outlines = seen.json_value()
    assert len(labels) >= 10 and "8♠" in labels
    assert outlines == len(labels)
    # Events arrive live, with announcements.
    page.wait_for_function("window.tablecamStats.events >= 20", timeout=10000)
    assert "Round 1: player A has 26 cards" in page.locator("#feed").inner_text()
    # Calls like "Spit!" also show big on the screen for a few seconds.
    page.wait_for_selector("[data-testid=callout].show", timeout=10000)
    assert page.get_by_test_id("callout").inner_text() != ""
    # The state panel: both tableaux, the centre tops and counts, spit cards left.
    assert page.locator("#seat-A .card[data-card]").count() >= 1
    assert "spit cards left" in page.get_by_test_id("spit-A").inner_text()
    # A round summary with the cards each player took, and the chart of card counts.
    page.wait_for_selector("#round-table tr[data-round='1'] >> text=A 25, B 15", timeout=15000)
    row = page.locator("#round-table tr[data-round='1']").inner_text()
    assert "A 32 · B 20" in row
    assert page.locator("#chart polyline[data-seat='A']").count() == 1
    playing.join(timeout=30)
    assert getattr(page, "js_errors") == []  # noqa: B009


def test_events_reach_the_page_within_200ms(browser: BrowserContext, box: Box) -> None:
    page = new_page(browser, box.server.url)
    delays = []
    for i, event in enumerate(json.loads(line) for line in GOLDEN.read_text().splitlines()[:10]):
        sent = time.time() * 1000
        box.hub.publish_event(event, None)
        page.wait_for_function(f"window.tablecamStats.events >= {i + 1}", timeout=2000)
        delays.append(stats(page)["lastEventAt"] - sent)
    assert max(delays) < 200, delays


def test_controls_need_the_pin(browser: BrowserContext, box: Box) -> None:
    page = new_page(browser, box.server.url)
    assert page.get_by_test_id("lock-state").inner_text().startswith("locked")
    page.get_by_test_id("spit").click()
    dialog = page.get_by_test_id("pin-dialog")
    dialog.wait_for(state="visible")
    page.get_by_test_id("pin-input").fill("1357")
    page.get_by_test_id("pin-ok").click()
    page.wait_for_selector("[data-testid=pin-error] >> text=wrong PIN")
    assert box.controls.empty()
    page.get_by_test_id("pin-input").fill(PIN)
    page.get_by_test_id("pin-ok").click()
    page.wait_for_selector("[data-testid=control-status] >> text=Spit sent.")
    assert box.controls.get(timeout=2).button == "spit"
    # Once paired, a slap goes straight through.
    page.get_by_test_id("slap-B").click()
    page.wait_for_selector("[data-testid=control-status] >> text=Slap for B sent.")
    press = box.controls.get(timeout=2)
    assert (press.button, press.player) == ("slap", "B")
    assert page.get_by_test_id("lock-state").inner_text() == "unlocked"


def visible_state(page: Page) -> dict[str, str]:
    return {part: page.locator(selector).inner_text()
            for part, selector in (("feed", "#feed"), ("table", "[data-testid=state]"),
                                   ("rounds", "#round-table"), ("round", "#round"))}


def test_a_reload_or_a_second_viewer_mid_game_shows_the_same_state(
        browser: BrowserContext, box: Box) -> None:
    first = new_page(browser, box.server.url)
    box.play(speed=0, until_t=100.0).join(timeout=30)  # mid round 3, all published
    first.wait_for_function("document.querySelectorAll('#feed li').length > 100")
    second = new_page(browser, box.server.url)
    first.wait_for_timeout(300)
    assert visible_state(second) == visible_state(first)
    assert visible_state(first)["round"] == "round 3"
    assert "A 38 · B 14" in visible_state(first)["rounds"]
    expected = visible_state(first)
    first.reload()
    first.wait_for_function("window.tablecamStats.snapshots > 0")
    assert visible_state(first) == expected
    # Both see later changes too: a rename made on one page reaches the other.
    second.evaluate(f"sessionStorage.setItem('tablecam-pin', '{PIN}')")
    second.locator("details summary").click()
    second.locator("input[name=name-A]").fill("Ada")
    second.locator("#settings button[type=submit]").click()
    first.wait_for_selector("#seat-A .name >> text=Ada")


def test_history_page_lists_the_game_and_delete_needs_the_pin(
        browser: BrowserContext, box: Box) -> None:
    box.play(speed=0).join(timeout=30)
    page = browser.new_page()
    page.goto(box.server.url + "history")
    page.wait_for_selector("section[data-game='1'] >> text=B won")
    assert page.locator("section[data-game='1'] tbody tr").count() == 4
    page.on("dialog", lambda d: d.accept())
    page.locator("button[data-delete='1']").click()
    page.locator("#pin-input").fill(PIN)
    page.locator("#pin-form button[type=submit]").click()
    page.wait_for_selector("text=No games recorded yet.")
    assert box.records.games() == []
