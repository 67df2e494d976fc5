"""One rendered table: deck, camera, surface, light, layout and the players' hands,
all drawn from a seed so that the same seed always gives the same picture."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from tablecam.render.camera import Camera
from tablecam.render.decks import DeckArt, list_decks
from tablecam.render.table import Look, random_look
from tablecam.render.timeline import Layout

SKIN_BGR: Final = ((150, 180, 225), (120, 155, 205), (95, 130, 180), (70, 100, 150),
                   (50, 75, 115), (140, 170, 215), (105, 140, 195))
SLEEVE_BGR: Final = ((40, 40, 40), (120, 60, 30), (200, 200, 200), (30, 30, 140),
                     (60, 110, 60), (150, 120, 90), (90, 60, 120), (20, 80, 160))


@dataclass(frozen=True)
class Scene:
    """Everything about a rendered table that stays the same for a whole video."""

    seed: int
    deck: DeckArt
    camera: Camera
    look: Look
    layout: Layout
    skin: dict[str, tuple[int, int, int]]
    sleeve: dict[str, tuple[int, int, int]]
    fps: float = 30.0


def random_scene(seed: int, decks: Sequence[DeckArt] | None = None,
                 size: tuple[int, int] | None = None, lens: str | None = None) -> Scene:
    """A table drawn from ``seed``: a deck from ``decks`` (default: the training decks),
    a camera 60-100 cm high tilted up to 15 degrees with either Pi camera lens, a
    surface and light, and small changes to the card layout."""
    rng = np.random.default_rng([seed, 7151])
    pool = list(decks) if decks is not None else list_decks()
    deck = pool[int(rng.integers(len(pool)))]
    # draw every choice even when it is overridden, so that the rest of the scene of a
    # seed stays the same whatever size or lens is asked for
    drawn_size = (1280, 720) if rng.uniform() < 0.7 else (1920, 1080)
    drawn_lens = "module3" if rng.uniform() < 0.7 else "module3-wide"
    size = size or drawn_size
    chosen_lens = lens or drawn_lens
    tilt = float(rng.uniform(-15, 15))
    camera = Camera(width=size[0], height=size[1], lens=chosen_lens,
                    # the Module 3 needs some height to see both tableaux whole
                    height_mm=float(rng.uniform(680 if chosen_lens == "module3" else 600,
                                                1000)),
                    tilt_deg=tilt,
                    roll_deg=float(rng.uniform(-4, 4)),
                    k1_scale=float(rng.uniform(0.6, 1.3)))
    layout = Layout(column_spacing=float(rng.uniform(74, 86)),
                    row_y=float(rng.uniform(135, 160)),
                    pile_x=float(rng.uniform(50, 70)),
                    spit_gap=float(rng.uniform(70, 110)),
                    down_step=float(rng.uniform(3, 7)))
    skin = {s: SKIN_BGR[int(rng.integers(len(SKIN_BGR)))] for s in ("A", "B")}
    sleeve = {s: SLEEVE_BGR[int(rng.integers(len(SLEEVE_BGR)))] for s in ("A", "B")}
    return Scene(seed, deck, camera, random_look(rng), layout, skin, sleeve)
