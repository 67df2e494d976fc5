"""How fast simulated people are: reaction, movement and card-turning times.

Human timings are skewed (mostly quick, sometimes slow), so each is drawn from a
log-normal distribution around a median.  A whole play (notice, decide, reach,
place) comes out at roughly 0.4 to 1.5 seconds, as at a real table.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Final

from tablecam.errors import TablecamError


@dataclass(frozen=True, slots=True)
class PlayerProfile:
    """Median times in seconds for one kind of player, and how much they vary.

    - ``reaction``: noticing a change on the table and choosing a card.
    - ``movement``: carrying a card to a pile or column.
    - ``reveal``: turning a face-down card up.
    - ``spread``: the log-normal sigma of every draw (0.3 = times vary by about 30 %).
    - ``mistakes``: the chance that a choice is a misjudged card (two ranks off a pile's
      top, refused as ``illegal`` and taken back), and, once between two spits, that a
      player with nothing to play presses the spit button while the other can still play.
    """

    name: str
    reaction: float
    movement: float
    reveal: float
    spread: float = 0.3
    mistakes: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.mistakes <= 0.5:
            raise TablecamError(f"a mistake rate is between 0 and 0.5, not {self.mistakes!r}")

    def draw(self, rng: random.Random, median: float, spread: float | None = None) -> float:
        """One log-normal time around ``median``."""
        return median * math.exp(rng.gauss(0.0, self.spread if spread is None else spread))


FAST: Final = PlayerProfile("fast", reaction=0.26, movement=0.28, reveal=0.45)
AVERAGE: Final = PlayerProfile("average", reaction=0.38, movement=0.38, reveal=0.6)
SLOW: Final = PlayerProfile("slow", reaction=0.58, movement=0.52, reveal=0.8)

PROFILES: Final[dict[str, PlayerProfile]] = {p.name: p for p in (FAST, AVERAGE, SLOW)}


def profile_named(name: str) -> PlayerProfile:
    """The profile called ``name`` (fast, average, slow); a clear error otherwise."""
    try:
        return PROFILES[name.strip().lower()]
    except KeyError:
        raise TablecamError(
            f"there is no player speed {name!r}; choose from {', '.join(PROFILES)}") from None
