"""Benchmarks of the tracking and refereeing stages (``tablecam bench tracking pipeline``).

- ``tracking``: the tracker and referee alone, fed synthetic readings of simulated
  games (hands, misreads, dropped frames) for an hour of table time: frames per
  second on one core, and resident memory after 10 and 60 minutes (flat means no
  leak).
- ``pipeline``: the whole pipeline (video decoding, card reader, tracker, referee) on
  the built-in 1280x720 demo recording: frames per second per core (CPU time), the
  delay from a card landing to its event (video time, against the render truth), and
  memory.
- ``pipeline-hour``: the same pipeline fed the demo recording again and again, with 30 s
  of empty table between passes, for an hour of video (ten minutes with ``--quick``),
  as one recording of game after game: resident memory after the first game, after ten minutes and at the end
  (flat means no leak), with the speed and the plays, takes and winners over every game.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from tablecam.bench import Figure, peak_memory_mb

if TYPE_CHECKING:
    from tablecam.capture import Frame, FrameSource


def _rss_mb() -> float:
    """Current resident memory in MB (Linux), falling back to the peak elsewhere."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return peak_memory_mb()
    import os

    return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)


def bench_tracking(quick: bool) -> list[Figure]:
    from tablecam.app import inform, judge
    from tablecam.events import Button
    from tablecam.inputs import ButtonPress
    from tablecam.referee import Referee
    from tablecam.sim import simulate_game
    from tablecam.tracking import Tracker
    from tablecam.tracking.synthetic import Noise, SyntheticReading, synthetic_readings

    table_seconds = 600.0 if quick else 3600.0
    noise = Noise(misread=0.02, blur=0.02, drop=0.05)

    def readings() -> Iterator[tuple[float, SyntheticReading, list[ButtonPress]]]:
        offset = 0.0
        seed = 0
        while offset < table_seconds:
            events = list(simulate_game(seed).events)
            presses = [ButtonPress(e.t, e.button, e.player) for e in events if isinstance(e, Button)]
            end = 0.0
            for reading in synthetic_readings(events, noise=noise, seed=seed):
                end = reading.t
                yield offset, reading, presses
            offset += end + 1.0
            seed += 1

    frames = 0
    cpu = 0.0
    rss_10 = 0.0
    tracker, referee = Tracker(), Referee()
    last_offset = -1.0
    k = 0
    for offset, reading, presses in readings():
        if offset != last_offset:
            tracker, referee, k, last_offset = Tracker(), Referee(), 0, offset
        start = time.process_time()
        while k < len(presses) and presses[k].t <= reading.t:
            referee.press(presses[k])
            k += 1
        inform(tracker, referee)
        judge(tracker.update(reading), referee, tracker)
        referee.reconcile(reading.t, tracker.settled_columns(), tracker.settled_spit(),
                          tracker.unnamed_tops(), tracker.sure_ranks())
        referee.tick(reading.t, tracker.busy)
        cpu += time.process_time() - start
        frames += 1
        if not rss_10 and offset + reading.t >= 600.0:
            rss_10 = _rss_mb()
    rss_end = _rss_mb()
    return [
        Figure("tracker+referee frames per second (one core)", frames / cpu if cpu else 0.0, "fps"),
        Figure(f"table time fed ({frames} frames)", table_seconds / 60, "min"),
        Figure("memory after 10 min of table time", rss_10 or rss_end, "MB"),
        Figure(f"memory after {table_seconds / 60:.0f} min of table time", rss_end, "MB"),
    ]


def bench_pipeline(quick: bool) -> list[Figure]:
    from tablecam.app import run_pipeline
    from tablecam.capture import open_source
    from tablecam.events import read_events
    from tablecam.inputs.replay import read_inputs
    from tablecam.reading.classifier import CardClassifier
    from tablecam.reading.table_reader import TableReader
    from tablecam.referee import Referee
    from tablecam.referee.scoring import score_game
    from tablecam.render.demo import demo_inputs, demo_recording, demo_truth

    video = demo_recording()
    truth = read_events(demo_truth())
    presses = read_inputs(demo_inputs())
    reader = TableReader(CardClassifier())
    source = open_source(str(video))
    start_cpu = time.process_time()
    rss_start = _rss_mb()
    result = run_pipeline(source, reader, Referee(), presses=presses)
    cpu = time.process_time() - start_cpu
    score = score_game([e for e in truth if e.t <= result.input_seconds], result.events).summary()
    return [
        Figure("whole pipeline at 1280x720 (frames per CPU second)", result.frames / cpu if cpu else 0.0, "fps"),
        Figure("video refereed", result.input_seconds, "s"),
        Figure("card landing to its event, p95 (video time)", 1000 * score["play_latency_p95_s"], "ms"),
        Figure("plays reported right", score["plays_right_pct"], "%"),
        Figure("memory growth during the run", _rss_mb() - rss_start, "MB"),
        Figure("peak memory", peak_memory_mb(), "MB"),
    ]


