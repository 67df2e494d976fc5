"""Readable summaries of simulated games (for ``tablecam simulate``)."""

from __future__ import annotations

from collections.abc import Sequence

from tablecam.events import SEATS
from tablecam.sim.engine import SimulatedGame


def _clock(seconds: float) -> str:
    minutes, rest = divmod(int(round(seconds)), 60)
    return f"{minutes}:{rest:02d}"


def format_game(game: SimulatedGame, number: int = 1) -> str:
    """One game as a small table: per round the stalls, its winner, the cards taken and held after."""
    names = f"A {game.players['A'].name}, B {game.players['B'].name}"
    reason = "" if game.outcome.reason == "no_cards" else " (round limit: fewer cards wins)"
    lines = [
        f"Game {number} (seed {game.seed}; {names}): {game.winner} wins in {len(game.rounds)} "
        f"round{'s' if len(game.rounds) != 1 else ''}, {_clock(game.duration)} of play{reason}",
        "  round  stalls  won by  A took  B took  cards after",
    ]
    for record in game.rounds:
        taken = [str(record.taken.get(seat, 0)) if record.taken else "-" for seat in SEATS]
        if record.cards_after is None:
            after = "-"
        elif record.winner is not None and record.cards_after.get(record.winner, 1) == 0:
            after = f"{record.winner} has no cards left"
        else:
            after = "  ".join(f"{seat} {record.cards_after[seat]}" for seat in SEATS)
        lines.append(f"  {record.round:>5}  {record.stalls:>6}  {record.winner or '-':>6}  "
                     f"{taken[0]:>6}  {taken[1]:>6}  {after}")
    return "\n".join(lines)


def format_totals(games: Sequence[SimulatedGame], seconds: float) -> str:
    """A last line over many games: wins, mean rounds and stalls, and the speed."""
    wins = {seat: sum(1 for g in games if g.winner == seat) for seat in SEATS}
    rounds = [len(g.rounds) for g in games]
    stalls = [r.stalls for g in games for r in g.rounds]
    rate = len(games) / seconds * 60 if seconds > 0 else float("inf")
    return (f"{len(games)} games: A won {wins['A']}, B won {wins['B']}; "
            f"{sum(rounds) / len(rounds):.1f} rounds a game (most {max(rounds)}), "
            f"{sum(stalls) / max(len(stalls), 1):.1f} stalls a round; "
            f"simulated at {rate:,.0f} games a minute")
