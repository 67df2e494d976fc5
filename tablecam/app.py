"""The composition root: frames -> readings -> table events -> referee calls -> voice.

``run_pipeline`` is the one place where the stages meet.  It takes stages that are
already built (so ``run``, ``replay``, ``demo`` and tests choose their back-ends),
runs the loop, and closes the frame source and the announcer in ``finally`` whatever
happens.  Every stage works in one time base: seconds from the start of the input
(video time for recordings, the pipeline clock live).

Bad input never ends a game: a frame of another size is skipped and said once, a
camera that stops for seconds is reported when it comes back, a reader error on one
frame skips that frame, and the referee answers presses at the wrong time in words.
"""

from __future__ import annotations

import dataclasses
import queue
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tablecam.announce import Announcer
from tablecam.capture import Frame, FrameSource
from tablecam.errors import TablecamError
from tablecam.events import AnyEvent, Move, Play, Takeback, event_from_dict, event_to_dict
from tablecam.inputs import ButtonPress
from tablecam.referee import Call, Referee
from tablecam.tracking import (
    Identified,
    PileDoubted,
    PileIdentified,
    Relaid,
    Tracked,
    Tracker,
    Unsure,
)
from tablecam.tracking.tracker import TableReadingLike

#: A gap in the frames longer than this is said aloud when the camera comes back.
CAMERA_GAP_S = 2.0
#: Frames are published to the dashboard at most this often (seconds of input time).
HUB_FRAME_INTERVAL_S = 0.2


class Reader(Protocol):
    """The card-reading stage: one frame in, one ``TableReading`` out."""

    def read(self, frame: Frame) -> TableReadingLike: ...


class Hub(Protocol):
    """What the pipeline publishes to (``tablecam.dashboard.LiveHub``)."""

    def publish_frame(self, t: float, jpeg: bytes, cards: list[dict[str, Any]]) -> None: ...

    def publish_state(self, state: Mapping[str, Any]) -> None: ...

    def publish_event(self, event: Mapping[str, Any], announcement: str | None = None) -> None: ...

    def publish_announcement(self, t: float, text: str) -> None: ...


class GameLog(Protocol):
    """The SQLite game log (``tablecam.records.GameRecords``), for resuming after a restart."""

    def record(self, event: Mapping[str, Any], names: Mapping[str, str] | None = None,
               variants: Mapping[str, Any] | None = None, source: str = "") -> int: ...

    def unfinished_game(self) -> int | None: ...

    def resume_events(self, game_id: int | None = None) -> list[dict[str, Any]]: ...

    def continue_game(self, game_id: int) -> None: ...


@dataclass(slots=True)
class PipelineResult:
    """What a run saw: frames read, the calls made, input and wall seconds."""

    frames: int = 0
    calls: list[Call] = field(default_factory=list)
    input_seconds: float = 0.0
    wall_seconds: float = 0.0
    deals_seen: int = 0

    @property
    def events(self) -> list[AnyEvent]:
        return [call.event for call in self.calls if call.event is not None]


def resume_referee(referee: Referee, tracker: Tracker, log: GameLog) -> int:
    """Rebuild an unfinished game from the game log; returns how many events it replayed.

    The log then appends to that game, so a second restart resumes the whole game again.
    """
    game_id = log.unfinished_game()
    if game_id is None:
        return 0
    events = [event_from_dict(data) for data in log.resume_events(game_id)]
    if not events:
        return 0
    referee.restore(events)
    tracker.resume(referee.round, referee.table)
    log.continue_game(game_id)
    return len(events)


