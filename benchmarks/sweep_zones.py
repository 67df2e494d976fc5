"""Sweep many rendered dev scenes for tables that never get their zones.

Each seed's game is rendered with a *training* deck at 1280x720 (the referee's video
size) and read by ``TableReader`` with the real classifier, three frames a second for
the first ``--seconds``.  Per scene it prints when the zones were first found (``-``:
never), the zone readings that agree and disagree with the truth (as
``eval_zones.py`` judges them: top cards showing at least 60 %, covered readings left
out), the share that agree, the deck and how many spit zones were laid on a face-down
pile (``spit_seen``).  The last line sums them up.  Seeds from 2011 are the
development scenes this sweep was made for (``eval_referee.py --dev`` uses 2000 to
2010); the reserved decks are never drawn.

    nice -n 10 .venv/bin/python benchmarks/sweep_zones.py --seeds 2011 2061 [--workers 2]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass


@dataclass(frozen=True)
class Scene:
    seed: int
    deck: str
    first_zones_s: float | None
    agree: int
    disagree: int
    spit_seen: int


def sweep_one(seed: int, seconds: float = 30.0, step: int = 10) -> Scene:
    """Read one rendered scene every ``step`` video frames for ``seconds``."""
    import cv2

    from tablecam.capture import Frame
    from tablecam.reading.classifier import CardClassifier
    from tablecam.reading.table_reader import TableReader
    from tablecam.render.decks import list_decks
    from tablecam.render.frame import FrameRenderer
    from tablecam.render.label_reader import zone_agreement
    from tablecam.render.video import prepare_game

    cv2.setNumThreads(1)
    game = prepare_game(seed, decks=list_decks(), size=(1280, 720))
    renderer = FrameRenderer(game.scene, game.timeline)
    reader = TableReader(CardClassifier())
    first: float | None = None
    spit_seen = -1
    agree = disagree = 0
    for index in range(0, round(30 * seconds), step):
        image, labels = renderer.frame_with_labels(index / 30, index)
        reading = reader.read(Frame(index / 30, image))
        if not reading.zones:
            continue
        if first is None and reader.geometry is not None:
            first = index / 30
            spit_seen = len(reader.geometry.spit_seen)
        right, wrong = zone_agreement(reading.zones, labels)
        agree += right
        disagree += wrong
    return Scene(seed, game.scene.deck.name, first, agree, disagree, spit_seen)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs=2, default=(2011, 2061),
                        metavar=("FIRST", "END"), help="seeds FIRST to END-1 (default 2011 2061)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.seeds[0] < 2000:
        parser.error("seeds below 2000 are the referee's evaluation games: not for sweeping")
    seeds = list(range(*args.seeds))
    scenes: list[Scene] = []
    print(f"{'seed':>5} {'zones at':>9} {'agree':>6} {'disagree':>8} {'share':>6}  spit_seen  deck")
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        for scene in pool.map(sweep_one, seeds, [args.seconds] * len(seeds)):
            scenes.append(scene)
            at = "-" if scene.first_zones_s is None else f"{scene.first_zones_s:.1f} s"
            share = scene.agree / max(1, scene.agree + scene.disagree)
            print(f"{scene.seed:>5} {at:>9} {scene.agree:>6} {scene.disagree:>8} {share:>6.1%}"
                  f"  {scene.spit_seen:>9}  {scene.deck}", flush=True)
    zoned = [s for s in scenes if s.first_zones_s is not None]
    agree = sum(s.agree for s in scenes)
    disagree = sum(s.disagree for s in scenes)
    print(f"zones found in {len(zoned)} of {len(scenes)} scenes; "
          f"{agree} zone readings agree, {disagree} disagree "
          f"({agree / max(1, agree + disagree):.1%}); both spit zones on their piles in "
          f"{sum(s.spit_seen == 2 for s in scenes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
