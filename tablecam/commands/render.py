"""``tablecam render``: a synthetic overhead video of a simulated game with its truth,
or labelled stills for training and measuring the card reader."""

from __future__ import annotations

import argparse
import sys

HELP = "render a synthetic overhead video of a simulated game (or labelled stills)"


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, not {text!r}") from None
    if (width, height) not in ((1280, 720), (1920, 1080)):
        raise argparse.ArgumentTypeError("size must be 1280x720 or 1920x1080")
    return width, height


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="seed of the game, deck, camera, table and light (default 1)")
    parser.add_argument("--out", required=True, metavar="PATH",
                        help="video file to write (.mp4), or with --stills a folder")
    parser.add_argument("--truth", metavar="FILE.jsonl",
                        help="write the events that happened in the video (INTERFACE.md, video time)")
    parser.add_argument("--inputs", metavar="FILE.jsonl",
                        help="write the button presses, for 'tablecam replay --inputs'")
    parser.add_argument("--events", metavar="FILE.jsonl",
                        help="render this event log instead of a simulated game")
    parser.add_argument("--games", type=int, default=1, metavar="N",
                        help="N simulated games one after the other, the cards gathered and "
                             "dealt afresh between them (default 1)")
    parser.add_argument("--size", type=_size, metavar="WxH",
                        help="1280x720 or 1920x1080 (default: chosen by the seed)")
    parser.add_argument("--lens", choices=("module3", "module3-wide"),
                        help="Pi Camera Module 3 or its Wide version (default: chosen by the seed)")
    parser.add_argument("--seconds", type=float, metavar="N",
                        help="stop after N seconds of video (default: the whole game)")
    parser.add_argument("--deck", metavar="NAME", help="deck to draw (default: chosen by the seed)")
    parser.add_argument("--stills", type=int, metavar="N",
                        help="write N labelled stills (image + JSON) into the --out folder instead")
    parser.add_argument("--decks", choices=("training", "reserved"), default="training",
                        help="draw the training decks (default), or the reserved evaluation "
                             "decks (held-out tests only)")
    parser.add_argument("--format", choices=("png", "jpg"), default="png",
                        help="with --stills: image format (default png)")
    parser.add_argument("--json", action="store_true", help="no progress; print a JSON summary")


def run(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from tablecam.errors import TablecamError
    from tablecam.events import read_events
    from tablecam.render.decks import find_deck, list_decks
    from tablecam.render.stills import write_stills
    from tablecam.render.video import prepare_game, render_video

    show = not args.json and sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            print(f"\rrendering {done}/{total}", end="" if done < total else "\n",
                  file=sys.stderr, flush=True)

    out = Path(args.out)
    reserved = args.decks == "reserved"
    if args.deck:
        chosen = [find_deck(args.deck, include_reserved=reserved)]
    elif reserved:
        chosen = [d for d in list_decks(include_reserved=True) if d.reserved]
    else:
        chosen = None
    if args.stills is not None:
        if args.stills < 1:
            raise TablecamError(f"--stills must be at least 1, not {args.stills}")
        written = write_stills(out, args.stills, seed=args.seed,
                               reserved=args.decks == "reserved", size=args.size,
                               image_format=args.format, progress=progress, decks=chosen)
        summary = {"stills": len(written), "out": str(out)}
    else:
        if out.suffix.lower() not in (".mp4", ".mkv", ".avi"):
            raise TablecamError(f"--out must name a video file such as game.mp4, not {out}")
        if args.seconds is not None and args.seconds <= 0:
            raise TablecamError(f"--seconds must be positive, not {args.seconds}")
        if args.games < 1:
            raise TablecamError(f"--games must be at least 1, not {args.games}")
        if args.events and args.games != 1:
            raise TablecamError("--games simulates the games; it cannot go with --events")
        events = read_events(args.events) if args.events else None
        game = prepare_game(args.seed, events=events, decks=chosen, size=args.size,
                            lens=args.lens, games=args.games)
        frames = render_video(game, out, truth=Path(args.truth) if args.truth else None,
                              inputs=Path(args.inputs) if args.inputs else None,
                              seconds=args.seconds, progress=progress)
        cam = game.scene.camera
        summary = {"video": str(out), "frames": frames, "seconds": round(frames / game.scene.fps, 2),
                   "deck": game.scene.deck.name, "size": f"{cam.width}x{cam.height}",
                   "lens": cam.lens, "camera_height_mm": round(cam.height_mm),
                   "surface": game.scene.look.surface}
    if args.json:
        print(json.dumps(summary))
    else:
        print(", ".join(f"{k}: {v}" for k, v in summary.items()))
    return 0
