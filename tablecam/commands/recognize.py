"""``tablecam recognize IMAGE... [--json]``: find and read every face-up card in photos."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "find and read every face-up card in photos"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE",
                        help="photos or frames (JPEG, PNG, ...)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per image per line (see INTERFACE.md)")
    parser.add_argument("--model", type=Path, default=None,
                        help="card-reading model (default models/card_reader.onnx)")


def run(args: argparse.Namespace) -> int:
    from tablecam.errors import ModelError, TablecamError
    from tablecam.reading.classifier import CardClassifier
    from tablecam.reading.recognize import describe, load_image, recognize

    classifier: CardClassifier | None = None  # loaded at the first readable image
    bad = 0
    for path in args.images:
        try:
            image = load_image(path)
            if classifier is None:
                classifier = CardClassifier(args.model)
            result = recognize(image, classifier)
        except ModelError:
            raise
        except TablecamError as error:
            bad += 1
            print(f"tablecam recognize: {error}", file=sys.stderr)
            if args.json:
                print(json.dumps({"image": str(path), "error": str(error), "cards": []}))
            continue
        if args.json:
            print(json.dumps(result.as_json(str(path))))
        else:
            print(describe(str(path), result))
        sys.stdout.flush()
    return 2 if bad else 0
