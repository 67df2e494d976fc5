"""End-to-end evaluation of the referee: render games, replay them, compare with the truth.

    .venv/bin/python benchmarks/eval_referee.py --games 6              # video, reserved decks
    .venv/bin/python benchmarks/eval_referee.py --oracle --games 3      # video labels, no reader
    .venv/bin/python benchmarks/eval_referee.py --synthetic --games 50  # readings, no video
    .venv/bin/python benchmarks/eval_referee.py --dev --games 2 --keep DIR  # training decks

``--dev`` renders the games with *training* decks and other seeds (from 2000): the set
every tracker or referee change is judged on, so that the reserved decks stay for the
final figures.  With ``--keep DIR`` a video already rendered there (with its truth) is
used again instead of being rendered afresh, and ``--readings`` also keeps each game's
per-frame zone readings there, so that ``--from-readings`` can replay the tracker and
referee on them in seconds (a diagnostic: the reader is not re-run, so its re-locating
at each new deal follows the recorded run).  ``--misses`` lists what went wrong in each
game (plays, takes, stalls), ``--late S`` (with ``--from-readings``) the plays reported
S seconds or more after landing, with what the reader saw.

Video mode renders each simulated game with a reserved deck family (never used for
training), hands and noise (``tablecam render``), referees the video through the
whole pipeline exactly as ``tablecam replay`` does (card reader included, presses from
the truth's button lines), and scores the events against the render truth.
Oracle mode renders the same reserved-deck games but reads each zone from the
renderer's own labels (a perfect card reader that still sees hands, motion and the
camera's timing), to separate the tracker and referee from the card reader.
Synthetic mode skips video: it feeds the tracker readings made from the simulator's
events with hands, misreads, blur and dropped frames, to measure the tracker and
referee logic over many more games.  Prints one JSON object of figures.
"""

from __future__ import annotations

import argparse
import json
import pickle
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from tablecam.app import referee_readings
from tablecam.capture import Frame
from tablecam.events import AnyEvent, Button, Play, RoundEnd, Take, read_events
from tablecam.inputs import ButtonPress
from tablecam.reading.table_reader import TableReader, TableReading
from tablecam.referee import Referee
from tablecam.referee.scoring import Score, score_games
from tablecam.tracking.synthetic import Noise, SyntheticReading, SyntheticZone, synthetic_readings

ZONES = tuple(f"{s}{i}" for s in "AB" for i in range(1, 6)) + ("left", "right", "spitA", "spitB")


def presses_of(events: list[AnyEvent]) -> list[ButtonPress]:
    return [ButtonPress(e.t, e.button, e.player) for e in events if isinstance(e, Button)]


def synthetic_game(seed: int, noise: Noise, per_video: int = 1
                   ) -> tuple[list[AnyEvent], list[AnyEvent], int]:
    from tablecam.render.video import simulated_game

    truth, _motions = simulated_game(seed, per_video)
    presses = presses_of(truth)
    calls, frames = referee_readings(synthetic_readings(truth, noise=noise, seed=seed), presses)
    ours = [c.event for c in calls if c.event is not None]
    return truth, ours, frames


def oracle_game(seed: int, reserved_decks: bool = True, per_video: int = 1,
                ) -> tuple[list[AnyEvent], list[AnyEvent], dict[str, float]]:
    """A rendered game read from the renderer's labels instead of the reader."""
    from tablecam.render.decks import list_decks
    from tablecam.render.frame import FrameRenderer
    from tablecam.render.video import prepare_game
    from tablecam.tracking.synthetic import SyntheticReading, SyntheticZone

    decks = ([d for d in list_decks(include_reserved=True) if d.reserved] if reserved_decks
             else list_decks())
    game = prepare_game(seed, decks=decks, size=(1280, 720), games=per_video)
    renderer = FrameRenderer(game.scene, game.timeline)
    truth = list(game.events)
    presses = presses_of(truth)
    end = max(e.t for e in truth) + 2.0
    frames = int(end * game.scene.fps)

    def readings() -> Iterator[SyntheticReading]:
        for index in range(frames):
            t = index / game.scene.fps
            _, labels = renderer.frame_with_labels(t, index)
            zones: dict[str, SyntheticZone] = {}
            for zone in ZONES:
                here = [label for label in labels if label.zone == zone]
                if not here:
                    zones[zone] = SyntheticZone("empty")
                elif here[-1].visible < 0.6:
                    zones[zone] = SyntheticZone("covered")
                else:
                    top = here[-1]
                    zones[zone] = (SyntheticZone("face_up", top.card) if top.face_up
                                   else SyntheticZone("face_down"))
            yield SyntheticReading(t, zones)

    calls, _ = referee_readings(readings(), presses)
    ours = [c.event for c in calls if c.event is not None]
    return truth, ours, {"frames": float(frames), "deck": 0.0}


