"""The live hub: what the pipeline publishes and every dashboard viewer reads.

The referee thread calls ``publish_frame`` / ``publish_state`` / ``publish_event``;
each call takes one short lock, appends to a bounded log and wakes the viewers, so
publishing never waits for a viewer.  Viewers (one thread per SSE connection in
the server) ask ``wait(cursor)`` for what is new since their cursor: every state,
event and settings message in order, but only the *latest* camera frame, so a slow
viewer skips frames instead of slowing the game.  A viewer that falls so far behind
that the log has moved past it gets a fresh full snapshot instead.

The hub also keeps the whole current picture (latest frame, state, the game's
events, round summaries, settings), so a reload or a second viewer mid-game sees
exactly what the first one sees.
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

JsonDict = dict[str, Any]

#: Messages (states, events, settings) kept for viewers that are catching up.
MESSAGE_LOG = 256
#: Recent camera frames kept so a viewer can fetch the frame its overlay belongs to.
FRAMES_KEPT = 8
#: Events of the current game kept for new viewers (a whole game is a few hundred).
EVENT_BACKLOG = 5000
#: Event types that change the round summaries (a ``rounds`` message follows them).
ROUND_EVENTS = frozenset({"deal", "round_end", "take", "round_summary", "game_end"})


@dataclass(frozen=True, slots=True)
class LiveFrame:
    """One camera frame as the dashboard shows it: JPEG bytes and the card outlines."""

    seq: int
    t: float
    jpeg: bytes
    cards: tuple[JsonDict, ...]

    def meta(self) -> JsonDict:
        """The frame's description sent to viewers (the JPEG itself is fetched by seq)."""
        return {"seq": self.seq, "t": round(self.t, 3), "cards": list(self.cards)}


@dataclass(slots=True)
class Cursor:
    """How far one viewer has read: the last message and the last frame it was sent."""

    message_seq: int = 0
    frame_seq: int = 0


@dataclass(frozen=True, slots=True)
class Update:
    """What one ``wait`` returns: messages as ``(kind, data)`` pairs, in order.

    ``wire`` holds the same messages already encoded as server-sent events, so the
    JSON is made once per message, not once per viewer.
    """

    messages: list[tuple[str, JsonDict]] = field(default_factory=list)
    wire: list[str] = field(default_factory=list)
    closed: bool = False


