"""recognize's second look at faces it could not read."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tablecam.cards import Card
from tablecam.reading.classifier import CardRead
from tablecam.reading.recognize import RecognizedCard, _second_look


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
