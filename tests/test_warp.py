import numpy as np

from tablecam.reading.warp import CARD_H, CARD_W, order_corners, warp_card


def test_order_corners_starts_at_the_top_left_of_a_portrait_card() -> None:
    # a landscape-lying card (rotated 90 degrees): long side horizontal
    pts = np.array([[300, 100], [300, 170], [100, 170], [100, 100]], dtype=np.float32)
    ordered = order_corners(pts)
    sides = np.linalg.norm(np.roll(ordered, -1, axis=0) - ordered, axis=1)
    assert sides[0] < sides[1]  # the first edge is a short side
    assert len({tuple(p) for p in ordered.tolist()}) == 4


def test_warp_card_gives_the_canonical_size_and_content() -> None:
    image = np.zeros((400, 400, 3), np.uint8)
    image[100:240, 150:250] = 255  # a white card 100 x 140
    image[100:120, 150:170] = (0, 0, 255)  # a red mark at its top left
    warped = warp_card(image, [[150, 100], [249, 100], [249, 239], [150, 239]])
    assert warped.shape == (CARD_H, CARD_W, 3)
    assert warped[5, 5].tolist() == [0, 0, 255]
    assert warped[CARD_H - 5, CARD_W - 5].tolist() == [255, 255, 255]
