"""Follow labelled cards of a photo through the finder's stages: why is a card missed?

For each labelled box of a ``poker_cards_fmjio`` photo (or ``--box x0,y0,x1,y1`` on
any image) prints, for ``find_cards(corners=True)`` as ``tablecam recognize`` runs it:

- per binary view (``_masks``): the region that best covers the box, and the card
  tests it passes or fails (area, solidity, fill, aspect, side balance, edge support);
- per stage (candidates of each view, off the border, selected, not table patches,
  pile cards, corner cards, final, and ``find_cards_thorough``'s final at two sizes):
  the best box IoU of any outline with the label.

``--survey`` counts, over the fmjio dev sample, the stage at which each card that
``find_cards_thorough`` misses is lost (in the full-size look).

The photo is stretched back to 4:3 or 3:4 like ``eval_recognize.py`` does.  Use it on
development photos only (``poker_cards_fmjio/train``).

    .venv/bin/python benchmarks/trace_finder.py IMG_20220316_161325 [--label QH]
    .venv/bin/python benchmarks/trace_finder.py photo.jpg --box 120,20,310,340
    .venv/bin/python benchmarks/trace_finder.py --survey   # the whole fmjio dev sample
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_recognize import FMJIO_CLASSES, _unsquash, datasets_root  # noqa: E402

from tablecam.reading import finder  # noqa: E402
from tablecam.reading.realdata import Box, bounding_box, box_iou  # noqa: E402


def _fmjio_labels(stem: str) -> tuple[Path, list[tuple[str, Box]]]:
    root = datasets_root() / "poker_cards_fmjio" / "train"
    paths = sorted((root / "images").glob(f"{stem}*"))
    if not paths:
        raise SystemExit(f"no fmjio train photo starts with {stem}")
    image = cv2.imread(str(paths[0]))
    h, w = image.shape[:2]
    labels = []
    for line in (root / "labels" / (paths[0].stem + ".txt")).read_text().split("\n"):
        if line.strip():
            c, x, y, bw, bh = (float(v) for v in line.split())
            labels.append((FMJIO_CLASSES[int(c)],
                           ((x - bw / 2) * w, (y - bh / 2) * h, (x + bw / 2) * w, (y + bh / 2) * h)))
    return paths[0], labels


def _region_tests(contour: npt.NDArray[np.int32], min_area: float, max_area: float,
                  support: npt.NDArray[np.uint8]) -> str:
    """The card tests of ``_candidates_from_mask`` on one region, as text."""
    area = float(cv2.contourArea(contour))
    hull = cv2.convexHull(contour)
    hull_area = max(float(cv2.contourArea(hull)), 1e-6)
    (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
    parts = [f"area {area:.0f} (ok {min_area:.0f}..{max_area:.0f})",
             f"solidity {area / hull_area:.2f} (>= {finder.MIN_SOLIDITY})",
             f"rect fill {hull_area / max(rw * rh, 1e-6):.2f} (>= {finder.MIN_FILL * 0.9:.2f})",
             f"rect aspect {max(rw, rh) / max(min(rw, rh), 1e-6):.2f}"]
    quad = finder._fit_quad(contour)
    if quad is None:
        return ", ".join(parts + ["no quad"])
    short, long = finder._sides(quad)
    quad_area = max(float(cv2.contourArea(quad)), 1e-6)
    lengths = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    balance = min(lengths[0], lengths[2]) / max(lengths[0], lengths[2]) * \
        min(lengths[1], lengths[3]) / max(lengths[1], lengths[3])
    parts += [f"quad aspect {long / max(short, 1e-6):.2f} "
              f"({finder.MIN_ASPECT}..{finder.MAX_ASPECT})",
              f"quad fill {hull_area / quad_area:.2f} (>= {finder.MIN_FILL})",
              f"balance {balance:.2f} (>= 0.6)",
              f"edge support {finder._edge_support(quad, support):.2f}"]
    return ", ".join(parts)


def _stages(image: npt.NDArray[np.uint8]) -> list[tuple[str, list[npt.NDArray[np.float32]]]]:
    """Each stage's outlines of ``find_cards(corners=True)`` on an image, then the final ones."""
    stages: list[tuple[str, list[npt.NDArray[np.float32]]]] = []
    found = finder.find_cards(image, corners=True,
                              trace=lambda stage, quads: stages.append((stage, quads)))
    both = finder.find_cards_thorough(image)
    return stages + [("final", [f.corners for f in found]),
                     ("final, two sizes", [f.corners for f in both])]


