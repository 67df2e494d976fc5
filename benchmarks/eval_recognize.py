"""Evaluate card finding and reading (``tablecam recognize``) on labelled images.

Prints, per data set: labelled cards, found %, found-and-read-correctly %, wrong-read %,
missed % (not found, or found but left unread), and spurious reads (a card named where
no labelled card lies).

- ``poker_cards_fmjio/valid``: real phone photos, whole-card axis-aligned boxes, 52
  classes.  The photos were squashed to 640x640; ``recognize`` reads a square photo
  as it is and stretched back to 4:3 and to 3:4 (``recognize.SQUARE_LOOKS``), as it
  does for any user.  A label is found when the box around a found card's corners
  overlaps it with IoU >= 0.5.  A card running past the photo's edge is boxed by the
  part of it inside the photo, as its label is (``_shown_box``).
- ``edje_pinochle_ranks/test``: real photos, ranks 9 to A only (suits unlabelled):
  a read is correct when its rank matches.  Its boxes take in only the part of a card
  that shows, so a card found lying under others is boxed the same way
  (``_box_overlap``).
- rendered stills of the reserved deck families (``tablecam.render.stills``): face-up
  cards that show at least 90%, matched by the IoU of the outlines (>= 0.7).

``--dev`` measures a development set instead, for making decisions (thresholds,
variants) without looking at the evaluation sets above: 118 ``poker_cards_fmjio/train``
photos (the first version of every third source photo, so the same ones every run),
99 ``edje_pinochle_ranks/train`` photos (every third, ``realdata.edje_dev_photo``: the
card reader trains on the other two thirds only) and rendered stills of the *training* decks (other seeds
than the evaluation stills).
``--misses DIR`` draws each image with a miss or a spurious read into DIR (labels
missed in red, found in green, outlines found in blue, spurious reads in magenta).

Data sets are read from ``$TABLECAM_DATASETS`` or ``../shared/datasets`` beside the
repository; missing ones are skipped with a note.  Without a trained model only the
finding figures are printed.

    nice -n 10 .venv/bin/python benchmarks/eval_recognize.py [--stills 40] [--quick]
    nice -n 10 .venv/bin/python benchmarks/eval_recognize.py --dev [--stills 30] [--misses /tmp/m]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.cards import Card, Rank
from tablecam.errors import TablecamError
from tablecam.reading import realdata
from tablecam.reading.finder import FoundCard, find_cards
from tablecam.reading.realdata import Box, bounding_box, box_iou
from tablecam.reading.recognize import RecognizedCard, recognize
from tablecam.reading.table_reader import CardReader

REPO = Path(__file__).resolve().parents[1]
FMJIO_CLASSES = [f"{r}{s}" for r in ("10", "2", "3", "4", "5", "6", "7", "8", "9", "A", "J",
                                     "K", "Q") for s in "CDHS"]


def datasets_root() -> Path:
    return Path(os.environ.get("TABLECAM_DATASETS", REPO.parent / "shared" / "datasets"))


@dataclass
class Tally:
    """Counts for one data set."""

    name: str
    labels: int = 0
    found: int = 0
    correct: int = 0
    wrong: int = 0
    spurious: int = 0
    #: spurious reads that name a face-up card of the image showing too little of
    #: itself to be labelled (rendered stills: under 90 %), right but not counted
    partly_hidden: int = 0
    images: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def lines(self, reading: bool) -> list[str]:
        n = max(self.labels, 1)
        out = [f"{self.name}: {self.images} images, {self.labels} labelled cards, "
               f"{1000 * self.seconds / max(self.images, 1):.0f} ms/image",
               f"  found                      {100 * self.found / n:6.2f} %"]
        if reading:
            missed = self.labels - self.correct - self.wrong
            out += [f"  found and read correctly   {100 * self.correct / n:6.2f} %",
                    f"  wrong read                 {100 * self.wrong / n:6.2f} %",
                    f"  missed or unread           {100 * missed / n:6.2f} %",
                    f"  spurious reads             {self.spurious:6d}"]
            if self.partly_hidden:
                out[-1] += f"   ({self.partly_hidden} of them name a card shown under 90 %)"
        return out + [f"  note: {x}" for x in self.notes]


class _Finder:
    """Stands in for the classifier when no model exists: every outline is an unread face."""

    def read(self, cards: Sequence[npt.NDArray[np.uint8]]) -> list[object]:
        from tablecam.reading.classifier import CardRead

        return [CardRead(None, 0.0, "face") for _ in cards]


def _quad_iou(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    inter, _ = cv2.intersectConvexConvex(a.reshape(-1, 1, 2).astype(np.float32),
                                         b.reshape(-1, 1, 2).astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


def _score(tally: Tally, labels: list[tuple[object, str | Rank | None]],
           cards: list[RecognizedCard], overlap: Callable[[object, RecognizedCard], float],
           threshold: float, same: Callable[[str | Rank | None, Card], bool],
           partly_hidden: frozenset[str] = frozenset()) -> set[int]:
    """Greedy one-to-one matching by overlap, best pairs first; the labels matched.
    ``partly_hidden``: codes of face-up cards in the image left unlabelled because too
    little of them shows (a read naming one is spurious, and counted apart too)."""
    pairs = sorted(((overlap(shape, card), i, j) for i, (shape, _) in enumerate(labels)
                    for j, card in enumerate(cards)), reverse=True)
    used_l: set[int] = set()
    used_c: set[int] = set()
    for value, i, j in pairs:
        if value < threshold or i in used_l or j in used_c:
            continue
        used_l.add(i)
        used_c.add(j)
        tally.found += 1
        got = cards[j].card
        if got is not None:
            if same(labels[i][1], got):
                tally.correct += 1
            else:
                tally.wrong += 1
    tally.labels += len(labels)
    spurious = [c for j, c in enumerate(cards) if j not in used_c and c.card is not None]
    tally.spurious += len(spurious)
    tally.partly_hidden += sum(1 for c in spurious
                               if c.card is not None and c.card.code in partly_hidden)
    return used_l


def _shown_box(corners: npt.NDArray[np.float32], width: int, height: int) -> Box:
    """The box around the part of a card's outline inside a ``width`` x ``height`` photo.

    Labels box what the photo shows; a card read from a corner that the photo's edge
    cuts is reported with all four of its corners, some outside the photo, and its
    whole box would overlap the label of the part that shows by less than it should."""
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    area, shown = cv2.intersectConvexConvex(np.asarray(corners, np.float32).reshape(-1, 1, 2),
                                            frame.reshape(-1, 1, 2))
    if area <= 0 or shown is None:
        return bounding_box(corners)
    return bounding_box(np.asarray(shown, np.float32).reshape(-1, 2))


def _box_overlap(width: int, height: int, cards: list[RecognizedCard], visible: bool = False,
                 ) -> Callable[[object, RecognizedCard], float]:
    """How a labelled box and a found card of ``cards`` overlap in a ``width`` x
    ``height`` photo: the IoU of the box and the card's shown box (``_shown_box``).
    With ``visible``, for labels that box only the part of a card that shows (edje), a
    card reported as lying under others (``covered``, read from a corner with its whole
    outline) is boxed by the part of it inside the photo and outside the outlines of the
    cards not under others (``_visible_box``).  Each card's box is made once."""
    tops = [c.corners for c in cards if not c.covered]
    boxes = {id(c): (_visible_box(c.corners, tops, width, height) if visible and c.covered
                     else _shown_box(c.corners, width, height)) for c in cards}
    return lambda box, card: box_iou(box, boxes[id(card)])  # type: ignore[arg-type]


