"""Game records: every game, round and event in one SQLite file.

The app hands every event to ``GameRecords.record(event)`` as it happens.  The
store opens a game when the first event of a game arrives, fills in a round row
from ``round_end`` / ``take`` / ``round_summary``, and closes the game at
``game_end``.  The events table is the game log: after a restart,
``unfinished_game()`` and ``resume_events(game_id)`` give back the game in progress
so the referee can replay it and carry on.

``tablecam history`` and the dashboard's history page read the same store; games
export to JSON (everything) and CSV (one row per round).
"""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tablecam.errors import TablecamError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    ended_at   TEXT,
    name_a     TEXT NOT NULL DEFAULT 'A',
    name_b     TEXT NOT NULL DEFAULT 'B',
    variants   TEXT NOT NULL DEFAULT '{}',
    source     TEXT NOT NULL DEFAULT '',
    winner     TEXT
);
CREATE TABLE IF NOT EXISTS rounds (
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    round       INTEGER NOT NULL,
    winner      TEXT,
    pile_a      TEXT,
    pile_b      TEXT,
    taken_a     INTEGER NOT NULL DEFAULT 0,
    taken_b     INTEGER NOT NULL DEFAULT 0,
    cards_a     INTEGER,
    cards_b     INTEGER,
    PRIMARY KEY (game_id, round)
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    t       REAL NOT NULL,
    round   INTEGER NOT NULL,
    type    TEXT NOT NULL,
    json    TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""

ROUND_CSV_FIELDS = (
    "game", "started_at", "ended_at", "player_a", "player_b", "game_winner",
    "round", "round_winner", "pile_a", "pile_b", "taken_a", "taken_b", "cards_a", "cards_b",
)


class RecordsError(TablecamError):
    """The game records file cannot be opened or does not hold what was asked for."""


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/tablecam/games.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tablecam" / "games.sqlite3"


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round: who won it, which pile each player took and how many cards."""

    round: int
    winner: str | None
    piles: dict[str, str | None]
    taken: dict[str, int]
    cards_after: dict[str, int] | None

    def as_dict(self) -> dict[str, Any]:
        return {"round": self.round, "winner": self.winner, "piles": dict(self.piles),
                "taken": dict(self.taken), "cards_after": self.cards_after}


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game and its rounds (events are read separately: they can be many)."""

    id: int
    started_at: str
    ended_at: str | None
    names: dict[str, str]
    variants: dict[str, Any]
    source: str
    winner: str | None
    rounds: tuple[RoundRecord, ...] = field(default=())

    @property
    def finished(self) -> bool:
        return self.ended_at is not None

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "started_at": self.started_at, "ended_at": self.ended_at,
            "names": dict(self.names), "variants": dict(self.variants), "source": self.source,
            "winner": self.winner, "rounds": [r.as_dict() for r in self.rounds],
        }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class GameRecords:
    """The SQLite store of games; one connection shared by threads behind a lock."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        try:
            if str(self.path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), check_same_thread=False,
                                       isolation_level=None)
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.executescript(SCHEMA)
        except (sqlite3.Error, OSError) as error:
            raise RecordsError(f"cannot open the game records at {self.path}: {error}") from None
        self._lock = threading.RLock()
        self._current: int | None = None
        self._next_seq = 0
        self._last_round = 0  # the highest round recorded in the current game
        # The game that just ended, so a late button press still lands in it.
        self._finished: int | None = None
        self._finished_seq = 0

    # ------------------------------------------------------------------ plumbing
    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> GameRecords:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                raise RecordsError(f"cannot write the game records at {self.path}: {error}") from None

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                cursor = self._db.execute(sql, params)
                cursor.row_factory = sqlite3.Row
                return cursor.fetchall()
            except sqlite3.Error as error:
                raise RecordsError(f"cannot read the game records at {self.path}: {error}") from None

    # ------------------------------------------------------------------- writing
    def start_game(self, names: Mapping[str, str] | None = None,
                   variants: Mapping[str, Any] | None = None, source: str = "") -> int:
        """Open a new game and make it the one ``record`` writes to; returns its id."""
        names = dict(names or {})
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (started_at, name_a, name_b, variants, source) "
                "VALUES (?, ?, ?, ?, ?)",
                (_now(), names.get("A", "A"), names.get("B", "B"),
                 json.dumps(dict(variants or {})), source),
            )
            game_id = int(cursor.lastrowid or 0)
        with self._lock:
            self._current = game_id
            self._next_seq = 0
            self._last_round = 0
            self._finished = None
        return game_id

    def continue_game(self, game_id: int) -> None:
        """Make an unfinished game the one ``record`` appends to (after a restart)."""
        game = self.game(game_id)
        if game.finished:
            raise RecordsError(f"game {game_id} is finished; start a new game instead")
        rows = self._query("SELECT COALESCE(MAX(seq), -1) AS last, COALESCE(MAX(round), 0) AS rnd "
                           "FROM events WHERE game_id = ?", (game_id,))
        with self._lock:
            self._current = game_id
            self._next_seq = int(rows[0]["last"]) + 1
            self._last_round = int(rows[0]["rnd"])

    @property
    def current_game(self) -> int | None:
        """The id of the game ``record`` writes to, if one is open."""
        with self._lock:
            return self._current

    def set_names(self, names: Mapping[str, str], game_id: int | None = None) -> None:
        """Rename the players of a game (default: the current one)."""
        target = game_id if game_id is not None else self.current_game
        if target is None:
            return
        with self._transaction() as db:
            for seat, column in (("A", "name_a"), ("B", "name_b")):
                if seat in names:
                    db.execute(f"UPDATE games SET {column} = ? WHERE id = ?",
                               (names[seat], target))

    def record(self, event: Mapping[str, Any], names: Mapping[str, str] | None = None,
               variants: Mapping[str, Any] | None = None, source: str = "") -> int:
        """Store one INTERFACE.md event dict as it happens; returns its game's id.

        Opens a game if none is open (or a round-1 deal arrives after later rounds of
        the open game: the table was dealt afresh), updates the round row, and closes the game at ``game_end``;
        events after ``game_end`` other than a round-1 deal (a late slap, or the next
        round's deal of a game called over by mistake, which opens it again) stay with
        that game.
        """
        kind = event.get("type")
        number = event.get("round")
        t = event.get("t")
        if not isinstance(kind, str) or not isinstance(number, int) or not isinstance(t, int | float):
            raise RecordsError(f"an event to record needs t, round and type, not {dict(event)!r}")
        with self._lock:
            reattached = reopened = False
            if self._current is None and self._finished is not None and (
                    kind != "deal" or number > 1):
                # A late press after the game ended belongs to that game; only a round-1
                # deal starts the next one.  A later round's deal says the game went on
                # (the referee had called it over on a miscount): it is open again.
                self._current, self._next_seq = self._finished, self._finished_seq
                reattached, reopened = kind != "deal", kind == "deal"
            starts_new = (self._current is None
                          or (kind == "deal" and number == 1 and self._last_round > 1))
            if starts_new:
                self.start_game(names, variants, source)
            game_id = self._current
            assert game_id is not None
            seq = self._next_seq
            self._next_seq += 1
            self._last_round = max(self._last_round, number)
            self._finished = None
            with self._transaction() as db:
                db.execute("INSERT INTO events (game_id, seq, t, round, type, json) "
                           "VALUES (?, ?, ?, ?, ?, ?)",
                           (game_id, seq, float(t), number, kind,
                            json.dumps(dict(event), ensure_ascii=False)))
                if reopened:
                    db.execute("UPDATE games SET ended_at = NULL, winner = NULL WHERE id = ?",
                               (game_id,))
                self._update_round(db, game_id, number, event)
            if kind == "game_end" or reattached:
                self._finished, self._finished_seq = game_id, self._next_seq
                self._current = None
                self._next_seq = 0
        return game_id

    @staticmethod
    def _update_round(db: sqlite3.Connection, game_id: int, number: int,
                      event: Mapping[str, Any]) -> None:
        kind = event["type"]
        if kind not in ("deal", "round_end", "take", "round_summary", "game_end"):
            return
        db.execute("INSERT OR IGNORE INTO rounds (game_id, round) VALUES (?, ?)",
                   (game_id, number))
        if kind == "round_end":
            db.execute("UPDATE rounds SET winner = ? WHERE game_id = ? AND round = ?",
                       (event.get("winner"), game_id, number))
        elif kind == "take" and event.get("player") in ("A", "B"):
            seat = "a" if event["player"] == "A" else "b"
            db.execute(f"UPDATE rounds SET pile_{seat} = ?, taken_{seat} = taken_{seat} + ? "
                       "WHERE game_id = ? AND round = ?",
                       (event.get("pile"), int(event.get("cards", 0)), game_id, number))
        elif kind == "round_summary":
            cards = event.get("cards") or {}
            db.execute("UPDATE rounds SET cards_a = ?, cards_b = ? WHERE game_id = ? AND round = ?",
                       (cards.get("A"), cards.get("B"), game_id, number))
        elif kind == "game_end":
            db.execute("UPDATE rounds SET winner = COALESCE(winner, ?) "
                       "WHERE game_id = ? AND round = ?", (event.get("winner"), game_id, number))
            db.execute("UPDATE games SET ended_at = ?, winner = ? WHERE id = ?",
                       (_now(), event.get("winner"), game_id))

    def delete_game(self, game_id: int) -> None:
        """Remove a game with its rounds and events; RecordsError if there is none."""
        with self._transaction() as db:
            cursor = db.execute("DELETE FROM games WHERE id = ?", (game_id,))
            if cursor.rowcount == 0:
                raise RecordsError(f"there is no game {game_id} in the records")
        with self._lock:
            if self._current == game_id:
                self._current = None
                self._next_seq = 0
            if self._finished == game_id:
                self._finished = None

    # ------------------------------------------------------------------- reading
    def games(self, limit: int | None = None) -> list[GameRecord]:
        """All games, newest first, each with its rounds."""
        sql = "SELECT * FROM games ORDER BY id DESC"
        params: tuple[Any, ...] = ()
        if limit is not None:
            sql += " LIMIT ?"
            params = (int(limit),)
        rows = self._query(sql, params)
        rounds = self._rounds([int(r["id"]) for r in rows])
        return [self._game(r, rounds.get(int(r["id"]), ())) for r in rows]

    def game(self, game_id: int) -> GameRecord:
        rows = self._query("SELECT * FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise RecordsError(f"there is no game {game_id} in the records")
        return self._game(rows[0], self._rounds([game_id]).get(game_id, ()))

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """A game's events in the order they happened (INTERFACE.md dicts)."""
        self.game(game_id)
        rows = self._query("SELECT json FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        return [json.loads(r["json"]) for r in rows]

    def unfinished_game(self) -> int | None:
        """The newest game that has events but no ``game_end`` (the game to resume)."""
        rows = self._query(
            "SELECT id FROM games WHERE ended_at IS NULL "
            "AND EXISTS (SELECT 1 FROM events WHERE game_id = games.id) ORDER BY id DESC LIMIT 1")
        return int(rows[0]["id"]) if rows else None

    def resume_events(self, game_id: int | None = None) -> list[dict[str, Any]]:
        """The events of an unfinished game (default: the newest), to replay after a restart."""
        target = game_id if game_id is not None else self.unfinished_game()
        if target is None:
            return []
        return self.events(target)

    def _rounds(self, ids: list[int]) -> dict[int, tuple[RoundRecord, ...]]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._query(f"SELECT * FROM rounds WHERE game_id IN ({marks}) "
                           "ORDER BY game_id, round", tuple(ids))
        out: dict[int, list[RoundRecord]] = {}
        for r in rows:
            after = None
            if r["cards_a"] is not None and r["cards_b"] is not None:
                after = {"A": int(r["cards_a"]), "B": int(r["cards_b"])}
            out.setdefault(int(r["game_id"]), []).append(RoundRecord(
                round=int(r["round"]), winner=r["winner"],
                piles={"A": r["pile_a"], "B": r["pile_b"]},
                taken={"A": int(r["taken_a"]), "B": int(r["taken_b"])},
                cards_after=after,
            ))
        return {k: tuple(v) for k, v in out.items()}

    @staticmethod
    def _game(row: sqlite3.Row, rounds: tuple[RoundRecord, ...]) -> GameRecord:
        try:
            variants = json.loads(row["variants"])
        except json.JSONDecodeError:
            variants = {}
        return GameRecord(
            id=int(row["id"]), started_at=row["started_at"], ended_at=row["ended_at"],
            names={"A": row["name_a"], "B": row["name_b"]}, variants=variants,
            source=row["source"], winner=row["winner"], rounds=rounds,
        )

    # ------------------------------------------------------------------- export
    def export_json(self, game_ids: list[int] | None = None) -> str:
        """Games with their rounds and every event, as one JSON document."""
        games = self._select(game_ids)
        out = []
        for game in games:
            data = game.as_dict()
            data["events"] = self.events(game.id)
            out.append(data)
        return json.dumps({"games": out}, ensure_ascii=False, indent=1)

    def export_csv(self, game_ids: list[int] | None = None) -> str:
        """One CSV row per round (a game without rounds yet gets one row with empty round)."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(ROUND_CSV_FIELDS)
        for game in self._select(game_ids):
            head = [game.id, game.started_at, game.ended_at or "", game.names["A"],
                    game.names["B"], game.winner or ""]
            if not game.rounds:
                writer.writerow(head + [""] * 8)
            for r in game.rounds:
                after = r.cards_after or {}
                writer.writerow(head + [
                    r.round, r.winner or "", r.piles["A"] or "", r.piles["B"] or "",
                    r.taken["A"], r.taken["B"], after.get("A", ""), after.get("B", ""),
                ])
        return buffer.getvalue()

    def _select(self, game_ids: list[int] | None) -> list[GameRecord]:
        if game_ids is None:
            return list(reversed(self.games()))
        return [self.game(i) for i in game_ids]
