"""recognize's second looks: faces it could not read, cards under others, looks merged."""

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from tablecam.cards import FULL_DECK, Card
from tablecam.reading import recognize as recognize_module
from tablecam.reading.classifier import CardRead
from tablecam.reading.finder import FoundCard
from tablecam.reading.realdata import bounding_box
from tablecam.reading.recognize import (
    CORNER_CONFIDENCE,
    RecognizedCard,
    _cards_at_corners,
    _cards_at_index_corners,
    _merge_looks,
    _second_look,
    _top_cards,
    _tops_by_corners,
    recognize,
)
from tablecam.reading.scenes import background, paste, plain_face


class _IndexReader:
    """Names the card only when its red index mark shows in the view's top-left corner."""

    def read(self, views: Sequence[npt.NDArray[np.uint8]]) -> list[CardRead]:
        out = []
        for view in views:
            h, w = view.shape[:2]
            corner = view[: h // 6, : w // 6].astype(int)
            red = (corner[..., 2] > 150) & (corner[..., 1] < 80)
            out.append(CardRead(Card.parse("KH") if red.any() else None, 0.9, "face"))
        return out


def _card_with_index() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """A white card (100x140 at 200,100) with red index marks in two corners, and the
    outline of its picture frame only (the finder's mistake)."""
    image = np.full((400, 500, 3), (40, 90, 40), np.uint8)
    image[100:240, 200:300] = 255
    image[104:116, 204:212] = (0, 0, 220)
    image[224:236, 288:296] = (0, 0, 220)
    frame = np.array([[214, 118], [286, 118], [286, 222], [214, 222]], np.float32)
    return image, frame


def test_an_unread_face_outlined_by_its_frame_is_read_through_a_grown_outline() -> None:
    image, frame = _card_with_index()
    reader = _IndexReader()
    assert reader.read([image[118:222, 214:286]])[0].card is None  # the frame hides it
    result = _second_look(image, [RecognizedCard(None, 0.4, frame, False)], reader)
    assert result[0].card == Card.parse("KH")
    assert np.array_equal(result[0].corners, frame)  # the outline found is kept


def test_a_second_look_never_names_a_card_already_named_in_the_photo() -> None:
    image, frame = _card_with_index()
    elsewhere = RecognizedCard(Card.parse("KH"), 0.95, frame + 150, False)
    result = _second_look(image, [RecognizedCard(None, 0.4, frame, False), elsewhere],
                          _IndexReader())
    assert result[0].card is None


def test_an_unread_face_outlined_too_long_is_read_through_an_outline_of_the_cards_shape() -> None:
    image, _ = _card_with_index()
    # the top side found on an edge 100 px above the card (a neighbour's, wood grain)
    too_long = np.array([[200, 0], [299, 0], [299, 239], [200, 239]], np.float32)
    reader = _IndexReader()
    assert reader.read([image[0:240, 200:300]])[0].card is None
    result = _second_look(image, [RecognizedCard(None, 0.4, too_long, False)], reader)
    assert result[0].card == Card.parse("KH")
    assert np.array_equal(result[0].corners, too_long)  # the outline found is kept


class _CornerReader:
    """Names a view by its top-left index corner alone, at ``confidence``: all that a
    card lying under others shows."""

    def __init__(self, confidence: float = 0.99) -> None:
        self.confidence = confidence
        self.corners = [(plain_face(c)[:42, :30].astype(np.float32), c) for c in FULL_DECK]

    def read(self, views: Sequence[npt.NDArray[np.uint8]]) -> list[CardRead]:
        out = []
        for view in views:
            corner = view[:42, :30].astype(np.float32)
            errors = [float(np.abs(corner - face).mean()) for face, _ in self.corners]
            best = int(np.argmin(errors))
            out.append(CardRead(self.corners[best][1], self.confidence, "face")
                       if errors[best] < 30 else CardRead(None, 0.9, "none"))
        return out


def _card_under_another() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """8H lying under KS with its left third showing (its index corner among them), and
    4C apart; the corners of 8H.  The finder alone does not outline 8H."""
    image = background((1000, 750), (60, 110, 60), 5)
    under = paste(image, plain_face(Card.parse("8H"), 200), (330, 300), 12, 150)
    paste(image, plain_face(Card.parse("KS"), 200), (450, 330), 12, 150)
    paste(image, plain_face(Card.parse("4C"), 200), (760, 420), -20, 150)
    return image, under


def test_a_card_under_another_is_read_from_its_corner_with_its_whole_outline() -> None:
    image, under = _card_under_another()
    cards = {c.card.code: c for c in recognize(image, _CornerReader()).cards
             if c.card is not None}
    assert set(cards) == {"8H", "KS", "4C"}
    got = cards["8H"].corners
    error = min(np.abs(got - under).max(), np.abs(got - np.roll(under, 2, axis=0)).max())
    assert error < 10
    assert cards["8H"].covered


def test_a_white_card_on_white_paper_is_read_from_the_corner_of_its_faint_shadow() -> None:
    # in bright light a white card on white paper shows two of its sides as a shadow a
    # few grey levels deep and the other two not at all: no outline of it closes
    image = background((1000, 750), (60, 110, 60), 5)
    paste(image, plain_face(Card.parse("KS"), 200), (300, 330), 12, 150)
    image[150:650, 520:950] = 252
    image[200:410, 600:750] = plain_face(Card.parse("AH"), 150)
    image[410:413, 600:750] = 245  # the shadow along its bottom
    image[200:413, 597:600] = 245  # and its left side
    cards = {c.card.code: c for c in recognize(image, _CornerReader()).cards
             if c.card is not None}
    assert set(cards) == {"KS", "AH"}
    box = bounding_box(cards["AH"].corners)
    assert np.allclose(box, (600, 200, 750, 410), atol=8)


def test_a_corner_read_below_its_confidence_names_nothing() -> None:
    image, _ = _card_under_another()
    reader = _CornerReader(confidence=(0.9 + CORNER_CONFIDENCE) / 2)
    names = {c.card.code for c in recognize(image, reader).cards if c.card is not None}
    assert "8H" not in names and {"KS", "4C"} <= names


def test_a_card_cut_by_the_photos_edge_and_partly_covered_is_read_from_its_corner() -> None:
    # a third of 8H lies beyond the photo's right edge and KS covers its lower part:
    # no outline of it closes, but its top-left index corner shows
    image = background((1000, 750), (60, 110, 60), 5)
    cut = paste(image, plain_face(Card.parse("8H"), 200), (975, 300), 0, 150)
    paste(image, plain_face(Card.parse("KS"), 200), (900, 400), 8, 150)
    paste(image, plain_face(Card.parse("4C"), 200), (400, 420), -20, 150)
    cards = {c.card.code: c for c in recognize(image, _CornerReader()).cards
             if c.card is not None}
    assert set(cards) == {"8H", "KS", "4C"}
    got = cards["8H"].corners
    error = min(np.abs(got - cut).max(), np.abs(got - np.roll(cut, 2, axis=0)).max())
    assert error < 10  # its whole outline, beyond the photo's edge


def test_an_unread_outline_off_its_card_anchors_a_read_at_its_corners(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the finder's outline of 8H took in a strip of table to its right and below (a
    # shadow, a neighbour's edge): unread, but its top-left corner is the card's; with
    # no straight edges to go by, that corner alone gives the card (an outline's sides
    # may be up to 15 % longer than the card's)
    image = background((1000, 750), (60, 110, 60), 5)
    card = paste(image, plain_face(Card.parse("8H"), 200), (300, 300), 0, 150)
    four = paste(image, plain_face(Card.parse("4C"), 200), (700, 400), 0, 150)
    off = card.copy()
    off[1:3, 0] += 20  # the right side 20 px too far out
    off[2:4, 1] += 25  # the bottom 25 px too low
    monkeypatch.setattr(recognize_module, "_segments",
                        lambda *args, **kwargs: np.zeros((0, 4), np.float32))
    cards = [RecognizedCard(Card.parse("4C"), 0.99, four, False),
             RecognizedCard(None, 0.3, off, False)]
    result = _cards_at_corners(image, cards, _CornerReader())
    named = {c.card.code: c.corners for c in result if c.card is not None}
    assert set(named) == {"4C", "8H"} and len(result) == 2  # in the unread one's place
    error = min(np.abs(named["8H"] - card).max(),
                np.abs(named["8H"] - np.roll(card, 2, axis=0)).max())
    assert error < 4


def _at(x: float, y: float, card: str | None) -> RecognizedCard:
    quad = np.array([[x, y], [x + 100, y], [x + 100, y + 140], [x, y + 140]], np.float32)
    return RecognizedCard(None if card is None else Card.parse(card), 0.99, quad, False)


@pytest.mark.parametrize("first", [True, False])
def test_looks_merge_each_card_once_and_a_name_replaces_an_unread_outline(first: bool) -> None:
    # both looks name two cards; the plain one finds one face more, so it is kept whole
    plain = [_at(0, 0, "8H"), _at(300, 0, None), _at(600, 0, "KS"), _at(0, 400, None)]
    stretched = [_at(5, 3, "8H"), _at(304, 2, "9H"), _at(900, 0, "8H")]
    merged = _merge_looks([plain, stretched] if first else [stretched, plain])
    names = {c.card.code if c.card else "-": c.corners[0].tolist() for c in merged}
    # 9H takes the unread outline's place; 8H named elsewhere again is a misread and
    # stays out; the unread card only the plain look found stays
    assert len(merged) == 4
    assert names == {"8H": [0, 0], "9H": [304, 2], "KS": [600, 0], "-": [0, 400]}


def test_a_card_read_from_a_corner_takes_the_outline_another_look_found_whole() -> None:
    # fmjio dev: 3C under 2C, read from a corner with an outline laid the wrong way from
    # it (IoU 0.47 with its label), found whole in the photo stretched to 3:4
    guessed = RecognizedCard(Card.parse("3C"), 0.993, _at(20, 30, None).corners, True)
    plain = [_at(300, 0, "8H"), _at(600, 0, "KS"), guessed, _at(0, 400, None)]
    whole = _at(0, 0, "3C")
    stretched = [whole, _at(900, 0, "3D")]
    elsewhere = RecognizedCard(Card.parse("KS"), 1.0, _at(900, 400, None).corners, False)
    merged = _merge_looks([plain, stretched, [elsewhere]])
    by_name = {str(c.card): c for c in merged}
    assert by_name["3C"] is whole  # the outline found, not the one guessed from a corner
    assert by_name["KS"].corners[0].tolist() == [600, 0]  # found whole already: stays
    # a corner read stays where no look found that card whole overlapping it
    far = RecognizedCard(Card.parse("3C"), 1.0, _at(400, 300, None).corners, False)
    assert {str(c.card): c for c in _merge_looks([plain, [far]])}["3C"] is guessed


def test_a_close_up_of_one_card_filling_most_of_the_photo_is_found_and_read() -> None:
    # edje IMG_2700: a lone ace photographed from close by, its short side 60 % of the
    # photo's; the finder's usual search stops at half
    image = np.full((504, 378, 3), (60, 110, 150), np.uint8)
    image[105:425, 74:303] = 250
    image[112:140, 80:98] = (0, 0, 220)  # the index marks the reader looks for
    image[390:418, 279:297] = (0, 0, 220)
    cards = recognize(image, _IndexReader()).cards
    assert [c.card for c in cards] == [Card.parse("KH")]
    corners = cards[0].corners
    assert np.abs(corners.min(axis=0) - (74, 105)).max() <= 4
    assert np.abs(corners.max(axis=0) - (302, 424)).max() <= 4


def test_a_square_photo_is_read_widened_and_narrowed_back_to_both_frames(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # data sets squash phone photos to 640x640; resampling moves a faint card edge, so
    # widening one side and narrowing the other find different cards (fmjio dev photos:
    # outlines for 91.3 % of the labelled cards either way, 94.0 % with both)
    shapes: list[tuple[int, ...]] = []

    def look(image: npt.NDArray[np.uint8], reader: object) -> list[RecognizedCard]:
        shapes.append(image.shape[:2])
        return []

    monkeypatch.setattr(recognize_module, "_read_look", look)
    recognize(np.zeros((640, 640, 3), np.uint8), object())  # type: ignore[arg-type]
    assert sorted(shapes) == sorted([(640, 640), (640, 853), (853, 640), (480, 640), (640, 480)])
    shapes.clear()
    recognize(np.zeros((480, 640, 3), np.uint8), object())  # type: ignore[arg-type]
    assert shapes == [(480, 640)]  # a camera frame is read as it is


def _long_card(x: float, y: float, card: str, long: float = 160.0) -> RecognizedCard:
    """A named card 100 px wide and ``long`` px tall (a bridge deck's 1.56 or longer)."""
    quad = np.array([[x, y], [x + 100, y], [x + 100, y + long], [x, y + long]], np.float32)
    return RecognizedCard(Card.parse(card), 0.99, quad, False)


def test_the_lone_cards_of_a_long_deck_are_not_searched_as_stacks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # gnome-orell cards are 1.6 times as long as wide: 14 % longer than a poker card's
    # 1.4, which once made every lone card a stack, and the top card found inside it a
    # poker-shaped part of it (dev stills: a court card's picture frame)
    searched: list[float] = []

    def tops(image: npt.NDArray[np.uint8], width: float, fine: bool = False,
             aspects: Sequence[float] = ()) -> list[object]:
        searched.append(width)
        return []

    monkeypatch.setattr(recognize_module, "find_pile_tops", tops)
    image = background((1000, 750), (60, 110, 60), 5)
    cards = [_long_card(100, 100, "8H"), _long_card(400, 100, "KS"), _long_card(700, 100, "4C")]
    assert _top_cards(image, cards, [], _CornerReader()) == cards
    assert searched == []


def test_a_stack_of_a_long_deck_is_searched_for_a_top_card_of_that_shape(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a column's top card with the cards under it sticking out 40 px: the top card is
    # sought with the photo's own card shape too, beside the poker shapes
    shapes: list[tuple[float, ...]] = []

    def tops(image: npt.NDArray[np.uint8], width: float, fine: bool = False,
             aspects: Sequence[float] = ()) -> list[object]:
        shapes.append(tuple(aspects))
        return []

    monkeypatch.setattr(recognize_module, "find_pile_tops", tops)
    image = background((1000, 750), (60, 110, 60), 5)
    stack = _long_card(100, 100, "8H", long=200)
    _top_cards(image, [stack, _long_card(400, 100, "KS"), _long_card(700, 100, "4C")], [],
               _CornerReader())
    assert len(shapes) == 1 and 1.6 in shapes[0]


class _SureReader:
    """Names every view KH at ``confidence``."""

    def __init__(self, confidence: float) -> None:
        self.confidence = confidence

    def read(self, views: Sequence[npt.NDArray[np.uint8]]) -> list[CardRead]:
        return [CardRead(Card.parse("KH"), self.confidence, "face") for _ in views]


@pytest.mark.parametrize(("top_confidence", "replaced"), [(0.99, False), (1.0, True)])
def test_a_stack_named_surer_than_the_top_found_in_it_keeps_its_outline(
        monkeypatch: pytest.MonkeyPatch, top_confidence: float, replaced: bool) -> None:
    # dev stills: a queen on her column's stack, named 1.00 through the stack's outline,
    # lost it to a top cut short at her picture frame, named 0.998 (the match with the
    # card's outline fell below 0.7)
    inner = np.array([[110, 130], [190, 130], [190, 230], [110, 230]], np.float32)

    def tops(image: npt.NDArray[np.uint8], width: float, fine: bool = False,
             aspects: Sequence[float] = ()) -> list[FoundCard]:
        # in the crop around the stack: 15 px (0.15 of a card's width) beyond it
        return [FoundCard(inner - np.array([85, 60], np.float32), 1.0, False, True)]

    monkeypatch.setattr(recognize_module, "find_pile_tops", tops)
    image = background((1000, 750), (60, 110, 60), 5)
    stack = RecognizedCard(Card.parse("KH"), 0.995, np.array(
        [[100, 75], [200, 75], [200, 250], [100, 250]], np.float32), False)  # 1.75 long
    others = [_at(400, 100, "8S"), _at(700, 100, "4C")]
    result = _top_cards(image, [stack, *others], [], _SureReader(top_confidence))
    assert np.array_equal(result[0].corners, inner) == replaced
    assert result[1:] == others


def _under_a_book(image: npt.NDArray[np.uint8], card: npt.NDArray[np.float32],
                  showing: float) -> None:
    """Lay a printed book over all of ``card`` but its top ``showing`` pixels."""
    down = card[3] - card[0]
    down /= np.linalg.norm(down)
    across = card[1] - card[0]
    across /= np.linalg.norm(across)
    top = card[0] + showing * down
    book = np.array([top - 60 * across, top + 260 * across, top + 260 * across + 330 * down,
                     top - 60 * across + 330 * down], np.float32)
    cv2.fillConvexPoly(image, np.rint(book).astype(np.int32), (170, 200, 215), cv2.LINE_AA)
    for k in range(12):  # lines of print
        start = top + (30 + 24 * k) * down - 20 * across
        cv2.line(image, tuple(np.rint(start).astype(int)),
                 tuple(np.rint(start + 240 * across).astype(int)), (60, 60, 60), 3)


@pytest.fixture(scope="module")
def deck_reader() -> tuple[object, object]:
    """A training deck's art and the committed card reader."""
    decks = pytest.importorskip("tablecam.render.decks")
    from tablecam.errors import TablecamError
    from tablecam.reading.classifier import CardClassifier

    try:
        return decks.load_deck(decks.list_decks()[0]), CardClassifier()
    except (TablecamError, IndexError) as exc:
        pytest.skip(f"no deck art or model: {exc}")


@pytest.mark.parametrize(("seed", "width", "angle"), [(3, 150, 8), (4, 120, -20), (5, 180, 35)])
def test_a_lone_card_under_a_book_is_read_from_its_index_corner(
        deck_reader: tuple[object, object], seed: int, width: float, angle: float) -> None:
    # only the top of 8H shows, far wider than a card is long, so no outline closes
    # round it, and no other card in the photo gives its size (edje photos: a card
    # under a book, a lone card on stone or fur)
    art, reader = deck_reader
    image = background((1000, 750), (60, 110, 60), seed)
    card = paste(image, art.face(Card.parse("8H"), 300), (420, 330), angle, width)  # type: ignore[attr-defined]
    _under_a_book(image, card, 0.4 * width)
    named = [c for c in recognize(image, reader).cards if c.card is not None]  # type: ignore[arg-type]
    assert [c.card.code for c in named] == ["8H"]
    assert named[0].covered
    # its outline: from the index corner, as wide as its right side shows, over the
    # book as the card lies under it
    got = named[0].corners
    assert min(float(np.hypot(*(corner - card[0]))) for corner in got) < 6
    shared, _ = cv2.intersectConvexConvex(got.reshape(-1, 1, 2), card.reshape(-1, 1, 2))
    assert shared / (cv2.contourArea(got) + cv2.contourArea(card) - shared) >= 0.75


def test_lone_index_corners_are_not_read_where_a_card_is_named(
        deck_reader: tuple[object, object]) -> None:
    # where cards are named the whole-card corner reads have their size; lone corners
    # read at it named cards that were not there (fmjio dev photos)
    art, reader = deck_reader
    image = background((1000, 750), (60, 110, 60), 3)
    card = paste(image, art.face(Card.parse("8H"), 300), (420, 330), 8, 150)  # type: ignore[attr-defined]
    _under_a_book(image, card, 60)
    four = paste(image, art.face(Card.parse("4C"), 300), (800, 200), -15, 150)  # type: ignore[attr-defined]
    cards = [RecognizedCard(Card.parse("4C"), 0.99, four, False)]
    assert _cards_at_index_corners(image, cards, reader) == cards  # type: ignore[arg-type]


def test_no_card_is_read_from_corners_the_reader_is_unsure_of() -> None:
    image = background((1000, 750), (60, 110, 60), 3)
    card = paste(image, plain_face(Card.parse("8H"), 200), (420, 330), 8, 150)
    _under_a_book(image, card, 60)
    reader = _CornerReader(confidence=(0.9 + CORNER_CONFIDENCE) / 2)
    assert all(c.card is None for c in recognize(image, reader).cards)


@pytest.mark.parametrize(("centre", "angle", "card_code"), [
    ((300, 770), 4, "8H"),      # the bottom edge cuts all but its top
    ((380, -20), 172, "QS"),    # the top edge cuts all but its bottom, turned round
    ((-10, 520), -10, "5D"),    # the left edge cuts all but its right side, turned round
])
def test_a_card_the_photos_edge_cuts_by_more_than_half_is_read_from_its_index_corner(
        deck_reader: tuple[object, object], monkeypatch: pytest.MonkeyPatch,
        centre: tuple[float, float], angle: float, card_code: str) -> None:
    # edje dev photos: a card at the photo's edge showing its index corner and little
    # else; its whole-card view is mostly the smeared edge of the photo
    art, reader = deck_reader
    image = background((1000, 750), (60, 110, 60), 4)
    others = ["4C", "JD"]
    for code, at, turn in zip(others, [(450, 330), (650, 520)], [-15, 20], strict=True):
        paste(image, art.face(Card.parse(code), 300), at, turn, 150)  # type: ignore[attr-defined]
    cut = paste(image, art.face(Card.parse(card_code), 300), centre, angle, 150)  # type: ignore[attr-defined]
    named = {c.card.code: c for c in recognize(image, reader).cards  # type: ignore[arg-type]
             if c.card is not None}
    assert set(named) == {*others, card_code}
    got = named[card_code].corners  # its whole outline, mostly beyond the photo's edge
    error = min(np.abs(got - cut).max(), np.abs(got - np.roll(cut, 2, axis=0)).max())
    assert error < 15
    assert named[card_code].covered
    # and without the index-corner read, nothing names it
    monkeypatch.setattr(recognize_module, "CUT_CORNERS", 0)
    names = {c.card.code for c in recognize(image, reader).cards if c.card is not None}  # type: ignore[arg-type]
    assert card_code not in names


class _Doubtful:
    """The committed reader, never surer than 0.95 (its names kept)."""

    def __init__(self, reader: object) -> None:
        self.reader = reader

    def read(self, views: Sequence[npt.NDArray[np.uint8]]) -> list[CardRead]:
        return [CardRead(r.card, min(r.confidence, 0.95), r.kind, r.candidates)
                for r in self.reader.read(views)]  # type: ignore[attr-defined]


def test_a_card_cut_by_the_photos_edge_is_not_named_from_a_corner_the_reader_is_unsure_of(
        deck_reader: tuple[object, object]) -> None:
    art, reader = deck_reader
    image = background((1000, 750), (60, 110, 60), 4)
    paste(image, art.face(Card.parse("4C"), 300), (450, 330), -15, 150)  # type: ignore[attr-defined]
    paste(image, art.face(Card.parse("8H"), 300), (300, 770), 4, 150)  # type: ignore[attr-defined]
    assert "8H" in {c.card.code for c in recognize(image, reader).cards  # type: ignore[arg-type]
                    if c.card is not None}
    names = {c.card.code for c in recognize(image, _Doubtful(reader)).cards if c.card is not None}
    assert names == {"4C"}


@pytest.mark.parametrize(("shift", "drop", "angle"), [(-55, -10, 12), (-55, 0, -20), (-50, -15, 30)])
def test_a_card_mostly_under_a_named_one_is_read_from_the_index_corner_beside_it(
        deck_reader: tuple[object, object], monkeypatch: pytest.MonkeyPatch,
        shift: float, drop: float, angle: float) -> None:
    # edje dev photos: 9S under QC with only its left strip showing, index and all; a
    # whole-card view of 9S is mostly QC's face, whose index the reader pools with 9S's
    art, reader = deck_reader
    image = background((1000, 750), (60, 110, 60), 6)
    under = paste(image, art.face(Card.parse("9S"), 300), (450 + shift, 330 + drop), angle, 150)  # type: ignore[attr-defined]
    paste(image, art.face(Card.parse("QC"), 300), (450, 330), angle, 150)  # type: ignore[attr-defined]
    paste(image, art.face(Card.parse("4D"), 300), (750, 500), -20, 150)  # type: ignore[attr-defined]
    named = {c.card.code: c for c in recognize(image, reader).cards  # type: ignore[arg-type]
             if c.card is not None}
    assert set(named) == {"9S", "QC", "4D"}
    got = named["9S"].corners  # its whole outline, under QC
    error = min(np.abs(got - under).max(), np.abs(got - np.roll(under, 2, axis=0)).max())
    assert error < 15
    assert named["9S"].covered and not named["QC"].covered
    monkeypatch.setattr(recognize_module, "UNDER_CORNERS", 0)
    names = {c.card.code for c in recognize(image, reader).cards if c.card is not None}  # type: ignore[arg-type]
    assert "9S" not in names


def test_only_a_corner_showing_beside_the_named_cards_is_read_as_a_card_under_them() -> None:
    # a named card's own corner (the top right of a deck with an index in all four
    # corners, read sideways) and a corner inside it (its picture frame) are not
    top = np.array([[400, 200], [550, 200], [550, 410], [400, 410]], np.float32)
    right, down = np.array([1, 0], np.float32), np.array([0, 1], np.float32)
    left = -right

    def under(corner: tuple[float, float], across: npt.NDArray[np.float32],
              along: npt.NDArray[np.float32]) -> bool:
        at = np.array(corner, np.float32)
        return recognize_module._under_named(
            at, recognize_module._quad_at(at, across, 150, along, 210), [top], 150)

    assert under((340, 195), right, down)      # a strip 60 px wide shows left of it
    assert not under((550, 200), down, left)   # its own top-right corner, sideways
    assert not under((420, 230), right, down)  # a corner inside it
    assert not under((200, 195), right, down)  # beside it, but hardly under it


def test_an_outline_round_two_cards_side_by_side_names_neither_chimera_but_both_cards(
        deck_reader: tuple[object, object]) -> None:
    # the finder outlines 9S and QC, squarely side by side, as one; the reader, pooling
    # the 9's corner with the queen's, named it QS at 0.987, a card on neither
    art, reader = deck_reader
    image = background((1000, 750), (60, 110, 60), 6)
    paste(image, art.face(Card.parse("9S"), 300), (390, 338), 0, 150)  # type: ignore[attr-defined]
    paste(image, art.face(Card.parse("QC"), 300), (450, 330), 0, 150)  # type: ignore[attr-defined]
    paste(image, art.face(Card.parse("4D"), 300), (750, 500), -20, 150)  # type: ignore[attr-defined]
    names = {c.card.code for c in recognize(image, reader).cards if c.card is not None}  # type: ignore[arg-type]
    assert names == {"9S", "QC", "4D"}


class _Chimera:
    """Names a view by both index corners pooled: the top-left corner's suit and the
    bottom-right corner's rank (red marks for hearts and for kings), a card neither
    corner shows by itself; a view showing one corner twice names that corner's card."""

    def read(self, views: Sequence[npt.NDArray[np.uint8]]) -> list[CardRead]:
        out = []
        for view in views:
            top = view[:20, :15].astype(int)
            bottom = view[-20:, -15:].astype(int)
            red_top = bool(((top[..., 2] > 150) & (top[..., 1] < 80)).any())
            red_bottom = bool(((bottom[..., 2] > 150) & (bottom[..., 1] < 80)).any())
            card = Card.parse(("K" if red_bottom else "4") + ("H" if red_top else "C"))
            if red_top == red_bottom:  # one card's two corners: that card
                card = Card.parse("KH" if red_top else "4C")
            out.append(CardRead(card, 0.99, "face"))
        return out


def test_a_name_no_corner_of_an_off_shape_outline_gives_by_itself_is_taken_back() -> None:
    # a square outline (two cards side by side taken as one), a card-shaped one apart
    image = np.full((300, 400, 3), 255, np.uint8)
    image[2:16, 2:14] = (0, 0, 220)  # a red mark in the square's top-left corner only
    square = np.array([[0, 0], [140, 0], [140, 140], [0, 140]], np.float32)
    card = np.array([[250, 50], [350, 50], [350, 190], [250, 190]], np.float32)
    reader = _Chimera()
    pooled = reader.read([recognize_module.warp_card(image, square)])[0].card
    assert pooled == Card.parse("4H")  # on neither corner
    cards = [RecognizedCard(Card.parse("4H"), 0.99, square, False),
             RecognizedCard(Card.parse("4S"), 0.99, card, False)]
    checked = recognize_module._own_corners_name(image, cards, reader)
    assert checked[0].card is None
    assert checked[1] == cards[1]  # card-shaped: left as read
    image[124:138, 126:138] = (0, 0, 220)  # both corners red: KH's own
    cards[0] = RecognizedCard(Card.parse("KH"), 0.99, square, False)
    assert recognize_module._own_corners_name(image, cards, reader) == cards


def test_a_side_of_a_card_under_another_shows_up_to_the_other_cards_edge() -> None:
    # cards laid square in a row: the lower card's bottom edge runs on along the top
    # card's, and only the part up to the top card's edge is the lower card's own
    top = np.array([[100, 0], [250, 0], [250, 210], [100, 210]], np.float32)
    corner = np.array([310, 205], np.float32)  # the lower card's corner, 60 px right of top
    shown = recognize_module._shown_arm(corner, np.array([-1, 0], np.float32), 200.0, [top])
    assert 58 <= shown <= 62
    up = recognize_module._shown_arm(corner, np.array([0, -1], np.float32), 200.0, [top])
    assert up == 200.0  # the lower card's right side, beside nothing


class _Pooled:
    """KH where both index corners of a view show a red mark, nothing where neither
    does, and an unsure face where they disagree (as the reader pools them)."""

    def read(self, views: Sequence[npt.NDArray[np.uint8]]) -> list[CardRead]:
        out = []
        for view in views:
            marks = [bool(((c[..., 2] > 150) & (c[..., 1] < 80)).any())
                     for c in (view[:20, :15].astype(int), view[-20:, -15:].astype(int))]
            if all(marks):
                out.append(CardRead(Card.parse("KH"), 0.99, "face"))
            elif any(marks):
                out.append(CardRead(None, 0.5, "face"))
            else:
                out.append(CardRead(None, 0.9, "none"))
        return out


@pytest.mark.parametrize("named_elsewhere", [False, True])
def test_an_unread_face_is_named_by_one_index_corner_read_by_itself(
        named_elsewhere: bool) -> None:
    # the outline's top-left corner is on KH's index, its bottom-right one off the card
    # (on the table): pooled, the reader is unsure; that corner alone names KH
    image = np.full((300, 400, 3), 255, np.uint8)
    image[4:16, 4:14] = (0, 0, 220)
    outline = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    cards = [RecognizedCard(None, 0.5, outline, False)]
    if named_elsewhere:
        cards.append(RecognizedCard(Card.parse("KH"), 0.99, outline + 200, False))
    reader = _Pooled()
    assert reader.read([recognize_module.warp_card(image, outline)])[0].card is None
    got = recognize_module._own_corner_alone(image, cards, reader)
    assert got[0].card == (None if named_elsewhere else Card.parse("KH"))
    assert np.array_equal(got[0].corners, outline)


class _ColourIndexReader:
    """Names AH where a red index mark shows in a view's top-left corner, AS where a
    blue one does."""

    def read(self, views: Sequence[npt.NDArray[np.uint8]]) -> list[CardRead]:
        out = []
        for view in views:
            h, w = view.shape[:2]
            corner = view[: h // 6, : w // 6].astype(int)
            red = ((corner[..., 2] > 150) & (corner[..., 0] < 80)).any()
            blue = ((corner[..., 0] > 150) & (corner[..., 2] < 80)).any()
            out.append(CardRead(Card.parse("AH") if red else Card.parse("AS") if blue else None,
                                0.9, "face"))
        return out


def _white_on_white() -> tuple[npt.NDArray[np.uint8], RecognizedCard, RecognizedCard]:
    """AS lying over the right side of AH, both white with no edge between them (edje
    IMG_2670), each with its index marks; the two cards as found, marked right."""
    image = np.full((400, 400, 3), (60, 70, 80), np.uint8)
    image[100:240, 100:200] = 255
    image[104:116, 104:112] = image[224:236, 188:196] = (0, 0, 220)
    image[100:240, 160:260] = 255
    image[104:116, 164:172] = image[224:236, 248:256] = (220, 0, 0)
    ah = RecognizedCard(Card.parse("AH"), 0.99,
                        np.array([[100, 100], [200, 100], [200, 240], [100, 240]], np.float32), True)
    as_ = RecognizedCard(Card.parse("AS"), 0.99,
                         np.array([[160, 100], [260, 100], [260, 240], [160, 240]], np.float32), False)
    return image, ah, as_


def test_the_card_whose_index_shows_on_the_other_is_the_top_one() -> None:
    image, ah, as_ = _white_on_white()
    wrong = [RecognizedCard(ah.card, ah.confidence, ah.corners, False),
             RecognizedCard(as_.card, as_.confidence, as_.corners, True)]
    fixed = _tops_by_corners(image, wrong, _ColourIndexReader())
    assert [(c.card, c.covered) for c in fixed] == [(ah.card, True), (as_.card, False)]


def test_cards_marked_right_keep_their_marks() -> None:
    image, ah, as_ = _white_on_white()
    kept = _tops_by_corners(image, [ah, as_], _ColourIndexReader())
    assert [(c.card, c.covered) for c in kept] == [(ah.card, True), (as_.card, False)]