def _visible_box(corners: npt.NDArray[np.float32], tops: list[npt.NDArray[np.float32]],
                 width: int, height: int) -> Box:
    """The box around the part of an outline inside the photo and outside ``tops``
    (without the slivers that outlines a pixel or two apart leave along a top's side);
    the shown box where nothing is left."""
    mask = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(mask, np.rint(corners).astype(np.int32), 255)
    for top in tops:
        cv2.fillConvexPoly(mask, np.rint(top).astype(np.int32), 0)
    sliver = max(3, round(0.02 * min(width, height)))
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((sliver, sliver), np.uint8)),
                      np.uint8)
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return _shown_box(corners, width, height)
    return (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))


def _label_quad(shape: object) -> npt.NDArray[np.int32]:
    if isinstance(shape, tuple):
        x0, y0, x1, y1 = shape
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.int32)
    return np.asarray(shape, np.float32).astype(np.int32)


def _draw_misses(folder: Path | None, name: str, image: npt.NDArray[np.uint8],
                 labels: list[tuple[object, str | Rank | None]], matched: set[int],
                 cards: list[RecognizedCard], before: tuple[int, int], tally: Tally) -> None:
    """Write ``image`` with labels and outlines drawn when something was missed: a label
    not read right (unfound, or found but unread or misread) or a spurious read.
    ``before``: the tally's (correct, spurious) before this image was scored."""
    if folder is None or (tally.correct - before[0] == len(labels)
                          and tally.spurious == before[1]):
        return
    canvas = image.copy()
    for c in cards:
        colour = (255, 0, 0) if c.card is not None else (255, 160, 0)
        cv2.polylines(canvas, [c.corners.astype(np.int32)], True, colour, 2)
    for i, (shape, label) in enumerate(labels):
        colour = (0, 200, 0) if i in matched else (0, 0, 255)
        quad = _label_quad(shape)
        cv2.polylines(canvas, [quad], True, colour, 1)
        cv2.putText(canvas, str(label), (int(quad[0][0]) + 3, int(quad[0][1]) + 14),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1)
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / f"{name}.jpg"), canvas)


