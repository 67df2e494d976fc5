"""``tablecam bench reader``: geometry + finding + reading of a full Spit table frame.

The frame is 1280x720 with twelve face-up cards (ten dealt, one on each centre pile)
and two face-down spit piles, drawn from a Debian deck (the first non-reserved one)
by ``tablecam.reading.scenes``.  Everything runs on one core (OpenCV and
onnxruntime each on one thread).  Figures:

- *full read*: a fresh reader on one frame: finding the layout, every card, reading
  every card (what happens at a deal); the median and the quickest of the repeats
  (the quickest is the least disturbed by other work on a shared machine);
- *steady state*: a stream in which one card is played every ten frames, so that the
  reader compares zones every frame and re-reads only the changed one;
- *one zone re-read*: the frame on which a played card is read;
- peak memory of the process.

Times are CPU time of this process (``time.process_time``): everything runs on one
thread, so this is the time on one core, and it stays fair on a machine shared with
other work.

Without a trained model (``models/card_reader.onnx``) the figures leave reading out
and say so in their label.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.bench import Figure, peak_memory_mb
from tablecam.capture import Frame
from tablecam.cards import Card
from tablecam.errors import TablecamError
from tablecam.reading.scenes import spit_deal_scene
from tablecam.reading.table_reader import CardReader, TableReader


class _NoReading:
    """Stands in for the classifier when no model is trained: every outline is a face."""

    def read(self, cards: Sequence[npt.NDArray[np.uint8]]) -> list[object]:
        from tablecam.reading.classifier import CardRead

        return [CardRead(None, 0.0, "face") for _ in cards]


def _classifier() -> tuple[CardReader, str]:
    try:
        from tablecam.reading.classifier import CardClassifier

        return CardClassifier(), ""
    except TablecamError:
        return _NoReading(), " (no model: finding only)"  # type: ignore[return-value]


def _deck_faces(cards: Sequence[Card]) -> tuple[dict[Card, npt.NDArray[np.uint8]] | None,
                                                npt.NDArray[np.uint8] | None]:
    try:
        from tablecam.render.decks import list_decks, load_deck

        deck = load_deck(list_decks()[0])
        return {c: deck.face(c, 106) for c in cards}, deck.back(106)
    except (TablecamError, IndexError):
        return None, None


def _frames() -> list[npt.NDArray[np.uint8]]:
    """The dealt table, then the same table with 1..4 cards played to the centre."""
    up = [Card.parse(c) for c in ("3C", "7D", "QS", "AH", "9C", "5S", "KD", "2H", "JC", "8S")]
    played = [Card.parse(c) for c in ("4H", "10D", "6C", "9S")]
    faces, back = _deck_faces(up + played)
    frames = []
    for n in range(0, 5):
        centre = played[max(0, n - 2):n][-2:] if n else []
        scene = spit_deal_scene(up, seed=21, faces=faces, back=back, centre=centre)
        frames.append(scene.image)
    return frames


def _reader_figures(quick: bool) -> list[Figure]:
    cv2.setNumThreads(1)
    classifier, note = _classifier()
    frames = _frames()
    full_frame = frames[2]  # twelve face-up cards: ten dealt, two on the centre piles
    repeats = 3 if quick else 10
    full: list[float] = []
    for _ in range(repeats):
        reader = TableReader(classifier)
        start = time.process_time()
        reading = reader.read(Frame(0.0, full_frame))
        full.append(time.process_time() - start)
        if reading.geometry is None:
            raise TablecamError("the benchmark frame's layout was not found; the finder is broken")
    # steady state: the deal, then a card played every ten frames
    reader = TableReader(classifier)
    reader.read(Frame(0.0, frames[0]))
    stream = [frames[min(1 + i // 10, len(frames) - 1)] for i in range(40 if quick else 120)]
    steady: list[float] = []
    reread: list[float] = []
    for i, image in enumerate(stream):
        start = time.process_time()
        reading = reader.read(Frame(0.1 * (i + 1), image))
        elapsed = time.process_time() - start
        steady.append(elapsed)
        if reading.reread:
            reread.append(elapsed)
    figures = [
        Figure(f"full read of a 1280x720 table, 12 face-up{note}", 1000 * float(np.median(full)),
               "ms"),
        Figure(f"full read, the quickest of {repeats}{note}", 1000 * min(full), "ms"),
        Figure(f"steady state, a card played every 10 frames{note}",
               1000 * float(np.mean(steady)), "ms/frame"),
    ]
    if reread:
        figures.append(Figure(f"frame with one zone re-read{note}",
                              1000 * float(np.median(reread)), "ms"))
    figures.append(Figure("peak memory (process)", peak_memory_mb(), "MB"))
    return figures


BENCHMARKS: dict[str, Callable[[bool], list[Figure]]] = {"reader": _reader_figures}
