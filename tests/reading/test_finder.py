"""The card finder on synthetic scenes whose true card outlines are known."""

import cv2
import numpy as np
import pytest

from tablecam.cards import FULL_DECK, Card
from tablecam.reading import realdata
from tablecam.reading.finder import FoundCard, find_cards, find_cards_on_plate, find_cards_thorough
from tablecam.reading.scenes import background, paste, plain_back, plain_face, tilt
from tablecam.reading.warp import order_corners


def _corner_error(found: FoundCard, truth: np.ndarray) -> float:
    """Largest corner distance, allowing the 180-degree ambiguity of a card's top."""
    a = np.linalg.norm(found.corners - truth, axis=1).max()
    b = np.linalg.norm(found.corners - np.roll(truth, 2, axis=0), axis=1).max()
    return float(min(a, b))


def _match(found: list[FoundCard], truths: list[np.ndarray], width: float,
           tolerance: float = 0.08) -> int:
    hits = 0
    for truth in truths:
        errors = [_corner_error(f, truth) for f in found]
        if errors and min(errors) < tolerance * width:
            hits += 1
    return hits


def _scene(colour: tuple[int, int, int], angles: list[float], width: float = 90,
           wood: bool = False, seed: int = 1) -> tuple[np.ndarray, list[np.ndarray]]:
    image = background((1000, 700), colour, seed, wood)
    truths = []
    for i, angle in enumerate(angles):
        centre = (150 + (i % 4) * 230, 180 + (i // 4) * 330)
        truths.append(paste(image, plain_face(FULL_DECK[i * 5 % 52]), centre, angle, width))
    return image, truths


@pytest.mark.parametrize("colour,wood", [((40, 90, 40), False), ((60, 60, 60), False),
                                         ((150, 185, 205), True)])
def test_finds_every_separate_card_on_dark_and_light_tables(colour: tuple[int, int, int],
                                                            wood: bool) -> None:
    image, truths = _scene(colour, [0, 15, -30, 90, 45, 170, -80, 5], wood=wood)
    found = find_cards(image)
    assert _match(found, truths, 90) == len(truths)
    assert len(found) == len(truths)


def test_corners_run_clockwise_from_the_cards_top_left() -> None:
    image, truths = _scene((40, 90, 40), [20])
    (card,) = find_cards(image)
    c = card.corners
    sides = np.linalg.norm(np.roll(c, -1, axis=0) - c, axis=1)
    assert sides[0] < sides[1]  # the first side is a short side
    a, b = c[1] - c[0], c[2] - c[1]
    cross = a[0] * b[1] - a[1] * b[0]
    assert cross > 0  # clockwise with y pointing down
    assert _corner_error(card, truths[0]) < 4


def test_small_and_large_cards_are_found() -> None:
    for width in (45, 260):
        image = background((1000, 700), (40, 60, 90), 3)
        truth = paste(image, plain_face(Card.parse("QH")), (500, 350), 12, width)
        found = find_cards(image)
        assert _match(found, [truth], width) == 1, width


def test_tilted_camera_still_gives_card_outlines() -> None:
    image, truths = _scene((40, 90, 40), [0, 10, -10, 90, 30, 0, 60, 180])
    seen, moved = tilt(image, truths, 0.25)
    found = find_cards(seen)
    assert _match(found, moved, 80) >= 7


def test_top_card_of_an_overlapping_pair_is_whole_and_uncovered() -> None:
    image = background((800, 600), (40, 90, 40), 5)
    paste(image, plain_face(Card.parse("3S")), (360, 300), 0, 120)
    top = paste(image, plain_face(Card.parse("9D")), (430, 330), 25, 120)
    found = find_cards(image)
    whole = [f for f in found if _corner_error(f, top) < 0.08 * 120]
    assert len(whole) == 1 and not whole[0].covered


def test_face_and_back_are_told_apart() -> None:
    image = background((800, 500), (40, 90, 40), 2)
    face = paste(image, plain_face(Card.parse("7C")), (250, 250), 5, 110)
    back = paste(image, plain_back(), (550, 250), -5, 110)
    found = find_cards(image)
    by_truth = {}
    for name, truth in (("face", face), ("back", back)):
        (card,) = [f for f in found if _corner_error(f, truth) < 9]
        by_truth[name] = card.face_up
    assert by_truth == {"face": True, "back": False}


def test_no_cards_gives_an_empty_list() -> None:
    rng = np.random.default_rng(0)
    assert find_cards(background((640, 480), (40, 90, 40))) == []
    noise = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
    assert find_cards(cv2.GaussianBlur(noise, (9, 9), 0)) == []
    assert find_cards(np.zeros((8, 8, 3), np.uint8)) == []
    assert find_cards(np.zeros((100, 100), np.uint8)) == []
    assert find_cards(np.full((480, 640, 3), 255, np.uint8)) == []


def test_the_thorough_search_adds_no_duplicates() -> None:
    image, truths = _scene((40, 90, 40), [0, 15, -30, 90, 45, 170, -80, 5])
    found = find_cards_thorough(image)
    assert len(found) == len(truths)
    assert _match(found, truths, 90) == len(truths)
    assert find_cards_thorough(np.zeros((30, 30, 3), np.uint8)) == []


@pytest.mark.parametrize("table", [(200, 200, 205), (40, 90, 40)])
def test_every_card_of_an_overlapping_fan_is_found_by_its_corners(
        table: tuple[int, int, int]) -> None:
    # a fan of four cards: the three lower ones show two corners and parts of two sides
    image = background((900, 700), table, 4)
    truths = [paste(image, plain_face(Card.parse(code)), (300 + 90 * i, 330 + 10 * i), angle, 130)
              for i, (code, angle) in enumerate([("3S", -20), ("9D", 0), ("KH", 20), ("5C", 40)])]
    found = find_cards(image, corners=True)
    for truth in truths:
        near = [f for f in found if _corner_error(f, truth) < 0.15 * 130]
        assert len(near) == 1


@pytest.mark.parametrize("colour", [(40, 90, 40), (60, 60, 60)])
def test_the_quick_finder_outlines_every_card_of_a_fresh_deal_to_a_few_pixels(
        colour: tuple[int, int, int]) -> None:
    from tablecam.reading.finder import find_cards_quick
    from tablecam.reading.scenes import spit_deal_scene

    scene = spit_deal_scene(FULL_DECK[:10], seed=8, colour=colour, centre=FULL_DECK[10:12])
    found = find_cards_quick(scene.image, min_width=720 / 28)
    assert found is not None and len(found) == len(scene.truth) == 14
    for corners, card in scene.truth.values():
        (near,) = [f for f in found if _corner_error(f, corners) < 5]
        assert near.face_up == (card is not None)


def test_fitting_a_deal_s_outlines_together_gives_each_card_s_own_fit() -> None:
    # the quick finder fits all cards' sides in one pass of array work; a card's fit
    # must not depend on the others fitted with it (nor on an outline left unfitted)
    from tablecam.reading.finder import _refine_quads, _refine_side_lines
    from tablecam.reading.scenes import spit_deal_scene

    scene = spit_deal_scene(FULL_DECK[:10], seed=3, centre=FULL_DECK[10:12])
    gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    rng = np.random.default_rng(1)
    rough = [(corners + rng.normal(0, 1.5, (4, 2))).astype(np.float32)
             for corners, _ in scene.truth.values()]
    rough.append(np.array([[-30, -30], [-20, -30], [-20, -16], [-30, -16]], np.float32))
    together = _refine_quads(gray, rough, 2)
    alone = [_refine_side_lines(gray, quad, 2) for quad in rough]
    assert all(np.array_equal(a, b) for a, b in zip(together, alone, strict=True))
    assert np.array_equal(together[-1], rough[-1])  # off the image: left as it was
    # and the fit moved the rough outlines towards the cards' true corners
    truths = [corners for corners, _ in scene.truth.values()]
    before = np.mean([np.abs(q - t).mean() for q, t in zip(rough[:-1], truths, strict=True)])
    after = np.mean([np.abs(q - t).mean() for q, t in zip(together[:-1], truths, strict=True)])
    assert after < 0.8 * before


def test_the_quick_finder_gives_up_on_touching_cards_and_other_things() -> None:
    from tablecam.reading.finder import find_cards_quick

    def row(touching: bool) -> np.ndarray:
        image = background((1000, 600), (40, 90, 40), 2)
        for i in range(4):
            paste(image, plain_face(FULL_DECK[i]), (150 + 150 * i, 200), 0, 100)
        # two cards edge to edge make one card-shaped region of twice a card's area
        paste(image, plain_face(FULL_DECK[8]), (300, 420), 0, 100)
        paste(image, plain_face(FULL_DECK[9]), (400 if touching else 600, 420), 0, 100)
        return image

    found = find_cards_quick(row(False), min_width=30)
    assert found is not None and len(found) == 6
    assert find_cards_quick(row(True), min_width=30) is None
    hand = row(False)
    cv2.circle(hand, (850, 420), 60, (120, 150, 205), -1)
    assert find_cards_quick(hand, min_width=30) is None


def test_a_side_with_no_paper_just_inside_it_is_no_card_side() -> None:
    # the corner search takes table lines (wood grain) beyond a card for its far side;
    # such an outline has table, not paper, inside that side
    from tablecam.reading.finder import PAPER_WITHIN, _paper_within_sides, _whiteness

    image = background((600, 500), (40, 90, 40), 2)
    truth = paste(image, plain_face(Card.parse("KH")), (300, 250), 0, 130).astype(np.float32)
    white = _whiteness(image)
    paper = white >= max(float(np.percentile(white, 90)) - 60, 40)
    assert _paper_within_sides(truth, paper) >= 0.9
    # the same outline with its far side 40 % of the card's height further out
    longer = truth.copy()
    order = np.argsort(truth[:, 1])
    longer[order[2:], 1] += 0.4 * (truth[:, 1].max() - truth[:, 1].min())
    assert _paper_within_sides(longer, paper) < PAPER_WITHIN


def _messy_pile(image: np.ndarray, cards: list[Card], width: float,
                seed: int) -> np.ndarray:
    """Cards slapped onto a pile at the image's centre, each offset and turned over the
    ones below it; the top card's corners."""
    rng = np.random.default_rng(seed)
    centre = np.array([image.shape[1] / 2, image.shape[0] / 2])
    top = np.zeros((4, 2), np.float32)
    for card in cards:
        x, y = centre + rng.normal(0, 0.18 * width, 2)
        top = paste(image, plain_face(card), (float(x), float(y)), float(rng.uniform(-35, 35)),
                    width)
    return top


@pytest.mark.parametrize("colour,wood,seed", [((40, 90, 40), False, 1),
                                              ((150, 185, 205), True, 2),
                                              ((60, 60, 60), False, 3),
                                              ((40, 90, 40), False, 4)])
def test_the_top_card_of_a_messy_pile_is_outlined_by_its_own_sides(
        colour: tuple[int, int, int], wood: bool, seed: int) -> None:
    from tablecam.reading.finder import find_pile_top

    image = background((420, 420), colour, seed, wood)
    cards = [FULL_DECK[(seed * 7 + 11 * k) % 52] for k in range(5)]
    truth = _messy_pile(image, cards, 90, seed)
    top = find_pile_top(image, 90)
    assert top is not None and top.face_up
    assert _corner_error(top, truth) < 0.08 * 90
    # the card's size need only be known roughly
    again = find_pile_top(image, 82)
    assert again is not None and _corner_error(again, truth) < 0.08 * 90


def test_no_pile_top_on_an_empty_table_or_a_card_of_another_size() -> None:
    from tablecam.reading.finder import find_pile_top

    assert find_pile_top(background((420, 420), (150, 185, 205), 5, True), 90) is None
    image = background((420, 420), (40, 90, 40), 6)
    truth = paste(image, plain_face(Card.parse("7S")), (210, 210), 20, 90)
    assert find_pile_top(image, 60) is None  # a card half as large again is no pile top here
    lone = find_pile_top(image, 90)
    assert lone is not None and _corner_error(lone, truth) < 0.08 * 90


def _broken_outline(shape: tuple[int, int], quad: np.ndarray,
                    pieces: list[list[tuple[float, float]]]) -> np.ndarray:
    """An edge map: each side of ``quad`` drawn only over its ``pieces`` (fractions of
    its length), and a few pips inside touching nothing."""
    edges = np.zeros(shape, np.uint8)
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        for t0, t1 in pieces[k]:
            p, q = a + (b - a) * t0, a + (b - a) * t1
            cv2.line(edges, tuple(int(v) for v in np.round(p)), tuple(int(v) for v in np.round(q)),
                     255, 1)
    centre = quad.mean(axis=0)
    for dx, dy in ((-20, -30), (20, 30), (0, 0)):
        cv2.circle(edges, (int(centre[0]) + dx, int(centre[1]) + dy), 6, 255, 1)
    return edges


def test_a_card_whose_outline_has_a_gap_is_found_from_its_edges_hull() -> None:
    from tablecam.reading.finder import _candidates_from_outlines

    # a white card on a white table: one side's edge is missing for half its length
    quad = cv2.boxPoints(((200.0, 180.0), (100.0, 140.0), 20.0)).astype(np.float32)
    whole = [[(0.0, 1.0)]] * 4
    gapped = _broken_outline((400, 400), quad, [[(0.0, 0.25), (0.75, 1.0)]] + whole[1:])
    support = cv2.dilate(gapped, np.ones((5, 5), np.uint8))
    (card,) = _candidates_from_outlines(gapped, 1, 2000, 40000, support)
    assert np.linalg.norm(order_corners(card.quad) - order_corners(quad), axis=1).max() < 4
    # two sides alone (an L of edges, a corner of a table or a box) make no card
    corner = _broken_outline((400, 400), quad, [[(0.0, 1.0)], [(0.0, 1.0)], [], []])
    support = cv2.dilate(corner, np.ones((5, 5), np.uint8))
    assert _candidates_from_outlines(corner, 1, 2000, 40000, support) == []
    # nor does a square outline
    square = cv2.boxPoints(((200.0, 200.0), (120.0, 120.0), 10.0)).astype(np.float32)
    ring = _broken_outline((400, 400), square, whole)
    support = cv2.dilate(ring, np.ones((5, 5), np.uint8))
    assert _candidates_from_outlines(ring, 1, 2000, 40000, support) == []


def test_skipping_canny_inside_the_cards_leaves_every_fitted_outline_as_it_was(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the quick finder skips Canny's work inside each card (its pips and pictures), where
    # the side fit never looks: the fits must come out exactly as with Canny everywhere
    from tablecam.reading import finder
    from tablecam.reading.scenes import spit_deal_scene

    rng = np.random.default_rng(3)
    cases = []
    for seed, first in ((5, 20), (9, 0), (12, 36)):
        scene = spit_deal_scene(FULL_DECK[first:first + 10], seed=seed,
                                centre=FULL_DECK[(first + 10) % 52:(first + 12) % 52 or 52])
        gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
        for reach in (2, 3):
            rough = [(corners + rng.normal(0, reach / 2, (4, 2))).astype(np.float32)
                     for corners, _ in scene.truth.values()]
            cases.append((gray, rough, reach))
    skipping = [finder._refine_quads(gray, rough, reach) for gray, rough, reach in cases]
    edges_inside = []

    def everywhere(crop: np.ndarray, inner: np.ndarray | None) -> np.ndarray:
        edges = finder.cv2.Canny(finder.cv2.GaussianBlur(crop, (3, 3), 0), 20, 60)
        if inner is not None:
            edges_inside.append(np.count_nonzero(edges))
        return np.asarray(finder.cv2.dilate(edges, np.ones((3, 3), np.uint8)), np.uint8)

    monkeypatch.setattr(finder, "_side_edges", everywhere)
    whole = [finder._refine_quads(gray, rough, reach) for gray, rough, reach in cases]
    for fast, slow in zip(skipping, whole, strict=True):
        assert all(np.array_equal(a, b) for a, b in zip(fast, slow, strict=True))
    assert len(edges_inside) == sum(len(rough) for _, rough, _ in cases)  # none too small


def test_two_segments_meeting_end_to_end_at_a_right_angle_are_a_corner() -> None:
    from tablecam.reading.finder import right_angle_corners

    segments = np.array([
        [12, 10, 90, 10],     # a card's top side, from near its corner at (10, 10)
        [10, 13, 10, 120],    # its left side
        [200, 50, 200, 150],  # a line far from both: meets their lines, not their ends
        [140, 10, 220, 10],   # the top side's line carried on: parallel, no corner
    ], np.float32)
    corners = right_angle_corners(segments, shortest_arm=20)
    assert len(corners) == 1
    point, (along_a, arm_a), (along_b, arm_b) = corners[0]
    assert np.allclose(point, (10, 10))
    assert np.allclose(along_a, (1, 0)) and arm_a == pytest.approx(80)
    assert np.allclose(along_b, (0, 1)) and arm_b == pytest.approx(110)
    # arms shorter than asked: no corner
    assert right_angle_corners(segments, shortest_arm=90) == []


def test_fitting_a_contour_again_gives_the_same_outline_whatever_the_caller_did() -> None:
    from tablecam.reading.finder import _fit_quad

    mask = np.zeros((200, 200), np.uint8)
    box = cv2.boxPoints(((100.0, 100.0), (60.0, 84.0), 20.0))
    cv2.fillConvexPoly(mask, np.rint(box).astype(np.int32), 255)
    (contour,), _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    first = _fit_quad(contour)
    assert first is not None and np.abs(order_corners(first) - order_corners(box)).max() < 2
    kept = first.copy()
    first += 50  # a caller moving the outline it was given
    again = _fit_quad(contour.copy())
    assert again is not None and np.array_equal(again, kept)
    moved = _fit_quad(contour + np.array([5, 0], np.int32))
    assert moved is not None and np.allclose(moved, kept + np.array([5, 0], np.float32), atol=0.5)


def test_a_photo_squashed_across_its_cards_still_shows_them() -> None:
    """Photos squashed to a square (the fmjio set) stretch a card lying across the squash
    beyond a live table's card shape: the photo finder allows for it, the live one not."""
    from tablecam.reading.finder import MAX_ASPECT

    image, truths = _scene((40, 90, 40), [0, 0, 0, 0])
    squash = 0.62
    squashed = cv2.resize(image, (round(image.shape[1] * squash), image.shape[0]),
                          interpolation=cv2.INTER_AREA)
    stretched = [t * np.array([squash, 1.0], np.float32) for t in truths]
    long_over_short = [float(np.ptp(t[:, 1]) / np.ptp(t[:, 0])) for t in stretched]
    assert min(long_over_short) > MAX_ASPECT  # beyond the live finder's limit
    assert _match(find_cards(squashed), stretched, 90 * squash) == 0
    found = find_cards_thorough(squashed)
    assert _match(found, stretched, 90 * squash) == len(truths)
    assert len(found) == len(truths)


PHOTO = (realdata.fmjio_dir() / "train" / "images"
         / "IMG_20220316_161704_jpg.rf.3bb2940f8121e9a1379fa204a11930ac.jpg")


@pytest.mark.skipif(not PHOTO.is_file(), reason=f"real photo absent: {PHOTO}")
def test_a_court_card_nearer_the_camera_is_found_whole_not_by_its_picture_frame() -> None:
    # a phone photo: the jack of hearts lies nearer the lens, larger than the other four
    # cards, and the frame round its picture is card-shaped too (fmjio dev)
    image = cv2.imread(str(PHOTO))
    cx, cy, w, h = 0.73515625, 0.42265625, 0.328125, 0.346875  # its label (YOLO box)
    truth = (640 * (cx - w / 2), 640 * (cy - h / 2), 640 * (cx + w / 2), 640 * (cy + h / 2))
    overlaps = [realdata.box_iou(realdata.bounding_box(f.corners), truth)
                for f in find_cards_thorough(image)]
    assert max(overlaps) > 0.8
    assert sum(o > 0.3 for o in overlaps) == 1  # and the frame is not a card of its own


def _pale_stripes(size: tuple[int, int] = (900, 600), seed: int = 3) -> np.ndarray:
    """A pale cloth with diagonal stripes a few pixels wide, nearly as light as a card."""
    width, height = size
    ys, xs = np.mgrid[0:height, 0:width]
    light = ((xs + ys) // 9) % 2 == 0
    cloth = np.where(light[:, :, None], np.array([205, 215, 203], np.float32),
                     np.array([178, 188, 176], np.float32))
    cloth += np.random.default_rng(seed).normal(0, 3, cloth.shape)
    return np.clip(cloth, 0, 255).astype(np.uint8)


def test_cards_laid_since_the_empty_table_was_seen_are_each_outlined() -> None:
    plate = _pale_stripes()
    image = plate.copy()
    truths = []
    for row, y in enumerate((170, 430)):  # two dealt rows of five, 8 pixels apart
        for column in range(5):
            card = FULL_DECK[row * 5 + column]
            truths.append(paste(image, plain_face(card), (300 + column * 48, y), 0, 40))
    found = find_cards_on_plate(image, plate, min_width=20)
    # (a card's soft shadow is part of what changed: a pixel or two)
    assert _match(found, truths, 40, tolerance=0.12) == 10
    assert len(found) == 10
    # the camera's exposure moved a little since the empty table was seen
    brighter = np.clip(image.astype(np.float32) * 1.08, 0, 255).astype(np.uint8)
    assert _match(find_cards_on_plate(brighter, plate, min_width=20), truths, 40, 0.12) == 10


def test_nothing_is_laid_on_the_empty_table_itself_nor_on_a_frame_of_another_size() -> None:
    plate = _pale_stripes()
    assert find_cards_on_plate(plate, plate.copy(), min_width=20) == []
    assert find_cards_on_plate(plate, plate[:300], min_width=20) == []
