"""Feed a hub from an event log, as the pipeline would: for tests and the load test.

``replay_to_hub`` walks a game's table events through the real ``Referee`` (which
makes the decisions, announcements and state snapshots, as in ``tablecam demo``) and
publishes them at the recorded times, together with camera frames drawn from the
referee's table at ``fps``.  The frames are schematic (cards as labelled boxes where
the zones are), which is all a viewer test or a load test needs; ``tablecam demo``
publishes real rendered frames.  Publishing time is measured per call, so the load
test can say whether viewers ever slowed the referee down.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import cv2
import numpy as np

from tablecam.dashboard.hub import LiveHub
from tablecam.events import AnyEvent, event_to_dict
from tablecam.referee import Call, Referee

#: Events the referee decides itself; the log's copies are skipped and re-decided.
DECIDED = frozenset({"stall", "round_end", "take", "round_summary", "game_end"})

CARD_W, CARD_H = 56, 80


@dataclass(slots=True)
class ReplayStats:
    """How the publisher fared: calls made and the time each took (seconds)."""

    frames: int = 0
    events: int = 0
    publish_times: list[float] = field(default_factory=list)
    late_s: float = 0.0  # worst lag of the publisher behind the recording's clock
    wall_s: float = 0.0


def _column_x(seat: str, column: int, width: int) -> int:
    step = width // 6
    index = column if seat == "A" else 6 - column  # B's column 1 is at the image's right
    return index * step


def draw_table(state: dict[str, Any], size: tuple[int, int] = (640, 360)) -> tuple[bytes, list[dict[str, Any]]]:
    """A schematic overhead JPEG of the referee's table and the card outlines on it."""
    width, height = size
    image = np.zeros((height, width, 3), np.uint8)
    image[:] = (58, 91, 29)  # BGR felt green
    cards: list[dict[str, Any]] = []

    def card_at(cx: int, cy: int, code: str | None, zone: str) -> None:
        x0, y0 = cx - CARD_W // 2, cy - CARD_H // 2
        cv2.rectangle(image, (x0, y0), (x0 + CARD_W, y0 + CARD_H), (245, 245, 245), -1)
        if code:
            red = code[-1] in "HD"
            cv2.putText(image, code, (x0 + 6, y0 + 28), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                        (40, 40, 200) if red else (20, 20, 20), 2, cv2.LINE_AA)
        corners = [[x0, y0], [x0 + CARD_W, y0], [x0 + CARD_W, y0 + CARD_H], [x0, y0 + CARD_H]]
        cards.append({"card": code, "corners": corners, "zone": zone})

    players = state.get("players") or {}
    for seat, cy in (("B", CARD_H // 2 + 10), ("A", height - CARD_H // 2 - 10)):
        for number, column in enumerate(players.get(seat, {}).get("columns") or [], start=1):
            if column and column.get("up"):
                card_at(_column_x(seat, number, width), cy, column["up"], f"{seat}{number}")
    piles = state.get("centre") or state.get("piles") or {}
    for pile, cx in (("left", width // 2 - 60), ("right", width // 2 + 60)):
        data = piles.get(pile) or {}
        if data.get("top"):
            card_at(cx, height // 2, data["top"], pile)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert ok
    return jpeg.tobytes(), cards


def replay_to_hub(
    hub: LiveHub,
    events: Sequence[AnyEvent],
    *,
    speed: float = 1.0,
    fps: float = 10.0,
    frame_size: tuple[int, int] = (640, 360),
    stop: threading.Event | None = None,
    on_event: Callable[[dict[str, Any]], None] | None = None,
) -> ReplayStats:
    """Play ``events`` to ``hub`` in real time divided by ``speed`` (0 = as fast as possible)."""
    referee = Referee()
    stats = ReplayStats()
    start = time.monotonic()
    end_t = (events[-1].t if events else 0.0) + 1.0
    frame_step = 1.0 / fps if fps > 0 else float("inf")
    next_frame = 0.0
    index = 0
    jpeg, cards = draw_table(referee.snapshot(), frame_size)

    def timed(action: Callable[[], None]) -> None:
        began = time.perf_counter()
        action()
        stats.publish_times.append(time.perf_counter() - began)

    def publish(calls: list[Call]) -> None:
        for call in calls:
            if call.event is not None:
                data = event_to_dict(call.event)
                timed(partial(hub.publish_event, data, call.say))
                stats.events += 1
                if on_event is not None:
                    on_event(data)
            elif call.say:
                timed(partial(hub.publish_announcement, call.t, call.say))
        if calls:
            snapshot = referee.snapshot()
            timed(partial(hub.publish_state, snapshot))

    t = 0.0
    while True:
        if stop is not None and stop.is_set():
            break
        while index < len(events) and events[index].t <= t:
            event = events[index]
            index += 1
            if event.type in DECIDED:
                continue
            calls = referee.tick(event.t) + referee.observe(event)
            publish(calls)
            if calls:
                jpeg, cards = draw_table(referee.snapshot(), frame_size)
        if t >= next_frame:
            timed(partial(hub.publish_frame, t, jpeg, cards))
            stats.frames += 1
            next_frame += frame_step
        # Advance to the next frame or event, and wait for its wall time.
        upcoming = next_frame if index >= len(events) else min(next_frame, events[index].t)
        if upcoming > end_t:
            break
        t = upcoming
        if speed > 0:
            delay = start + t / speed - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            else:
                stats.late_s = max(stats.late_s, -delay)
    publish(referee.tick(end_t + 10.0))
    stats.wall_s = time.monotonic() - start
    return stats
