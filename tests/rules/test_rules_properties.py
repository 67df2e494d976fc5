"""Property tests over random games: cards accounted for, plays legal, games end, replay agrees.

Two sources of games: the simulator (human-like play) and a random walk that picks
uniformly among everything the rules allow next, including pointless moves, so
that the core is exercised by something that does not share the simulator's habits.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablecam.cards import FULL_DECK, Card
from tablecam.errors import RulesError
from tablecam.events import (
    SEATS,
    AnyEvent,
    Button,
    Deal,
    GameEnd,
    Move,
    Play,
    Reveal,
    RoundEnd,
    RoundSummary,
    Spit,
    Stall,
    Take,
    Takeback,
    event_from_json,
    event_to_json,
)
from tablecam.rules import (
    GAME_END_DUE,
    GAME_OVER,
    PLAYING,
    ROUND_OVER,
    SUMMARY,
    TAKING,
    WAITING_DEAL,
    WAITING_SPIT,
    Game,
    Settings,
    replay,
)
from tablecam.sim import PROFILES, simulate_game

variants = st.builds(
    Settings,
    pile_taking=st.sampled_from(["winner_chooses", "slap_race"]),
    hands=st.sampled_from([1, 2]),
    stuck_rule=st.sampled_from(["fewer_cards_wins", "last_play_wins"]),
    pad_claims=st.sampled_from(["smaller", "spit_side"]),
    round_limit=st.sampled_from([None, 3, 100]),
)
speeds = st.sampled_from(sorted(PROFILES))


def known_hands_replay(events: list[AnyEvent], hands: list[dict[str, tuple[Card, ...]]],
                       rules: Settings) -> None:
    """Replay with every card known (as dealt) beside a watcher's replay; states must agree."""
    full = Game(rules)
    watcher = Game(rules)
    deals = iter(hands)
    for event in events:
        if isinstance(event, Deal):
            dealt = full.deal_known(event.t, event.round, next(deals))  # type: ignore[arg-type]
            assert dealt == event
        else:
            full.apply(event)
        watcher.apply(event)
        full.check_accounting()
        watcher.check_accounting()
        assert full.snapshot() == watcher.snapshot()
        assert full.is_stalled() == watcher.is_stalled()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=variants, speed_a=speeds, speed_b=speeds,
       mistakes=st.sampled_from([0.0, 0.0, 0.05]))
def test_simulated_games_are_legal_end_and_replay_to_the_same_state(
        seed: int, rules: Settings, speed_a: str, speed_b: str, mistakes: float) -> None:
    players = {"A": replace(PROFILES[speed_a], mistakes=mistakes),
               "B": replace(PROFILES[speed_b], mistakes=mistakes)}
    game = simulate_game(seed, rules, players)
    events = game.events
    assert isinstance(events[-1], GameEnd) and events[-1].winner == game.winner
    assert all(a.t <= b.t for a, b in zip(events, events[1:], strict=False))
    # Through JSON and back, as a log file would carry them.
    parsed = [event_from_json(event_to_json(e)) for e in events]
    final = replay(parsed, rules)
    assert final.phase == GAME_OVER and final.winner == game.winner
    known_hands_replay(events, [dict(r.hands) for r in game.rounds], rules)


