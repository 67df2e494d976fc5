"""What lies on the table and where the hands are, at every moment of a game.

A game comes in as events (INTERFACE.md) and, from the simulator, the hand motions
behind them.  ``Timeline`` turns them into snapshots of the resting cards (a new
snapshot only when something lands, leaves or turns over, so a frame renderer can
cache everything that stays) and one hand track per player.

Table coordinates are millimetres with y towards B (see ``camera.py``).  A sits at
the bottom: A's columns 1..5 run left to right at negative y, B's columns at
positive y with column 1 at the image's right; the centre piles ``left`` and
``right`` lie between; each player's spit pile is on their own right.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from tablecam.cards import Card
from tablecam.errors import EventLogError
from tablecam.events import (
    AnyEvent,
    Button,
    Deal,
    GameEnd,
    Move,
    Pile,
    Play,
    Reveal,
    RoundSummary,
    Seat,
    Spit,
    Take,
    Takeback,
)

CARD_HEIGHT_MM = 88.0
HAND_REACH_S = 0.45  # hand motion lead time when only events are known


@dataclass(frozen=True)
class Layout:
    """Where each zone's card lies on the table (mm), varied a little per scene."""

    column_spacing: float = 80.0
    row_y: float = 150.0
    pile_x: float = 58.0
    spit_gap: float = 95.0
    down_step: float = 4.5  # how far each face-down card of a column shows

    def column(self, seat: Seat, column: int) -> tuple[float, float]:
        offset = (column - 3) * self.column_spacing
        return (offset, -self.row_y) if seat == "A" else (-offset, self.row_y)

    def pile(self, pile: Pile) -> tuple[float, float]:
        return (-self.pile_x if pile == "left" else self.pile_x, 0.0)

    def spit(self, seat: Seat) -> tuple[float, float]:
        x = 2 * self.column_spacing + self.spit_gap + self.column_spacing * 0.5
        return (x, -self.row_y) if seat == "A" else (-x, self.row_y)

    def rest(self, seat: Seat, x: float = 0.0) -> tuple[float, float]:
        """Where a hand waits, off the table on the player's side."""
        return (x * 0.7, -(self.row_y + 900)) if seat == "A" else (x * 0.7, self.row_y + 900)

    def button(self, seat: Seat) -> tuple[float, float]:
        """Where a player's spit/slap buttons sit: on the table edge, to their left."""
        return (-250.0, -(self.row_y + 150)) if seat == "A" else (250.0, self.row_y + 150)


def zone_names() -> list[str]:
    return [f"{s}{c}" for s in "AB" for c in range(1, 6)] + ["left", "right", "spitA", "spitB"]


@dataclass(frozen=True)
class Placed:
    """One card lying on the table: its centre (mm), angle (degrees, 0 = upright for A,
    180 = upright for B) and whether its face shows.  ``card`` is None when unknown."""

    card: Card | None
    face_up: bool
    x: float
    y: float
    angle: float


@dataclass(frozen=True)
class Snapshot:
    """The resting cards from ``time`` on, bottom to top within each zone."""

    time: float
    version: int
    zones: dict[str, tuple[Placed, ...]]


@dataclass(frozen=True)
class HandKey:
    time: float
    x: float
    y: float
    z: float
    flat: bool = False  # palm down on the table (a slap or taking a pile)
    resting: bool = False  # off the table, out of the picture


@dataclass
class HandTrack:
    """One player's hand: keyframes and the intervals in which it holds a card."""

    seat: Seat
    keys: list[HandKey] = field(default_factory=list)
    held: list[tuple[float, float, Placed, int]] = field(default_factory=list)
    _times: list[float] = field(default_factory=list, repr=False)

    def at(self, t: float) -> HandKey | None:
        """Hand position at ``t`` (smooth between keyframes); None while it rests."""
        if len(self._times) != len(self.keys):
            self._times = [k.time for k in self.keys]
        i = bisect.bisect_right(self._times, t)
        if i == 0 or i == len(self.keys):
            return None
        a, b = self.keys[i - 1], self.keys[i]
        if a.resting and b.resting:
            return None
        span = max(1e-6, b.time - a.time)
        s = (t - a.time) / span
        s = s * s * (3 - 2 * s)
        key = HandKey(t, a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s,
                      a.z + (b.z - a.z) * s, a.flat if s < 0.5 else b.flat)
        return key

    def card_at(self, t: float) -> tuple[Placed, int] | None:
        """The card in the hand at ``t`` (and how many more lie under it), if any."""
        found = None
        for start, end, placed, count in self.held:
            if start <= t < end:
                found = (placed, count)
        return found


@dataclass(frozen=True)
class Motion:
    """A hand movement, as ``tablecam.sim`` gives it (or made up from an event)."""

    player: Seat
    kind: str
    start: float
    touch: float
    end: float
    event: AnyEvent | None
    column: int | None = None
    pile: Pile | None = None


