"""Card faces from SVG decks: isolation of one card, caching, reserved and missing decks."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from tablecam.cards import FULL_DECK, Card, Suit
from tablecam.errors import DeckArtError
from tablecam.render.decks import (
    CANONICAL_HEIGHT,
    RESERVED_FAMILIES,
    DeckArt,
    all_decks,
    element_id,
    find_deck,
    list_decks,
    load_deck,
)

_SUIT_WORD = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart",
              Suit.SPADES: "spade"}


def _synthetic_kde_deck(folder: Path) -> Path:
    """A KDE-style sheet: 53 cards 40x60 with rounded corners, each filled with a colour
    that encodes its index, one row inside a translated layer, one card partly above the
    sheet's viewBox (as some real decks do)."""
    cards = []
    for card in FULL_DECK:
        rank = {11: "jack", 12: "queen", 13: "king"}.get(card.rank.value, str(card.rank.value))
        ident = f"{rank}_{_SUIT_WORD[card.suit]}"
        x = (card.rank.value - 1) * 50
        y = card.suit.value * 70 - (30 if card.code == "KC" else 0)
        colour = f"#{card.index * 4:02x}8040"
        cards.append(
            f'<g id="{ident}"><rect x="{x}" y="{y}" width="40" height="60" rx="6" '
            f'fill="{colour}"/><rect x="{x + 3}" y="{y + 3}" width="6" height="9" '
            'fill="#000000"/></g>')
    body = "".join(cards[:39]) + '<g transform="translate(0,10)">' + "".join(cards[39:]) + "</g>"
    body += '<g id="back"><rect x="0" y="300" width="40" height="60" rx="6" fill="#0000ff"/></g>'
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="650pt" height="380pt" '
           f'viewBox="0 0 650 380">{body}</svg>')
    deck_dir = folder / "svg-synthetic"
    deck_dir.mkdir(parents=True)
    (deck_dir / "index.desktop").write_text("[KDE Backdeck]\nName=Synthetic\nSVG=synthetic.svgz\n")
    (deck_dir / "synthetic.svgz").write_bytes(gzip.compress(svg.encode()))
    return deck_dir


@pytest.fixture()
def synthetic(tmp_path: Path) -> DeckArt:
    _synthetic_kde_deck(tmp_path / "kde")
    (decks,) = [list_decks(kde_dir=tmp_path / "kde", gnome_dir=tmp_path / "none")]
    assert [d.name for d in decks] == ["kde-synthetic"]
    return decks[0]


def test_face_is_the_isolated_card_with_transparent_corners(synthetic: DeckArt,
                                                            tmp_path: Path) -> None:
    faces = load_deck(synthetic, cache_dir=tmp_path / "cache")
    for card in (Card.parse("AC"), Card.parse("KC"), Card.parse("7S"), Card.parse("QH")):
        face = faces.face(card, 120)
        assert face.shape == (120, 80, 4) and face.dtype == np.uint8
        # the body colour is this card's own, not a neighbour's (BGRA: red is channel 2)
        assert abs(int(face[60, 40, 2]) - card.index * 4) <= 2
        assert face[60, 40, 3] == 255
        # the index mark is in the top-left corner, so the card is upright and uncut
        assert face[15, 12, :3].max() < 30
        # rounded corners: the outermost corner pixel is transparent
        assert face[0, 0, 3] == 0 and face[-1, -1, 3] == 0
    back = faces.back(120)
    assert back.shape == (120, 80, 4) and back[60, 40, 0] > 240 and back[60, 40, 2] < 20


def test_faces_are_cached_on_disk(synthetic: DeckArt, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = load_deck(synthetic, cache_dir=cache).face(Card.parse("9D"), 90)
    assert (cache / "kde-synthetic" / str(CANONICAL_HEIGHT) / "9D.png").is_file()
    again = load_deck(synthetic, cache_dir=cache).face(Card.parse("9D"), 90)
    assert np.array_equal(first, again)


def test_missing_deck_packages_name_the_apt_packages(tmp_path: Path) -> None:
    with pytest.raises(DeckArtError, match="kdegames-card-data-kf5 gnome-cards-data"):
        list_decks(kde_dir=tmp_path / "a", gnome_dir=tmp_path / "b")


def test_bad_height_is_a_clear_error(synthetic: DeckArt, tmp_path: Path) -> None:
    with pytest.raises(DeckArtError, match="height"):
        load_deck(synthetic, cache_dir=tmp_path).face(Card.parse("AS"), 0)


def test_reserved_decks_only_behind_the_flag() -> None:
    reserved = {name for names in RESERVED_FAMILIES.values() for name in names}
    default = {d.name for d in list_decks()}
    assert not default & reserved
    assert all(not d.reserved for d in list_decks())
    held_out = {d.name for d in list_decks(include_reserved=True) if d.reserved}
    assert held_out == reserved & {d.name for d in all_decks()}
    assert held_out, "the Debian deck packages should include the reserved decks"
    with pytest.raises(DeckArtError, match="reserved"):
        find_deck("kde-dondorf")
    assert find_deck("kde-dondorf", include_reserved=True).family == "dondorf"


def test_nonstandard_decks_are_left_out() -> None:
    names = {d.name for d in list_decks(include_reserved=True)}
    assert "kde-xskat-german" not in names
    assert "kde-oxygen" in names and "gnome-anglo" in names


def test_element_ids_follow_each_package() -> None:
    kde = DeckArt("kde-x", "x", "kde", Path("x.svgz"), False)
    gnome = DeckArt("gnome-x", "x", "gnome", Path("x.svgz"), False)
    assert element_id(kde, Card.parse("KH")) == "king_heart"
    assert element_id(kde, Card.parse("AC")) == "1_club"
    assert element_id(gnome, Card.parse("10S")) == "spade_10"
    assert element_id(gnome, None) == "back"


@pytest.mark.slow
def test_a_real_deck_renders_upright_faces(tmp_path: Path) -> None:
    faces = load_deck(find_deck("kde-standard"), cache_dir=tmp_path)
    face = faces.face(Card.parse("QD"), 140)
    assert face.shape[0] == 140 and 0.6 < face.shape[1] / 140 < 0.8
    assert face[70, face.shape[1] // 2, 3] == 255 and face[0, 0, 3] < 128
