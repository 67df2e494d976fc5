"""Whole games of Spit between simulated people, in simulated real time.

Each player watches the table, reacts after a human delay, and moves one card at
a time (two with ``Settings(hands=2)``).  A play is committed when the hand starts
moving; if the opponent covers the target pile first, a player whose card is
about to land (within ``COLLISION_WINDOW``) lands it anyway and takes it back when
it no longer fits, while one with time to see the change stops and chooses again.
On a stall one player presses the spit button after a human delay and both spit;
at a round's end the players slap and take piles; then they gather, shuffle (the
seeded random generator) and deal again.  Every event goes through the rules core,
so a simulated game is always a legal game, and the same seed gives the same game.

``simulate_game(seed)`` returns a ``SimulatedGame``: the INTERFACE events (with
button presses), the hand motion behind each event (for the renderer: when a hand
starts reaching), and each round's deal order and results.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal, TypeAlias

from tablecam.cards import FULL_DECK, Card
from tablecam.events import (
    PILES,
    SEATS,
    AnyEvent,
    Button,
    GameEnd,
    Move,
    Pile,
    Play,
    Reveal,
    RoundEnd,
    RoundSummary,
    Seat,
    Spit,
    Stall,
    Take,
    other_seat,
)
from tablecam.rules.game import (
    GAME_END_DUE,
    GAME_OVER,
    PLAYING,
    ROUND_OVER,
    TAKING,
    Game,
    Outcome,
)
from tablecam.rules.settings import Settings
from tablecam.sim.players import AVERAGE, PlayerProfile

COLLISION_WINDOW: Final = 0.25
"""A card this close to landing when its pile changes lands anyway (and may be taken back)."""
DEAL_SECONDS: Final = 3.3
SUMMARY_SECONDS: Final = 1.75
EVENT_LIMIT: Final = 200_000

MotionKind: TypeAlias = Literal[
    "play", "move", "reveal", "takeback", "abort", "spit", "press", "slap", "take"]


@dataclass(frozen=True, slots=True)
class Motion:
    """A hand movement: it starts at ``start``, reaches the table at ``touch``, is back by ``end``.

    ``event_index`` is the index in ``SimulatedGame.events`` of the event it caused
    (the event's ``t`` is ``touch``), or None for a reach that was stopped (``abort``).
    For a takeback the card touched the pile at ``touch`` and is back in its column by ``end``.
    """

    player: Seat
    kind: MotionKind
    start: float
    touch: float
    end: float
    event_index: int | None
    card: Card | None = None
    column: int | None = None
    pile: Pile | None = None


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round: the hands in dealing order (see ``Game.deal_known``) and what happened."""

    round: int
    hands: Mapping[Seat, tuple[Card, ...]]
    stalls: int = 0
    winner: Seat | None = None
    taken: Mapping[Seat, int] = field(default_factory=dict)
    cards_after: Mapping[Seat, int] | None = None


@dataclass(frozen=True, slots=True)
class SimulatedGame:
    """A whole simulated game: events as a referee would log them, and the motions behind them."""

    seed: int
    settings: Settings
    players: Mapping[Seat, PlayerProfile]
    events: list[AnyEvent]
    motions: list[Motion]
    rounds: list[RoundRecord]
    outcome: Outcome

    @property
    def winner(self) -> Seat:
        return self.outcome.winner

    @property
    def duration(self) -> float:
        return self.events[-1].t if self.events else 0.0


@dataclass(slots=True)
class _Action:
    kind: Literal["play", "move", "reveal"]
    column: int
    start: float
    touch: float
    card: Card | None
    pile: Pile | None = None
    to_column: int | None = None
    aborted: bool = False


class _Hand:
    __slots__ = ("action", "free_at")

    def __init__(self) -> None:
        self.action: _Action | None = None
        self.free_at = 0.0


class _Simulation:
    def __init__(self, seed: int, settings: Settings, players: Mapping[Seat, PlayerProfile]) -> None:
        self.seed = seed
        self.settings = settings
        self.players = players
        self.rng = random.Random(seed)
        self.game = Game(settings)
        self.events: list[AnyEvent] = []
        self.motions: list[Motion] = []
        self.rounds: list[RoundRecord] = []
        self.hands: dict[Seat, list[_Hand]] = {s: [_Hand() for _ in range(settings.hands)] for s in SEATS}
        self.queue: list[tuple[float, int, Callable[[], None]]] = []
        self.sequence = 0
        self.now = 0.0
        self.stall_due = False
        self.round_stalls = 0
        self.pressed_wrongly: set[Seat] = set()
        self.slap_due: dict[Seat, float] = {}

    # -- plumbing
    def at(self, t: float, action: Callable[[], None]) -> None:
        self.sequence += 1
        heapq.heappush(self.queue, (t, self.sequence, action))

    def emit(self, event: AnyEvent) -> int:
        self.game.apply(event)
        self.events.append(event)
        if len(self.events) > EVENT_LIMIT:
            raise RuntimeError(f"simulated game {self.seed} ran past {EVENT_LIMIT} events")
        return len(self.events) - 1

    def draw(self, seat: Seat, median: float, spread: float | None = None) -> float:
        return self.players[seat].draw(self.rng, median, spread)

    def run(self) -> SimulatedGame:
        shuffled = list(FULL_DECK)
        self.rng.shuffle(shuffled)
        self.deal(DEAL_SECONDS + self.rng.uniform(-0.3, 0.3), 1,
                  {"A": shuffled[:26], "B": shuffled[26:]})
        while self.queue and self.game.phase != GAME_OVER:
            t, _, action = heapq.heappop(self.queue)
            self.now = t
            action()
            if self.game.phase == PLAYING:
                self.react()
        if self.game.outcome is None or self.game.phase != GAME_OVER:
            raise RuntimeError(f"simulated game {self.seed} stopped before its end")
        return SimulatedGame(self.seed, self.settings, dict(self.players), self.events,
                             self.motions, self.rounds, self.game.outcome)

    # -- rounds
    def deal(self, t: float, round_number: int, hands: Mapping[Seat, list[Card]]) -> None:
        self.now = t
        deal = self.game.deal_known(t, round_number, hands)
        self.events.append(deal)
        self.rounds.append(RoundRecord(round_number, {s: tuple(hands[s]) for s in SEATS}))
        self.round_stalls = 0
        for seat in SEATS:
            for hand in self.hands[seat]:
                hand.action = None
                hand.free_at = t
        self.at(t + self.draw("A", 1.0, 0.15), self.spit)

    def spit(self) -> None:
        feeders = self.game.spit_feeders()
        cards = {pile: self.game.next_spit_card(seat) for pile, seat in feeders.items()}
        index = self.emit(Spit(self.now, self.game.round, cards))
        for pile, seat in feeders.items():
            self.motions.append(Motion(seat, "spit", self.now - 0.35, self.now, self.now + 0.3,
                                       index, cards[pile], None, pile))
        self.stall_due = False
        self.pressed_wrongly = set()

    def react(self) -> None:
        """After a change: free hands choose their next card; a stall is called when due."""
        for seat in SEATS:
            for hand in self.hands[seat]:
                if hand.action is None and hand.free_at <= self.now + 1e-9:
                    self.plan(seat, hand)
        if self.stall_due or not self.game.is_stalled():
            return
        if any(hand.action is not None for hands in self.hands.values() for hand in hands):
            return  # a card is still in the air; it will land or go back first
        self.stall_due = True
        self.round_stalls += 1
        self.emit(Stall(self.now, self.game.round))
        if not any(self.game.spit_count(seat) for seat in SEATS):
            self.at(self.now + self.draw("A", 0.8, 0.2), self.stuck_round_end)
            return
        presses = {seat: self.draw(seat, self.players[seat].reaction * 2.4, 0.35) for seat in SEATS}
        presser = min(SEATS, key=lambda seat: presses[seat])
        press_t = self.now + presses[presser]
        self.at(press_t, lambda: self.press_spit(presser))
        self.at(press_t + self.draw(presser, 0.9, 0.12), self.spit)

    def press_spit(self, seat: Seat) -> None:
        index = self.emit(Button(self.now, self.game.round, "spit", None))
        self.motions.append(Motion(seat, "press", self.now - 0.25, self.now, self.now + 0.25, index))

    def stuck_round_end(self) -> None:
        self.emit(RoundEnd(self.now, self.game.round, self.game.stuck_winner()))
        self.round_over()

    def round_over(self) -> None:
        """The round has a winner: stop every hand, then slap and take the piles."""
        game = self.game
        winner = game.round_winner
        assert winner is not None
        last_touch = self.now
        for seat in SEATS:
            for hand in self.hands[seat]:
                action = hand.action
                if action is None:
                    continue
                if action.kind == "play" and action.touch - self.now <= COLLISION_WINDOW:
                    last_touch = max(last_touch, action.touch)
                    continue  # lands and goes back
                self.abort(seat, hand, self.now)
        earliest = last_touch + 0.05
        loser = other_seat(winner)
        if game.phase == GAME_END_DUE:
            slap_t = max(earliest, self.now + self.draw(winner, self.players[winner].reaction))
            self.at(slap_t, lambda: self.slap(winner))
            self.at(slap_t + 0.25, self.end_game)
            return
        if game.one_pile:
            take_t = max(earliest, self.now + self.draw(loser, 1.0, 0.2))
            self.at(take_t, lambda: self.take(loser, None))
            return
        if self.settings.pile_taking == "winner_chooses":
            slap_t = max(earliest, self.now + self.draw(winner, self.players[winner].reaction))
            self.at(slap_t, lambda: self.slap_and_take(winner))
            return
        slaps = {seat: max(earliest, self.now + self.draw(seat, self.players[seat].reaction * 1.2))
                 for seat in SEATS}
        first = min(SEATS, key=lambda seat: (slaps[seat], seat))
        second_t = max(slaps[other_seat(first)], slaps[first] + 0.02)
        self.slap_due = {other_seat(first): second_t}
        self.at(slaps[first], lambda: self.slap_and_take(first))
        self.at(second_t, lambda: self.slap(other_seat(first)))

    def slap(self, seat: Seat) -> None:
        index = self.emit(Button(self.now, self.game.round, "slap", seat))
        self.motions.append(Motion(seat, "slap", self.now - 0.25, self.now, self.now + 0.25, index))

    def slap_and_take(self, seat: Seat) -> None:
        self.slap(seat)
        claimed = self.game.claimed_piles(seat)
        pile = self.settings.spit_pile(seat) if len(claimed) > 1 else claimed[0]
        self.take(seat, pile)

    def take(self, seat: Seat, wanted: Pile | None) -> None:
        game = self.game
        pile: Pile = wanted if wanted is not None else next(
            p for s, p in game.allowed_takes() if s == seat)
        index = self.emit(Take(self.now, game.round, seat, pile, game.pile_size(pile)))
        self.motions.append(Motion(seat, "take", self.now - 0.4, self.now, self.now + 0.6,
                                   index, None, None, pile))
        if game.phase == TAKING:
            other = other_seat(seat)
            after_slap = self.slap_due.pop(other, 0.0) + 0.2  # a slap race's loser slaps first
            self.at(max(self.now + self.draw(other, 0.7, 0.25), after_slap),
                    lambda: self.take(other, None))
        else:
            self.at(self.now + SUMMARY_SECONDS, self.summary)

    def summary(self) -> None:
        game = self.game
        counts = {seat: game.cards_held(seat) for seat in SEATS}
        record = self.rounds[-1]
        taken = {seat: self.taken_this_round(seat) for seat in SEATS}
        self.emit(RoundSummary(self.now, game.round, counts))
        self.rounds[-1] = RoundRecord(record.round, record.hands, self.round_stalls,
                                      game.previous_round_winner, taken, counts)
        if game.phase == GAME_END_DUE:
            self.at(self.now + 0.5, self.end_game)
            return
        hands: dict[Seat, list[Card]] = {}
        for seat in SEATS:
            cards = [c for c in game.hand(seat) if c is not None]
            self.rng.shuffle(cards)
            hands[seat] = cards
        t = self.now + DEAL_SECONDS + self.rng.uniform(-0.3, 0.3)
        self.at(t, lambda: self.deal(t, game.round + 1, hands))

    def taken_this_round(self, seat: Seat) -> int:
        total = 0
        for event in reversed(self.events):
            if isinstance(event, Take):
                if event.player == seat:
                    total += event.cards
            elif isinstance(event, RoundEnd):
                break
        return total

    def end_game(self) -> None:
        outcome = self.game.outcome
        assert outcome is not None
        if len(self.rounds[-1].taken) == 0 and self.rounds[-1].winner is None:
            record = self.rounds[-1]
            self.rounds[-1] = RoundRecord(record.round, record.hands, self.round_stalls,
                                          self.game.round_winner, {},
                                          {seat: self.game.cards_held(seat) for seat in SEATS})
        self.emit(GameEnd(self.now, self.game.round, outcome.winner))

    # -- hands
    def busy_columns(self, seat: Seat) -> set[int]:
        busy: set[int] = set()
        for hand in self.hands[seat]:
            action = hand.action
            if action is not None:
                busy.add(action.column)
                if action.to_column is not None:
                    busy.add(action.to_column)
        return busy

    def plan(self, seat: Seat, hand: _Hand) -> None:
        """Choose the next card for a free hand: turn up, then play (exposing first), then move."""
        game = self.game
        profile = self.players[seat]
        busy = self.busy_columns(seat)
        pending = [c for c in game.pending_reveals(seat) if c not in busy]
        if pending:
            touch = self.now + self.draw(seat, profile.reveal)
            self.start(seat, hand, _Action("reveal", pending[0], self.now, touch,
                                           game.hidden_card(seat, pending[0])))
            return
        plays = [p for p in game.legal_plays(seat) if p.column not in busy]
        start = self.now + self.draw(seat, profile.reaction)
        if profile.mistakes and self.rng.random() < profile.mistakes:
            misjudged = self.near_miss(seat, busy)
            if misjudged is not None:
                column, card, pile = misjudged
                touch = start + self.draw(seat, profile.movement)
                self.start(seat, hand, _Action("play", column, start, touch, card, pile=pile))
                return
        if plays:
            rng = self.rng
            best = max(plays, key=lambda p: (p.exposes, game.column(seat, p.column).down, rng.random()))
            touch = start + self.draw(seat, profile.movement)
            self.start(seat, hand, _Action("play", best.column, start, touch, best.card, pile=best.pile))
            return
        moves = [m for m in game.legal_moves(seat)
                 if m.exposes and m.from_column not in busy and m.to_column not in busy]
        if moves:
            best_move = max(moves, key=lambda m: (game.column(seat, m.from_column).down, -m.to_column))
            touch = start + self.draw(seat, profile.movement)
            self.start(seat, hand, _Action("move", best_move.from_column, start, touch, best_move.card,
                                           to_column=best_move.to_column))
            return
        if (profile.mistakes and seat not in self.pressed_wrongly and not game.is_stalled()
                and self.rng.random() < profile.mistakes):
            self.pressed_wrongly.add(seat)
            self.at(start + self.draw(seat, profile.reaction * 1.5), lambda: self.press_wrongly(seat))

    def near_miss(self, seat: Seat, busy: set[int]) -> tuple[int, Card, Pile] | None:
        """A face-up card two ranks off a pile's top: the card a hurried player mistakes."""
        for number, column in enumerate(self.game.columns(seat), start=1):
            card = column.up
            if number in busy or not column.face_up or card is None:
                continue
            for pile in PILES:
                top = self.game.pile_top(pile)
                if top is not None and (card.rank.value - top.rank.value) % 13 in (2, 11):
                    return number, card, pile
        return None

    def press_wrongly(self, seat: Seat) -> None:
        """A spit press while play is still open (the referee should say what is open)."""
        if self.game.phase == PLAYING and not self.game.is_stalled():
            self.press_spit(seat)

    def start(self, seat: Seat, hand: _Hand, action: _Action) -> None:
        hand.action = action
        self.at(action.touch, lambda: self.land(seat, hand, action))

    def free(self, seat: Seat, hand: _Hand, at: float) -> None:
        hand.action = None
        hand.free_at = at
        if at > self.now + 1e-9:
            self.at(at, self.wake)

    def wake(self) -> None:
        """A hand came free; ``run`` lets the players react."""

    def abort(self, seat: Seat, hand: _Hand, changed_at: float) -> None:
        action = hand.action
        assert action is not None
        action.aborted = True
        noticed = changed_at + min(self.draw(seat, self.players[seat].reaction * 0.6),
                                   max(action.touch - changed_at, 0.0))
        self.motions.append(Motion(seat, "abort", action.start, noticed, noticed + 0.2, None,
                                   action.card, action.column, action.pile))
        self.free(seat, hand, max(noticed, self.now))

    def pile_changed(self, pile: Pile, by: _Hand) -> None:
        """Another card landed on ``pile``: reaches for it that are far from landing stop."""
        for seat in SEATS:
            for hand in self.hands[seat]:
                action = hand.action
                if hand is by or action is None or action.kind != "play" or action.pile != pile:
                    continue
                if action.touch - self.now > COLLISION_WINDOW:
                    self.abort(seat, hand, self.now)

    def land(self, seat: Seat, hand: _Hand, action: _Action) -> None:
        if action.aborted or hand.action is not action:
            return
        game = self.game
        round_number = game.round
        if action.kind == "reveal":
            if game.phase != PLAYING:
                self.free(seat, hand, self.now)
                return
            card = game.hidden_card(seat, action.column)
            index = self.emit(Reveal(self.now, round_number, seat, action.column, card))
            self.motions.append(Motion(seat, "reveal", action.start, self.now, self.now + 0.15,
                                       index, card, action.column))
            self.free(seat, hand, self.now)
            return
        if action.kind == "move":
            assert action.to_column is not None
            index = self.emit(Move(self.now, round_number, seat, action.card, action.column,
                                   action.to_column))
            self.motions.append(Motion(seat, "move", action.start, self.now, self.now + 0.15,
                                       index, action.card, action.column))
            self.free(seat, hand, self.now)
            return
        assert action.pile is not None
        verdict = game.judge_landing(seat, action.column, action.pile, self.now)
        if isinstance(verdict, Play):
            was_playing = game.phase == PLAYING
            index = self.emit(verdict)
            self.motions.append(Motion(seat, "play", action.start, self.now, self.now + 0.2,
                                       index, action.card, action.column, action.pile))
            self.free(seat, hand, self.now)
            self.pile_changed(action.pile, hand)
            if was_playing and game.phase == ROUND_OVER:
                self.emit(RoundEnd(self.now, round_number, seat))
                self.round_over()
            return
        # The pile changed under the card (a collision lost, or a misjudged one): it goes back.
        back = self.now + self.draw(seat, self.players[seat].movement)
        index = self.emit(verdict)
        self.motions.append(Motion(seat, "takeback", action.start, self.now, back, index,
                                   action.card, action.column, action.pile))
        self.free(seat, hand, back)


def simulate_game(seed: int, settings: Settings | None = None,
                  players: Mapping[Seat, PlayerProfile] | None = None) -> SimulatedGame:
    """Play one whole game between simulated players; the same seed gives the same game."""
    chosen: dict[Seat, PlayerProfile] = (
        dict(players) if players is not None else {"A": AVERAGE, "B": AVERAGE})
    return _Simulation(seed, settings if settings is not None else Settings(), chosen).run()
