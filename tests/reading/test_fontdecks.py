"""Made-up training decks drawn from the installed fonts."""

from __future__ import annotations

import numpy as np
import pytest

from tablecam.cards import Card
from tablecam.reading import fontdecks
from tablecam.reading.classifier import corner_pair
from tablecam.reading.synth import clean_view

FONTS = fontdecks.font_files()
needs_fonts = pytest.mark.skipif(
    not fontdecks.fonts_with_suits(FONTS), reason="no installed font draws the suit signs")


@needs_fonts
def test_a_font_deck_is_52_portrait_faces_with_transparent_corners() -> None:
    style, faces = fontdecks.font_deck(3, 200)
    assert len(faces) == 52
    assert {f.shape for f in faces} == {faces[0].shape}
    h, w, channels = faces[0].shape
    assert (h, channels) == (200, 4) and 0.6 < w / h < 0.75
    assert faces[0][0, 0, 3] == 0 and faces[0][h // 2, w // 2, 3] == 255
    assert style.rank_font in FONTS


@needs_fonts
def test_the_same_seed_draws_the_same_deck_and_another_seed_another() -> None:
    _, first = fontdecks.font_deck(5, 120)
    _, again = fontdecks.font_deck(5, 120)
    _, other = fontdecks.font_deck(6, 120)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(a.shape == b.shape and np.array_equal(a, b)
                   for a, b in zip(first, other, strict=True))


@needs_fonts
def test_the_index_corners_tell_the_cards_apart_and_red_suits_are_red() -> None:
    _, faces = fontdecks.font_deck(11, 200)
    corners = {}
    for code in ("AS", "2S", "10S", "KS", "KH", "5D", "5C"):
        view = clean_view(faces[Card.parse(code).index])
        corners[code] = corner_pair(view, 40, 60).astype(np.float32)
    # every pair of cards differs in its index corners
    codes = list(corners)
    for i, a in enumerate(codes):
        for b in codes[i + 1:]:
            assert np.abs(corners[a] - corners[b]).mean() > 1.0, (a, b)
    # the ink of a heart's index is redder (BGR: red channel above blue) than a spade's
    def ink_redness(pair: np.ndarray) -> float:
        dark = pair.sum(axis=2) < np.percentile(pair.sum(axis=2), 10)
        return float((pair[..., 2] - pair[..., 0])[dark].mean())

    # (red ink has R - B of 80 or more, a deck's black ink at most 44)
    assert ink_redness(corners["KH"]) > ink_redness(corners["KS"]) + 25
    assert ink_redness(corners["5D"]) > ink_redness(corners["5C"]) + 25


def test_without_fonts_it_says_so() -> None:
    with pytest.raises(ValueError, match="no usable fonts"):
        fontdecks.font_deck(0, 100, fonts=[], suit_fonts=[])


def test_a_drawn_back_is_a_seeded_card_back_the_same_turned_half_round() -> None:
    back = fontdecks.drawn_back(4, 200, 0.7)
    h, w, channels = back.shape
    assert (h, w, channels) == (200, 140, 4)
    assert back[0, 0, 3] == 0 and back[h // 2, w // 2, 3] == 255  # rounded corners
    assert np.array_equal(back, fontdecks.drawn_back(4, 200, 0.7))
    assert np.array_equal(back, back[::-1, ::-1])  # printed backs have no up or down
    # the seeds give many designs, none of them a blank card
    backs = [fontdecks.drawn_back(seed, 100) for seed in range(12)]
    assert len({b[..., :3].tobytes() for b in backs}) == 12
    assert all(b[10:-10, 10:-10, :3].std() > 5 or b[50, 35, :3].mean() < 200 for b in backs)
