"""``benchmarks/eval_recognize.py --misses DIR`` draws every photo where a card was not read
right: the drawings are how the reader's misses get looked at, so a card found but left
unread, or misread, must be drawn as well as a card never found."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from tablecam.cards import Card
from tablecam.reading.recognize import RecognizedCard

HARNESS = Path(__file__).parents[2] / "benchmarks" / "eval_recognize.py"


def harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("eval_recognize", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def drawn(tmp_path: Path, read: Card | None) -> bool:
    module = harness()
    image = np.full((200, 200, 3), 90, np.uint8)
    box = (50.0, 40.0, 110.0, 130.0)
    corners = np.array([[50, 40], [110, 40], [110, 130], [50, 130]], np.float32)
    cards = [RecognizedCard(read, 0.9 if read else 0.3, corners, False)]
    labels: list[tuple[object, object]] = [(box, "7H")]
    tally = module.Tally("t")
    before = (tally.correct, tally.spurious)
    matched = module._score(tally, labels, cards, module._box_overlap(200, 200, cards), 0.5,
                            lambda label, card: card.code == label)
    assert matched == {0}  # the outline was found in every case
    module._draw_misses(tmp_path, "photo", image, labels, matched, cards, before, tally)
    return (tmp_path / "photo.jpg").exists()


def test_a_card_read_right_is_not_drawn(tmp_path: Path) -> None:
    assert not drawn(tmp_path, Card.parse("7H"))


def test_a_card_found_but_unread_is_drawn(tmp_path: Path) -> None:
    assert drawn(tmp_path, None)


def test_a_misread_card_is_drawn(tmp_path: Path) -> None:
    assert drawn(tmp_path, Card.parse("7D"))
