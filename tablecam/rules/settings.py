"""The variants of Spit (RULES.md) as one frozen settings value.

Every point where groups play differently is a field here; the defaults are the
ones RULES.md names.  The referee, the replay and the simulator all take a
``Settings`` so that a log is always judged under the rules it was played by.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from tablecam.errors import ConfigError
from tablecam.events import Pile, Seat

PileTaking: TypeAlias = Literal["winner_chooses", "slap_race"]
StuckRule: TypeAlias = Literal["fewer_cards_wins", "last_play_wins"]
PadClaims: TypeAlias = Literal["smaller", "spit_side"]

PILE_TAKING: tuple[PileTaking, ...] = ("winner_chooses", "slap_race")
STUCK_RULES: tuple[StuckRule, ...] = ("fewer_cards_wins", "last_play_wins")
PAD_CLAIMS: tuple[PadClaims, ...] = ("smaller", "spit_side")


@dataclass(frozen=True, slots=True)
class Settings:
    """The rule variants a game is played under.

    - ``pile_taking``: ``"winner_chooses"`` (the player who emptied their tableau takes
      the pile they prefer, the other takes the rest) or ``"slap_race"`` (the first to
      slap takes a pile).
    - ``hands``: 1 (classic: one card at a time) or 2.  Replay cannot see hands; the
      simulator uses it.
    - ``stuck_rule``: when nobody has spit cards and play is stuck the round ends;
      ``"fewer_cards_wins"`` (fewer tableau cards wins, a tie goes to the player who
      put the last card on a centre pile) or ``"last_play_wins"`` (the player who put
      the last card on a centre pile wins outright).
    - ``pad_claims``: which pile a slap on a player's pad claims: ``"smaller"`` or
      ``"spit_side"`` (the pile that player spits onto).
    - ``spit_pile_a`` / ``spit_pile_b``: the centre pile each player spits onto when
      both spit (A onto ``right``, B onto ``left`` by default, as the camera sees them).
    - ``collision_window``: seconds after a pile was covered within which a card that
      no longer fits counts as a collision lost (taken back) rather than an illegal play.
    - ``round_limit``: a house bound that makes every game end: after this many rounds
      the player holding fewer cards wins (a tie goes to the winner of the last round).
      ``None`` plays without a bound.
    """

    pile_taking: PileTaking = "winner_chooses"
    hands: int = 1
    stuck_rule: StuckRule = "fewer_cards_wins"
    pad_claims: PadClaims = "smaller"
    spit_pile_a: Pile = "right"
    spit_pile_b: Pile = "left"
    round_limit: int | None = 100
    collision_window: float = 0.5

    def __post_init__(self) -> None:
        if self.pile_taking not in PILE_TAKING:
            raise ConfigError(f"pile_taking must be one of {', '.join(PILE_TAKING)}, not {self.pile_taking!r}")
        if self.hands not in (1, 2):
            raise ConfigError(f"hands must be 1 or 2, not {self.hands!r}")
        if self.stuck_rule not in STUCK_RULES:
            raise ConfigError(f"stuck_rule must be one of {', '.join(STUCK_RULES)}, not {self.stuck_rule!r}")
        if self.pad_claims not in PAD_CLAIMS:
            raise ConfigError(f"pad_claims must be one of {', '.join(PAD_CLAIMS)}, not {self.pad_claims!r}")
        if {self.spit_pile_a, self.spit_pile_b} != {"left", "right"}:
            raise ConfigError("spit_pile_a and spit_pile_b must be the two different piles 'left' and 'right'")
        if self.round_limit is not None and (not isinstance(self.round_limit, int) or self.round_limit < 1):
            raise ConfigError(f"round_limit must be a round count >= 1 or None, not {self.round_limit!r}")
        if not isinstance(self.collision_window, int | float) or not 0 < self.collision_window <= 5:
            raise ConfigError(f"collision_window must be seconds in (0, 5], not {self.collision_window!r}")

    def spit_pile(self, seat: Seat) -> Pile:
        """The centre pile ``seat`` spits onto when both players spit."""
        return self.spit_pile_a if seat == "A" else self.spit_pile_b
