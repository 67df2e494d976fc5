"""Per-frame table readings made from an event log, with hands, misreads and dropped frames.

This is what a perfect-geometry card reader would report while watching a game
happen, degraded the way real video is: a hand covers a column while it takes a
card and covers the pile while it puts it down; single frames misread a card,
lose a card to blur, or are dropped.  It exercises the tracker's logic without
video (tests, ``tablecam bench pipeline``'s tracking figures), and it knows
nothing of the tracker.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from tablecam.cards import FULL_DECK, Card, Rank, Suit
from tablecam.events import (
    PILES,
    SEATS,
    AnyEvent,
    Deal,
    GameEnd,
    Move,
    Play,
    Reveal,
    RoundSummary,
    Spit,
    Takeback,
)


@dataclass(frozen=True, slots=True)
class SyntheticZone:
    state: str
    card: Card | None = None
    confidence: float = 1.0
    #: the reader's likeliest faces, best first, with probabilities (may be empty)
    candidates: tuple[tuple[Card, float], ...] = ()
    #: read under the hand that laid it: on a ``covered`` zone, ``card`` is a hint
    under_hand: bool = False
    #: the reader's likeliest ranks given a face, best first (may be empty)
    ranks: tuple[tuple[Rank, float], ...] = ()


@dataclass(frozen=True, slots=True)
class SyntheticReading:
    t: float
    zones: Mapping[str, SyntheticZone]
    reread: tuple[str, ...] = ()  # zones read afresh in this frame


@dataclass(frozen=True, slots=True)
class Noise:
    """How often things go wrong, per zone per frame (misread, blur) or per frame (drop)."""

    misread: float = 0.0
    blur: float = 0.0
    drop: float = 0.0
    hands: bool = True
    #: share of face-up readings the reader cannot name (``card`` None) though its
    #: likeliest faces list the card, half of the time behind a look-alike of the
    #: other suit of its colour (what the neural reader does with a hard view)
    unread: float = 0.0


@dataclass(slots=True)
class _Table:
    up: dict[str, Card | None] = field(default_factory=dict)   # zone -> face-up top
    down: dict[str, int] = field(default_factory=dict)         # zone -> face-down count
    spit: dict[str, int] = field(default_factory=dict)         # "spitA"/"spitB" -> count

    def zone(self, name: str) -> SyntheticZone:
        if name in ("spitA", "spitB"):
            return SyntheticZone("face_down" if self.spit.get(name, 0) > 0 else "empty")
        card = self.up.get(name)
        if card is not None:
            return SyntheticZone("face_up", card)
        if self.down.get(name, 0) > 0:
            return SyntheticZone("face_down")
        return SyntheticZone("empty")


ZONES = tuple(f"{s}{i}" for s in SEATS for i in range(1, 6)) + PILES + ("spitA", "spitB")


def _changes(events: Sequence[AnyEvent]) -> list[tuple[float, str, object]]:
    """Timed table changes, including the laying of each deal and the clearing after a round."""
    out: list[tuple[float, str, object]] = []
    for event in events:
        if isinstance(event, Deal):
            n = sum(v.columns for v in event.players.values())
            for k, (seat, i) in enumerate((s, i) for s in SEATS
                                          for i in range(1, event.players[s].columns + 1)):
                out.append((event.t - 0.08 * (n - 1 - k), "lay", (seat, i, event)))
        elif isinstance(event, RoundSummary) or (
                isinstance(event, GameEnd) and any(isinstance(e, Deal) and e.t > event.t
                                                   for e in events)):
            # the players gather the cards (after a game's end, for the next game)
            out.append((event.t + 1.0, "clear", None))
        out.append((event.t, "event", event))
    out.sort(key=lambda c: c[0])
    return out


def _covers(events: Sequence[AnyEvent]) -> list[tuple[float, float, str]]:
    """(start, end, zone) spans where a hand hides a zone."""
    spans: list[tuple[float, float, str]] = []
    for e in events:
        if isinstance(e, Play):
            spans.append((e.t - 0.30, e.t - 0.12, f"{e.player}{e.column}"))
            spans.append((e.t - 0.12, e.t, e.pile))
        elif isinstance(e, Move):
            spans.append((e.t - 0.30, e.t - 0.12, f"{e.player}{e.from_column}"))
            spans.append((e.t - 0.12, e.t, f"{e.player}{e.to_column}"))
        elif isinstance(e, Reveal):
            spans.append((e.t - 0.15, e.t, f"{e.player}{e.column}"))
        elif isinstance(e, Takeback):
            spans.append((e.t - 0.15, e.t, e.pile))
    return spans


def synthetic_readings(events: Sequence[AnyEvent], fps: float = 30.0, noise: Noise | None = None,
                       seed: int = 0, tail: float = 2.0) -> Iterator[SyntheticReading]:
    """Readings at ``fps`` of the table the events describe, degraded by ``noise``."""
    noise = noise or Noise()
    rng = random.Random(seed)
    changes = _changes(events)
    covers = sorted(_covers(events)) if noise.hands else []
    active: list[tuple[float, float, str]] = []
    c = 0
    table = _Table()
    end = (max(e.t for e in events) if events else 0.0) + tail
    k = 0
    frame = 0
    while True:
        t = frame / fps
        if t > end:
            return
        frame += 1
        while k < len(changes) and changes[k][0] <= t:
            _apply(table, changes[k])
            k += 1
        while c < len(covers) and covers[c][0] <= t:
            active.append(covers[c])
            c += 1
        active = [span for span in active if span[1] > t]
        hidden = {z for _a, _b, z in active}
        if noise.drop and rng.random() < noise.drop:
            continue
        zones: dict[str, SyntheticZone] = {}
        for name in ZONES:
            zone = table.zone(name)
            if name in hidden:
                zone = SyntheticZone("covered")
            elif zone.state == "face_up":
                roll = rng.random()
                if roll < noise.misread:
                    zone = SyntheticZone("face_up", rng.choice(FULL_DECK), 0.6)
                elif roll < noise.misread + noise.blur:
                    zone = SyntheticZone("face_up", None, 0.2)
                elif roll < noise.misread + noise.blur + noise.unread and zone.card is not None:
                    zone = _unreadable(zone.card, rng)
            zones[name] = zone
        yield SyntheticReading(round(t, 4), zones)


def _unreadable(card: Card, rng: random.Random) -> SyntheticZone:
    """``card`` read too unsurely to be named: its candidates, with a look-alike."""
    twin = Card(card.rank, Suit(3 - card.suit.value))  # clubs <-> spades, diamonds <-> hearts
    p = rng.uniform(0.2, 0.9)
    q = p * rng.uniform(1.1, 1.5) if rng.random() < 0.5 else p * rng.uniform(0.1, 0.5)
    other = Card(Rank(card.rank.value % 13 + 1), card.suit)
    ranked = sorted([(card, p), (twin, q), (other, 0.01)], key=lambda cp: -cp[1])
    return SyntheticZone("face_up", None, ranked[0][1], tuple(ranked))


def _apply(table: _Table, change: tuple[float, str, object]) -> None:
    _, kind, payload = change
    if kind == "lay":
        assert isinstance(payload, tuple)
        seat, i, deal = payload
        view = deal.players[seat]
        table.up[f"{seat}{i}"] = view.up[i - 1]
        table.down[f"{seat}{i}"] = i - 1
        table.spit[f"spit{seat}"] = view.spit
        return
    if kind == "clear":
        table.up.clear()
        table.down.clear()
        table.spit.clear()
        return
    event = payload
    if isinstance(event, Spit):
        for pile, card in event.cards.items():
            table.up[pile] = card
        fed = len(event.cards)
        feeders = [s for s in ("spitA", "spitB") if table.spit.get(s, 0) > 0][:fed]
        for s in feeders:
            table.spit[s] -= 1
    elif isinstance(event, Play):
        table.up[f"{event.player}{event.column}"] = None
        table.up[event.pile] = event.card
    elif isinstance(event, Reveal):
        zone = f"{event.player}{event.column}"
        table.up[zone] = event.card
        table.down[zone] = max(0, table.down.get(zone, 0) - 1)
    elif isinstance(event, Move):
        table.up[f"{event.player}{event.to_column}"] = event.card
        table.up[f"{event.player}{event.from_column}"] = None
