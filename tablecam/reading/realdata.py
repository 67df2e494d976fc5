"""Real card crops from the labelled phone photos in ``shared/datasets/poker_cards_fmjio``.

The dataset gives one axis-aligned box around each whole card, in photos squashed to
640x640.  The classifier wants the card's own four corners, so inside each box we fit
a card-shaped quadrilateral whose bounding box is the labelled box and whose edges lie
on strong edges with a flat card margin just inside them (``fit_card_quad``); warping
it to the canonical 100x140 view also undoes the squash.  Training can add the finder's
outlines of the same card as further candidates and keep the one that reads as the
labelled card (``scripts/train_card_reader.py``).

Train photos come in up to three Roboflow versions, some mirrored; ``photo_groups``
groups them by the name before ``_jpg.rf.`` so each photo is used once.  The valid
split is for evaluation only.

``shared/datasets/edje_pinochle_ranks`` gives whole-card boxes of another deck labelled
by rank only (9 to A, Pascal VOC files beside the photos): ``read_voc`` and
``edje_photos``.  Every third train photo (``edje_dev_photo``) is kept out of training
as the development sample; the test split is for evaluation.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.cards import Card, Rank, Suit
from tablecam.reading.warp import order_corners, warp_card

#: class ids of data.yaml follow the alphabetical order of "10 of clubs", "2 of clubs"...
_RANK_ORDER: Final = ("10", "2", "3", "4", "5", "6", "7", "8", "9", "A", "J", "K", "Q")
_RANK_BY_TEXT: Final = {
    "A": Rank.ACE, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING,
    **{str(n): Rank(n) for n in range(2, 11)},
}


def fmjio_card(class_id: int) -> Card:
    """The card of one fmjio class id (alphabetical order of the names in data.yaml)."""
    rank_text = _RANK_ORDER[class_id // 4]
    return Card(_RANK_BY_TEXT[rank_text], Suit(class_id % 4))


#: the edje dataset's class names
EDJE_RANKS: Final = {"nine": Rank.NINE, "ten": Rank.TEN, "jack": Rank.JACK,
                     "queen": Rank.QUEEN, "king": Rank.KING, "ace": Rank.ACE}


def datasets_dir() -> Path:
    """``$TABLECAM_DATASETS`` or ``../shared/datasets`` beside the repository."""
    env = os.environ.get("TABLECAM_DATASETS")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parents[2]
    for candidate in (repo.parent / "shared" / "datasets", repo / "shared" / "datasets"):
        if candidate.is_dir():
            return candidate
    return repo.parent / "shared" / "datasets"


def fmjio_dir() -> Path:
    return datasets_dir() / "poker_cards_fmjio"


def edje_dir() -> Path:
    return datasets_dir() / "edje_pinochle_ranks"


def edje_photos(split: str, root: Path | None = None) -> list[Path]:
    """The photos of an edje split (``train`` or ``test``) that have labels, by name."""
    folder = (root or edje_dir()) / split
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if p.suffix.lower() in (".jpg", ".jpeg", ".png") and p.with_suffix(".xml").exists())


def edje_dev_photo(index: int) -> bool:
    """Whether the train photo at ``index`` (of ``edje_photos("train")``) is in the
    development sample: every third, never trained on."""
    return index % 3 == 0


@dataclass(frozen=True)
class LabelledBox:
    """One whole-card box of a photo, in pixels of the (squashed) image."""

    card: Card
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class RealCrop:
    """One card warped to the canonical view, with how well its outline was found."""

    image: npt.NDArray[np.uint8]
    card: Card
    corners: npt.NDArray[np.float32]
    fit: float  # relative score of the fitted outline (higher is better)
    photo: str


Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def box_iou(a: Box, b: Box) -> float:
    """Intersection over union of two axis-aligned boxes."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h
    return w * h / union if union > 0 else 0.0


def bounding_box(corners: npt.NDArray[np.float32]) -> Box:
    """The axis-aligned box around a quad's corners."""
    return (float(corners[:, 0].min()), float(corners[:, 1].min()),
            float(corners[:, 0].max()), float(corners[:, 1].max()))


@dataclass(frozen=True)
class RankBox:
    """One whole-card box labelled by rank only (the edje photos), in pixels."""

    rank: Rank
    x0: float
    y0: float
    x1: float
    y1: float