class RecordingReader:
    """Wraps the table reader and keeps each frame's zone readings (for ``--from-readings``)."""

    def __init__(self, reader: TableReader) -> None:
        self.reader = reader
        self.kept: list[SyntheticReading] = []

    def read(self, frame: Frame) -> TableReading:
        reading = self.reader.read(frame)
        zones = {name: SyntheticZone(obs.state, obs.card, obs.confidence, tuple(obs.candidates),
                                     obs.under_hand, tuple(obs.ranks))
                 for name, obs in reading.zones.items()}
        self.kept.append(SyntheticReading(reading.t, zones, tuple(reading.reread)))
        return reading

    def relocate(self) -> None:
        self.reader.relocate()


def _name(seed: int, decks: str, per_video: int) -> str:
    return f"{seed}-{decks}" + (f"-x{per_video}" if per_video > 1 else "")


def render_once(seed: int, workdir: Path, decks: str, per_video: int = 1) -> tuple[Path, Path]:
    """The game's video and truth in ``workdir``, rendered unless they are already there."""
    name = _name(seed, decks, per_video)
    video = workdir / f"game-{name}.mp4"
    truth_path = workdir / f"game-{name}.jsonl"
    if not (video.exists() and truth_path.exists()):
        partial = workdir / f"partial-{name}.mp4"
        command = [sys.executable, "-m", "tablecam", "render", "--seed", str(seed), "--decks", decks,
                   "--games", str(per_video),
                   "--size", "1280x720", "--out", str(partial), "--truth", str(truth_path)]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        partial.rename(video)
    return video, truth_path


def video_game(seed: int, workdir: Path, model: Path | None, decks: str = "reserved",
               keep_readings: bool = False, per_video: int = 1,
               ) -> tuple[list[AnyEvent], list[AnyEvent], dict[str, float]]:
    from tablecam.app import run_pipeline
    from tablecam.capture import open_source
    from tablecam.reading.classifier import CardClassifier

    video, truth_path = render_once(seed, workdir, decks, per_video)
    truth = read_events(truth_path)
    reader = RecordingReader(TableReader(CardClassifier(model)))
    start = time.process_time()
    result = run_pipeline(open_source(str(video)), reader, Referee(), presses=presses_of(truth))
    if keep_readings:
        with open(workdir / f"readings-{_name(seed, decks, per_video)}.pickle", "wb") as out:
            pickle.dump(reader.kept, out)
    cpu = time.process_time() - start
    figures = {"frames": float(result.frames), "video_s": result.input_seconds, "cpu_s": cpu,
               "wall_s": result.wall_seconds}
    return truth, result.events, figures


def readings_game(seed: int, workdir: Path, decks: str, per_video: int = 1
                  ) -> tuple[list[AnyEvent], list[AnyEvent], int]:
    """Tracker and referee over a game's kept readings (no video, no reader)."""
    name = _name(seed, decks, per_video)
    truth = read_events(workdir / f"game-{name}.jsonl")
    path = workdir / f"readings-{name}.pickle"
    if not path.exists():
        raise SystemExit(f"no kept readings {path}: run once with --keep {workdir} --readings")
    with open(path, "rb") as source:
        readings = pickle.load(source)
    calls, frames = referee_readings(readings, presses_of(truth))
    return truth, [c.event for c in calls if c.event is not None], frames


def _zone_story(readings: list[SyntheticReading], zone: str, start: float, end: float) -> str:
    """What the reader said of one zone from ``start`` to ``end``, as runs of equal readings.

    ``covered`` is split by why: ``moving`` (the zone changed from the last frame: a hand
    passing) or ``unfound`` (still, but no card found where something lies: a hand at
    rest, or a card the finder could not outline)."""
    runs: list[list[object]] = []
    for reading in readings:
        if not start <= reading.t <= end:
            continue
        obs = reading.zones.get(zone)  # type: ignore[call-overload]
        said = "-" if obs is None else obs.state if obs.card is None or obs.state != "face_up" \
            else str(obs.card)
        if obs is not None and obs.state == "face_up" and obs.card is None:
            said = "face_up ?"
        if obs is not None and obs.state == "covered":
            # the reader gives a moving zone confidence 1, a still one the share unlike the table
            said = "moving" if obs.confidence >= 0.999 else "unfound"
        if runs and runs[-1][0] == said:
            runs[-1][1] = reading.t
        else:
            runs.append([said, reading.t])
    out, prev = [], start
    for said, until in runs:
        out.append(f"{said} {float(until) - prev:.2f}s")  # type: ignore[arg-type]
        prev = float(until)  # type: ignore[arg-type]
    return ", ".join(out)


