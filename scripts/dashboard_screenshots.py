"""Take the README's dashboard screenshots in headless Chromium.

Usage: .venv/bin/python scripts/dashboard_screenshots.py [--out docs/img] [--until 100]
       .venv/bin/python scripts/dashboard_screenshots.py --demo [--until 100]

The golden game (tests/data/game-events.jsonl) is played through the real referee
into the hub up to ``--until`` seconds of game time (with the schematic camera frames
of ``tablecam.dashboard.replay``), then the live page and the history page are shot.
With ``--demo``, ``tablecam demo`` runs instead (rendered recording, real card
reader) and the live page is shot ``--until`` seconds into its game.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from tablecam.dashboard import DashboardServer, LiveHub, LiveSettings, Settings
from tablecam.dashboard.replay import replay_to_hub
from tablecam.events import read_events
from tablecam.records import GameRecords

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def shoot_demo(out: Path, until: float) -> None:
    """Run ``tablecam demo`` and shoot its live page ``until`` seconds into the game."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    demo = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "tablecam"), "demo", "--port", str(port), "--no-browser",
         "--no-speech"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert demo.stderr is not None
        for line in demo.stderr:
            if "dashboard at" in line:
                break
        else:
            raise SystemExit("tablecam demo ended before serving its dashboard")
        # Keep reading its stderr so the demo never blocks on a full pipe.
        threading.Thread(target=lambda: sys.stderr.writelines(demo.stderr or []),
                         daemon=True).start()
        started = time.monotonic()
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                tmp, executable_path="/usr/bin/chromium", args=ARGS, headless=True,
                viewport={"width": 1280, "height": 860})
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_timeout(max(0.0, until - (time.monotonic() - started)) * 1000)
            page.screenshot(path=str(out / "dashboard-demo.png"), full_page=True)
            context.close()
    finally:
        demo.terminate()
        demo.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--until", type=float, default=100.0, help="game time to stop at (s)")
    parser.add_argument("--demo", action="store_true", help="shoot tablecam demo's page")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.demo:
        shoot_demo(args.out, args.until)
        print(f"screenshot in {args.out}")
        return
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