def read_voc(xml_path: Path) -> list[RankBox]:
    """The rank boxes of one Pascal VOC file (objects of other names are skipped)."""
    boxes = []
    for obj in ET.parse(xml_path).getroot().iter("object"):
        name = (obj.findtext("name") or "").strip().lower()
        bb = obj.find("bndbox")
        if name not in EDJE_RANKS or bb is None:
            continue
        x0, y0, x1, y1 = (float(bb.findtext(k) or 0) for k in ("xmin", "ymin", "xmax", "ymax"))
        boxes.append(RankBox(EDJE_RANKS[name], x0, y0, x1, y1))
    return boxes


def read_labels(label_path: Path, width: int, height: int) -> list[LabelledBox]:
    """Parse one YOLO label file into boxes in pixels."""
    boxes = []
    for line in label_path.read_text().splitlines():
        parts = line.split()
        if len(parts) != 5:
            continue
        cls = int(parts[0])
        cx, cy, w, h = (float(p) for p in parts[1:])
        boxes.append(LabelledBox(
            fmjio_card(cls), (cx - w / 2) * width, (cy - h / 2) * height,
            (cx + w / 2) * width, (cy + h / 2) * height))
    return boxes


def photo_groups(split_dir: Path) -> dict[str, list[Path]]:
    """Image paths grouped by source photo (the name before ``_jpg.rf.``), sorted."""
    groups: dict[str, list[Path]] = {}
    for path in sorted((split_dir / "images").glob("*.jpg")):
        groups.setdefault(path.name.split("_jpg.rf.")[0], []).append(path)
    return groups


_UNSQUASH: Final = (1.0, 4 / 3, 3 / 4)
#: weights of a quadrilateral's four edge supports, strongest first: one edge may be
#: hidden under a neighbouring card and still leave a good fit
_EDGE_WEIGHTS: Final = np.array([0.28, 0.26, 0.24, 0.22], dtype=np.float32)


def _gradients(image: npt.NDArray[np.uint8], sigma: float = 1.1,
               ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    blurred = cv2.GaussianBlur(gray, (0, 0), sigma)
    gx = np.asarray(cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3), dtype=np.float32)
    gy = np.asarray(cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3), dtype=np.float32)
    return gx, gy


def _sample(quads: npt.NDArray[np.float32], lo: float, hi: float, count: int,
            shape: tuple[int, ...]) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Pixel positions of ``count`` points along each edge of each quad, from lo to hi."""
    s = np.linspace(lo, hi, count, dtype=np.float32)[None, None, :, None]
    a = quads[:, :, None, :]
    pts = a + (np.roll(quads, -1, axis=1)[:, :, None, :] - a) * s
    xs = np.clip(np.rint(pts[..., 0]).astype(np.int32), 0, shape[1] - 1)
    ys = np.clip(np.rint(pts[..., 1]).astype(np.int32), 0, shape[0] - 1)
    return xs, ys


def _plausible(quads: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Quads that can be a card seen from above or at a slant, under one of the squashes."""
    ok = np.zeros(len(quads), dtype=bool)
    for sx in _UNSQUASH:
        q = quads * np.array([sx, 1.0], dtype=np.float32)
        sides = np.roll(q, -1, axis=1) - q
        lens = np.linalg.norm(sides, axis=2) + 1e-6
        cos = np.abs((sides * np.roll(sides, 1, axis=1)).sum(axis=2)) / (
            lens * np.roll(lens, 1, axis=1))
        taper = np.maximum(np.maximum(lens[:, 0], lens[:, 2]) / np.minimum(lens[:, 0], lens[:, 2]),
                           np.maximum(lens[:, 1], lens[:, 3]) / np.minimum(lens[:, 1], lens[:, 3]))
        a, c = (lens[:, 0] + lens[:, 2]) / 2, (lens[:, 1] + lens[:, 3]) / 2
        ratio = np.maximum(a, c) / np.minimum(a, c)
        ok |= (cos.max(axis=1) < 0.55) & (taper < 1.5) & (ratio > 1.15) & (ratio < 1.85)
    return ok


