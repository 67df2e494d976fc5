"""The card reader by card size: whole face-up cards of rendered stills of the *training*
decks, each given its labelled outline, read right and wrong per 10 pixels of card
width, for each Pi camera lens.

The wide lens a metre up shows cards 33-40 pixels wide at 1280x720; this says how the
reader does there against the Module 3's larger cards.  Finding is left out (the
outline is the label's), so only the reader is measured.  Training decks only, so it is
a development set: the reserved families are measured by ``eval_recognize.py``.

    nice -n 10 .venv/bin/python benchmarks/reader_by_size.py [--stills 25] [--model M] [--first-only]

``--first-only`` reads without the second opinion, as the live table reader reads the
columns of cards 45 pixels wide or more (``table_reader.SMALL_CARD_PX``).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tablecam.reading.classifier import CardClassifier  # noqa: E402
from tablecam.reading.warp import warp_card  # noqa: E402
from tablecam.render.stills import render_still  # noqa: E402

FIRST_SEED = 5000
LENSES = ("module3-wide", "module3")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stills", type=int, default=25, help="stills per lens")
    parser.add_argument("--model", type=Path, default=None, help="card-reading model")
    parser.add_argument("--first-only", action="store_true",
                        help="without the model's second opinion")
    args = parser.parse_args()
    reader = CardClassifier(args.model, second_opinion=not args.first_only)
    tally: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for lens in LENSES:
        for seed in range(FIRST_SEED, FIRST_SEED + args.stills):
            image, labels = render_still(seed, size=(1280, 720), lens=lens)
            shown = [label for label in labels if label.card is not None and label.face_up
                     and label.zone != "hand" and label.visible >= 0.98]
            if not shown:
                continue
            corners = [np.asarray(label.corners, np.float32) for label in shown]
            reads = reader.read([warp_card(image, quad) for quad in corners])
            for label, quad, read in zip(shown, corners, reads, strict=True):
                width = float(np.linalg.norm(quad[1] - quad[0]))
                counts = tally[(lens, int(width // 10) * 10)]
                counts[0] += 1
                counts[1] += read.card == label.card
                counts[2] += read.card is not None and read.card != label.card
    print("lens          width px  cards  right    wrong")
    for (lens, width), (cards, right, wrong) in sorted(tally.items()):
        print(f"{lens:13} {width:3}-{width + 10:<4} {cards:6}  {100 * right / cards:5.1f} %  "
              f"{100 * wrong / cards:4.1f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
