"""``tablecam simulate``: whole games between simulated players, rules only."""

from __future__ import annotations

import argparse
import sys

HELP = "play whole games between simulated players (rules only) and summarise them"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=1, metavar="N",
                        help="how many games to play (default 1)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="seed of the first game; game i uses S+i-1 (default 1)")
    parser.add_argument("--json", action="store_true",
                        help="print every event as a JSON line (INTERFACE.md) instead of a summary; "
                             "each game starts again at its round-1 deal")
    parser.add_argument("--players", default="average,average", metavar="A,B",
                        help="speed of players A and B: fast, average or slow (default average,average)")
    parser.add_argument("--pile-taking", choices=("winner_chooses", "slap_race"),
                        default="winner_chooses", help="how the centre piles are taken at a round's end")
    parser.add_argument("--hands", type=int, choices=(1, 2), default=1,
                        help="hands each player may use at once (default 1)")
    parser.add_argument("--mistakes", type=float, default=0.0, metavar="RATE",
                        help="chance (0 to 0.5) that a player's choice is a misjudged card or, "
                             "when stuck, a wrong spit press (default 0)")
    parser.add_argument("--stuck-rule", choices=("fewer_cards_wins", "last_play_wins"),
                        default="fewer_cards_wins",
                        help="who wins a round stuck with no spit cards left")


def run(args: argparse.Namespace) -> int:
    import time
    from dataclasses import replace

    from tablecam.errors import TablecamError
    from tablecam.events import SEATS, Seat, event_to_json
    from tablecam.rules import Settings
    from tablecam.sim import PlayerProfile, profile_named, simulate_game
    from tablecam.sim.summary import format_game, format_totals

    if args.games < 1:
        raise TablecamError(f"--games must be at least 1, not {args.games}")
    speeds = [part for part in args.players.split(",") if part.strip()]
    if len(speeds) == 1:
        speeds *= 2
    if len(speeds) != 2:
        raise TablecamError(f"--players takes two speeds like 'fast,slow', not {args.players!r}")
    if not 0.0 <= args.mistakes <= 0.5:
        raise TablecamError(f"--mistakes is a chance between 0 and 0.5, not {args.mistakes:g}")
    players: dict[Seat, PlayerProfile] = {
        seat: replace(profile_named(speed), mistakes=args.mistakes)
        for seat, speed in zip(SEATS, speeds, strict=True)}
    settings = Settings(pile_taking=args.pile_taking, hands=args.hands, stuck_rule=args.stuck_rule)
    show_progress = not args.json and args.games > 1 and sys.stderr.isatty()
    games = []
    started = time.perf_counter()
    for number in range(1, args.games + 1):
        game = simulate_game(args.seed + number - 1, settings, players)
        if args.json:
            sys.stdout.write("".join(event_to_json(e) + "\n" for e in game.events))
        else:
            games.append(game)
            if show_progress:
                print(f"\rgame {number}/{args.games}", end="", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    if show_progress:
        print("\r" + " " * 24 + "\r", end="", file=sys.stderr, flush=True)
    if not args.json:
        if len(games) <= 20:
            print("\n\n".join(format_game(g, i) for i, g in enumerate(games, start=1)))
        if len(games) > 1:
            print(("\n" if len(games) <= 20 else "") + format_totals(games, elapsed))
    return 0
