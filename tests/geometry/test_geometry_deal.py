"""Table zones found from the dealt layout."""

import numpy as np
import pytest

from tablecam.cards import FULL_DECK
from tablecam.geometry import (
    ZONE_IDS,
    DealtCard,
    GeometryError,
    LayoutMisfitError,
    geometry_from_deal,
)
from tablecam.reading.finder import find_cards
from tablecam.reading.scenes import spit_deal_scene, tilt


def _dealt(image: np.ndarray) -> list[DealtCard]:
    return [DealtCard(f.corners, f.face_up) for f in find_cards(image)]


def test_every_zone_is_found_where_the_cards_were_dealt() -> None:
    scene = spit_deal_scene(FULL_DECK[:10], seed=3)
    geometry = geometry_from_deal(_dealt(scene.image))
    assert set(geometry.zones) == set(ZONE_IDS)
    for zone, (corners, _) in scene.truth.items():
        assert geometry.zone_at(corners.mean(axis=0)) == zone
    # the centre piles lie between the rows, left and right as the camera sees them
    left, right = geometry.zones["left"].mean(axis=0), geometry.zones["right"].mean(axis=0)
    a3, b3 = geometry.zones["A3"].mean(axis=0), geometry.zones["B3"].mean(axis=0)
    assert left[0] < a3[0] < right[0]
    assert b3[1] < left[1] < a3[1]
    assert geometry.source == "deal"
    assert 60 < geometry.card_width < 90  # 63 mm at 1.2 px/mm


def test_columns_are_numbered_from_each_players_own_left() -> None:
    scene = spit_deal_scene(FULL_DECK[:10], seed=4)
    geometry = geometry_from_deal(_dealt(scene.image))
    xs = {z: float(geometry.zones[z].mean(axis=0)[0]) for z in ZONE_IDS}
    assert xs["A1"] < xs["A2"] < xs["A3"] < xs["A4"] < xs["A5"]
    assert xs["B1"] > xs["B2"] > xs["B3"] > xs["B4"] > xs["B5"]


def test_zones_follow_a_tilted_camera() -> None:
    scene = spit_deal_scene(FULL_DECK[:10], seed=5)
    zones = list(scene.truth)
    image, moved = tilt(scene.image, [scene.truth[z][0] for z in zones], 0.3)
    geometry = geometry_from_deal(_dealt(image))
    for zone, corners in zip(zones, moved, strict=True):
        assert geometry.zone_at(corners.mean(axis=0)) == zone


def test_a_zones_box_fits_each_frame_size_and_margin_asked_for() -> None:
    # the boxes are kept once worked out: a smaller frame (a camera switched to a lower
    # resolution) or a wider margin must still get its own box
    scene = spit_deal_scene(FULL_DECK[:10], seed=3)
    geometry = geometry_from_deal(_dealt(scene.image))
    quad = geometry.zones["A5"]
    x0, y0, x1, y1 = geometry.zone_box("A5", scene.image.shape)
    assert (x0, y0) == tuple(int(v) for v in np.floor(quad.min(axis=0)))
    assert (x1, y1) == tuple(int(v) for v in np.ceil(quad.max(axis=0)))
    wide = geometry.zone_box("A5", scene.image.shape, margin=0.4)
    assert wide[0] < x0 and wide[1] < y0 and wide[2] > x1 and wide[3] > y1
    small = geometry.zone_box("A5", (y1 - 10, x1 - 10, 3))
    assert small == (x0, y0, x1 - 10, y1 - 10)
    assert geometry.zone_box("A5", scene.image.shape) == (x0, y0, x1, y1)


def test_an_incomplete_deal_is_refused_with_a_reason() -> None:
    scene = spit_deal_scene(FULL_DECK[:10], seed=6)
    cards = _dealt(scene.image)
    bottom_half = [c for c in cards if c.corners[:, 1].mean() > 360]
    with pytest.raises(GeometryError, match="face-up"):
        geometry_from_deal(bottom_half)
    with pytest.raises(GeometryError):
        geometry_from_deal([])