def trace(image: npt.NDArray[np.uint8], boxes: Sequence[tuple[str, Box]]) -> None:
    """Print where each box's card is found or lost."""
    height, width = image.shape[:2]
    smallest = min(height, width) / 25
    scale = min(1.0, finder.WORK_SIZE / max(height, width),
                max(finder.MIN_WORK_CARD / smallest, 0.25))
    work = image if scale == 1.0 else np.asarray(cv2.resize(
        image, (round(width * scale), round(height * scale))), np.uint8)
    lo, hi = smallest * scale, min(height, width) * 0.5 * scale
    min_area, max_area = lo * lo * 1.2, hi * hi * 1.7
    card_px = float(np.sqrt(min_area * max_area) ** 0.5)
    masks, support, _ = finder._masks(work, card_px)
    stages = _stages(image)
    for name, box in boxes:
        print(f"== {name} {tuple(round(v) for v in box)}")
        work_box = tuple(v * scale for v in box)
        for k, (mask, _) in enumerate(masks):
            contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
            best: tuple[float, npt.NDArray[np.int32]] | None = None
            for contour, link in zip(contours, hierarchy[0] if hierarchy is not None else [],
                                     strict=False):
                if link[3] != -1:
                    continue
                x, y, w, h = cv2.boundingRect(contour)
                iou = box_iou(work_box, (x, y, x + w, y + h))
                if best is None or iou > best[0]:
                    best = (iou, contour)
            if best is None or best[0] < 0.3:
                print(f"  mask {k:2d}: no region (best IoU {0 if best is None else best[0]:.2f})")
            else:
                print(f"  mask {k:2d}: region IoU {best[0]:.2f}: "
                      f"{_region_tests(best[1], min_area, max_area, support)}")
        for stage, quads in stages:
            ious = [box_iou(box, bounding_box(q)) for q in quads]
            print(f"  {stage:18s} best IoU {max(ious, default=0.0):.2f} of {len(quads)}")


def _first_loss(stages: Sequence[tuple[str, list[npt.NDArray[np.float32]]]], box: Box) -> str:
    """The stage at which a labelled box stops being matched (IoU >= 0.5), or "found"."""
    def matched(quads: list[npt.NDArray[np.float32]]) -> bool:
        return any(box_iou(box, bounding_box(q)) >= 0.5 for q in quads)

    if matched(stages[-1][1]):
        return "found"
    views = [quads for stage, quads in stages if stage.startswith(("mask", "outlines"))]
    if not any(matched(q) for q in views):
        return "no candidate in any view"
    for stage, quads in stages:
        if not stage.startswith(("mask", "outlines")) and not matched(quads):
            return f"lost at '{stage}'"
    return "lost at 'final'"


def _covered_share(box: Box, other: Box) -> float:
    """The share of ``box``'s area that ``other`` covers."""
    w = max(0.0, min(box[2], other[2]) - max(box[0], other[0]))
    h = max(0.0, min(box[3], other[3]) - max(box[1], other[1]))
    return w * h / max((box[2] - box[0]) * (box[3] - box[1]), 1e-6)


def survey(limit: int | None) -> None:
    """Where the labelled cards of the fmjio dev sample are lost, counted."""
    from collections import Counter

    from eval_recognize import dev_photos

    root = datasets_root() / "poker_cards_fmjio" / "train"
    counts: Counter[str] = Counter()
    for path in dev_photos(root)[:limit]:
        _, labels = _fmjio_labels(path.name.split("_jpg.rf.")[0])
        stretched, (sx, sy) = _unsquash(np.asarray(cv2.imread(str(path)), np.uint8))
        stages = _stages(stretched)
        height, width = stretched.shape[:2]
        for name, b in labels:
            box = (b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy)
            where = _first_loss(stages, box)
            if where != "found" and (min(box[:2]) < 4 or box[2] > width - 4
                                     or box[3] > height - 4):
                where += " (at the frame)"
            elif where != "found" and any(
                    box_iou(b, other) > 0 and _covered_share(b, other) > 0.15
                    for _, other in labels if other is not b):
                where += " (overlapping)"
            counts[where] += 1
            if where != "found":
                best = max((box_iou(box, bounding_box(q)) for q in stages[-1][1]), default=0.0)
                print(f"{path.name.split('_jpg.rf.')[0]} {name}: {where}, best IoU {best:.2f}",
                      flush=True)
    total = sum(counts.values())
    for where, n in counts.most_common():
        print(f"{where:32s} {n:4d} {100 * n / max(total, 1):5.1f} %")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("image", nargs="?", help="fmjio train photo name (start) or an image path")
    parser.add_argument("--survey", action="store_true",
                        help="count where the fmjio dev sample's cards are lost")
    parser.add_argument("--limit", type=int, default=None, help="photos in the survey")
    parser.add_argument("--box", help="x0,y0,x1,y1 of the card in the image (not fmjio)")
    parser.add_argument("--label", help="only the labels with this card code")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.survey:
        survey(args.limit)
        return 0
    if args.image is None:
        parser.error("give an image, or --survey")
    if args.box:
        image = np.asarray(cv2.imread(args.image), np.uint8)
        x0, y0, x1, y1 = (float(v) for v in args.box.split(","))
        trace(image, [("box", (x0, y0, x1, y1))])
        return 0
    path, labels = _fmjio_labels(args.image)
    stretched, (sx, sy) = _unsquash(np.asarray(cv2.imread(str(path)), np.uint8))
    boxes = [(name, (b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy)) for name, b in labels
             if args.label is None or name == args.label]
    trace(stretched, boxes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
