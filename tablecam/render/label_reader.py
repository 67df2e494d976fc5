"""A stand-in card classifier that names each outline from the renderer's labels.

It lets geometry, card finding and zone assignment be measured apart from the neural
reader (``benchmarks/eval_zones.py`` and its test): the table reader finds outlines
as usual, and each one is named by the most visible labelled card it overlaps.  It is
never used to referee a game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.cards import Card
from tablecam.reading import table_reader
from tablecam.reading.classifier import CardRead
from tablecam.render.frame import CardLabel


def overlap(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    """Intersection over union of two convex quadrilaterals."""
    inter, _ = cv2.intersectConvexConvex(a.reshape(-1, 1, 2).astype(np.float32),
                                         b.reshape(-1, 1, 2).astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


class LabelReader:
    """Reads the outlines the table reader warps, in order, from ``labels``."""

    def __init__(self) -> None:
        self.labels: list[CardLabel] = []
        self.outlines: list[npt.NDArray[np.float32]] = []

    def show(self, labels: list[CardLabel]) -> None:
        """The labels of the frame about to be read."""
        self.labels = labels
        self.outlines = []

    def read(self, cards: Sequence[npt.NDArray[np.uint8]]) -> list[CardRead]:
        out = []
        for outline in self.outlines[:len(cards)]:
            near = [lab for lab in self.labels
                    if overlap(outline, np.array(lab.corners, np.float32)) >= 0.6]
            best = max(near, key=lambda lab: lab.visible, default=None)
            if best is None:
                out.append(CardRead(None, 0.9, "none"))
            elif best.face_up:
                out.append(CardRead(best.card, 0.99, "face"))
            else:
                out.append(CardRead(None, 0.99, "back"))
        self.outlines = self.outlines[len(cards):]
        return out

    @contextmanager
    def watching(self) -> Iterator[None]:
        """While active, remember the outline of every card the table reader warps."""
        warp = table_reader.warp_card

        def spy(image: npt.NDArray[np.uint8], corners: npt.ArrayLike) -> npt.NDArray[np.uint8]:
            self.outlines.append(np.asarray(corners, np.float32))
            return warp(image, corners)

        table_reader.warp_card = spy
        try:
            yield
        finally:
            table_reader.warp_card = warp


def top_labels(labels: list[CardLabel]) -> dict[str, CardLabel]:
    """The most visible card of each zone: the one on top."""
    top: dict[str, CardLabel] = {}
    for label in labels:
        if label.zone != "hand" and (label.zone not in top
                                     or label.visible > top[label.zone].visible):
            top[label.zone] = label
    return top


def zone_truth(label: CardLabel | None) -> tuple[str, Card | None]:
    """What a zone whose top card is ``label`` should read as."""
    if label is None:
        return ("empty", None)
    return ("face_up", label.card) if label.face_up else ("face_down", None)


def zone_agreement(zones: Mapping[str, table_reader.ZoneObservation],
                   labels: list[CardLabel]) -> tuple[int, int]:
    """How many of a frame's zone readings agree with the truth and how many do not;
    zones whose top card shows less than 60 %, and ``covered`` readings, are left out."""
    top = top_labels(labels)
    agree = disagree = 0
    for zone, seen in zones.items():
        label = top.get(zone)
        if seen.state == "covered" or (label is not None and label.visible < 0.6):
            continue
        if (seen.state, seen.card) == zone_truth(label):
            agree += 1
        else:
            disagree += 1
    return agree, disagree
