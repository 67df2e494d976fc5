"""Simulated players: deterministic, human-timed, and playing the way people do."""

from __future__ import annotations

import statistics
from dataclasses import replace

import pytest

from tablecam.errors import TablecamError
from tablecam.events import (
    Button,
    Deal,
    Illegal,
    Move,
    Play,
    Reveal,
    RoundEnd,
    RoundSummary,
    Spit,
    Stall,
    Take,
    Takeback,
)
from tablecam.rules import Game, Settings
from tablecam.sim import AVERAGE, COLLISION_WINDOW, FAST, SLOW, simulate_game


def test_the_same_seed_gives_the_same_game_and_another_seed_another() -> None:
    first, again, other = simulate_game(11), simulate_game(11), simulate_game(12)
    assert first.events == again.events
    assert first.motions == again.motions
    assert first.events != other.events


def test_every_hand_event_has_its_motion_for_the_renderer() -> None:
    game = simulate_game(5, players={"A": FAST, "B": SLOW})
    by_index = {m.event_index: m for m in game.motions if m.event_index is not None}
    for index, event in enumerate(game.events):
        if event.type in ("play", "reveal", "move", "takeback", "take", "spit"):
            motion = by_index[index]
            assert motion.touch == event.t
            assert motion.start <= motion.touch <= motion.end
            assert motion.kind == event.type
    assert all(m.event_index is None for m in game.motions if m.kind == "abort")


def hand_gaps(seed: int, speed: str) -> list[float]:
    """Seconds between one player's consecutive cards (played, moved or turned up), no stall between."""
    profile = {"fast": FAST, "average": AVERAGE, "slow": SLOW}[speed]
    game = simulate_game(seed, players={"A": profile, "B": profile})
    gaps: list[float] = []
    last: dict[str, float] = {}
    for event in game.events:
        if isinstance(event, Stall | Spit | Deal):
            last.clear()
        elif isinstance(event, Play | Move | Reveal):
            if event.player in last:
                gaps.append(event.t - last[event.player])
            last[event.player] = event.t
    return gaps


def test_players_take_human_times_per_card_and_fast_ones_are_faster() -> None:
    medians = {}
    for speed in ("fast", "average", "slow"):
        gaps = [g for seed in range(6) for g in hand_gaps(seed, speed)]
        medians[speed] = statistics.median(gaps)
        assert 0.4 <= medians[speed] <= 1.5
        assert min(gaps) > 0.05
    assert medians["fast"] < medians["average"] < medians["slow"]


def test_a_fast_player_usually_beats_a_slow_one() -> None:
    wins = sum(simulate_game(seed, players={"A": FAST, "B": SLOW}).winner == "A" for seed in range(30))
    assert wins >= 20


def test_collisions_happen_and_the_later_card_goes_back() -> None:
    takebacks = 0
    for seed in range(10):
        game = simulate_game(seed)
        state = Game(game.settings)
        last_play: dict[str, Play] = {}
        round_end_t = 0.0
        for event in game.events:
            if isinstance(event, Takeback):
                takebacks += 1
                assert event.card is not None
                if state.phase == "playing":
                    # Another card covered the pile just before; this one no longer fits.
                    covering = last_play[event.pile]
                    assert covering.player != event.player
                    assert 0 <= event.t - covering.t <= COLLISION_WINDOW + 1e-9
                    top = state.pile_top(event.pile)
                    assert top is not None and not event.card.fits_on(top)
                else:  # the round ended while the card was landing
                    assert 0 <= event.t - round_end_t <= COLLISION_WINDOW + 1e-9
            if isinstance(event, RoundEnd):
                round_end_t = event.t
            if isinstance(event, Play):
                last_play[event.pile] = event
            state.apply(event)
    assert takebacks > 0


def test_stalls_lead_to_a_spit_button_and_a_spit() -> None:
    game = simulate_game(3)
    events = game.events
    stalls = [i for i, e in enumerate(events) if isinstance(e, Stall)]
    assert stalls
    for i in stalls:
        following = events[i + 1:i + 3]
        if isinstance(following[0], RoundEnd):
            continue  # stuck with no spit cards: the round is decided
        press, spit = following
        assert isinstance(press, Button) and press.button == "spit"
        assert isinstance(spit, Spit)
        assert 0.2 < press.t - events[i].t < 4.0
        assert 0.3 < spit.t - press.t < 2.0


