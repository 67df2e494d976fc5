"""The card reader's side look (``CardClassifier.look_aside``) on synthetic views of the
*training* decks: per deck, the faces read right and wrong without it and with it, at
each suit threshold ``--suits`` (``classifier.SIDE_SUIT`` is the one in use).

The views are made as the training script makes them (``tablecam.reading.synth``: a
table, neighbours, light, blur, noise, JPEG, a finder's jitter), at card heights drawn
from ``--heights`` (the default, 50-80 px, is a card 36-57 px wide: the wide lens a
metre up at 1280x720, where the index is hardest to read).  Training decks only, so it
is a development set; the reserved families are judged by ``eval_recognize.py``.

    nice -n 10 .venv/bin/python benchmarks/side_look.py [--per-card 3] [--heights 50 80]
        [--strength 0.6] [--suits 0.9 0.95 0.98] [--decks NAME...] [--model M]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tablecam.reading.classifier as classifier_module  # noqa: E402
import tablecam.reading.synth as synth  # noqa: E402
from tablecam.cards import FULL_DECK  # noqa: E402
from tablecam.reading.classifier import CardClassifier  # noqa: E402
from tablecam.render.decks import list_decks, load_deck  # noqa: E402

FACE_HEIGHT = 280
SEED = 46


def views_of(name: str, faces: list[np.ndarray], back: np.ndarray, per_card: int,
             heights: tuple[float, float], strength: float) -> tuple[list[np.ndarray], list[int]]:
    """``per_card`` synthetic views of each of a deck's 52 faces at card heights drawn
    log-uniformly from ``heights``, and their card indices."""
    rng = np.random.default_rng([SEED, sum(map(ord, name))])
    pool = synth.SceneCards(faces, [back], list(faces))
    views, truth = [], []
    for index in range(52):
        for _ in range(per_card):
            views.append(synth.face_sample(rng, pool, index, strength, heights).image)
            truth.append(index)
    return views, truth


def tally(reader: CardClassifier, views: list[np.ndarray], truth: list[int]) -> tuple[int, int]:
    """Faces read right and wrong."""
    reads = reader.read(views)
    right = sum(r.card is not None and r.card == FULL_DECK[t] for r, t in zip(reads, truth, strict=True))
    wrong = sum(r.card is not None and r.card != FULL_DECK[t] for r, t in zip(reads, truth, strict=True))
    return right, wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-card", type=int, default=3)
    parser.add_argument("--heights", type=float, nargs=2, default=(50.0, 80.0))
    parser.add_argument("--strength", type=float, default=0.6, help="disturbance, 0-1")
    parser.add_argument("--suits", type=float, nargs="+", default=(0.9, 0.95, 0.98))
    parser.add_argument("--decks", nargs="+", default=None, help="training decks (all)")
    parser.add_argument("--model", type=Path, default=None)
    args = parser.parse_args()
    decks = [d for d in list_decks() if args.decks is None or d.name in args.decks]
    without = CardClassifier(args.model, second_opinion=False, side_look=False)
    with_side = CardClassifier(args.model, second_opinion=False, side_look=True)
    print(f"{'deck':30s} faces  without: right wrong | " + " | ".join(
        f"SIDE_SUIT {s}: right wrong" for s in args.suits), flush=True)
    totals = np.zeros(2 + 2 * len(args.suits), int)
    faces_total = 0
    in_use = classifier_module.SIDE_SUIT
    for deck in decks:
        art = load_deck(deck)
        views, truth = views_of(deck.name, [art.face(c, FACE_HEIGHT) for c in FULL_DECK],
                                art.back(FACE_HEIGHT), args.per_card, tuple(args.heights),
                                args.strength)
        row = list(tally(without, views, truth))
        for suit in args.suits:
            classifier_module.SIDE_SUIT = suit  # type: ignore[misc]
            row += tally(with_side, views, truth)
        classifier_module.SIDE_SUIT = in_use  # type: ignore[misc]
        totals += row
        faces_total += len(views)
        print(f"{deck.name:30s} {len(views):5d}  {row[0]:13d} {row[1]:5d} | " + " | ".join(
            f"{row[2 + 2 * k]:22d} {row[3 + 2 * k]:5d}" for k in range(len(args.suits))),
            flush=True)
    print(f"{'all':30s} {faces_total:5d}  {totals[0]:13d} {totals[1]:5d} | " + " | ".join(
        f"{totals[2 + 2 * k]:22d} {totals[3 + 2 * k]:5d}" for k in range(len(args.suits))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