def _covered_for(readings: list[SyntheticReading], zone: str, start: float, end: float) -> float:
    """How long after ``start`` (up to ``end``) zone ``zone`` last read ``covered``: a hand
    still over a card that has landed, or nothing found where it lies."""
    last = start
    for reading in readings:
        obs = reading.zones.get(zone)  # type: ignore[call-overload]
        if start <= reading.t <= end and obs is not None and obs.state == "covered":
            last = reading.t
    return last - start


def late_plays(truth: list[AnyEvent], ours: list[AnyEvent], readings: list[SyntheticReading],
               late_s: float) -> list[str]:
    """One line per play reported ``late_s`` or more after it landed: what the camera saw;
    then a line counting those whose pile read ``covered`` until a frame (1/30 s) or less
    before ``late_s`` had passed (no reading of the pile could have reported them in time)."""
    key = lambda e: (e.round, e.player, e.card, e.pile)  # noqa: E731
    landed: dict[tuple[object, ...], list[Play]] = {}
    for e in truth:
        if isinstance(e, Play):
            landed.setdefault(key(e), []).append(e)
    lines = []
    hidden = 0
    for e in ours:
        if not isinstance(e, Play) or not landed.get(key(e)):
            continue
        real = landed[key(e)].pop(0)
        if e.t - real.t < late_s:
            continue
        hidden += _covered_for(readings, real.pile, real.t, e.t) >= late_s - 1 / 30 - 1e-6
        column = f"{real.player}{real.column}"
        lines.append(f"{real.t:7.2f} +{e.t - real.t:.2f}s {real.player} {real.card} from {column} "
                     f"to {real.pile}\n    {real.pile}: {_zone_story(readings, real.pile, real.t, e.t)}"
                     f"\n    {column}: {_zone_story(readings, column, real.t, e.t)}")
    lines.append(f"{len(lines)} plays reported {late_s:.2f} s or more after landing; their pile "
                 f"covered until {late_s - 1 / 30:.2f} s or later in {hidden}")
    return lines