def _quad_scores(gx: npt.NDArray[np.float32], gy: npt.NDArray[np.float32],
                 quads: npt.NDArray[np.float32], box: tuple[float, float, float, float],
                 ) -> npt.NDArray[np.float32]:
    """How well each quad fits a card whose bounding box is ``box`` (-inf: impossible).

    Edge support is the image gradient across each edge; a card's white margin just
    inside its edge is flat, so gradient there counts against (pips and index glyphs
    make strong edges too, but never with a flat strip beside them).  The quad's own
    bounding box must match the labelled box.
    """
    d = np.roll(quads, -1, axis=1) - quads
    length = np.linalg.norm(d, axis=2) + 1e-6
    nx, ny = -d[..., 1] / length, d[..., 0] / length
    xs, ys = _sample(quads, 0.08, 0.92, 24, gx.shape)
    across = np.abs(gx[ys, xs] * nx[..., None] + gy[ys, xs] * ny[..., None]).mean(axis=2)
    inner = quads + (quads.mean(axis=1, keepdims=True) - quads) * 0.06
    xs, ys = _sample(inner, 0.25, 0.75, 12, gx.shape)
    margin = np.hypot(gx[ys, xs], gy[ys, xs]).mean(axis=2)
    support = np.sort(across - 0.7 * margin, axis=1)[:, ::-1] @ _EDGE_WEIGHTS
    qx0, qy0 = quads[..., 0].min(axis=1), quads[..., 1].min(axis=1)
    qx1, qy1 = quads[..., 0].max(axis=1), quads[..., 1].max(axis=1)
    inter = (np.clip(np.minimum(qx1, box[2]) - np.maximum(qx0, box[0]), 0, None)
             * np.clip(np.minimum(qy1, box[3]) - np.maximum(qy0, box[1]), 0, None))
    union = (qx1 - qx0) * (qy1 - qy0) + (box[2] - box[0]) * (box[3] - box[1]) - inter
    iou = inter / np.maximum(union, 1e-6)
    ok = _plausible(quads) & (iou > 0.8)
    return np.asarray(np.where(ok, support * iou, -np.inf), dtype=np.float32)


def _inscribed(box: tuple[float, float, float, float], params: npt.NDArray[np.float32],
               ) -> npt.NDArray[np.float32]:
    """Quads with one corner on each side of the box: top at x=p0, right at y=p1,
    bottom at x=p2, left at y=p3."""
    x0, y0, x1, y1 = box
    n = len(params)
    return np.stack([
        np.stack([params[:, 0], np.full(n, y0, np.float32)], axis=1),
        np.stack([np.full(n, x1, np.float32), params[:, 1]], axis=1),
        np.stack([params[:, 2], np.full(n, y1, np.float32)], axis=1),
        np.stack([np.full(n, x0, np.float32), params[:, 3]], axis=1)], axis=1).astype(np.float32)


def _polish(gx: npt.NDArray[np.float32], gy: npt.NDArray[np.float32],
            quad: npt.NDArray[np.float32], box: tuple[float, float, float, float],
            ) -> tuple[npt.NDArray[np.float32], float]:
    """Move each corner freely (coarse to fine) while the fit improves: real boxes are a
    little loose, and a card seen at a slant is no parallelogram."""
    moves = np.array([[dx, dy] for dx in (-1, 0, 1) for dy in (-1, 0, 1)], dtype=np.float32)
    quad = quad.astype(np.float32).copy()
    best = float(_quad_scores(gx, gy, quad[None], box)[0])
    size = max(box[2] - box[0], box[3] - box[1])
    for step in (0.04 * size, 0.02 * size, 0.01 * size, 0.005 * size):
        for _ in range(6):
            changed = False
            # one corner at a time, then one edge (both its corners) at a time: an edge
            # lying beside the card's edge has to move as a whole to meet it
            for group in ((0,), (1,), (2,), (3,), (0, 1), (1, 2), (2, 3), (3, 0)):
                candidates = np.repeat(quad[None], 9, axis=0)
                for corner in group:
                    candidates[:, corner] += moves * step
                candidates[..., 0] = np.clip(candidates[..., 0], box[0] - 3, box[2] + 3)
                candidates[..., 1] = np.clip(candidates[..., 1], box[1] - 3, box[3] + 3)
                scores = _quad_scores(gx, gy, candidates, box)
                j = int(np.argmax(scores))
                if scores[j] > best + 1e-6:
                    best, quad, changed = float(scores[j]), candidates[j], True
            if not changed:
                break
    return quad, best


