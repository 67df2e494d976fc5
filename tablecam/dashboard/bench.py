"""``tablecam bench dashboard``: 20 viewers on localhost for a whole game (the load test).

The full run plays the golden game (140 s) in real time at 10 camera frames per
second; ``--quick`` plays it four times faster (so 40 frames per wall second).
``tablecam bench dashboard-page`` times events from the hub to the page in headless
Chromium (needs the ``playwright`` dev dependency and Debian's chromium).
"""

from __future__ import annotations

from collections.abc import Callable

from tablecam.bench import Figure, peak_memory_mb

VIEWERS = 20


def dashboard_load(quick: bool) -> list[Figure]:
    from tablecam.dashboard.loadtest import run_load_test

    speed = 4.0 if quick else 1.0
    r = run_load_test(viewers=VIEWERS, speed=speed, fps=10.0)
    return [
        Figure(f"viewers (whole {r.game_s:.0f} s game at {speed:g}x)", r.viewers, "viewers"),
        Figure("wall time to play the game", r.wall_s, "s"),
        Figure("publisher's worst lag behind the game clock", r.publisher_late_s * 1000, "ms"),
        Figure("publish call, 99th percentile", r.publish_p99_ms, "ms"),
        Figure("publish call, worst", r.publish_max_ms, "ms"),
        Figure("events published", r.events_published, "events"),
        Figure("events received by the worst viewer", r.events_received_min, "events"),
        Figure("event to viewer, 95th percentile", r.event_latency_p95_ms, "ms"),
        Figure("event to viewer, worst", r.event_latency_max_ms, "ms"),
        Figure("frames published per second", r.frames_per_s_published, "fps"),
        Figure("frames fetched per viewer per second", r.frames_per_s_per_viewer, "fps"),
        Figure("server process CPU (publisher + server)", r.server_cpu_percent, "% core"),
        Figure("viewer errors", r.viewer_errors, "errors"),
        Figure("peak memory of the server process", peak_memory_mb(), "MB"),
    ]


def page_latency(quick: bool) -> list[Figure]:
    """Event to page in headless Chromium: publish golden events one by one, time the page."""
    import json
    import shutil
    import statistics
    import tempfile
    import time

    from playwright.sync_api import sync_playwright

    from tablecam.dashboard.hub import LiveHub
    from tablecam.dashboard.loadtest import GOLDEN
    from tablecam.dashboard.server import DashboardServer

    count = 20 if quick else 100
    events = [json.loads(line) for line in GOLDEN.read_text().splitlines()[:count]]
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    delays: list[float] = []
    hub = LiveHub()
    with DashboardServer(hub, port=0, host="127.0.0.1") as server, \
            tempfile.TemporaryDirectory() as profile, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium, args=args, headless=True)
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_function("window.tablecamStats && window.tablecamStats.snapshots > 0")
        for number, event in enumerate(events, start=1):
            sent = time.time() * 1000
            hub.publish_event(event, None)
            page.wait_for_function(f"window.tablecamStats.events >= {number}", polling=5)
            delays.append(float(page.evaluate("window.tablecamStats.lastEventAt")) - sent)
            time.sleep(0.05)
        context.close()
    return [
        Figure(f"event to page in Chromium, median of {count}", statistics.median(delays), "ms"),
        Figure("event to page in Chromium, worst", max(delays), "ms"),
    ]


BENCHMARKS: dict[str, Callable[[bool], list[Figure]]] = {
    "dashboard": dashboard_load, "dashboard-page": page_latency,
}