def _unsquash(image: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8], tuple[float, float]]:
    """Stretch a 640x640 photo back to 4:3 or 3:4, whichever shows more card outlines."""
    h, w = image.shape[:2]
    best: tuple[tuple[int, float], npt.NDArray[np.uint8], tuple[float, float]] | None = None
    for sx, sy in ((4 / 3, 1.0), (1.0, 4 / 3)):
        stretched = np.asarray(cv2.resize(image, (round(w * sx), round(h * sy))), np.uint8)
        found: list[FoundCard] = find_cards(stretched, piles=False)
        key = (len(found), sum(f.score for f in found))
        if best is None or key > best[0]:
            best = (key, stretched, (sx, sy))
    assert best is not None
    return best[1], best[2]


def _images(folder: Path) -> Iterator[Path]:
    yield from sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))


def dev_photos(root: Path, count: int = 120) -> list[Path]:
    """The dev sample of fmjio train: the first version of every third source photo."""
    groups: dict[str, list[Path]] = {}
    for path in _images(root / "images"):
        groups.setdefault(path.name.split("_jpg.rf.")[0], []).append(path)
    return [paths[0] for _, paths in sorted(groups.items())][::3][:count]


def eval_fmjio(reader: CardReader, limit: int | None, dev: bool = False,
               misses: Path | None = None) -> Tally:
    split = "train" if dev else "valid"
    tally = Tally(f"poker_cards_fmjio/{split} (real photos{', dev sample' if dev else ''})")
    root = datasets_root() / "poker_cards_fmjio" / split
    if not root.is_dir():
        tally.notes.append(f"skipped: {root} is missing")
        return tally
    paths = dev_photos(root) if dev else list(_images(root / "images"))
    for path in paths[:limit]:
        loaded = cv2.imread(str(path))
        if loaded is None:
            continue
        image = np.asarray(loaded, np.uint8)
        h, w = image.shape[:2]
        labels: list[tuple[object, str | Rank | None]] = []
        label_file = root / "labels" / (path.stem + ".txt")
        for line in label_file.read_text().split("\n"):
            if line.strip():
                c, x, y, bw, bh = (float(v) for v in line.split())
                box = ((x - bw / 2) * w, (y - bh / 2) * h, (x + bw / 2) * w, (y + bh / 2) * h)
                labels.append((box, FMJIO_CLASSES[int(c)]))
        start = time.perf_counter()
        cards = recognize(image, reader).cards
        tally.seconds += time.perf_counter() - start
        tally.images += 1
        before = (tally.correct, tally.spurious)
        matched = _score(tally, labels, cards,
                         _box_overlap(w, h, cards),
                         0.5, lambda label, card: card.code == label)
        _draw_misses(misses, path.stem.split("_jpg.rf.")[0], image, labels, matched, cards,
                     before, tally)
    return tally