class LoopedRecording:
    """A recording played ``loops`` times back to back as one, each pass ``period``
    seconds after the last.  Where ``period`` is longer than a pass, the recording's
    first frame (the demo's empty table) fills the pause before the next pass, at the
    recording's frame rate: the players gathering and shuffling the cards for a new
    game (a deal sooner after a game's end is taken for the same game going on).
    Notes the resident memory as each pass begins (``rss_at``: video time -> MB)."""

    def __init__(self, spec: str, loops: int, period: float) -> None:
        self.spec, self.loops, self.period = spec, loops, period
        self.done = 0
        self.rss_at: dict[float, float] = {}
        self._source: FrameSource | None = None
        self._first: Frame | None = None
        self._last_t = 0.0
        self._step: float | None = None  # the recording's frame interval

    def read(self) -> Frame | None:
        from tablecam.capture import Frame, open_source

        while self.done < self.loops:
            start = self.done * self.period
            if self._source is None and self._first is not None:
                step = self._step or 1 / 30
                pause_t = self._last_t + step
                if pause_t < start - step / 2:
                    self._last_t = pause_t
                    return Frame(pause_t, self._first.image)
            if self._source is None:
                self.rss_at[start] = _rss_mb()
                self._source = open_source(self.spec)
            frame = self._source.read()
            if frame is not None:
                if self._first is None:
                    self._first = frame
                elif self._step is None:
                    self._step = frame.t - self._first.t
                self._last_t = start + frame.t
                return Frame(self._last_t, frame.image)
            self._source.close()
            self._source, self.done = None, self.done + 1
        self.rss_at.setdefault(self.done * self.period, _rss_mb())
        return None

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
            self._source = None


#: Seconds of empty table between two passes of the demo in ``pipeline-hour``: longer
#: than the referee's ``GAME_GOES_ON_S``, as gathering and shuffling 52 cards takes.
NEW_GAME_PAUSE_S = 30.0


def _recording_period(spec: str) -> float:
    """Seconds from one pass's first frame to the next pass's: the last frame's time
    and one frame more."""
    from tablecam.capture import open_source

    source = open_source(spec)
    try:
        times = []
        while (frame := source.read()) is not None:
            times.append(frame.t)
    finally:
        source.close()
    if len(times) < 2:
        return 1.0
    return times[-1] + (times[-1] - times[0]) / (len(times) - 1)


def memory_marks(rss_at: dict[float, float]) -> tuple[float, float, tuple[float, float], float]:
    """From ``LoopedRecording.rss_at`` (each pass's start, then the run's end): the
    memory as the second pass begins (after the first game), as the first pass from
    10 minutes on begins, as the last pass begins (its time too), and the growth per hour
    between those two.  Like is compared with like: each pass begins after the empty
    table's pause, while at the run's end the last game's cards and the reader's
    memories of them are still held (10 MB more in one run here, none in another)."""
    marks = sorted(rss_at.items())
    starts = marks[:-1] if len(marks) > 1 else marks
    first = starts[1][1] if len(starts) > 1 else starts[0][1]
    ten_t, ten = next(((t, mb) for t, mb in starts if t >= 600.0), starts[-1])
    last_t, last = starts[-1]
    growth = (last - ten) * 3600.0 / (last_t - ten_t) if last_t > ten_t else 0.0
    return first, ten, (last_t, last), growth


def bench_pipeline_hour(quick: bool) -> list[Figure]:
    import dataclasses

    from tablecam.app import run_pipeline
    from tablecam.events import read_events
    from tablecam.inputs import ButtonPress
    from tablecam.inputs.replay import read_inputs
    from tablecam.reading.classifier import CardClassifier
    from tablecam.reading.table_reader import TableReader
    from tablecam.referee import Referee
    from tablecam.referee.scoring import score_games
    from tablecam.render.demo import demo_inputs, demo_recording, demo_truth

    spec = str(demo_recording())
    period = _recording_period(spec) + NEW_GAME_PAUSE_S
    loops = max(1, math.ceil((600.0 if quick else 3600.0) / period))
    truth = read_events(demo_truth())
    presses = read_inputs(demo_inputs())
    all_truth = [dataclasses.replace(e, t=e.t + k * period) for k in range(loops) for e in truth]
    all_presses = [ButtonPress(p.t + k * period, p.button, p.player)
                   for k in range(loops) for p in presses]
    source = LoopedRecording(spec, loops, period)
    reader = TableReader(CardClassifier())
    start_cpu = time.process_time()
    result = run_pipeline(source, reader, Referee(), presses=all_presses)
    cpu = time.process_time() - start_cpu
    score = score_games(all_truth, result.events)
    summary = score.summary()
    first, ten, (last_t, last), growth = memory_marks(source.rss_at)
    end_t, end = max(source.rss_at.items())
    return [
        Figure(f"video refereed ({loops} passes of the demo, {NEW_GAME_PAUSE_S:.0f} s apart)", end_t / 60, "min"),
        Figure("whole pipeline at 1280x720 (frames per CPU second)", result.frames / cpu if cpu else 0.0, "fps"),
        Figure("memory after the first game", first, "MB"),
        Figure("memory as a game begins after 10 min of video", ten, "MB"),
        Figure(f"memory as the last game begins, after {last_t / 60:.0f} min", last, "MB"),
        Figure("memory growth per hour after the first 10 min", growth, "MB/h"),
        Figure("memory as the last game ends", end, "MB"),
        Figure("peak memory", peak_memory_mb(), "MB"),
        Figure("plays reported right", summary["plays_right_pct"], "%"),
        Figure("games whose winner was right", summary["game_winners_pct"], "%"),
        Figure("rounds with exact takes", summary["exact_takes_pct"], "%"),
        Figure("false stalls", summary["false_stalls"], ""),
    ]


#: About ten minutes of CPU: run only when named (``tablecam bench pipeline-hour``).
NAMED_ONLY = frozenset({"pipeline-hour"})

BENCHMARKS: dict[str, Callable[[bool], list[Figure]]] = {
    "tracking": bench_tracking,
    "pipeline": bench_pipeline,
    "pipeline-hour": bench_pipeline_hour,
}
