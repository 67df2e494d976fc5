"""``tablecam replay VIDEO [--inputs FILE] [--json]``: referee a recording as if live."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "referee a recording (a video file or a folder of frames) as if live"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("video", metavar="VIDEO", help="a video file or a folder of frames")
    parser.add_argument("--inputs", metavar="FILE",
                        help="button presses as JSON lines in the video's time base")
    parser.add_argument("--json", action="store_true",
                        help="print every event as a JSON line (comparable with render truth)")
    parser.add_argument("--model", metavar="FILE", type=Path,
                        help="the card-reading model (default: the one shipped)")
    parser.add_argument("--fps", type=float, help="frame rate of a folder of frames")
    parser.add_argument("--db", metavar="FILE", type=Path,
                        help="keep a game log in this SQLite file (resumes its unfinished game)")


def run(args: argparse.Namespace) -> int:
    from tablecam.app import run_pipeline
    from tablecam.capture import open_source
    from tablecam.config import load_config
    from tablecam.errors import CaptureError, TablecamError
    from tablecam.events import event_to_json
    from tablecam.inputs.replay import read_inputs
    from tablecam.reading.classifier import CardClassifier
    from tablecam.reading.table_reader import TableReader
    from tablecam.referee import Call
    from tablecam.session import build_session

    video = Path(args.video)
    if not video.exists():
        raise CaptureError(f"there is no recording at {video}; give a video file or a folder of frames")
    presses = read_inputs(args.inputs) if args.inputs else []
    reader = TableReader(CardClassifier(args.model))
    source = open_source(str(video), fps=args.fps)
    progress = sys.stderr.isatty() and not args.json
    records = None
    if args.db is not None:
        from tablecam.records import GameRecords

        records = GameRecords(args.db)
    # The same referee rules, names and game log as `tablecam run` and `demo`.
    session = build_session(load_config(None), records=records)

    def show(call: Call) -> None:
        if args.json:
            if call.event is not None:
                print(event_to_json(call.event), flush=True)
        elif call.say:
            print(f"[{call.t:8.2f}] {call.say}", flush=True)
        if progress:
            print(f"\r{call.t:8.1f} s", end="", file=sys.stderr, flush=True)

    try:
        result = run_pipeline(source, reader, session.referee, presses=presses, on_call=show,
                              log=session.log)
    finally:
        if records is not None:
            records.close()
    if progress:
        print(file=sys.stderr)
    if result.frames == 0:
        raise CaptureError(f"{video} holds no frames that could be read")
    if result.deals_seen == 0:
        raise TablecamError(
            f"no Spit deal was seen in {video} ({result.frames} frames, {result.input_seconds:.1f} s): "
            "the camera must see both tableaux laid out from above")
    return 0