def test_a_dealt_card_half_under_a_hand_waits_for_a_whole_view() -> None:
    # the last card laid is still under the dealer's hand: the finder sees only its top
    # half, and a layout from it would give that column a half-card zone all round
    scene = spit_deal_scene(FULL_DECK[:10], seed=7)
    cards = _dealt(scene.image)
    assert len([c for c in cards if c.face_up]) >= 10
    geometry_from_deal(cards)  # whole: fine
    a5 = max((c for c in cards if c.face_up and c.corners[:, 1].mean() > 360),
             key=lambda c: float(c.corners[:, 0].mean()))
    tl, tr, br, bl = a5.corners
    half = np.array([tl, tr, tr + 0.45 * (br - tr), tl + 0.45 * (bl - tl)], np.float32)
    partly = [DealtCard(half, True) if c is a5 else c for c in cards]
    with pytest.raises(GeometryError, match="only in part"):
        geometry_from_deal(partly)



def test_a_card_beside_a_row_is_not_taken_for_a_column() -> None:
    # a spit pile's card (or a back the reader took for a face) lies in line with A's
    # row, beyond its fifth column, and nearer the row's middle line than a real column
    scene = spit_deal_scene(FULL_DECK[:10], seed=9)
    cards = [c for c in _dealt(scene.image) if c.face_up]
    geometry = geometry_from_deal(cards)
    a_row = sorted((c for c in cards if c.corners[:, 1].mean() > 360),
                   key=lambda c: float(c.corners[:, 0].mean()))
    pitch = a_row[1].corners.mean(axis=0) - a_row[0].corners.mean(axis=0)
    ys = [float(c.corners[:, 1].mean()) for c in a_row]
    middle = float(np.median(ys))
    farthest = max(abs(y - middle) for y in ys)
    beside = a_row[-1].corners + 1.6 * pitch
    beside[:, 1] += middle - float(beside[:, 1].mean())  # right on the middle line
    extra = DealtCard(beside.astype(np.float32), True)
    assert farthest > 0  # the extra card is nearer the line than some real column
    again = geometry_from_deal([*cards, extra])
    for zone in ("A1", "A2", "A3", "A4", "A5"):
        assert np.allclose(again.zones[zone], geometry.zones[zone], atol=1.0)


@pytest.mark.parametrize("seed", [3, 4, 9])
def test_a_spit_card_one_column_beyond_a_row_does_not_shift_that_row(seed: int) -> None:
    # a back the reader took for a face lies exactly one column's pitch beyond A5: five
    # evenly spaced cards either way, but the players' rows face each other, so the
    # choice that lies opposite B's row is the dealt one
    scene = spit_deal_scene(FULL_DECK[:10], seed=seed)
    cards = [c for c in _dealt(scene.image) if c.face_up]
    a_row = sorted((c for c in cards if c.corners[:, 1].mean() > 360),
                   key=lambda c: float(c.corners[:, 0].mean()))
    pitch = (a_row[-1].corners.mean(axis=0) - a_row[0].corners.mean(axis=0)) / 4
    extra = DealtCard((a_row[-1].corners + pitch).astype(np.float32), True)
    geometry = geometry_from_deal([*cards, extra])
    for zone, (corners, _) in scene.truth.items():
        assert geometry.zone_at(corners.mean(axis=0)) == zone


def test_rows_that_do_not_fit_a_deal_are_refused_with_their_layout() -> None:
    # B3 lies most of a card below its row: a reader of the refusal may still take the
    # layout (a sloppy deal), whose B3 zone is where that card is
    scene = spit_deal_scene(FULL_DECK[:10], seed=3)
    cards = _dealt(scene.image)
    b3 = scene.truth["B3"][0].mean(axis=0)
    knocked = [DealtCard(c.corners + np.float32([0, 60]), c.face_up)
               if np.linalg.norm(c.corners.mean(axis=0) - b3) < 10 else c for c in cards]
    with pytest.raises(LayoutMisfitError, match="do not lie as two dealt rows") as refused:
        geometry_from_deal(knocked)
    assert refused.value.layout.zone_at(b3 + np.float32([0, 60])) == "B3"