def run_pipeline(
    source: FrameSource,
    reader: Reader,
    referee: Referee | None = None,
    *,
    announcer: Announcer | None = None,
    presses: queue.Queue[ButtonPress] | Iterable[ButtonPress] | None = None,
    controls: queue.Queue[ButtonPress] | None = None,
    hub: Hub | None = None,
    log: GameLog | None = None,
    resume: bool = True,
    on_event: Callable[[AnyEvent], object] | None = None,
    on_call: Callable[[Call], None] | None = None,
    pace: float | None = None,
    tracker: Tracker | None = None,
    stop: Callable[[], bool] | None = None,
) -> PipelineResult:
    """Referee a game from ``source`` until it ends (or ``stop()`` says so).

    ``presses`` is a live ``queue.Queue`` of button presses, or presses in input time
    (a replay's ``--inputs``), handed to the referee once the frames reach them;
    ``controls`` is a second live queue (the dashboard's on-screen buttons).
    ``log`` records every event (and, given a fresh referee and ``resume``, resumes its
    unfinished game first); ``on_event`` is called with every event, ``on_call`` with every call.  ``pace`` > 0 plays a recording in real time at that speed.
    ``source`` and ``announcer`` are closed on the way out.
    """
    referee = referee or Referee()
    tracker = tracker or Tracker()
    result = PipelineResult()
    live_queue = presses if isinstance(presses, queue.Queue) else None
    scheduled = sorted(presses) if presses is not None and live_queue is None else []  # type: ignore[arg-type]
    next_press = 0
    wall_start = time.monotonic()
    size: tuple[int, int] | None = None
    refused_sizes: set[tuple[int, int]] = set()
    last_t: float | None = None
    last_hub_frame = -1e9
    reader_failures = 0

    def emit(calls: list[Call]) -> None:
        for call in calls:
            result.calls.append(call)
            data = event_to_dict(call.event) if call.event is not None else None
            if call.say and announcer is not None:
                announcer.say(call.say)
            if log is not None and data is not None:
                log.record(data, source="tablecam")
            if hub is not None:
                if data is not None:
                    hub.publish_event(data, call.say)
                elif call.say:
                    hub.publish_announcement(call.t, call.say)
            if on_event is not None and call.event is not None:
                on_event(call.event)
            if on_call is not None:
                on_call(call)
        if calls and hub is not None:
            hub.publish_state(referee.snapshot())

    try:
        if log is not None and resume and referee.round == 0:
            replayed = resume_referee(referee, tracker, log)
            if replayed:
                emit([Call(0.0, None, f"Resuming round {referee.round} of the unfinished game.")])
        while stop is None or not stop():
            frame = source.read()
            if frame is None:
                break
            t = frame.t
            if pace is not None and pace > 0:
                delay = wall_start + t / pace - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            result.frames += 1
            shape = (int(frame.image.shape[1]), int(frame.image.shape[0]))
            if size is None:
                size = shape
            elif shape != size:
                if shape not in refused_sizes:
                    refused_sizes.add(shape)
                    emit([Call(t, None, (f"Skipping frames of {shape[0]}x{shape[1]}: the camera "
                                         f"gave {size[0]}x{size[1]} before, and the table "
                                         "zones belong to that size."))])
                continue
            if last_t is not None and t - last_t > CAMERA_GAP_S:
                emit([Call(t, None, f"The camera gave no picture for {t - last_t:.1f} seconds; "
                                    "carrying on.")])
            last_t = t
            # Presses up to this frame's time, in time order.
            due: list[ButtonPress] = []
            while next_press < len(scheduled) and scheduled[next_press].t <= t:
                due.append(scheduled[next_press])
                next_press += 1
            for live in (live_queue, controls):
                while live is not None:
                    try:
                        due.append(live.get_nowait())
                    except queue.Empty:
                        break
            for press in sorted(due):
                emit(referee.press(press))
            try:
                reading = reader.read(frame)
            except TablecamError as error:
                reader_failures += 1
                if reader_failures == 1:
                    emit([Call(t, None, f"Could not read the table in one frame ({error}); skipping it.")])
                continue
            inform(tracker, referee)
            was_idle = tracker.waiting_for_deal
            emit(judge(tracker.update(reading), referee, tracker))
            emit(referee.reconcile(t, tracker.settled_columns(), tracker.settled_spit(),
                                   tracker.unnamed_tops(), tracker.sure_ranks()))
            if referee.slap_pending:
                emit(judge(tracker.settle_held(t), referee, tracker))
            emit(tick(referee, tracker, t))
            relocate = getattr(reader, "relocate", None)
            if tracker.waiting_for_deal and not was_idle and callable(relocate):
                relocate()  # the piles were taken: the next round is dealt afresh
            if hub is not None and t - last_hub_frame >= HUB_FRAME_INTERVAL_S:
                last_hub_frame = t
                hub.publish_frame(t, _jpeg(frame), _outlines(reading))
        end = (last_t or 0.0) + 1.0
        emit(judge(tracker.flush(end), referee))
        for press in scheduled[next_press:]:
            emit(referee.press(press))
        emit(referee.tick(end + 10.0, False))
        result.input_seconds = last_t or 0.0
        result.deals_seen = tracker.round
    finally:
        result.wall_seconds = time.monotonic() - wall_start
        try:
            source.close()
        finally:
            if announcer is not None:
                announcer.close()
    return result


