"""Evaluate the table reader's zone readings on the renderer's synthetic games.

For each game (seed), frames are rendered a few times a second with their labels and
fed to ``TableReader``.  A stand-in classifier names each found outline from the
labels (the most visible labelled card it overlaps with IoU >= 0.6; none: "none"), so
the figures measure geometry, finding, zone assignment and change detection, not the
neural reader.  A zone reading agrees when its state and card equal the truth's top
card there (``empty`` when no card); zones whose top card shows less than 60 % are
left out, and ``covered`` readings are counted apart.

    nice -n 10 .venv/bin/python benchmarks/eval_zones.py --seeds 3 5 --seconds 60
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence

import cv2
import numpy as np

from tablecam.capture import Frame
from tablecam.reading.table_reader import TableReader
from tablecam.render.label_reader import LabelReader, top_labels, zone_truth


def evaluate(seed: int, seconds: float, fps: float) -> tuple[Counter[str], list[float]]:
    from tablecam.render.frame import FrameRenderer
    from tablecam.render.video import prepare_game

    game = prepare_game(seed)
    renderer = FrameRenderer(game.scene, game.timeline)
    labels_reader = LabelReader()
    reader = TableReader(labels_reader)
    counts: Counter[str] = Counter()
    times: list[float] = []
    step = max(1, round(30 / fps))
    with labels_reader.watching():
        for index in range(0, round(30 * seconds), step):
            image, labels = renderer.frame_with_labels(index / 30, index)
            labels_reader.show(labels)
            start = time.perf_counter()
            reading = reader.read(Frame(index / 30, image))
            times.append(time.perf_counter() - start)
            if not reading.zones:
                counts["no geometry yet"] += 1
                continue
            top = top_labels(labels)
            for zone, seen in reading.zones.items():
                lab = top.get(zone)
                if lab is not None and lab.visible < 0.6:
                    continue
                if seen.state == "covered":
                    counts["covered"] += 1
                    continue
                counts["agree" if (seen.state, seen.card) == zone_truth(lab) else "disagree"] += 1
    return counts, times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--fps", type=float, default=6.0)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    for seed in args.seeds:
        counts, times = evaluate(seed, args.seconds, args.fps)
        judged = counts["agree"] + counts["disagree"]
        total = judged + counts["covered"]
        print(f"game {seed}: {judged} zone readings judged, "
              f"{100 * counts['agree'] / max(judged, 1):.2f} % agree, "
              f"{100 * counts['covered'] / max(total, 1):.1f} % covered, "
              f"{counts['no geometry yet']} frames before the layout was found, "
              f"median {1000 * float(np.median(times)):.1f} ms/frame", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
