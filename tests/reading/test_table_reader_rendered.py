"""The table reader on frames of the renderer's synthetic games (camera tilt, lens
distortion, stacked columns, messy piles, hands), with a stand-in classifier that
names a view from the renderer's own labels — so this tests geometry, finding, zone
assignment and change detection, not the neural reader."""

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from tablecam.capture import Frame
from tablecam.cards import Card
from tablecam.reading import table_reader
from tablecam.reading.table_reader import TableReader

render_video = pytest.importorskip("tablecam.render.video")
render_frame = pytest.importorskip("tablecam.render.frame")


@dataclass(frozen=True)
class Read:
    card: Card | None
    confidence: float
    kind: str


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a.reshape(-1, 1, 2).astype(np.float32),
                                         b.reshape(-1, 1, 2).astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


class LabelReader:
    """Names the view of an outline by the most visible labelled card it overlaps."""

    def __init__(self) -> None:
        self.labels: list = []  # type: ignore[type-arg]
        self.outlines: list[np.ndarray] = []

    def read(self, cards: Sequence[np.ndarray]) -> list[Read]:
        out = []
        for outline in self.outlines[:len(cards)]:
            near = [lab for lab in self.labels if _iou(outline, np.array(lab.corners)) >= 0.6]
            best = max(near, key=lambda lab: lab.visible, default=None)
            if best is None:
                out.append(Read(None, 0.9, "none"))
            elif best.face_up:
                out.append(Read(best.card, 0.99, "face"))
            else:
                out.append(Read(None, 0.99, "back"))
        self.outlines = self.outlines[len(cards):]
        return out


@pytest.mark.slow
def test_zones_of_a_rendered_game_match_the_truth(monkeypatch: pytest.MonkeyPatch) -> None:
    game = render_video.prepare_game(5)
    renderer = render_frame.FrameRenderer(game.scene, game.timeline)
    labels_reader = LabelReader()
    warp = table_reader.warp_card

    def spy(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
        labels_reader.outlines.append(np.asarray(corners, np.float32))
        return warp(image, corners)

    monkeypatch.setattr(table_reader, "warp_card", spy)
    reader = TableReader(labels_reader)
    agree = disagree = 0
    for index in range(60, 600, 15):  # from 2 s to 20 s, two frames a second
        image, labels = renderer.frame_with_labels(index / 30, index)
        labels_reader.labels = labels
        labels_reader.outlines = []
        reading = reader.read(Frame(index / 30, image))
        top: dict[str, object] = {}
        for lab in labels:
            if lab.zone != "hand" and (lab.zone not in top or lab.visible > top[lab.zone].visible):  # type: ignore[attr-defined]
                top[lab.zone] = lab
        for zone, seen in reading.zones.items():
            lab = top.get(zone)
            if seen.state == "covered" or (lab is not None and lab.visible < 0.6):  # type: ignore[attr-defined]
                continue
            if lab is None:
                truth: tuple[str, Card | None] = ("empty", None)
            elif lab.face_up:  # type: ignore[attr-defined]
                truth = ("face_up", lab.card)  # type: ignore[attr-defined]
            else:
                truth = ("face_down", None)
            if (seen.state, seen.card) == truth:
                agree += 1
            else:
                disagree += 1
    assert reader.geometry is not None
    assert agree > 300
    assert disagree <= 0.03 * (agree + disagree)