def misses(truth: list[AnyEvent], ours: list[AnyEvent]) -> list[str]:
    """One line per thing the referee got wrong in a game: each play missed and each
    reported that did not happen (round, player, card, pile, column, time), each round
    whose winner or takes differ, and each stall not called, called falsely or called more than
    0.5 s late (the scorer's matching: ``tablecam.referee.scoring``)."""
    from tablecam.referee.scoring import STALL_EARLY_S, STALL_LATE_S

    key = lambda e: (e.round, e.player, e.card, e.pile)  # noqa: E731
    lines = []
    for label, these, those in (("missed", truth, ours), ("not played", ours, truth)):
        theirs = [key(e) for e in those if isinstance(e, Play)]
        for e in these:
            if isinstance(e, Play):
                if key(e) in theirs:
                    theirs.remove(key(e))
                else:
                    card = e.card.code if e.card is not None else "unread card"
                    lines.append(f"{e.t:8.2f} {label}: round {e.round}, {e.player} {card} from "
                                 f"column {e.column} to {e.pile}")

    def takes(events: list[AnyEvent]) -> dict[int, list[tuple[str, str, int]]]:
        out: dict[int, list[tuple[str, str, int]]] = {}
        for e in events:
            if isinstance(e, Take):
                out.setdefault(e.round, []).append((e.player, e.pile, e.cards))
        return {r: sorted(v) for r, v in out.items()}

    winners = {e.round: e.winner for e in ours if isinstance(e, RoundEnd)}
    for e in truth:
        if isinstance(e, RoundEnd) and winners.get(e.round) != e.winner:
            lines.append(f"{e.t:8.2f} round {e.round} won by {winners.get(e.round)}, truth {e.winner}")
    ours_takes = takes(ours)
    for r, right in takes(truth).items():
        if ours_takes.get(r) != right:
            lines.append(f"round {r} takes {ours_takes.get(r)}, truth {right}")
    unmatched = [e.t for e in truth if e.type == "stall"]
    for t in [e.t for e in ours if e.type == "stall"]:
        match = next((s for s in unmatched if -STALL_EARLY_S <= t - s <= STALL_LATE_S), None)
        if match is None:
            lines.append(f"{t:8.2f} false stall")
        else:
            unmatched.remove(match)
            if t - match > 0.5:
                lines.append(f"{match:8.2f} stall called {t - match:.2f} s late")
    lines += [f"{t:8.2f} stall not called" for t in unmatched]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--first-seed", type=int, default=None,
                        help="first game's seed (default 1000; 2000 with --dev)")
    parser.add_argument("--dev", action="store_true",
                        help="video with training decks and dev seeds: the set to decide on")
    parser.add_argument("--readings", action="store_true",
                        help="with --keep: also keep each game's zone readings")
    parser.add_argument("--from-readings", action="store_true",
                        help="with --keep: replay tracker and referee on kept readings only")
    parser.add_argument("--late", type=float, default=None, metavar="S",
                        help="with --from-readings: list each play reported S seconds or more "
                             "after it landed, with what the reader saw of its pile and column")
    parser.add_argument("--misses", action="store_true",
                        help="list each play missed or reported wrongly, each round's takes "
                             "that differ, and each stall missed, false or late, per game")
    parser.add_argument("--synthetic", action="store_true", help="readings from events, no video")
    parser.add_argument("--oracle", action="store_true",
                        help="rendered games read from the renderer's labels, not the card reader")
    parser.add_argument("--per-video", type=int, default=1, metavar="N",
                        help="N games one after the other in each video (or synthetic run), "
                             "dealt afresh between them: is each new game refereed? (default 1)")
    parser.add_argument("--misread", type=float, default=0.02)
    parser.add_argument("--blur", type=float, default=0.02)
    parser.add_argument("--drop", type=float, default=0.05)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--keep", type=Path, default=None, help="keep rendered videos here")
    args = parser.parse_args()
    first_seed = args.first_seed if args.first_seed is not None else 2000 if args.dev else 1000
    decks = "training" if args.dev else "reserved"
    if (args.readings or args.from_readings) and args.keep is None:
        parser.error("--readings and --from-readings need --keep DIR")
    total = Score()
    frames = 0
    cpu = 0.0
    video_s = 0.0
    per_game = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.keep or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        for i in range(args.games):
            seed = first_seed + i
            if args.from_readings:
                truth, ours, n = readings_game(seed, workdir, decks, args.per_video)
                frames += n
                if args.late is not None:
                    with open(workdir / f"readings-{_name(seed, decks, args.per_video)}.pickle",
                              "rb") as source:
                        kept = pickle.load(source)
                    for line in late_plays(truth, ours, kept, args.late):
                        print(f"{seed} {line}", file=sys.stderr)
                label = "readings"
            elif args.synthetic:
                truth, ours, n = synthetic_game(seed, Noise(args.misread, args.blur, args.drop),
                                                args.per_video)
                frames += n
                label = "synthetic"
            elif args.oracle:
                truth, ours, figures = oracle_game(seed, not args.dev, args.per_video)
                frames += int(figures["frames"])
                label = "oracle"
            else:
                truth, ours, figures = video_game(seed, workdir, args.model, decks, args.readings,
                                                  args.per_video)
                frames += int(figures["frames"])
                cpu += figures["cpu_s"]
                video_s += figures["video_s"]
                label = "dev video" if args.dev else "video"
            if args.misses:
                for line in misses(truth, ours):
                    print(f"{seed} {line}", file=sys.stderr)
            score = score_games(truth, ours)
            total.add(score)
            per_game.append({"seed": seed, "input": label, **score.summary()})
            print(json.dumps(per_game[-1]), file=sys.stderr, flush=True)
    mode = ("readings" if args.from_readings else "synthetic" if args.synthetic
            else "oracle" if args.oracle else "dev video" if args.dev else "video")
    figures_out: dict[str, object] = {"mode": mode,
                                      "games": args.games, "frames": frames, **total.summary()}
    if mode in ("video", "dev video"):
        figures_out["pipeline_fps_per_core"] = frames / cpu if cpu else 0.0
        figures_out["video_seconds"] = video_s
    figures_out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(figures_out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
