"""``tablecam demo``: the built-in table recording refereed live, with voice and dashboard."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "referee the built-in table recording in real time, with speech and the dashboard"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8080, help="dashboard port (default 8080; 0 = any)")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="playback speed, 1 = real time (default); 0 = as fast as possible")
    parser.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    parser.add_argument("--no-dashboard", action="store_true", help="do not serve the dashboard")
    parser.add_argument("--no-speech", action="store_true", help="print the calls, do not speak them")
    parser.add_argument("--model", metavar="FILE", type=Path,
                        help="the card-reading model (default: the one shipped)")
    parser.add_argument("--db", metavar="FILE", type=Path, default=None,
                        help="keep the demo's games in this SQLite file (default: "
                             "demo.sqlite3 beside the table's own game records)")
    parser.add_argument("--fps", type=float, default=None, help=argparse.SUPPRESS)


def demo_db_path() -> Path:
    """The demo's own records, beside (never mixed with) a real table's games."""
    from tablecam.records import default_db_path

    return default_db_path().with_name("demo.sqlite3")


def run(args: argparse.Namespace) -> int:
    import contextlib
    import queue
    import webbrowser

    from tablecam.announce.combined import make_announcer
    from tablecam.app import run_pipeline
    from tablecam.capture import open_source
    from tablecam.config import SpeechConfig, load_config
    from tablecam.errors import TablecamError
    from tablecam.inputs import ButtonPress
    from tablecam.inputs.clock import RecordingClock
    from tablecam.inputs.replay import read_inputs
    from tablecam.reading.classifier import CardClassifier
    from tablecam.reading.table_reader import TableReader
    from tablecam.records import GameRecords
    from tablecam.render.demo import demo_inputs, demo_recording
    from tablecam.session import build_session

    if args.speed < 0:
        raise TablecamError(f"--speed must be 0 or more, not {args.speed}")
    config = load_config(None)

    def rendering(done: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\rtablecam demo: rendering the demo recording, frame {done}/{total}",
                  end="", file=sys.stderr, flush=True)

    video = demo_recording(progress=rendering)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    # The button presses a person made during the recorded game (never the truth's calls).
    presses = read_inputs(demo_inputs())
    reader = TableReader(CardClassifier(args.model))
    # Calls are stamped with the recording's time (as `replay` stamps them), not wall
    # seconds: at --speed 0 wall time runs at the reader's pace (a full-frame search
    # for the deal costs ~10x a steady frame), so a wall stamp says nothing about when
    # in the game a call was made.
    clock = RecordingClock()
    speech = SpeechConfig(engine="none") if args.no_speech else config.speech
    announcer = make_announcer(speech, clock)
    controls: queue.Queue[ButtonPress] = queue.Queue()
    with contextlib.ExitStack() as stack:
        records = stack.enter_context(GameRecords(args.db or demo_db_path()))
        print(f"tablecam demo: game records in {records.path} "
              f"(tablecam history --db {records.path})", file=sys.stderr)
        session = build_session(config, announcer, records)
        hub = None
        if not args.no_dashboard:
            from tablecam.dashboard import LiveHub

            hub = LiveHub()
            server = stack.enter_context(session.serve(hub, args.port, controls=controls))
            print(f"tablecam demo: dashboard at {server.url} (PIN {server.pin})", file=sys.stderr)
            if not args.no_browser:
                webbrowser.open(server.url)
        # The recording always starts at its first deal: record it, never resume into it.
        source = clock.follow(open_source(str(video), fps=args.fps))
        result = run_pipeline(source, reader, session.referee,
                              announcer=announcer, presses=presses, controls=controls, hub=hub,
                              log=session.log, resume=False,
                              pace=args.speed if args.speed > 0 else None)
    print(f"tablecam demo: {result.frames} frames, {result.input_seconds:.0f} s of video "
          f"in {result.wall_seconds:.0f} s", file=sys.stderr)
    return 0
