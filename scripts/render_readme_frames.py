"""Write the README's sample frames of the table renderer (docs/img/render-*.jpg).

Each is a frame of a seeded simulated game a moment before a play, scaled to 960x540.
Run: .venv/bin/python scripts/render_readme_frames.py
"""

from __future__ import annotations

from pathlib import Path

import cv2

from tablecam.events import Play
from tablecam.render.frame import FrameRenderer
from tablecam.render.video import prepare_game

SAMPLES = (("wood", 22), ("pattern", 21), ("felt", 40), ("wide", 25))


def main() -> None:
    out = Path(__file__).resolve().parents[1] / "docs" / "img"
    for name, seed in SAMPLES:
        game = prepare_game(seed, size=(1280, 720))
        renderer = FrameRenderer(game.scene, game.timeline)
        plays = [e for e in game.events if isinstance(e, Play)]
        t = plays[len(plays) // 3].t - 0.12
        image = cv2.resize(renderer.frame(t, int(t * 30)), (960, 540),
                           interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(out / f"render-{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        print(f"render-{name}.jpg: seed {seed}, {game.scene.deck.name}, "
              f"{game.scene.look.surface}, {game.scene.camera.lens}, t={t:.2f}")


if __name__ == "__main__":
    main()