def order_unsquashed(corners: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """``order_corners`` after undoing the squash that makes the quad most card-like.

    In a photo squashed to a square a card can look wider than tall; ordering the corners
    in the squashed pixels would then put a long side on top and turn the view sideways.
    """
    pts = np.asarray(corners, dtype=np.float32).reshape(4, 2)

    def card_likeness(sx: float) -> float:
        q = pts * np.array([sx, 1.0], dtype=np.float32)
        lens = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
        a, c = (lens[0] + lens[2]) / 2, (lens[1] + lens[3]) / 2
        return abs(float(max(a, c) / max(min(a, c), 1e-6)) - 1.45)

    sx = min(_UNSQUASH, key=card_likeness)
    scale = np.array([sx, 1.0], dtype=np.float32)
    return np.asarray(order_corners(pts * scale) / scale, dtype=np.float32)


def fit_card_quad(
    image: npt.NDArray[np.uint8], box: LabelledBox | RankBox, steps: int = 11,
) -> tuple[npt.NDArray[np.float32], float]:
    """Corners (clockwise from the card's top left) of the card inside ``box``, and a score.

    A coarse-to-fine search over quads with one corner on each side of the box (a card's
    bounding box touches it at four points), on gradients blurred to the search step so
    that a coarse guess still feels an edge nearby; then, from the best of those and
    from the box itself, each corner is polished freely at full sharpness.  The score
    is relative (higher is better, -inf when nothing card-shaped fits).
    """
    h_img, w_img = image.shape[:2]
    x0, y0 = max(0.0, box.x0), max(0.0, box.y0)
    x1, y1 = min(w_img - 1.0, box.x1), min(h_img - 1.0, box.y1)
    bw, bh = x1 - x0, y1 - y0
    plain = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32)
    if bw < 8 or bh < 8:
        return order_unsquashed(plain), float("-inf")
    # work on the box and a margin around it only
    m = 8
    cx0, cy0 = int(max(0, x0 - m)), int(max(0, y0 - m))
    crop = np.ascontiguousarray(image[cy0:int(min(h_img, y1 + m + 1)), cx0:int(min(w_img, x1 + m + 1))])
    origin = np.array([cx0, cy0], dtype=np.float32)
    bounds = (x0 - cx0, y0 - cy0, x1 - cx0, y1 - cy0)
    axes = [np.linspace(bounds[0], bounds[2], steps), np.linspace(bounds[1], bounds[3], steps),
            np.linspace(bounds[2], bounds[0], steps), np.linspace(bounds[3], bounds[1], steps)]
    params = np.stack([g.reshape(-1) for g in np.meshgrid(*axes, indexing="ij")],
                      axis=1).astype(np.float32)
    step = np.array([bw, bh, bw, bh], dtype=np.float32) / (steps - 1)
    lo = np.array(bounds[:2] * 2, dtype=np.float32)
    hi = np.array(bounds[2:] * 2, dtype=np.float32)
    lo, hi = lo[[0, 1, 0, 1]], hi[[0, 1, 0, 1]]
    offsets = np.arange(-3, 4, dtype=np.float32)
    for level in range(4):
        gx, gy = _gradients(crop, max(1.1, float(step.mean()) / 2))
        scores = _quad_scores(gx, gy, _inscribed(bounds, params), bounds)
        best = params[int(np.argmax(scores))]
        if level == 3:
            break
        step = step / 2.5
        grid = np.meshgrid(*[best[i] + offsets * step[i] for i in range(4)], indexing="ij")
        params = np.clip(np.stack([g.reshape(-1) for g in grid], axis=1), lo, hi)
    gx, gy = _gradients(crop)
    inset = np.array([0.03 * bw, 0.03 * bh], dtype=np.float32) * np.array(
        [[1, 1], [-1, 1], [-1, -1], [1, -1]], dtype=np.float32)
    starts = [_inscribed(bounds, best[None])[0]] + [plain - origin + f * inset for f in (0, 0.5, 1)]
    quad, score = max((_polish(gx, gy, s, bounds) for s in starts), key=lambda r: r[1])
    return order_unsquashed(quad + origin), score


def iter_crops(split: str, root: Path | None = None, first_version_only: bool = True,
               ) -> Iterator[RealCrop]:
    """Every labelled card of a split (``train`` or ``valid``) as a canonical crop.

    With ``first_version_only`` each source photo is used once (its first file by name).
    """
    split_dir = (root or fmjio_dir()) / split
    for name, paths in photo_groups(split_dir).items():
        for path in paths[:1] if first_version_only else paths:
            loaded = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if loaded is None:
                continue
            image = np.asarray(loaded, dtype=np.uint8)
            label = split_dir / "labels" / (path.stem + ".txt")
            if not label.exists():
                continue
            for box in read_labels(label, image.shape[1], image.shape[0]):
                corners, fit = fit_card_quad(image, box)
                yield RealCrop(warp_card(image, corners), box.card, corners, fit, name)