def motions_from_events(events: Sequence[AnyEvent]) -> list[Motion]:
    """Hand motions for an event log without them: each hand reaches in shortly before
    its event and withdraws after it; a spit event moves both hands."""
    motions: list[Motion] = []
    spit_count: dict[Seat, int] = {"A": 0, "B": 0}
    for event in events:
        t = event.t
        start, end = t - HAND_REACH_S, t + 0.3
        if isinstance(event, Deal):
            spit_count = {s: event.players[s].spit for s in ("A", "B")}
        elif isinstance(event, Play):
            motions.append(Motion(event.player, "play", start, t, end, event,
                                  event.column, event.pile))
        elif isinstance(event, Reveal):
            motions.append(Motion(event.player, "reveal", start, t, end, event, event.column))
        elif isinstance(event, Move):
            motions.append(Motion(event.player, "move", start, t, end, event,
                                  event.from_column))
        elif isinstance(event, Takeback):
            motions.append(Motion(event.player, "takeback", start - 0.1, t, end, event,
                                  None, event.pile))
        elif isinstance(event, Spit):
            for pile in event.cards:
                seat = _spit_feeder(pile, spit_count)
                spit_count[seat] -= 1
                motions.append(Motion(seat, "spit", start, t, end, event, None, pile))
        elif isinstance(event, Take):
            motions.append(Motion(event.player, "take", t - 0.4, t, t + 0.6, event,
                                  None, event.pile))
        elif isinstance(event, Button):
            seat = event.player or "A"
            kind = "slap" if event.button == "slap" else "press"
            motions.append(Motion(seat, kind, t - 0.25, t, t + 0.25, event))
    return motions


def _spit_feeder(pile: Pile, spit_count: dict[Seat, int]) -> Seat:
    """Who turns a spit card onto ``pile``: A feeds right and B left, unless one is out."""
    default: Seat = "A" if pile == "right" else "B"
    other: Seat = "B" if default == "A" else "A"
    if spit_count[default] <= 0 < spit_count[other]:
        return other
    return default


