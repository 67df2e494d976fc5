"""Benchmarks of the tracking and refereeing stages (``tablecam bench tracking pipeline``).

- ``tracking``: the tracker and referee alone, fed synthetic readings of simulated
  games (hands, misreads, dropped frames) for an hour of table time: frames per
  second on one core, and resident memory after 10 and 60 minutes (flat means no
  leak).
- ``pipeline``: the whole pipeline (video decoding, card reader, tracker, referee) on
  the built-in 1280x720 demo recording: frames per second per core (CPU time), the
  delay from a card landing to its event (video time, against the render truth), and
  memory.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from tablecam.bench import Figure, peak_memory_mb


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
    from tablecam.app import judge
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
        tracker.expected_columns = referee.expected_columns()
        tracker.spit_expected = referee.expects_spit
        tracker.spit_feeders = referee.spit_feeders or None
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


BENCHMARKS: dict[str, Callable[[bool], list[Figure]]] = {
    "tracking": bench_tracking,
    "pipeline": bench_pipeline,
}