def encode_json(data: object) -> str:
    """Compact JSON; anything JSON cannot hold (a numpy number, say) is written as text."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=_jsonable)


def _jsonable(value: object) -> object:
    item = getattr(value, "item", None)  # numpy scalars
    if callable(item):
        return item()
    return str(value)


def sse(kind: str, data: object) -> str:
    """One server-sent event named ``kind`` carrying ``data`` as JSON."""
    return f"event: {kind}\ndata: {encode_json(data)}\n\n"


def round_summaries(events: list[JsonDict]) -> list[JsonDict]:
    """One summary per round from a game's events: winner, piles taken, cards after.

    ``cards_at_deal`` counts each player's cards as dealt (tableau plus spit pile),
    ``taken`` the centre-pile cards each player took, ``cards_after`` the counts from
    the round summary (the cards each player deals with next round).
    """
    rounds: dict[int, JsonDict] = {}

    def entry(number: int) -> JsonDict:
        if number not in rounds:
            rounds[number] = {
                "round": number, "winner": None, "cards_at_deal": None,
                "taken": {}, "piles": {}, "cards_after": None, "game_winner": None,
            }
        return rounds[number]

    for event in events:
        number = event.get("round")
        if not isinstance(number, int):
            continue
        kind = event.get("type")
        if kind == "deal":
            players = event.get("players", {})
            counts = {}
            for seat, view in players.items():
                columns = int(view.get("columns", 0))
                counts[seat] = columns * (columns + 1) // 2 + int(view.get("spit", 0))
            entry(number)["cards_at_deal"] = counts
        elif kind == "round_end":
            entry(number)["winner"] = event.get("winner")
        elif kind == "take":
            player = event.get("player")
            if isinstance(player, str):
                item = entry(number)
                item["taken"][player] = item["taken"].get(player, 0) + int(event.get("cards", 0))
                item["piles"][player] = event.get("pile")
        elif kind == "round_summary":
            entry(number)["cards_after"] = dict(event.get("cards", {}))
        elif kind == "game_end":
            item = entry(number)
            item["game_winner"] = event.get("winner")
            if item["winner"] is None:
                item["winner"] = event.get("winner")
    return [rounds[n] for n in sorted(rounds)]


def _outline(card: Mapping[str, Any]) -> JsonDict | None:
    """One card outline as plain JSON numbers, or None if it is not four (x, y) corners."""
    try:
        corners = [[round(float(x), 1), round(float(y), 1)] for x, y in card["corners"]]
    except (KeyError, TypeError, ValueError):
        return None
    if len(corners) != 4:
        return None
    code = card.get("card")
    zone = card.get("zone")
    return {"card": None if code is None else str(code), "corners": corners,
            "zone": None if zone is None else str(zone)}


class LiveHub:
    """Thread-safe meeting point of the pipeline (publisher) and the viewers.

    ``clock`` gives the pipeline's time base (seconds from the start of the input)
    for on-screen button presses; without one, the hub estimates it as the latest
    frame's ``t`` plus the wall time since that frame arrived.
    """

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self._clock = clock
        self._cond = threading.Condition(threading.Lock())
        self._message_seq = 0
        self._log: deque[tuple[int, str, JsonDict, str]] = deque(maxlen=MESSAGE_LOG)
        self._frames: deque[LiveFrame] = deque(maxlen=FRAMES_KEPT)
        self._frame_seq = 0
        self._frame_wall = time.monotonic()
        self._state: JsonDict | None = None
        self._events: deque[JsonDict] = deque(maxlen=EVENT_BACKLOG)
        self._settings: JsonDict = {}
        self._game_over = False
        self._closed = False

    # ----------------------------------------------------------------- publishing
    def publish_frame(self, t: float, jpeg: bytes, cards: list[JsonDict]) -> None:
        """A new camera frame with its recognised cards; older frames are dropped for viewers."""
        outlines = tuple(o for o in (_outline(c) for c in cards) if o is not None)
        with self._cond:
            self._frame_seq += 1
            self._frames.append(LiveFrame(self._frame_seq, float(t), bytes(jpeg), outlines))
            self._frame_wall = time.monotonic()
            self._cond.notify_all()

    def publish_state(self, state: Mapping[str, Any]) -> None:
        """The rules core's snapshot after the latest change."""
        data = copy.deepcopy(dict(state))
        wire = sse("state", data)
        with self._cond:
            self._state = data
            self._append("state", data, wire)

    def publish_event(self, event: Mapping[str, Any], announcement: str | None = None) -> None:
        """One game event (INTERFACE.md dict) and the words announced for it, if any.

        A round-1 deal after a finished game (or after later rounds of an abandoned
        one) starts a new game: the event feed and round summaries begin again.
        """
        data = copy.deepcopy(dict(event))
        message = {"event": data, "announcement": announcement}
        wire = sse("event", message)
        with self._cond:
            if data.get("type") == "deal" and data.get("round") == 1 and (
                    self._game_over or any(m["event"] and m["event"].get("round", 1) > 1
                                           for m in self._events)):
                self._events.clear()
                self._game_over = False
                self._append("new_game", {})
            if data.get("type") == "game_end":
                self._game_over = True
            self._events.append(message)
            self._append("event", message, wire)
            if data.get("type") in ROUND_EVENTS:
                rounds = round_summaries([m["event"] for m in self._events if m["event"]])
                self._append("rounds", {"rounds": rounds})

    def publish_announcement(self, t: float, text: str) -> None:
        """A sentence announced without an event (e.g. the referee answering a button)."""
        message = {"event": None, "t": round(float(t), 3), "announcement": text}
        with self._cond:
            self._events.append(message)
            self._append("event", message)

    def publish_settings(self, settings: Mapping[str, Any]) -> None:
        """The current settings (player names, variants, speech) for every viewer."""
        data = copy.deepcopy(dict(settings))
        with self._cond:
            self._settings = data
            self._append("settings", data)

    def publish_notice(self, kind: str, data: Mapping[str, Any]) -> None:
        """Any other message for viewers (e.g. ``records`` when the stored games change)."""
        with self._cond:
            self._append(kind, dict(data))

    def _append(self, kind: str, data: JsonDict, wire: str | None = None) -> None:
        # Called with the lock held; ``wire`` is the message pre-encoded outside it.
        self._message_seq += 1
        self._log.append((self._message_seq, kind, data, wire if wire is not None else sse(kind, data)))
        self._cond.notify_all()

    def close(self) -> None:
        """Wake every viewer and tell them the stream is over (server shutdown)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    # -------------------------------------------------------------------- reading
    def now(self) -> float:
        """The pipeline's current time, for timestamping on-screen button presses."""
        if self._clock is not None:
            return float(self._clock())
        with self._cond:
            latest_t = self._frames[-1].t if self._frames else 0.0
            since = time.monotonic() - self._frame_wall
        return latest_t + max(0.0, since)

    def snapshot(self) -> JsonDict:
        """Everything a new viewer needs: settings, state, the game's events, rounds, frame."""
        with self._cond:
            return self._snapshot_locked()

    def _snapshot_locked(self) -> JsonDict:
        events = list(self._events)
        return {
            "settings": copy.deepcopy(self._settings),
            "state": copy.deepcopy(self._state),
            "events": copy.deepcopy(events),
            "rounds": round_summaries([m["event"] for m in events if m["event"]]),
            "frame": self._frames[-1].meta() if self._frames else None,
        }

    def frame(self, seq: int | None = None) -> LiveFrame | None:
        """The kept frame numbered ``seq``, else the latest one (None before the first)."""
        with self._cond:
            if seq is not None:
                for item in self._frames:
                    if item.seq == seq:
                        return item
            return self._frames[-1] if self._frames else None

    def connect(self) -> tuple[Cursor, JsonDict]:
        """A new viewer: its cursor and the full snapshot it starts from."""
        with self._cond:
            cursor = Cursor(self._message_seq, self._frame_seq)
            return cursor, self._snapshot_locked()

    def wait(self, cursor: Cursor, timeout: float) -> Update:
        """Block up to ``timeout`` s for news after ``cursor``; advance it and return the news.

        Returns an empty update on timeout (the server sends a keep-alive then).
        """
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                if self._closed:
                    return Update(closed=True)
                if self._message_seq > cursor.message_seq or self._frame_seq > cursor.frame_seq:
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return Update()
                self._cond.wait(remaining)
            messages: list[tuple[str, JsonDict]] = []
            wire: list[str] = []
            oldest = self._log[0][0] if self._log else self._message_seq + 1
            if cursor.message_seq + 1 < oldest:
                # Fell behind the kept log: start again from a full picture.
                messages.append(("snapshot", self._snapshot_locked()))
            else:
                for seq, kind, data, text in self._log:
                    if seq > cursor.message_seq:
                        messages.append((kind, data))
                        wire.append(text)
                if self._frame_seq > cursor.frame_seq and self._frames:
                    messages.append(("frame", self._frames[-1].meta()))
            cursor.message_seq = self._message_seq
            cursor.frame_seq = self._frame_seq
        # Encode what was not encoded at publishing (snapshot, frame) outside the lock.
        wire.extend(sse(kind, data) for kind, data in messages[len(wire):])
        return Update(messages, wire)