def test_the_round_winner_slaps_and_takes_the_smaller_pile() -> None:
    for seed in range(5):
        game = simulate_game(seed)
        state = Game(game.settings)
        for index, event in enumerate(game.events):
            if isinstance(event, Take) and state.taken_by == {}:
                slap = game.events[index - 1]
                assert isinstance(slap, Button) and slap.player == event.player == state.round_winner
                assert event.cards == min(state.pile_sizes().values())
            state.apply(event)


def test_round_records_agree_with_the_events() -> None:
    game = simulate_game(8)
    summaries = [e for e in game.events if isinstance(e, RoundSummary)]
    deals = [e for e in game.events if isinstance(e, Deal)]
    assert len(deals) == len(game.rounds)
    for record, deal in zip(game.rounds, deals, strict=True):
        for seat in ("A", "B"):
            view = deal.players[seat]
            assert len(record.hands[seat]) == view.columns * (view.columns + 1) // 2 + view.spit
        stalls = sum(1 for e in game.events if isinstance(e, Stall) and e.round == record.round)
        assert record.stalls == stalls
    for record, summary in zip(game.rounds, summaries, strict=False):
        assert record.cards_after == summary.cards
        takes = {s: sum(e.cards for e in game.events
                        if isinstance(e, Take) and e.round == record.round and e.player == s)
                 for s in ("A", "B")}
        assert dict(record.taken) == takes


def test_the_round_limit_ends_a_long_game_by_card_count() -> None:
    seed = next(s for s in range(50) if len(simulate_game(s).rounds) > 2)
    game = simulate_game(seed, Settings(round_limit=2))
    assert game.outcome.reason == "round_limit"
    assert len(game.rounds) == 2
    held = game.rounds[-1].cards_after
    assert held is not None and held[game.winner] <= held["B" if game.winner == "A" else "A"]


@pytest.mark.parametrize("rules", [
    Settings(hands=2), Settings(pile_taking="slap_race"),
    Settings(stuck_rule="last_play_wins", pad_claims="spit_side"),
])
def test_variants_play_whole_games(rules: Settings) -> None:
    for seed in range(4):
        game = simulate_game(seed, rules)
        assert game.events[-1].type == "game_end"
    if rules.hands == 2:
        motions = [m for seed in range(4) for m in simulate_game(seed, rules).motions
                   if m.kind in ("play", "move", "reveal") and m.player == "A"]
        motions.sort(key=lambda m: m.start)
        overlapping = sum(1 for a, b in zip(motions, motions[1:], strict=False) if b.start < a.touch)
        assert overlapping > 0
    if rules.pile_taking == "slap_race":
        slaps = [e for e in simulate_game(1, rules).events
                 if isinstance(e, Button) and e.button == "slap"]
        assert {e.player for e in slaps} == {"A", "B"}


def test_players_who_make_mistakes_are_refused_and_the_game_goes_on() -> None:
    careless = replace(AVERAGE, mistakes=0.05)
    illegal = wrong_presses = 0
    for seed in range(4):
        game = simulate_game(seed, players={"A": careless, "B": careless})
        state = Game(game.settings)
        for event in game.events:
            if isinstance(event, Illegal):
                illegal += 1
                top = state.pile_top(event.pile) if event.pile else None
                assert event.card is not None and top is not None and not event.card.fits_on(top)
                assert event.reason == (f"{event.card.code} is not one rank from the top card "
                                        f"{top.code} of the {event.pile} pile")
            if isinstance(event, Button) and event.button == "spit" and not state.is_stalled():
                wrong_presses += 1
                assert state.open_option() is not None or any(
                    state.pending_reveals(seat) for seat in ("A", "B"))
            state.apply(event)
        assert game.events[-1].type == "game_end"
    assert illegal > 0 and wrong_presses > 0
    with pytest.raises(TablecamError, match="between 0 and 0.5"):
        replace(AVERAGE, mistakes=0.9)
