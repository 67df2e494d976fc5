"""The built-in table recording that ``tablecam demo`` plays through the pipeline.

It is about a minute of a two-round game, 1280x720 from a Pi Camera Module 3, with a
training deck.  A copy rendered by this code ships with the package
(``tablecam/data/demo``, 3.6 MB) so that the demo starts at once on a fresh machine;
without it the recording is rendered on first use into the cache folder.  Its truth
and button presses lie next to it.  The demo must referee the video itself: the truth is for
tests and evaluation, never to be announced as if it had been seen.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Final

from tablecam.render.decks import cache_root, find_deck, list_decks
from tablecam.render.video import prepare_game, render_video

DEMO_SEED: Final = 256  # a complete two-round simulated game of about 68 seconds
DEMO_DECK: Final = "gnome-anglo"
_DEMO_VERSION: Final = "demo-v4"


_SHIPPED: Final = Path(__file__).resolve().parent.parent / "data" / "demo"
_FILES: Final = ("demo.mp4", "truth.jsonl", "inputs.jsonl")


def demo_folder() -> Path:
    """Where the demo recording lives: the shipped copy, else the cache folder."""
    if all((_SHIPPED / name).is_file() for name in _FILES):
        return _SHIPPED
    return cache_root().parent / _DEMO_VERSION


def demo_recording(progress: Callable[[int, int], None] | None = None) -> Path:
    """The demo video (MP4), rendered now if it is not there yet."""
    folder = demo_folder()
    video = folder / "demo.mp4"
    if all((folder / name).is_file() for name in _FILES):
        return video
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".demo-", dir=folder.parent))
    try:
        names = {d.name for d in list_decks()}
        decks = [find_deck(DEMO_DECK)] if DEMO_DECK in names else None
        game = prepare_game(DEMO_SEED, decks=decks, size=(1280, 720), lens="module3")
        render_video(game, work / "demo.mp4", truth=work / "truth.jsonl",
                     inputs=work / "inputs.jsonl", progress=progress)
        if folder.exists():
            shutil.rmtree(folder, ignore_errors=True)
        os.replace(work, folder)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return video


def demo_truth() -> Path:
    """The events that happened in the demo video (INTERFACE.md, video time)."""
    demo_recording()
    return demo_folder() / "truth.jsonl"


def demo_inputs() -> Path:
    """The button presses of the demo game, for ``replay --inputs``."""
    demo_recording()
    return demo_folder() / "inputs.jsonl"