def test_a_crosswise_outline_beside_a_row_does_not_take_the_spit_zone() -> None:
    # dev game 2008 (a wide lens): between A5 and A's spit pile the finder outlined a
    # face-down "card" lying crosswise, nearer where the layout puts the spit pile; the
    # spit zone went onto it, off the pile, and the pile read empty for the whole game
    scene = spit_deal_scene(FULL_DECK[:10], seed=3)
    cards = _dealt(scene.image)
    a5 = scene.truth["A5"][0].astype(np.float32)
    pile = scene.truth["spitA"][0].astype(np.float32)
    centre = (a5.mean(axis=0) + pile.mean(axis=0)) / 2
    half_w = float(np.linalg.norm(a5[1] - a5[0])) / 2
    half_h = float(np.linalg.norm(a5[3] - a5[0])) / 2
    crosswise = np.array([centre + [-half_h, -half_w], centre + [half_h, -half_w],
                          centre + [half_h, half_w], centre + [-half_h, half_w]], np.float32)
    geometry = geometry_from_deal([*cards, DealtCard(crosswise, False)])
    assert geometry.zone_at(pile.mean(axis=0)) == "spitA"
    assert "spitA" in geometry.spit_seen
    assert np.linalg.norm(geometry.zones["spitA"].mean(axis=0) - pile.mean(axis=0)) < half_w


def _without(cards: list[DealtCard], points: list[np.ndarray]) -> list[DealtCard]:
    return [c for c in cards
            if all(np.linalg.norm(c.corners.mean(axis=0) - p) > 10 for p in points)]


@pytest.mark.parametrize(("missing", "seed"), [(("B3",), 3), (("A1", "B1"), 4),
                                               (("A5", "B2", "B4"), 5), (("A1", "B5"), 6)])
def test_a_deal_with_columns_not_found_gives_its_layout_in_the_refusal(
        missing: tuple[str, ...], seed: int) -> None:
    # a court card on a busy cloth, or a face of a deck the reader cannot name, is not
    # found: the others, evenly spaced and facing across the table, still give every
    # zone (dev game 2014 had no zones all game for one unfound queen)
    scene = spit_deal_scene(FULL_DECK[:10], seed=seed)
    cards = _without(_dealt(scene.image),
                     [scene.truth[z][0].mean(axis=0) for z in missing])
    assert len([c for c in cards if c.face_up]) == 10 - len(missing)
    with pytest.raises(LayoutMisfitError, match="not found") as refused:
        geometry_from_deal(cards)
    layout = refused.value.layout
    for zone, (corners, _) in scene.truth.items():
        assert layout.zone_at(corners.mean(axis=0)) == zone


def test_a_row_short_at_an_end_with_nothing_to_tell_which_is_refused() -> None:
    # both rows miss their column at the image's left and no spit pile is in view: the
    # cards could be columns 2-5 or 1-4, so no layout is offered
    scene = spit_deal_scene(FULL_DECK[:10], seed=6)
    cards = [c for c in _without(_dealt(scene.image),
                                 [scene.truth[z][0].mean(axis=0) for z in ("A1", "B5")])
             if c.face_up]
    with pytest.raises(GeometryError) as refused:
        geometry_from_deal(cards)
    assert not isinstance(refused.value, LayoutMisfitError)


def test_a_centre_card_is_not_taken_for_a_column_whose_card_is_not_found() -> None:
    # A5 is not found (under a hand): the rows with a centre card for A5 misfit, and the
    # layout offered is the deal with A5 not found (dev scene 2037 had A5's zone on the
    # right pile all round)
    scene = spit_deal_scene(FULL_DECK[:10], seed=8, centre=FULL_DECK[10:12])
    cards = _without(_dealt(scene.image), [scene.truth["A5"][0].mean(axis=0)])
    with pytest.raises(LayoutMisfitError) as refused:
        geometry_from_deal(cards)
    layout = refused.value.layout
    for zone, (corners, _) in scene.truth.items():
        assert layout.zone_at(corners.mean(axis=0)) == zone


def test_a_point_s_zone_is_the_one_it_lies_in_and_the_nearest_where_zones_overlap() -> None:
    import cv2

    scene = spit_deal_scene(FULL_DECK[:10], seed=6)
    geometry = geometry_from_deal(_dealt(scene.image))
    # the zones of a tight deal overlap: grown columns and the spit zones beside them
    rng = np.random.default_rng(2)
    points = rng.uniform((0, 0), scene.image.shape[1::-1], (3000, 2))
    expected = []
    for x, y in points.tolist():
        inside = [(float(np.hypot(*(quad.mean(axis=0) - (x, y)))), zone)
                  for zone, quad in geometry.zones.items()
                  if cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (x, y), False) >= 0]
        expected.append(min(inside)[1] if inside else None)
    assert geometry.zones_at(points) == expected
    assert [geometry.zone_at(p) for p in points[:200]] == expected[:200]
    assert sum(e is not None for e in expected) > 300  # the points hit zones too
    assert geometry.zones_at(np.zeros((0, 2))) == []