def referee_readings(readings: Iterable[TableReadingLike], presses: Sequence[ButtonPress],
                     referee: Referee | None = None) -> tuple[list[Call], int]:
    """The pipeline's tracking and refereeing steps over readings that need no camera.

    For simulated readings (``tablecam.tracking.synthetic``) in tests and evaluations:
    presses due by each reading go to the referee first, as in ``run_pipeline``.
    Returns every call and the number of readings.
    """
    tracker, referee = Tracker(), referee or Referee()
    calls: list[Call] = []
    frames = next_press = 0
    for reading in readings:
        frames += 1
        while next_press < len(presses) and presses[next_press].t <= reading.t:
            calls += referee.press(presses[next_press])
            next_press += 1
        inform(tracker, referee)
        calls += judge(tracker.update(reading), referee, tracker)
        calls += referee.reconcile(reading.t, tracker.settled_columns(), tracker.settled_spit(),
                                   tracker.unnamed_tops(), tracker.sure_ranks())
        if referee.slap_pending:
            calls += judge(tracker.settle_held(reading.t), referee, tracker)
        calls += tick(referee, tracker, reading.t)
    return calls, frames


def inform(tracker: Tracker, referee: Referee) -> None:
    """Tell the tracker what the referee knows before each frame: the columns the next
    deal should lay, whether the next cards on the piles are spit cards and how many
    piles they feed, and whether the round's takes are settled."""
    tracker.expected_columns = referee.expected_columns()
    tracker.spit_expected = referee.expects_spit
    tracker.spit_feeders = referee.spit_feeders or None
    tracker.round_settled = referee.phase == "waiting_deal" and referee.round > 0


def tick(referee: Referee, tracker: Tracker, t: float) -> list[Call]:
    """``referee.tick`` with what the camera shows: a table still settling holds back a
    stall call, and a hand that was over a column holding a card when the slap came
    holds back the takes until it leaves (its card may have gone onto a pile)."""
    slap_at = referee.slap_at if referee.slap_pending else None
    hold = slap_at is not None and tracker.hands_in_columns_since(slap_at)
    return referee.tick(t, tracker.settling, hold_slap=hold)


def judge(tracked: list[Tracked], referee: Referee, tracker: Tracker | None = None) -> list[Call]:
    """Hand the tracker's output to the referee; what the tracker could not follow is said
    while a round is in play.

    With ``tracker``, a play or move counts as seen whole (evidence enough to call it
    illegal) only when the tracker says so (``tracker.firm``).
    """
    calls: list[Call] = []
    for item in tracked:
        if isinstance(item, Unsure):
            # Once a round is over, a card the tracker lost in a hand changes nothing the
            # referee counts (a card played unseen before the slap is settled by
            # ``settle_held``): players gathering their cards are not told about it (the
            # demo said "lost sight of 6C" after the game had ended, a collision's loser).
            if referee.phase not in ("round_over", "game_over"):
                calls.append(Call(item.t, None, f"I could not follow that: {item.text}."))
        elif isinstance(item, Identified):
            calls += referee.identify(item.t, item.player, item.column, item.card)
        elif isinstance(item, PileIdentified):
            calls += referee.identify_pile_top(item.t, item.pile, item.card)
        elif isinstance(item, PileDoubted):
            referee.doubt_pile_top(item.pile, item.card)
        elif isinstance(item, Relaid):
            # Our own mistake put the card on the other pile: said as a correction.
            card = item.play.card.code if item.play.card is not None else "the card"
            said = f"Correction: {card} went onto the {item.play.pile} pile, not the {item.takeback.pile}."
            calls += [dataclasses.replace(call, say=said) if isinstance(call.event, Takeback) else call
                      for call in referee.observe(item.takeback)]
            calls += referee.observe(item.play, firm=False)
        elif tracker is not None and isinstance(item, Play | Move):
            calls += referee.observe(item, firm=any(item is seen for seen in tracker.firm))
        else:
            calls += referee.observe(item)
    return calls


def _jpeg(frame: Frame) -> bytes:
    import cv2

    # Full size, so the card outlines (in frame pixels) fit the picture.
    ok, buffer = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 70])
    return bytes(buffer) if ok else b""


def _outlines(reading: TableReadingLike) -> list[dict[str, Any]]:
    """Card outlines for the dashboard overlay, from whatever the reader reports."""
    out: list[dict[str, Any]] = []
    for name, zone in reading.zones.items():
        corners = getattr(zone, "corners", None)
        if zone.state != "face_up" or corners is None:
            continue
        card = zone.card
        out.append({"card": card.code if card is not None else None,
                    "corners": [[float(x), float(y)] for x, y in corners], "zone": name})
    return out
