"""The table reader on frames of the renderer's synthetic games (camera tilt, lens
distortion, stacked columns, messy piles, hands), with a stand-in classifier that
names a view from the renderer's own labels — so this tests geometry, finding, zone
assignment and change detection, not the neural reader."""

import pytest

from tablecam.capture import Frame
from tablecam.reading.table_reader import TableReader
from tablecam.render.label_reader import LabelReader, zone_agreement

render_video = pytest.importorskip("tablecam.render.video")
render_frame = pytest.importorskip("tablecam.render.frame")


def _zones_agreement(seed: int, indices: list[int]) -> tuple[TableReader, int, int]:
    """The table reader over frames ``indices`` of rendered game ``seed``, a stand-in
    classifier naming views from the labels; its zone readings that agree and disagree
    with the truth."""
    game = render_video.prepare_game(seed)
    renderer = render_frame.FrameRenderer(game.scene, game.timeline)
    labels_reader = LabelReader()
    reader = TableReader(labels_reader)
    agree = disagree = 0
    with labels_reader.watching():
        for index in indices:
            image, labels = renderer.frame_with_labels(index / 30, index)
            labels_reader.show(labels)
            reading = reader.read(Frame(index / 30, image))
            right, wrong = zone_agreement(reading.zones, labels)
            agree += right
            disagree += wrong
    return reader, agree, disagree


@pytest.mark.slow
def test_zones_of_a_rendered_game_match_the_truth() -> None:
    # from 2 s to 20 s, two frames a second
    reader, agree, disagree = _zones_agreement(5, list(range(60, 600, 15)))
    assert reader.geometry is not None
    assert agree > 300
    assert disagree <= 0.03 * (agree + disagree)


@pytest.mark.slow
def test_a_deal_of_pale_cards_on_pale_stripes_is_found_against_the_empty_table() -> None:
    # game 2045: 38-pixel gnome-tango_nuevo cards on a pale striped cloth, where the
    # finder outlines three or four of the twelve dealt cards a frame; the first two
    # frames show the cloth empty, and what changed since then is the deal (laid by
    # 3.3 s), read for its first second and a half
    reader, agree, disagree = _zones_agreement(2045, [0, 1, *range(3, 145, 3)])
    assert reader.geometry is not None
    assert agree >= 100
    assert disagree <= 0.05 * (agree + disagree)
