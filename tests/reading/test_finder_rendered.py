"""The card finder on frames of the renderer's synthetic games (training decks)."""

import numpy as np
import pytest

from tablecam.reading.finder import find_cards

render_video = pytest.importorskip("tablecam.render.video")
render_frame = pytest.importorskip("tablecam.render.frame")
render_decks = pytest.importorskip("tablecam.render.decks")
label_reader = pytest.importorskip("tablecam.render.label_reader")


def test_dark_patterned_backs_on_a_pale_cloth_are_found() -> None:
    # dev scene 2059: blue-patterned backs with a thin white border on a grey-green
    # cloth were in none of the finder's views (no brighter than the table, not unlike
    # its colour, and their own pattern cut every edge-free region inside them), so
    # the spit piles and the face-down column tops were never found
    game = render_video.prepare_game(2059, decks=render_decks.list_decks(), size=(1280, 720))
    renderer = render_frame.FrameRenderer(game.scene, game.timeline)
    image, labels = renderer.frame_with_labels(6.0, 180)
    backs = [lab for lab in label_reader.top_labels(labels).values()
             if not lab.face_up and lab.visible >= 0.9]
    assert len(backs) >= 3
    found = find_cards(image, min_width=min(image.shape[:2]) / 28, piles=False, backs=True)
    for lab in backs:
        quad = np.array(lab.corners, np.float32)
        assert max(label_reader.overlap(f.corners, quad) for f in found) >= 0.7


def test_pale_cards_on_a_pale_striped_cloth_are_found_whole() -> None:
    # dev still 700013: pale faces on a grey-and-white striped cloth; the stripes cut
    # three of the eight outlines into pieces in every view of the full-size and 2/3
    # looks, and the median-filtered look finds them whole
    stills = pytest.importorskip("tablecam.render.stills")
    from tablecam.reading.finder import find_cards_thorough

    image, labels = stills.render_still(700013, decks=render_decks.list_decks())
    faces = [np.array(lab.corners, np.float32) for lab in labels
             if lab.face_up and lab.card is not None and lab.visible >= 0.9]
    assert len(faces) == 8
    found = find_cards_thorough(image)
    for quad in faces:
        assert max(label_reader.overlap(f.corners, quad) for f in found) >= 0.8
