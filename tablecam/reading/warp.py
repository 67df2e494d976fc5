"""The canonical view of one card that the finder hands to the classifier.

A card found in a frame is given by its four corners, clockwise from the top left
of the card as it lies (portrait: the long side runs top to bottom).  ``warp_card``
maps it to a ``CARD_W`` x ``CARD_H`` upright image, so that the classifier sees every
card at one size whatever the camera height, tilt or rotation.  A card lying upside
down warps to the card turned 180 degrees; the indices sit in both corners, so the
classifier is trained on both.
"""

from __future__ import annotations

import math
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

CARD_W: Final = 100
CARD_H: Final = 140

_TARGET: Final = np.array(
    [[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]], dtype=np.float32)


def order_corners(corners: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """Order four points clockwise from the top left of a portrait card.

    The first edge (top) is a short side; of the two short sides, the one nearer the
    top of the image is taken as the card's top.
    """
    pts = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    # four points: plain floats are several times quicker than array calls here
    xy = pts.tolist()
    cx = sum(p[0] for p in xy) / 4
    cy = sum(p[1] for p in xy) / 4
    around = sorted(range(4), key=lambda i: math.atan2(xy[i][1] - cy, xy[i][0] - cx))
    xy = [xy[i] for i in around]  # clockwise (y down)
    sides = [math.hypot(xy[(i + 1) % 4][0] - xy[i][0], xy[(i + 1) % 4][1] - xy[i][1])
             for i in range(4)]
    start = 0 if sides[0] + sides[2] <= sides[1] + sides[3] else 1
    # of the two short edges, start at the one whose midpoint is higher in the image
    y = [p[1] for p in xy]
    higher = (y[start] + y[start + 1]) / 2 <= (y[start + 2] + y[(start + 3) % 4]) / 2
    first = start if higher else start + 2
    return pts[[around[(first + k) % 4] for k in range(4)]]


def warp_card(image: npt.NDArray[np.uint8], corners: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """The card at ``corners`` (clockwise from its top left) as a CARD_H x CARD_W image."""
    src = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    matrix = cv2.getPerspectiveTransform(src, _TARGET)
    warped = cv2.warpPerspective(
        image, matrix, (CARD_W, CARD_H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(warped, dtype=np.uint8)


def lone_corners(view: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Each index corner of a card view by itself: the half of the view around its
    top-left corner with its own copy turned round in place of the other half, and the
    same of its bottom-right corner.  The reader looks at both index corners of a view;
    one of these shows it the same corner twice, so only what that corner shows counts."""
    half = view.shape[0] // 2
    top, bottom = view[:half], view[view.shape[0] - half:]
    return (np.concatenate([top, top[::-1, ::-1]]), np.concatenate([bottom[::-1, ::-1], bottom]))
