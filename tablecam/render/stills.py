"""Single labelled frames for training and measuring the card reader.

``render_still(seed)`` draws a random moment of a random simulated game on a random
table and returns the picture with every card in it: its code (``None`` face down),
its four corners clockwise from the card's own top-left in image pixels (lens
distortion included), its zone (A1..A5, B1..B5, left, right, spitA, spitB, or
``hand`` for a card being carried) and the share of it that shows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.errors import TablecamError
from tablecam.render.decks import DeckArt, list_decks
from tablecam.render.frame import CardLabel, FrameRenderer
from tablecam.render.scene import random_scene
from tablecam.render.video import prepare_game


def render_still(seed: int, decks: Sequence[DeckArt] | None = None,
                 size: tuple[int, int] | None = None, lens: str | None = None,
                 t: float | None = None) -> tuple[npt.NDArray[np.uint8], list[CardLabel]]:
    """A labelled picture of a random moment (or time ``t``) of game ``seed``.

    ``decks`` defaults to the training decks; pass ``list_decks(include_reserved=True)``
    filtered to the reserved ones for held-out evaluation.
    """
    game = prepare_game(seed, decks=decks, size=size, lens=lens)
    if t is None:
        rng = np.random.default_rng([seed, 4242])
        t = float(rng.uniform(0.5, game.duration - 0.5))
    renderer = FrameRenderer(game.scene, game.timeline)
    index = int(t * game.scene.fps)
    image, labels = renderer.frame_with_labels(t, index)
    # the compression a camera stream adds, as in the videos
    quality = int(np.random.default_rng([seed, 77]).integers(55, 96))
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        image = np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), np.uint8)
    return image, labels


def still_record(seed: int, image_name: str, image: npt.NDArray[np.uint8],
                 labels: Sequence[CardLabel], deck: str) -> dict[str, Any]:
    """The JSON label record written next to each still."""
    return {"image": image_name, "seed": seed, "deck": deck, "width": int(image.shape[1]),
            "height": int(image.shape[0]), "cards": [label.to_dict() for label in labels]}


def write_stills(out: Path, count: int, seed: int = 0, reserved: bool = False,
                 size: tuple[int, int] | None = None, image_format: str = "png",
                 progress: Callable[[int, int], None] | None = None,
                 decks: Sequence[DeckArt] | None = None) -> list[Path]:
    """Write ``count`` stills (``<n>.png`` or ``.jpg``) and labels (``<n>.json``) to ``out``.
    ``reserved`` draws only the reserved evaluation decks (held-out tests); ``decks``
    names the decks to draw from instead."""
    if image_format not in ("png", "jpg"):
        raise TablecamError(f"still format must be png or jpg, not {image_format!r}")
    if decks is None:
        decks = ([d for d in list_decks(include_reserved=True) if d.reserved] if reserved
                 else list_decks())
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for n in range(count):
        still_seed = seed * 100003 + n
        image, labels = render_still(still_seed, decks=decks, size=size)
        game_deck = random_scene(still_seed, decks=decks, size=size).deck.name
        name = f"{n:05d}.{image_format}"
        params = [cv2.IMWRITE_JPEG_QUALITY, 90] if image_format == "jpg" else []
        if not cv2.imwrite(str(out / name), image, params):
            raise TablecamError(f"cannot write {out / name}")
        record = still_record(still_seed, name, image, labels, game_deck)
        (out / f"{n:05d}.json").write_text(json.dumps(record) + "\n")
        written.append(out / name)
        if progress is not None:
            progress(n + 1, count)
    return written
