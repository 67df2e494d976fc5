"""``tablecam history``: the stored games and their rounds, as a table, JSON or CSV."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tablecam.records import GameRecord

HELP = "list the recorded games and rounds; export them to JSON or CSV"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="FILE", type=Path,
                        help="the game records (default: $XDG_DATA_HOME/tablecam/games.sqlite3)")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true",
                      help="one JSON object per game (with its rounds) per line")
    form.add_argument("--csv", action="store_true", help="CSV, one row per round")
    parser.add_argument("--export", metavar="FILE", type=Path,
                        help="write every game (with its events for .json) to FILE, "
                             "JSON or CSV by its extension")
    parser.add_argument("--game", metavar="ID", type=int, action="append",
                        help="only this game (repeat for more)")
    parser.add_argument("--delete", metavar="ID", type=int, help="delete a game and its rounds")


def _table(games: Sequence[GameRecord]) -> str:
    lines: list[str] = []
    for game in games:
        names = game.names
        result = (f"{names[game.winner]} ({game.winner}) won" if game.winner
                  else ("ended" if game.finished else "in progress"))
        lines.append(f"game {game.id}  {game.started_at}  {names['A']} (A) v {names['B']} (B)  "
                     f"{result}")
        for r in game.rounds:
            winner = f"{names[r.winner]} won" if r.winner in names else "unfinished"
            taken = ", ".join(f"{names[s]} took {r.taken[s]} ({r.piles[s]})"
                              for s in ("A", "B") if r.piles[s])
            after = (f"; next: {names['A']} {r.cards_after['A']}, {names['B']} {r.cards_after['B']}"
                     if r.cards_after else "")
            lines.append(f"  round {r.round}: {winner}" + (f"; {taken}" if taken else "") + after)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from tablecam.errors import TablecamError
    from tablecam.records import GameRecords, RecordsError

    if args.db is not None and not args.db.exists():
        raise RecordsError(f"there are no game records at {args.db}")
    with GameRecords(args.db) as records:
        if args.delete is not None:
            records.delete_game(args.delete)
            print(f"deleted game {args.delete}")
            return 0
        ids: list[int] | None = args.game
        games = [records.game(i) for i in ids] if ids else list(reversed(records.games()))
        if args.export is not None:
            suffix = args.export.suffix.lower()
            selected = [g.id for g in games]
            if suffix == ".json":
                text = records.export_json(selected)
            elif suffix == ".csv":
                text = records.export_csv(selected)
            else:
                raise TablecamError(f"cannot export to {args.export}: name it .json or .csv")
            try:
                args.export.write_text(text, encoding="utf-8")
            except OSError as error:
                raise TablecamError(f"cannot write {args.export}: {error.strerror}") from None
            print(f"exported {len(games)} games to {args.export}", file=sys.stderr)
            return 0
        if args.json:
            for game in games:
                print(json.dumps(game.as_dict(), ensure_ascii=False))
        elif args.csv:
            sys.stdout.write(records.export_csv([g.id for g in games]))
        elif games:
            print(_table(games))
        else:
            print(f"no games recorded yet in {records.path}")
    return 0
