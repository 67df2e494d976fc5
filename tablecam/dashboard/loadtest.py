"""Load test: many dashboard viewers on localhost while a game is played to the hub.

The viewers run in a separate process (as phones and TVs would be separate
devices), each behaving like the page: one SSE stream, and a frame fetch for the
newest announced frame whenever the previous fetch has finished.  The game is the
golden event log replayed through the real referee at ``speed`` times real time,
with schematic camera frames at ``fps``.  ``run_load_test`` reports whether the
publisher (the referee's side) kept real time, how long each publish call took,
how fast events reached the viewers, how many frames each viewer got, and the CPU
the server process used.
"""

from __future__ import annotations

import http.client
import json
import os
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablecam.dashboard.hub import LiveHub
from tablecam.dashboard.replay import replay_to_hub
from tablecam.dashboard.server import DashboardServer
from tablecam.errors import TablecamError
from tablecam.events import AnyEvent, read_events

GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "data" / "game-events.jsonl"


# ----------------------------------------------------------------- viewer side
class _Viewer:
    """One simulated page: an SSE reader thread and a frame fetcher thread."""

    def __init__(self, port: int, stop: threading.Event) -> None:
        self.port = port
        self.stop = stop
        self.event_arrivals: list[float] = []
        self.frame_messages = 0
        self.frames_fetched = 0
        self.frame_bytes = 0
        self.snapshots = 0
        self.errors: list[str] = []
        self._wanted = 0
        self._fetched = 0
        self._new_frame = threading.Event()
        self.threads = [threading.Thread(target=self._stream, daemon=True),
                        threading.Thread(target=self._frames, daemon=True)]

    def _stream(self) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1.0)
            conn.request("GET", "/events")
            response = conn.getresponse()
            kind = ""
            while not self.stop.is_set():
                try:
                    line = response.readline()
                except TimeoutError:
                    continue
                if not line:
                    break
                text = line.decode("utf-8").rstrip("\n")
                if text.startswith("event: "):
                    kind = text[7:]
                elif text.startswith("data: "):
                    self._message(kind, text[6:])
            conn.close()
        except (OSError, http.client.HTTPException) as error:
            self.errors.append(f"stream: {error}")

    def _message(self, kind: str, data: str) -> None:
        now = time.time()
        if kind == "event":
            if json.loads(data).get("event") is not None:
                self.event_arrivals.append(now)
        elif kind == "frame":
            self.frame_messages += 1
            self._wanted = int(json.loads(data)["seq"])
            self._new_frame.set()
        elif kind == "snapshot":
            self.snapshots += 1
            frame = json.loads(data).get("frame")
            if frame:
                self._wanted = int(frame["seq"])
                self._new_frame.set()

    def _frames(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5.0)
        while not self.stop.is_set():
            if not self._new_frame.wait(0.5):
                continue
            self._new_frame.clear()
            if self._wanted <= self._fetched:
                continue
            seq = self._wanted
            try:
                conn.request("GET", f"/frame.jpg?seq={seq}")
                response = conn.getresponse()
                body = response.read()
            except (OSError, http.client.HTTPException) as error:
                self.errors.append(f"frame: {error}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5.0)
                continue
            if response.status == 200:
                self.frames_fetched += 1
                self.frame_bytes += len(body)
            self._fetched = seq
        conn.close()

    def result(self) -> dict[str, Any]:
        return {"events": self.event_arrivals, "frame_messages": self.frame_messages,
                "frames_fetched": self.frames_fetched, "frame_bytes": self.frame_bytes,
                "snapshots": self.snapshots, "errors": self.errors[:5]}


def viewer_swarm(port: int, viewers: int) -> None:
    """Run ``viewers`` page-like clients until stdin closes, then print their results as JSON."""
    stop = threading.Event()
    swarm = [_Viewer(port, stop) for _ in range(viewers)]
    for viewer in swarm:
        for thread in viewer.threads:
            thread.start()
    print("ready", flush=True)
    sys.stdin.read()
    stop.set()
    for viewer in swarm:
        for thread in viewer.threads:
            thread.join(timeout=3)
    print(json.dumps([v.result() for v in swarm]), flush=True)


# ------------------------------------------------------------------ server side
@dataclass(frozen=True, slots=True)
class LoadResult:
    """What one load test measured (times in seconds unless named otherwise)."""

    viewers: int
    game_s: float             # recorded length of the game played
    speed: float
    wall_s: float             # how long playing it took
    publisher_late_s: float   # worst lag of the publisher behind the game clock
    publish_p99_ms: float
    publish_max_ms: float
    events_published: int
    events_received_min: int  # fewest events any viewer got
    event_latency_p95_ms: float
    event_latency_max_ms: float
    frames_published: int
    frames_per_s_published: float
    frames_per_s_per_viewer: float  # mean frames a viewer fetched per wall second
    server_cpu_percent: float       # CPU of the publisher + server process, % of one core
    viewer_errors: int


def default_game() -> list[AnyEvent]:
    """The golden two-player game of the test data, or a seeded simulated game without it."""
    if GOLDEN.is_file():
        return read_events(GOLDEN)
    from tablecam.sim.engine import simulate_game

    return [e for e in simulate_game(seed=7).events if e.t <= 300.0]


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_load_test(viewers: int = 20, speed: float = 1.0, fps: float = 10.0,
                  events: Sequence[AnyEvent] | None = None,
                  until_t: float | None = None) -> LoadResult:
    """Play a game to the hub at ``speed`` while ``viewers`` watch it on localhost."""
    game = list(events if events is not None else default_game())
    if until_t is not None:
        game = [e for e in game if e.t <= until_t]
    if not game:
        raise TablecamError("the load test needs a game with at least one event")
    hub = LiveHub()
    with DashboardServer(hub, port=0, host="127.0.0.1") as server:
        swarm = subprocess.Popen(
            [sys.executable, "-c",
             "import sys; from tablecam.dashboard.loadtest import viewer_swarm; "
             "viewer_swarm(int(sys.argv[1]), int(sys.argv[2]))",
             str(server.port), str(viewers)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            assert swarm.stdout is not None and swarm.stdin is not None
            if swarm.stdout.readline().strip() != "ready":
                raise TablecamError("the load-test viewers did not start")
            deadline = time.monotonic() + 20
            while server.viewers < viewers and time.monotonic() < deadline:
                time.sleep(0.05)
            if server.viewers < viewers:
                raise TablecamError(f"only {server.viewers} of {viewers} viewers connected")
            published: list[float] = []
            cpu_before = resource.getrusage(resource.RUSAGE_SELF)
            began = time.monotonic()
            stats = replay_to_hub(hub, game, speed=speed, fps=fps,
                                  on_event=lambda _: published.append(time.time()))
            wall = time.monotonic() - began
            cpu_after = resource.getrusage(resource.RUSAGE_SELF)
            time.sleep(0.5)  # let the last messages arrive
            output, _ = swarm.communicate("", timeout=30)
        finally:
            if swarm.poll() is None:
                swarm.kill()
                swarm.wait()
    results = json.loads(output.strip().splitlines()[-1])
    latencies: list[float] = []
    for viewer in results:
        for sent, got in zip(published, viewer["events"], strict=False):
            latencies.append(got - sent)
    cpu = ((cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime))
    times_ms = [x * 1000 for x in stats.publish_times]
    return LoadResult(
        viewers=viewers, game_s=game[-1].t, speed=speed, wall_s=wall,
        publisher_late_s=stats.late_s,
        publish_p99_ms=_percentile(times_ms, 0.99), publish_max_ms=max(times_ms, default=0.0),
        events_published=len(published),
        events_received_min=min(len(v["events"]) for v in results),
        event_latency_p95_ms=_percentile(latencies, 0.95) * 1000,
        event_latency_max_ms=max(latencies, default=0.0) * 1000,
        frames_published=stats.frames, frames_per_s_published=stats.frames / wall,
        frames_per_s_per_viewer=sum(v["frames_fetched"] for v in results) / len(results) / wall,
        server_cpu_percent=100 * cpu / wall,
        viewer_errors=sum(len(v["errors"]) for v in results),
    )
