"""Evaluate the table reader's zone readings on the renderer's synthetic games.

For each game (seed), frames are rendered a few times a second with their labels and
fed to ``TableReader``.  By default a stand-in classifier names each found outline from
the labels (the most visible labelled card it overlaps with IoU >= 0.6; none: "none"),
so the figures measure geometry, finding, zone assignment and change detection, not the
neural reader.  ``--reader model`` reads with the real classifier
(``models/card_reader.onnx``) instead: what the tracker really gets.  A zone reading
agrees when its state and card equal the truth's top card there (``empty`` when no
card); zones whose top card shows less than 60 % are left out, and ``covered`` readings
are counted apart.

Readings of a face-up top card are also split by zone kind (centre piles, tableau
columns, spit piles): named right, unknown (face seen, not named), wrong (another card
named), other (read as a back or as empty), covered; with the IoU of the outline the
reader took for the top card against the label's.  With the real classifier, each
unknown or wrong top is also read through its *label* outline: named right there means
the finder's outline was the trouble, not the view.  ``--crops DIR`` saves the first
few unknown or wrong centre-pile tops, as they are read (the zone with the found outline in green and
the label's in red, and the warped view the classifier got).

    nice -n 10 .venv/bin/python benchmarks/eval_zones.py --seeds 3 5 --seconds 60
    nice -n 10 .venv/bin/python benchmarks/eval_zones.py --dev --reader model --seconds 40

``--dev`` takes the referee's dev games (seeds 2000 and 2001, training decks), the set
every choice is made on.  ``--reserved`` draws the reserved evaluation decks instead
(seeds 1000 and 1001, the referee's evaluation games): for figures measured once at the
end, never for choosing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.capture import Frame
from tablecam.reading.table_reader import CardReader, TableReader
from tablecam.reading.warp import warp_card
from tablecam.render.label_reader import LabelReader, overlap, top_labels, zone_truth

KINDS = ("centre", "column", "spit")
OUTCOMES = ("right", "unknown", "wrong", "other", "covered")


def zone_kind(zone: str) -> str:
    """``centre`` for the two centre piles, ``spit`` for the spit piles, else ``column``."""
    if zone in ("left", "right"):
        return "centre"
    return "spit" if zone.startswith("spit") else "column"


class Tally:
    """Counts of one run: overall agreement, and face-up tops by zone kind."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.tops: dict[str, Counter[str]] = defaultdict(Counter)
        self.iou: dict[str, list[float]] = defaultdict(list)
        #: unknown or wrong tops read through the label's outline: outcome there
        self.label_look: dict[str, Counter[str]] = defaultdict(Counter)
        self.times: list[float] = []

    def add(self, other: Tally) -> None:
        self.counts.update(other.counts)
        for kind in KINDS:
            self.tops[kind].update(other.tops[kind])
            self.iou[kind] += other.iou[kind]
            self.label_look[kind].update(other.label_look[kind])
        self.times += other.times


def evaluate(seed: int, seconds: float, fps: float, model: bool = False,
             crops: Path | None = None, max_crops: int = 40, reserved: bool = False) -> Tally:
    from tablecam.render.decks import list_decks
    from tablecam.render.frame import FrameRenderer
    from tablecam.render.video import prepare_game

    decks = ([d for d in list_decks(include_reserved=True) if d.reserved] if reserved
             else list_decks())
    game = prepare_game(seed, decks=decks)
    renderer = FrameRenderer(game.scene, game.timeline)
    labels_reader = LabelReader()
    classifier: CardReader
    if model:
        from tablecam.reading.classifier import CardClassifier
        classifier = CardClassifier()
    else:
        classifier = labels_reader
    reader = TableReader(classifier)
    tally = Tally()
    step = max(1, round(30 / fps))
    saved = 0
    with labels_reader.watching():
        for index in range(0, round(30 * seconds), step):
            image, labels = renderer.frame_with_labels(index / 30, index)
            labels_reader.show(labels)
            start = time.perf_counter()
            reading = reader.read(Frame(index / 30, image))
            tally.times.append(time.perf_counter() - start)
            if not reading.zones:
                tally.counts["no geometry yet"] += 1
                continue
            top = top_labels(labels)
            doubtful: list[tuple[str, npt.NDArray[np.float32], object]] = []
            for zone, seen in reading.zones.items():
                lab = top.get(zone)
                if lab is not None and lab.visible < 0.6:
                    continue
                kind = zone_kind(zone)
                truth = zone_truth(lab)
                if lab is not None and lab.face_up:
                    outcome = _outcome(seen.state, seen.card, lab.card)
                    tally.tops[kind][outcome] += 1
                    if seen.state != "covered" and seen.corners is not None:
                        label_quad = np.array(lab.corners, np.float32)
                        tally.iou[kind].append(overlap(seen.corners, label_quad))
                        if model and outcome in ("unknown", "wrong"):
                            doubtful.append((kind, label_quad, lab.card))
                            if (crops is not None and kind == "centre" and saved < max_crops
                                    and zone in reading.reread):
                                _save_crop(crops, f"{seed}-{index:05d}-{zone}-{outcome}",
                                           image, seen.corners, label_quad)
                                saved += 1
                if seen.state == "covered":
                    tally.counts["covered"] += 1
                    continue
                tally.counts["agree" if (seen.state, seen.card) == truth else "disagree"] += 1
            if doubtful:
                reads = classifier.read([warp_card(image, q) for _, q, _ in doubtful])
                for (kind, _, card), r in zip(doubtful, reads, strict=True):
                    tally.label_look[kind][_outcome("face_up" if r.kind == "face" else "other",
                                                    r.card, card)] += 1
    return tally


