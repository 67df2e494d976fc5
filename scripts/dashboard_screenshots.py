"""Take the README's dashboard screenshots in headless Chromium.

Usage: .venv/bin/python scripts/dashboard_screenshots.py [--out docs/img] [--until 100]

The golden game (tests/data/game-events.jsonl) is played through the real referee
into the hub up to ``--until`` seconds of game time (with the schematic camera frames
of ``tablecam.dashboard.replay``), then the live page and the history page are shot.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from tablecam.dashboard import DashboardServer, LiveHub, LiveSettings, Settings
from tablecam.dashboard.replay import replay_to_hub
from tablecam.events import read_events
from tablecam.records import GameRecords

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--until", type=float, default=100.0, help="game time to stop at (s)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    events = read_events(ROOT / "tests" / "data" / "game-events.jsonl")
    names = {"A": "Ada", "B": "Bo"}
    with tempfile.TemporaryDirectory() as tmp, GameRecords(Path(tmp) / "g.sqlite3") as records:
        hub = LiveHub()
        settings = LiveSettings(Settings(names=names))
        # One finished game for the history page, then the game in progress.
        replay_to_hub(LiveHub(), events, speed=0, fps=1,
                      on_event=lambda e: records.record(e, names=names))
        replay_to_hub(hub, [e for e in events if e.t <= args.until], speed=0, fps=2,
                      on_event=lambda e: records.record(e, names=names))
        with DashboardServer(hub, port=0, host="127.0.0.1", settings=settings,
                             records=records) as server, sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                str(Path(tmp) / "profile"), executable_path="/usr/bin/chromium", args=ARGS,
                headless=True, viewport={"width": 1280, "height": 860})
            page = context.new_page()
            page.goto(server.url)
            page.wait_for_function("window.tablecamStats.frames > 0")
            page.wait_for_timeout(500)
            page.screenshot(path=str(args.out / "dashboard-live.png"), full_page=True)
            page.goto(server.url + "history")
            page.wait_for_selector("section[data-game]")
            page.screenshot(path=str(args.out / "dashboard-history.png"))
            phone = context.new_page()
            phone.set_viewport_size({"width": 390, "height": 844})
            phone.goto(server.url)
            phone.wait_for_function("window.tablecamStats.frames > 0")
            phone.get_by_test_id("spit").click()
            phone.wait_for_timeout(300)
            phone.screenshot(path=str(args.out / "dashboard-phone-pin.png"))
            context.close()
    print(f"screenshots in {args.out}")


if __name__ == "__main__":
    main()