def random_walk(seed: int, rules: Settings, step_limit: int = 6000) -> tuple[Game, list[AnyEvent]]:
    """Play a game by choosing at random among every event the rules allow next."""
    rng = random.Random(seed)
    game = Game(rules)
    events: list[AnyEvent] = []
    t = 0.0

    def emit(event: AnyEvent) -> None:
        before = game.snapshot()
        # Now and then, first try something impossible: it must be refused without harm.
        if rng.random() < 0.05 and game.phase == PLAYING:
            top = game.pile_top("left") or game.pile_top("right")
            for seat in SEATS:
                for number, column in enumerate(game.columns(seat), start=1):
                    if column.face_up and column.up and top and not column.up.fits_on(top):
                        pile = "left" if game.pile_top("left") else "right"
                        try:
                            game.apply(Play(t, game.round, seat, column.up, pile, number))
                        except RulesError:
                            assert game.snapshot() == before
                        else:
                            raise AssertionError("an illegal play was accepted")
                        break
        game.apply(event)
        events.append(event)
        game.check_accounting()

    while game.phase != GAME_OVER:
        assert len(events) < step_limit * 4, "the game did not end"
        t += rng.uniform(0.0, 1.0)
        r = game.round
        phase = game.phase
        if phase == WAITING_DEAL:
            if r == 0:
                deck = list(FULL_DECK)
                rng.shuffle(deck)
                hands = {"A": deck[:26], "B": deck[26:]}
            else:
                hands = {}
                for seat in SEATS:
                    cards = [c for c in game.hand(seat) if c is not None]
                    rng.shuffle(cards)
                    hands[seat] = cards
            events.append(game.deal_known(t, r + 1, hands))
        elif phase == WAITING_SPIT:
            emit(Spit(t, r, {p: game.next_spit_card(s) for p, s in game.spit_feeders().items()}))
        elif phase == PLAYING:
            choices: list[AnyEvent] = []
            for play in game.legal_plays():
                choices.append(Play(t, r, play.player, play.card, play.pile, play.column))
            for move in game.legal_moves():
                if move.exposes or rng.random() < 0.1:
                    choices.append(Move(t, r, move.player, move.card, move.from_column, move.to_column))
            for seat in SEATS:
                for column in game.pending_reveals(seat):
                    choices.append(Reveal(t, r, seat, column, game.hidden_card(seat, column)))
            if choices:
                event = rng.choice(choices)
                if isinstance(event, Play) and rng.random() < 0.2:
                    # The other player's card lost a collision on the same pile, if they had one.
                    loser = "B" if event.player == "A" else "A"
                    shown = [c.up for c in game.columns(loser) if c.face_up and c.up]
                    emit(event)
                    if shown and game.phase in (PLAYING, ROUND_OVER):
                        emit(Takeback(t, r, loser, rng.choice(shown), event.pile))
                    continue
                emit(event)
            elif game.is_stalled():
                emit(Stall(t, r))
                if rng.random() < 0.5:
                    emit(Button(t, r, "spit"))
                if game.spit_feeders():
                    emit(Spit(t, r, {p: game.next_spit_card(s) for p, s in game.spit_feeders().items()}))
                else:
                    emit(RoundEnd(t, r, game.stuck_winner()))
            else:
                moves = game.legal_moves()
                assert moves, "play is neither open nor stalled"
                move = rng.choice(moves)
                emit(Move(t, r, move.player, move.card, move.from_column, move.to_column))
        elif phase == ROUND_OVER:
            assert game.round_winner is not None
            emit(RoundEnd(t, r, game.round_winner))
        elif phase == TAKING:
            if rng.random() < 0.3:
                emit(Button(t, r, "slap", rng.choice(SEATS)))
            seat, pile = rng.choice(game.allowed_takes())
            emit(Take(t, r, seat, pile, game.pile_size(pile)))
        elif phase == SUMMARY:
            emit(RoundSummary(t, r, {s: game.cards_held(s) for s in SEATS}))
        elif phase == GAME_END_DUE:
            assert game.winner is not None
            emit(GameEnd(t, r, game.winner))
    return game, events


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=variants)
def test_random_legal_walks_end_and_replay_to_the_same_state(seed: int, rules: Settings) -> None:
    game, events = random_walk(seed, rules)
    assert game.outcome is not None
    if game.outcome.reason == "no_cards":
        assert game.cards_held(game.outcome.winner) == 0
    else:
        assert rules.round_limit is not None and game.round == rules.round_limit
    watcher = replay(events, rules)
    assert watcher.snapshot() == game.snapshot()