def _outcome(state: str, card: object, truth: object) -> str:
    """A face-up top's reading: right, unknown, wrong, other (back or empty), covered."""
    if state == "covered":
        return "covered"
    if state != "face_up":
        return "other"
    if card is None:
        return "unknown"
    return "right" if card == truth else "wrong"


def _save_crop(folder: Path, name: str, image: npt.NDArray[np.uint8],
               found: npt.NDArray[np.float32], label: npt.NDArray[np.float32]) -> None:
    """The zone around a top card with both outlines, and the view the reader got."""
    folder.mkdir(parents=True, exist_ok=True)
    both = np.concatenate([found, label])
    x0, y0 = np.floor(both.min(axis=0)).astype(int) - 20
    x1, y1 = np.ceil(both.max(axis=0)).astype(int) + 20
    x0, y0 = max(int(x0), 0), max(int(y0), 0)
    shown = image.copy()
    cv2.polylines(shown, [label.astype(np.int32).reshape(-1, 1, 2)], True, (0, 0, 255), 1)
    cv2.polylines(shown, [found.astype(np.int32).reshape(-1, 1, 2)], True, (0, 255, 0), 1)
    cv2.imwrite(str(folder / f"{name}-zone.png"), shown[y0:int(y1), x0:int(x1)])
    cv2.imwrite(str(folder / f"{name}-view.png"), warp_card(image, found))


def report(name: str, tally: Tally, model: bool) -> None:
    """Print one run's figures."""
    counts = tally.counts
    judged = counts["agree"] + counts["disagree"]
    total = judged + counts["covered"]
    print(f"{name}: {judged} zone readings judged, "
          f"{100 * counts['agree'] / max(judged, 1):.2f} % agree, "
          f"{100 * counts['covered'] / max(total, 1):.1f} % covered, "
          f"{counts['no geometry yet']} frames before the layout was found, "
          f"median {1000 * float(np.median(tally.times)):.1f} ms/frame", flush=True)
    for kind in KINDS:
        tops = tally.tops[kind]
        seen = sum(tops[o] for o in OUTCOMES if o != "covered")
        if not seen:
            continue
        shares = ", ".join(f"{o} {100 * tops[o] / seen:.1f} %" for o in OUTCOMES if o != "covered")
        ious = np.array(tally.iou[kind])
        line = (f"  {kind:<6} face-up tops {seen:4d}: {shares}; covered {tops['covered']}; "
                f"outline IoU median {float(np.median(ious)) if len(ious) else 0:.3f}, "
                f">= 0.9 {100 * float((ious >= 0.9).mean()) if len(ious) else 0:.1f} %")
        if model:
            look = tally.label_look[kind]
            line += (f"; unknown/wrong through the label's outline: right {look['right']}, "
                     f"unknown {look['unknown']}, wrong {look['wrong']}, other {look['other']}")
        print(line, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=None,
                        help="games to render (default 3 5; 2000 2001 with --dev)")
    parser.add_argument("--dev", action="store_true",
                        help="the referee's dev games (seeds 2000 2001, training decks)")
    parser.add_argument("--reserved", action="store_true",
                        help="the reserved evaluation decks (seeds 1000 1001): once, at the end")
    parser.add_argument("--reader", choices=("labels", "model"), default="labels",
                        help="name outlines from the labels (default) or with the real "
                             "classifier, models/card_reader.onnx")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--fps", type=float, default=6.0)
    parser.add_argument("--crops", type=Path, default=None,
                        help="save unknown or wrong centre-pile tops here (with --reader model)")
    args = parser.parse_args(argv)
    if args.dev and args.reserved:
        parser.error("--dev and --reserved are different sets: choose one")
    seeds = args.seeds or ([2000, 2001] if args.dev else [1000, 1001] if args.reserved else [3, 5])
    cv2.setNumThreads(1)
    model = args.reader == "model"
    overall = Tally()
    for seed in seeds:
        tally = evaluate(seed, args.seconds, args.fps, model, args.crops, reserved=args.reserved)
        report(f"game {seed}", tally, model)
        overall.add(tally)
    if len(seeds) > 1:
        report("all", overall, model)
    return 0


if __name__ == "__main__":
    sys.exit(main())