class Timeline:
    """Resting-card snapshots and hand tracks for a whole game."""

    def __init__(self, events: Sequence[AnyEvent], motions: Sequence[Motion] | None = None,
                 layout: Layout | None = None, seed: int = 0) -> None:
        self.layout = layout or Layout()
        self.events = list(events)
        self.motions = list(motions) if motions is not None else motions_from_events(events)
        self._rng = np.random.default_rng(seed)
        self._ops: list[tuple[float, int, str, tuple[object, ...]]] = []
        self._order = 0
        self.hands = {"A": HandTrack("A"), "B": HandTrack("B")}
        self._build()
        self.snapshots = self._apply_ops()
        self._times = [s.time for s in self.snapshots]
        self.duration = max([e.t for e in self.events] + [m.end for m in self.motions] + [0.0]
                            ) + 1.5

    # ---- building -------------------------------------------------------------------
    def _op(self, time: float, name: str, *args: object) -> None:
        self._order += 1
        self._ops.append((time, self._order, name, args))

    def _jitter(self, x: float, y: float, angle: float, spread: float, turn: float
                ) -> Placed:
        return Placed(None, False, x + float(self._rng.normal(0, spread)),
                      y + float(self._rng.normal(0, spread)),
                      angle + float(self._rng.normal(0, turn)))

    def _seat_angle(self, seat: Seat) -> float:
        return 0.0 if seat == "A" else 180.0

    def _column_card(self, seat: Seat, column: int, index: int, card: Card | None,
                     face_up: bool) -> Placed:
        x, y = self.layout.column(seat, column)
        toward = -1 if seat == "A" else 1  # face-down cards show towards the centre
        y += toward * -self.layout.down_step * index
        p = self._jitter(x, y, self._seat_angle(seat), 1.2, 1.5)
        return replace(p, card=card, face_up=face_up)

    def _pile_card(self, seat: Seat, pile: Pile, card: Card | None) -> Placed:
        x, y = self.layout.pile(pile)
        p = self._jitter(x, y, self._seat_angle(seat), 6.0, 9.0)
        return replace(p, card=card, face_up=True)

    def _build(self) -> None:
        motion_by_event: dict[int, list[Motion]] = {}
        for m in self.motions:
            if m.event is not None:
                motion_by_event.setdefault(id(m.event), []).append(m)
        last_end = 0.0
        column_tops: dict[tuple[Seat, int], Card | None] = {}
        for event in self.events:
            if isinstance(event, Deal):
                self._deal(event, start=max(last_end + 0.3, event.t - 3.0))
                for seat in ("A", "B"):
                    for col, card in enumerate(event.players[seat].up, start=1):
                        column_tops[(seat, col)] = card
            elif isinstance(event, (RoundSummary, GameEnd)):
                self._gather(event.t)
                if isinstance(event, GameEnd) and any(
                        isinstance(e, Deal) and e.t > event.t for e in self.events):
                    # Another game follows: every card is gathered, the centre too.
                    for pile in ("left", "right"):
                        self._op(event.t + 1.0, "clear", pile)
            elif isinstance(event, Play):
                column_tops[(event.player, event.column)] = None
            elif isinstance(event, Reveal):
                column_tops[(event.player, event.column)] = event.card
            elif isinstance(event, Move):
                column_tops[(event.player, event.to_column)] = event.card
                column_tops[(event.player, event.from_column)] = None
            for motion in motion_by_event.get(id(event), []):
                if motion.kind == "takeback" and motion.column is None:
                    column = next((c for (s, c), top in column_tops.items()
                                   if s == motion.player and top == getattr(event, "card", 0)),
                                  1)
                    motion = replace(motion, column=column)
                self._motion(motion)
            last_end = max(last_end, event.t)
        for motion in self.motions:
            if motion.event is None:
                self._motion(motion)
        for track in self.hands.values():
            track.keys.sort(key=lambda k: k.time)

    def _deal(self, deal: Deal, start: float) -> None:
        """Lay both tableaux between ``start`` and the deal's time, one card at a time."""
        for seat in ("A", "B"):
            view = deal.players[seat]
            total = view.spit + view.columns * (view.columns + 1) // 2
            sx, sy = self.layout.spit(seat)
            deck = [replace(self._jitter(sx, sy, self._seat_angle(seat), 0.6, 1.0))
                    for _ in range(total)]
            self._op(start, "set", f"spit{seat}", tuple(deck))
            order: list[tuple[int, int, bool]] = []
            for row in range(view.columns):
                order.append((row + 1, row, True))
                order.extend((col, row, False) for col in range(row + 2, view.columns + 1))
            span = max(0.1, deal.t - start - 0.2)
            step = span / max(1, len(order))
            track = self.hands[seat]
            rx, ry = self.layout.rest(seat)
            track.keys.append(HandKey(start - 0.4, rx, ry, 60, resting=True))
            track.keys.append(HandKey(start, sx, sy, 30))
            for i, (col, depth, up) in enumerate(order):
                t = start + (i + 1) * step
                card = view.up[col - 1] if up else None
                placed = self._column_card(seat, col, depth, card, up and card is not None)
                self._op(t, "lift", f"spit{seat}")
                self._op(t, "put", f"{seat}{col}", placed)
                track.keys.append(HandKey(t, placed.x, placed.y, 25))
            track.keys.append(HandKey(deal.t + 0.35, rx, ry, 60, resting=True))

    def _gather(self, t: float) -> None:
        """After a round, each player sweeps up what is left on their side."""
        for seat in ("A", "B"):
            x, y = self.layout.column(seat, 3)
            rx, ry = self.layout.rest(seat)
            track = self.hands[seat]
            track.keys.extend([HandKey(t - 0.6, rx, ry, 60, resting=True),
                               HandKey(t - 0.1, x, y, 10, True),
                               HandKey(t + 0.5, rx, ry, 40, resting=True)])
            for col in range(1, 6):
                self._op(t, "clear", f"{seat}{col}")
            self._op(t, "clear", f"spit{seat}")

    def _motion(self, m: Motion) -> None:
        L = self.layout
        seat = m.player
        track = self.hands[seat]
        rest = L.rest(seat)
        event = m.event
        reach = m.start + 0.55 * (m.touch - m.start)

        def key(t: float, xy: tuple[float, float], z: float, flat: bool = False,
                resting: bool = False) -> None:
            track.keys.append(HandKey(t, xy[0], xy[1], z, flat, resting))

        key(m.start, rest, 60, resting=True)
        if m.kind == "play" and isinstance(event, Play):
            col = L.column(seat, event.column)
            key(reach, col, 15)
            self._op(reach, "lift", f"{seat}{event.column}")
            landed = self._pile_card(seat, event.pile, event.card)
            track.held.append((reach, m.touch, landed, 1))
            key(m.touch, (landed.x, landed.y), 12)
            self._op(m.touch, "put", event.pile, landed)
        elif m.kind == "reveal" and isinstance(event, Reveal):
            col = L.column(seat, event.column)
            key(m.touch, col, 12)
            self._op(m.touch, "flip", f"{seat}{event.column}", event.card)
        elif m.kind == "move" and isinstance(event, Move):
            key(reach, L.column(seat, event.from_column), 15)
            self._op(reach, "lift", f"{seat}{event.from_column}")
            placed = self._column_card(seat, event.to_column, 0, event.card, True)
            track.held.append((reach, m.touch, placed, 1))
            key(m.touch, (placed.x, placed.y), 12)
            self._op(m.touch, "put", f"{seat}{event.to_column}", placed)
        elif m.kind == "takeback" and isinstance(event, Takeback) and m.column is not None:
            col_xy = L.column(seat, m.column)
            key(reach, col_xy, 15)
            self._op(reach, "lift_keep", f"{seat}{m.column}")
            shown = self._pile_card(seat, event.pile, event.card)
            key(m.touch, L.pile(event.pile), 14)
            back = max(m.end, m.touch + 0.2)
            track.held.append((reach, back, shown, 1))
            key(back, col_xy, 12)
            self._op(back, "restore", f"{seat}{m.column}")
            key(back + 0.35, rest, 60, resting=True)
            return
        elif m.kind == "spit" and isinstance(event, Spit) and m.pile is not None:
            key(reach, L.spit(seat), 15)
            self._op(reach, "lift", f"spit{seat}")
            landed = self._pile_card(seat, m.pile, event.cards.get(m.pile))
            track.held.append((reach, m.touch, landed, 1))
            key(m.touch, (landed.x, landed.y), 12)
            self._op(m.touch, "put", m.pile, landed)
        elif m.kind == "take" and m.pile is not None:
            pile_xy = L.pile(m.pile)
            key(m.touch, pile_xy, 8, True)
            self._op(m.touch, "take", m.pile, seat)
            key(m.end, rest, 20, True, resting=True)
        elif m.kind == "slap":
            # the hand comes down on the pile this player goes on to take
            later: list[Pile] = [e.pile for e in self.events if isinstance(e, Take)
                                 and e.player == seat and e.t >= m.touch - 0.5]
            target: Pile = m.pile if m.pile is not None else (later[0] if later else "left")
            key(m.touch, L.pile(target), 0, True)
        elif m.kind == "press":
            key(m.touch, L.button(seat), 5, True)
        elif m.kind == "abort" and m.column is not None:
            key(m.touch, L.column(seat, m.column), 30)
        else:
            key(m.touch, rest, 60)
        key(m.end + 0.25, rest, 60, resting=True)

    # ---- applying -------------------------------------------------------------------
    def _apply_ops(self) -> list[Snapshot]:
        zones: dict[str, list[Placed]] = {name: [] for name in zone_names()}
        kept: dict[str, Placed] = {}
        snapshots = [Snapshot(0.0, 0, {k: () for k in zones})]
        ops = sorted(self._ops)
        i = 0
        while i < len(ops):
            time = ops[i][0]
            while i < len(ops) and ops[i][0] == time:
                _, _, name, args = ops[i]
                self._apply(zones, kept, name, args, time)
                i += 1
            snap = Snapshot(time, len(snapshots), {k: tuple(v) for k, v in zones.items()})
            if snapshots[-1].time == time:
                snapshots[-1] = replace(snap, version=snapshots[-1].version)
            else:
                snapshots.append(snap)
        return snapshots

    def _apply(self, zones: dict[str, list[Placed]], kept: dict[str, Placed], name: str,
               args: tuple[object, ...], time: float) -> None:
        zone = str(args[0])
        pile = zones[zone]
        if name == "set":
            pile[:] = list(args[1])  # type: ignore[call-overload]
        elif name == "put":
            placed = args[1]
            assert isinstance(placed, Placed)
            pile.append(placed)
        elif name == "lift":
            if pile:
                pile.pop()
        elif name == "lift_keep":
            if pile:
                kept[zone] = pile.pop()
        elif name == "restore":
            if zone in kept:
                pile.append(kept.pop(zone))
        elif name == "flip":
            card = args[1]
            if pile:
                pile[-1] = replace(pile[-1], card=card if isinstance(card, Card) else None,
                                   face_up=isinstance(card, Card))
        elif name in ("clear", "take"):
            pile.clear()
        else:  # pragma: no cover - every op is made above
            raise EventLogError(f"unknown table change {name!r} at t={time:.3f}")

    # ---- reading --------------------------------------------------------------------
    def snapshot_at(self, t: float) -> Snapshot:
        """The resting cards at time ``t``."""
        return self.snapshots[max(0, bisect.bisect_right(self._times, t) - 1)]


def card_corners_mm(placed: Placed, width_mm: float, height_mm: float = CARD_HEIGHT_MM
                    ) -> np.ndarray:
    """The card's four corners on the table (mm), clockwise from its own top-left."""
    a = math.radians(placed.angle)
    c, s = math.cos(a), math.sin(a)
    hw, hh = width_mm / 2, height_mm / 2
    # card frame: x right, y up (towards B) for an upright card seen by A
    local = np.array([[-hw, hh], [hw, hh], [hw, -hh], [-hw, -hh]])
    rot = np.array([[c, -s], [s, c]])
    return local @ rot.T + np.array([placed.x, placed.y])