def eval_edje(reader: CardReader, limit: int | None, dev: bool = False,
              misses: Path | None = None) -> Tally:
    split = "train" if dev else "test"
    tally = Tally(f"edje_pinochle_ranks/{split} (real photos, rank only"
                  f"{', dev sample' if dev else ''})")
    root = datasets_root() / "edje_pinochle_ranks" / split
    if not root.is_dir():
        tally.notes.append(f"skipped: {root} is missing")
        return tally
    paths = realdata.edje_photos(split, root.parent)
    if dev:  # the development sample, which training leaves out
        paths = [p for i, p in enumerate(paths) if realdata.edje_dev_photo(i)]
    for path in paths[:limit]:
        loaded = cv2.imread(str(path))
        if loaded is None:
            continue
        image = np.asarray(loaded, np.uint8)
        labels: list[tuple[object, str | Rank | None]] = [
            ((b.x0, b.y0, b.x1, b.y1), b.rank) for b in realdata.read_voc(path.with_suffix(".xml"))]
        start = time.perf_counter()
        result = recognize(image, reader)
        tally.seconds += time.perf_counter() - start
        tally.images += 1
        before = (tally.correct, tally.spurious)
        h, w = image.shape[:2]
        matched = _score(tally, labels, result.cards,
                         _box_overlap(w, h, result.cards, visible=True),
                         0.5, lambda label, card: card.rank == label)
        _draw_misses(misses, f"edje_{path.stem}", image, labels, matched, result.cards, before,
                     tally)
    return tally


def eval_stills(reader: CardReader, count: int, dev: bool = False,
                misses: Path | None = None) -> Tally:
    kind = "training decks, dev seeds" if dev else "reserved decks"
    tally = Tally(f"rendered stills, {kind} ({count} stills)")
    try:
        from tablecam.render.decks import list_decks
        from tablecam.render.stills import render_still
    except ImportError as exc:
        tally.notes.append(f"skipped: the renderer is not available ({exc})")
        return tally
    decks = list_decks() if dev else [d for d in list_decks(include_reserved=True) if d.reserved]
    if not decks:
        tally.notes.append("skipped: no deck art is installed")
        return tally
    first = 700_000 if dev else 900_000
    for n in range(count):
        try:
            image, card_labels = render_still(first + n, decks=decks)
        except TablecamError as exc:
            tally.notes.append(f"still {n} not rendered: {exc}")
            continue
        labels: list[tuple[object, str | Rank | None]] = [
            (np.array(lab.corners, np.float32), lab.card.code)
            for lab in card_labels if lab.face_up and lab.card is not None and lab.visible >= 0.9]
        start = time.perf_counter()
        result = recognize(image, reader)
        tally.seconds += time.perf_counter() - start
        tally.images += 1
        before = (tally.correct, tally.spurious)
        hidden = frozenset(lab.card.code for lab in card_labels
                           if lab.face_up and lab.card is not None and 0 < lab.visible < 0.9)
        matched = _score(tally, labels, result.cards,
                         lambda quad, c: _quad_iou(quad, c.corners),  # type: ignore[arg-type]
                         0.7, lambda label, card: card.code == label, hidden)
        _draw_misses(misses, f"still{first + n}", image, labels, matched, result.cards, before,
                     tally)
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=None, help="card-reading model")
    parser.add_argument("--stills", type=int, default=40, help="reserved-deck stills to render")
    parser.add_argument("--quick", action="store_true", help="a few images of each set")
    parser.add_argument("--only", choices=("fmjio", "edje", "stills"), action="append",
                        help="evaluate only these sets")
    parser.add_argument("--dev", action="store_true",
                        help="the development set (fmjio train sample, training-deck stills)")
    parser.add_argument("--misses", type=Path, default=None,
                        help="draw the images with misses into this folder")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    reading = True
    reader: CardReader
    try:
        from tablecam.reading.classifier import CardClassifier

        reader = CardClassifier(args.model)
    except TablecamError as exc:
        print(f"note: {exc}; printing finding figures only", file=sys.stderr)
        reader = _Finder()  # type: ignore[assignment]
        reading = False
    limit = 8 if args.quick else None
    sets = args.only or ["fmjio", "edje", "stills"]
    for name in sets:
        if name == "fmjio":
            tally = eval_fmjio(reader, limit, args.dev, args.misses)
        elif name == "edje":
            tally = eval_edje(reader, limit, args.dev, args.misses)
        else:
            tally = eval_stills(reader, 4 if args.quick else args.stills, args.dev, args.misses)
        print("\n".join(tally.lines(reading)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
