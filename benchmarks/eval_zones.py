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
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.capture import Frame
from tablecam.reading import table_reader
from tablecam.reading.classifier import CardRead
from tablecam.reading.table_reader import TableReader


def _iou(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    inter, _ = cv2.intersectConvexConvex(a.reshape(-1, 1, 2).astype(np.float32),
                                         b.reshape(-1, 1, 2).astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


class LabelReader:
    """Names each outline from the renderer's labels (stands in for the classifier)."""

    def __init__(self) -> None:
        self.labels: list[Any] = []
        self.outlines: list[npt.NDArray[np.float32]] = []

    def read(self, cards: Sequence[npt.NDArray[np.uint8]]) -> list[CardRead]:
        out = []
        for outline in self.outlines[:len(cards)]:
            near = [lab for lab in self.labels if _iou(outline, np.array(lab.corners)) >= 0.6]
            best = max(near, key=lambda lab: lab.visible, default=None)
            if best is None:
                out.append(CardRead(None, 0.9, "none"))
            elif best.face_up:
                out.append(CardRead(best.card, 0.99, "face"))
            else:
                out.append(CardRead(None, 0.99, "back"))
        self.outlines = self.outlines[len(cards):]
        return out


def evaluate(seed: int, seconds: float, fps: float) -> tuple[Counter[str], list[float]]:
    from tablecam.render.frame import FrameRenderer
    from tablecam.render.video import prepare_game

    game = prepare_game(seed)
    renderer = FrameRenderer(game.scene, game.timeline)
    labels_reader = LabelReader()
    warp = table_reader.warp_card

    def spy(image: npt.NDArray[np.uint8], corners: npt.ArrayLike) -> npt.NDArray[np.uint8]:
        labels_reader.outlines.append(np.asarray(corners, np.float32))
        return warp(image, corners)

    table_reader.warp_card = spy
    try:
        reader = TableReader(labels_reader)
        counts: Counter[str] = Counter()
        times: list[float] = []
        step = max(1, round(30 / fps))
        for index in range(0, round(30 * seconds), step):
            image, labels = renderer.frame_with_labels(index / 30, index)
            labels_reader.labels = labels
            labels_reader.outlines = []
            start = time.perf_counter()
            reading = reader.read(Frame(index / 30, image))
            times.append(time.perf_counter() - start)
            if not reading.zones:
                counts["no geometry yet"] += 1
                continue
            top: dict[str, Any] = {}
            for label in labels:  # the most visible card of each zone is on top
                if label.zone != "hand" and (label.zone not in top
                                             or label.visible > top[label.zone].visible):
                    top[label.zone] = label
            for zone, seen in reading.zones.items():
                lab: Any = top.get(zone)
                if lab is not None and lab.visible < 0.6:
                    continue
                if seen.state == "covered":
                    counts["covered"] += 1
                    continue
                truth = ("empty", None) if lab is None else (
                    ("face_up", lab.card) if lab.face_up else ("face_down", None))
                counts["agree" if (seen.state, seen.card) == truth else "disagree"] += 1
        return counts, times
    finally:
        table_reader.warp_card = warp


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
