"""Real card crops from the labelled phone photos in ``shared/datasets/poker_cards_fmjio``.

The dataset gives one axis-aligned box around each whole card, in photos squashed to
640x640.  The classifier wants the card's own four corners, so inside each box we fit
the parallelogram (a rectangle seen under the squash and a mild tilt) whose corners
touch the four sides of the box and whose outline lies on the strongest edges.  Warping
that parallelogram to the canonical 100x140 view also undoes the squash.  Where the fit
is weak (an overlapped card whose visible part is not a parallelogram) the crop is
marked as such so that training can treat it with care.

Train photos come in up to three Roboflow versions, some mirrored; ``photo_groups``
groups them by the name before ``_jpg.rf.`` so each photo is used once.  The valid
split is for evaluation only.
"""

from __future__ import annotations

import os
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
    fit: float  # 0..1, mean edge support of the fitted outline
    photo: str


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


def _edge_strength(gray: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    blurred = cv2.GaussianBlur(gray, (5, 5), 0)
    gx = cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3)
    return np.asarray(cv2.magnitude(gx, gy), dtype=np.float32)


def fit_card_quad(
    image: npt.NDArray[np.uint8], box: LabelledBox, steps: int = 28,
) -> tuple[npt.NDArray[np.float32], float]:
    """Corners (clockwise from the card's top left) of the card inside ``box``, and fit 0..1.

    Searches the parallelograms inscribed in the box (corners on its four sides) and
    keeps the one whose four edges have the strongest mean image gradient.
    """
    h_img, w_img = image.shape[:2]
    x0, y0 = max(0.0, box.x0), max(0.0, box.y0)
    x1, y1 = min(w_img - 1.0, box.x1), min(h_img - 1.0, box.y1)
    bw, bh = x1 - x0, y1 - y0
    if bw < 8 or bh < 8:
        corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32)
        return order_corners(corners), 0.0
    gray = np.asarray(
        cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image, dtype=np.uint8)
    mag = _edge_strength(gray)
    a = np.linspace(0, bw * 0.9, steps, dtype=np.float32)
    b = np.linspace(0, bh * 0.9, steps, dtype=np.float32)
    grid_a, grid_b = np.meshgrid(a, b, indexing="ij")
    aa, bb = grid_a.reshape(-1), grid_b.reshape(-1)
    # parallelogram corners: top side, right side, bottom side, left side
    quads = np.stack([
        np.stack([x0 + aa, np.full_like(aa, y0)], axis=1),
        np.stack([np.full_like(aa, x1), y0 + bb], axis=1),
        np.stack([x1 - aa, np.full_like(aa, y1)], axis=1),
        np.stack([np.full_like(aa, x0), y1 - bb], axis=1),
    ], axis=1)  # (n, 4, 2)
    t = np.linspace(0.1, 0.9, 24, dtype=np.float32)[None, None, :, None]
    starts = quads[:, :, None, :]
    ends = np.roll(quads, -1, axis=1)[:, :, None, :]
    pts = starts + (ends - starts) * t  # (n, 4, 24, 2)
    xs = np.clip(np.rint(pts[..., 0]).astype(np.int32), 0, w_img - 1)
    ys = np.clip(np.rint(pts[..., 1]).astype(np.int32), 0, h_img - 1)
    support = mag[ys, xs].mean(axis=2)  # (n, 4)
    score = support.mean(axis=1) - 0.5 * support.std(axis=1)
    # a card is a rectangle of aspect 1.4 (poker) to 1.56 (bridge) once the photo's
    # squash (4:3 or 3:4 stretched to a square, or none) is undone
    shaped = np.zeros(len(score), dtype=bool)
    for sx in _UNSQUASH:
        u = (quads[:, 1] - quads[:, 0]) * np.array([sx, 1.0], dtype=np.float32)
        v = (quads[:, 3] - quads[:, 0]) * np.array([sx, 1.0], dtype=np.float32)
        lu, lv = np.linalg.norm(u, axis=1) + 1e-6, np.linalg.norm(v, axis=1) + 1e-6
        cos = np.abs((u * v).sum(axis=1)) / (lu * lv)
        ratio = np.maximum(lu, lv) / np.minimum(lu, lv)
        shaped |= (cos < 0.25) & (ratio > 1.25) & (ratio < 1.75)
    if shaped.any():
        score = np.where(shaped, score, -np.inf)
    best = int(np.argmax(score))
    scale = float(np.percentile(mag, 99)) + 1e-6
    fit = float(np.clip(score[best] / scale, 0.0, 1.0)) if shaped.any() else 0.0
    return order_corners(quads[best]), fit


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
