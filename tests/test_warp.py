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


def test_order_corners_gives_the_same_order_whatever_order_the_corners_come_in() -> None:
    rng = np.random.default_rng(4)
    base = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], np.float64)
    for _ in range(200):
        angle = rng.uniform(-0.6, 0.6)  # less than 45 degrees: the top stays the top
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        quad = (base @ turn.T + rng.normal(0, 1.0, (4, 2)) + 200).astype(np.float32)
        ordered = order_corners(quad)
        assert ordered.dtype == np.float32 and ordered.shape == (4, 2)
        assert np.array_equal(order_corners(quad[rng.permutation(4)]), ordered)
        # clockwise from the top left: the first corner is one of the two highest, the
        # first side a short one
        assert ordered[0, 1] <= np.sort(quad[:, 1])[1]
        top, left = np.linalg.norm(ordered[1] - ordered[0]), np.linalg.norm(ordered[3] - ordered[0])
        assert top < left
        assert sorted(map(tuple, ordered.tolist())) == sorted(map(tuple, quad.tolist()))
