"""Scoring a refereed game against the truth of what happened (render or simulator truth).

Used by ``benchmarks/eval_referee.py`` and the tests: how many plays were reported with
the right player, card and pile, which round winners and pile counts were right,
whether any "Spit!" was called that the truth does not have, and how late calls came.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from tablecam.events import AnyEvent, Deal, Play, RoundEnd, Take

#: A stall called this much before the truth's (the truth waits out a takeback) or
#: this much after it is the same stall; any other is a false stall.
STALL_EARLY_S = 1.0
STALL_LATE_S = 1.5
#: Where a recording of several games is cut between them: this long before each new
#: game's deal is done (the cards are being laid, nothing of the last game is left).
NEXT_GAME_CUT_S = 3.0


@dataclass(slots=True)
class Score:
    """Counts from one or more games; ``add`` merges another game's score."""

    plays: int = 0
    plays_right: int = 0
    plays_reported: int = 0
    rounds: int = 0
    winners_right: int = 0
    take_rounds: int = 0
    takes_exact: int = 0
    games: int = 0
    game_winners_right: int = 0
    stalls: int = 0
    stalls_called: int = 0
    false_stalls: int = 0
    stall_delays: list[float] = field(default_factory=list)
    play_delays: list[float] = field(default_factory=list)
    illegal_calls: int = 0

    def add(self, other: Score) -> None:
        for name in self.__slots__:
            mine = getattr(self, name)
            if isinstance(mine, list):
                mine.extend(getattr(other, name))
            else:
                setattr(self, name, mine + getattr(other, name))

    def summary(self) -> dict[str, float]:
        """The figures the README reports."""
        return {
            "plays": self.plays,
            "plays_right_pct": _pct(self.plays_right, self.plays),
            "plays_extra": self.plays_reported - self.plays_right,
            "round_winners_pct": _pct(self.winners_right, self.rounds),
            "exact_takes_pct": _pct(self.takes_exact, self.take_rounds),
            "game_winners_pct": _pct(self.game_winners_right, self.games),
            "stalls": self.stalls,
            "stalls_called": self.stalls_called,
            "false_stalls": self.false_stalls,
            "stall_latency_p95_s": _p95(self.stall_delays),
            "play_latency_p95_s": _p95(self.play_delays),
            "play_latency_max_s": max(self.play_delays, default=0.0),
            "plays_1s_late": sum(1 for d in self.play_delays if d >= 1.0),
            "stalls_within_0_5s": sum(1 for d in self.stall_delays if d <= 0.5),
            "illegal_calls": self.illegal_calls,
        }


def _pct(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 100.0


def _p95(values: Sequence[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def score_game(truth: Sequence[AnyEvent], ours: Sequence[AnyEvent]) -> Score:
    """Compare our events with the truth of one game."""
    score = Score(games=1)
    # A card that lands after the game has ended is not part of it (a card landing
    # after a round's end still lies on the pile that is taken, so it counts).
    game_over = min((e.t for e in truth if e.type == "game_end"), default=float("inf"))
    truth_plays = [e for e in truth if isinstance(e, Play) and e.t <= game_over]
    our_plays = [e for e in ours if isinstance(e, Play)]
    score.plays = len(truth_plays)
    score.plays_reported = len(our_plays)
    key = lambda e: (e.round, e.player, e.card, e.pile)  # noqa: E731
    score.plays_right = sum((Counter(map(key, truth_plays)) & Counter(map(key, our_plays))).values())
    landed: dict[tuple[object, ...], list[float]] = {}
    for e in truth_plays:
        landed.setdefault(key(e), []).append(e.t)
    for e in our_plays:
        times = landed.get(key(e))
        if times:
            score.play_delays.append(e.t - times.pop(0))
    truth_ends = {e.round: e.winner for e in truth if isinstance(e, RoundEnd)}
    our_ends = {e.round: e.winner for e in ours if isinstance(e, RoundEnd)}
    score.rounds = len(truth_ends)
    score.winners_right = sum(1 for r, w in truth_ends.items() if our_ends.get(r) == w)
    truth_takes = _takes(truth)
    our_takes = _takes(ours)
    score.take_rounds = len(truth_takes)
    score.takes_exact = sum(1 for r, takes in truth_takes.items() if our_takes.get(r) == takes)
    truth_end = [e.winner for e in truth if e.type == "game_end"]  # type: ignore[union-attr]
    our_end = [e.winner for e in ours if e.type == "game_end"]  # type: ignore[union-attr]
    score.game_winners_right = int(bool(truth_end) and truth_end == our_end)
    truth_stalls = [e.t for e in truth if e.type == "stall"]
    our_stalls = [e.t for e in ours if e.type == "stall"]
    score.stalls = len(truth_stalls)
    score.stalls_called = len(our_stalls)
    unmatched = list(truth_stalls)
    for t in our_stalls:
        match = next((s for s in unmatched if -STALL_EARLY_S <= t - s <= STALL_LATE_S), None)
        if match is None:
            score.false_stalls += 1
        else:
            unmatched.remove(match)
            score.stall_delays.append(max(0.0, t - match))
    score.illegal_calls = sum(1 for e in ours if e.type == "illegal")
    return score


def score_games(truth: Sequence[AnyEvent], ours: Sequence[AnyEvent]) -> Score:
    """Compare our events with the truth of one or more games played one after the other
    (a recording of several games): each game of the truth starts at a round-1 deal, and
    our events are cut at the same times (``NEXT_GAME_CUT_S`` before each deal)."""
    starts = [e.t for e in truth if isinstance(e, Deal) and e.round == 1][1:]
    cuts = [t - NEXT_GAME_CUT_S for t in starts]
    total = Score()
    for k in range(len(cuts) + 1):
        lo = cuts[k - 1] if k else float("-inf")
        hi = cuts[k] if k < len(cuts) else float("inf")
        total.add(score_game([e for e in truth if lo <= e.t < hi], [e for e in ours if lo <= e.t < hi]))
    return total


def _takes(events: Sequence[AnyEvent]) -> dict[int, frozenset[tuple[str, str, int]]]:
    out: dict[int, set[tuple[str, str, int]]] = {}
    for e in events:
        if isinstance(e, Take):
            out.setdefault(e.round, set()).add((e.player, e.pile, e.cards))
    return {r: frozenset(v) for r, v in out.items()}
