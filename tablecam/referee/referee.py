"""The referee: judges table events and button presses, and says what happened.

The tracker reports what the camera saw (deals, spits, plays, reveals, moves,
takebacks); the referee checks each against the rules, keeps exact counts, and
decides what only a referee can: illegal plays, "Spit!" when nobody can move,
the end of a round, who takes which pile after the slaps, each player's count for
the next round, and the end of the game.  It never reads a clock: every decision
carries the time of the event or press that caused it, so a game log replays to the
same calls.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from tablecam.cards import Card, Rank
from tablecam.events import (
    PILES,
    SEATS,
    AnyEvent,
    Button,
    Deal,
    Event,
    GameEnd,
    Illegal,
    Move,
    Pile,
    Play,
    Reveal,
    RoundEnd,
    RoundSummary,
    Seat,
    Spit,
    Stall,
    TableauView,
    Take,
    Takeback,
    other_pile,
    other_seat,
)
from tablecam.inputs import ButtonPress
from tablecam.referee.table import Column, TableModel, columns_for, deal_for
from tablecam.rules.settings import Settings

#: A slap this long before the camera saw the round's last card still counts.
EARLY_SLAP_S = 3.0
#: A card landing this soon after the other player's on the same pile is a collision.
COLLISION_S = 0.4
#: ... and so is one this soon after that fits the card the other player's covered (both
#: reached for it; each card is reported once the hand laying it leaves the pile, the
#: loser's often later: dev game 2061, KD 0.43 s after KS, both for AD).
COLLISION_FIT_S = 1.0
#: A spit press this soon after our own "Spit!" answers it (the same stall).
ANSWER_S = 2.0
#: A round's winner whose spit pile the camera shows empty while our count still holds
#: at most this many spit cards has run out of cards: the count drifted.
SPIT_DRIFT = 2
#: A named reveal this soon after an unread one on the same column (no card left it
#: between) is the same card read.  The tracker's second look came 0.3-1.0 s later.
RENAMED_REVEAL_S = 3.0
#: A column waiting to be turned whose back the camera has shown this long (hands
#: passing over it aside) when the players press spit is taken as they say: nothing to
#: turn there (a face-up card the reader takes for a back).
STALE_BACK_S = 3.0
#: A round ended by a card that is taken back (it lost a collision) this soon after,
#: before any pile was taken, did not end: play goes on.
UNENDED_S = 3.0
#: A deal seen this long after the game ended starts the next game (sooner, it is the
#: last round's cards still being read).
NEXT_DEAL_S = 3.0
#: A deal this soon after a game was called over in play is the same game's next round:
#: the players only took the piles (a new game needs all 52 cards gathered and
#: shuffled); the end was a miscount.
GAME_GOES_ON_S = 20.0
#: A player our counts leave with this many cards or fewer after a round may really
#: have none: the game's end may have gone unseen (``_ended_unseen``).
ALMOST_OUT = 5
#: Spit cards are not down sooner than this after the referee's "Spit!": the players
#: hear it, then turn their cards.
SPIT_REACTION_S = 0.5
#: A slap waits this long at most while a hand that was over a column holding a card
#: before the slap is still there: that card may have gone onto a pile just before the
#: slap, under the hands (dev game 2048: A's 3C, laid 0.09 s before B's slap).
SLAP_HOLD_S = 0.6

Phase = Literal["waiting_deal", "dealt", "playing", "stalled", "round_over", "game_over"]


@dataclass(frozen=True, slots=True)
class RefereeRules:
    """The variants a table chooses (RULES.md), and the referee's timing tolerances."""

    take: Literal["winner_chooses", "slap_race"] = "winner_chooses"
    one_hand: bool = True
    stuck_rule: Literal["fewer_cards_wins", "last_play_wins"] = "fewer_cards_wins"
    pad_claims: Literal["smaller", "spit_side"] = "smaller"
    spit_pile_a: Pile = "right"
    spit_pile_b: Pile = "left"
    round_limit: int | None = None
    first_round_cards: int = 26
    slap_tie_window: float = 0.005
    two_cards_window: float = 0.2

    @classmethod
    def from_settings(cls, settings: Settings) -> RefereeRules:
        """The referee's rules for the rules core's variant ``Settings`` (the config's ``rules``)."""
        return cls(take=settings.pile_taking, one_hand=settings.hands == 1,
                   stuck_rule=settings.stuck_rule, pad_claims=settings.pad_claims,
                   spit_pile_a=settings.spit_pile_a, spit_pile_b=settings.spit_pile_b,
                   round_limit=settings.round_limit)


@dataclass(frozen=True, slots=True)
class Call:
    """One output of the referee: an event for the log and/or a sentence to announce."""

    t: float
    event: AnyEvent | None = None
    say: str | None = None


@dataclass(frozen=True, slots=True)
class _StallMark:
    """The centre piles (bottom to top) and the spit counts as a stall began."""

    piles: dict[Pile, tuple[Card | None, ...]]
    spit: dict[Seat, int]
    spat: dict[Pile, int]
    spit_due: int


def _sentence(text: str) -> str:
    """Capitalise the first letter only (``str.capitalize`` would lower the seat letter)."""
    return text[:1].upper() + text[1:]


class Referee:
    """Judges one game of Spit from table events and button presses."""

    def __init__(self, rules: RefereeRules | None = None) -> None:
        self.rules = rules or RefereeRules()
        #: Seat -> the name said in announcements ("player A" where none is given).
        self.names: dict[Seat, str] = {}
        self._wanted_rules = self.rules
        self._new_game()

    def _new_game(self) -> None:
        """Everything a game keeps, as before its first deal (rules and names stay)."""
        self.round = 0
        self.phase: Phase = "waiting_deal"
        self.counts: dict[Seat, int] = {s: self.rules.first_round_cards for s in SEATS}
        self.table = TableModel()
        self.round_winner: Seat | None = None
        self.spit_pile: dict[Seat, Pile] = self._own_piles()
        #: The pile a player spitting alone chose this round (kept to every later time).
        self._alone: dict[Seat, Pile] = {}
        self._pending_slaps: list[ButtonPress] = []
        self._early_slaps: list[ButtonPress] = []  # slaps before the camera saw the round end
        #: The round end now waiting for slaps: when, and the slaps pressed since (a
        #: takeback of the winner's last card undoes it; ``UNENDED_S``).
        self._ended_at = 0.0
        self._slaps_since_end: list[ButtonPress] = []
        #: since when the camera has shown each column's back without a break
        self._back_since: dict[tuple[Seat, int], float] = {}
        self._played_from: dict[Card, tuple[Seat, int]] = {}
        #: Tableau cards that left their column unseen this round, with the one pile whose
        #: top they fitted then (None: both or neither), for the take counts.
        self._unseen: list[Pile | None] = []
        #: Column tops taken off when the camera showed a back there, with what that noted
        #: in ``_unseen``: the same card back on that column was never gone (a card held
        #: face down over it, or a misread), and is no reveal.
        self._backed: dict[tuple[Seat, int], tuple[Card, Pile | None]] = {}
        #: Face-down cards taken off a column when the camera showed it empty: its back
        #: seen again (or a card turned there) proves them there after all, as nothing
        #: lays a face-down card in an empty column.
        self._emptied: dict[tuple[Seat, int], int] = {}
        #: Spit turns due and not yet seen (one after the deal, one per stall or spit
        #: press): each takes one card from every player who has spit cards.
        self._spit_due = 0
        #: Cards reported, not seen whole, onto a pile whose top they did not fit while they
        #: fitted the other pile's top: most likely laid there (the pile guessed wrong).
        self._misfits: list[tuple[Pile, Card]] = []
        #: Spit cards each pile has had this round, by spit turns (each player with spit
        #: cards feeds their spit pile once a turn), and the plays reported onto it: the
        #: take counts (a spit card seen twice, in pieces or not at all changes nothing).
        self._spat: dict[Pile, int] = {p: 0 for p in PILES}
        self._plays: dict[Pile, list[Card | None]] = {p: [] for p in PILES}
        #: Piles owed a spit card: a spit turn fed them (their player had spit cards) and
        #: the camera saw nothing land there, so the top we have is not the top.
        self._owed: set[Pile] = set()
        #: The centre piles and spit counts when the last stall began, and when a card
        #: that was no spit turn ended it: that card taken back soon after, the table is
        #: as it was, and the stall called goes on (``_stall_goes_on``).
        self._stall_mark: _StallMark | None = None
        self._stall_broken_at: float | None = None
        #: Columns whose top was turned unread, and when: a named reveal there soon after
        #: is that card read, not another card turned.
        self._unread_reveal: dict[tuple[Seat, int], float] = {}
        self._stall_unpressed = False  # a "Spit!" called that the players' press will answer
        self._stall_at = -1e9  # when the last "Spit!" was called
        self._last_play: dict[Seat, float] = {}
        self._landed: dict[Pile, tuple[Seat, float]] = {}  # who put each pile's top there, when
        self._last_to_centre: Seat | None = None
        self._busy = False
        #: The columns the camera last showed settled (``reconcile``), per seat.
        self._shown: dict[Seat, list[tuple[str, Card | None]]] = {}
        self._spit_shown: dict[Seat, str] = {}
        #: players whose spit pile the camera has shown with cards since the deal: only
        #: then does it showing empty say anything (``_spit_shown_empty``)
        self._spit_seen_down: set[Seat] = set()
        self._ranks: dict[str, frozenset[Rank]] = {}  # unread column tops: the ranks they can be
        self._unnamed: set[str] = set()  # zones whose card the reader did not name itself
        self._over_at = -1e9  # when the game ended
        self._settled_at = -1e9  # when the last round's piles were taken
        #: The game was called over in play, as a round's winner seemed to have no cards
        #: left (not by the counts after the piles were taken): a miscount can cause it.
        self._over_in_play = False

    def _name(self, seat: Seat) -> str:
        name = (self.names.get(seat) or "").strip()
        if not name or name.lower() == f"player {seat.lower()}":
            return f"player {seat}"
        return name

    def set_names(self, names: Mapping[str, str]) -> None:
        """Say these names instead of "player A" / "player B" (safe from another thread)."""
        self.names = {s: names[s] for s in SEATS if s in names}

    def change_rules(self, rules: RefereeRules) -> None:
        """Switch variants: at once when no round is in play, otherwise from the next deal.

        Safe to call from another thread (the dashboard's): only the referee's own
        ``observe``/``press``/``tick`` adopt the new rules, between rounds.
        """
        self._wanted_rules = rules

    def _adopt_rules(self, dealing: bool = False) -> None:
        wanted = self._wanted_rules
        if wanted is not self.rules and (dealing or self.phase in ("waiting_deal", "game_over")):
            self.rules = wanted

    def _own_piles(self) -> dict[Seat, Pile]:
        return {"A": self.rules.spit_pile_a, "B": self.rules.spit_pile_b}

    # ------------------------------------------------------------------ table events
    def observe(self, event: AnyEvent, firm: bool = True) -> list[Call]:
        """Judge one table event (from the tracker or a log) and return the calls it causes.

        ``firm`` says the camera saw a play or move whole (the tracker's ``firm``): only
        then is one that breaks a rule called illegal; otherwise a misread or an unseen
        card is as likely, and the doubt is said instead (a false call is worse for the
        players than a missed one).
        """
        self._adopt_rules()
        if self.phase == "game_over" and not isinstance(event, Button):
            if isinstance(event, Deal) and event.t - self._over_at >= NEXT_DEAL_S:
                return self._deal_after_end(event)
            if (isinstance(event, Play) and self._over_in_play and event.round == self.round
                    and event.t - self._over_at < 3.0):
                # The game's last card, seen landing after the slap that ended it (or the
                # other player's last card, a frame after the winner's: ``_reopen_round``).
                self.table.piles[event.pile].append(event.card)
                self._plays[event.pile].append(event.card)
                if (event.column and event.card is not None
                        and self.table.find_top(event.player, event.card) == event.column):
                    self.table.remove_top(event.player, event.column)
                return [Call(event.t, self._stamp(event), None)]
            return []
        if self.phase == "waiting_deal" and isinstance(event, Play | Move | Reveal | Takeback):
            return []  # the piles are taken: nothing is in play until the next deal
        match event:
            case Deal():
                if self._ended_unseen(event):
                    return self._game_ended_unseen(event)
                return self._deal(event)
            case Spit():
                return self._spit(event)
            case Play():
                return self._play(event, firm)
            case Reveal():
                return self._reveal(event)
            case Move():
                return self._move(event, firm)
            case Takeback():
                return self._takeback(event)
            case Button(button="spit"):
                return self.press(ButtonPress(event.t, "spit"))
            case Button(button="slap", player=player):
                return self.press(ButtonPress(event.t, "slap", player))
            case _:
                return []  # the referee's own decisions are not inputs

    def _stamp(self, event: Event) -> AnyEvent:
        stamped: AnyEvent = dataclasses.replace(event, round=max(self.round, 1))  # type: ignore[assignment]
        return stamped

    def _deal(self, event: Deal) -> list[Call]:
        calls: list[Call] = []
        if self.phase in ("dealt", "playing", "stalled"):
            calls.append(Call(event.t, None, f"A new deal before round {self.round} ended; starting a new round."))
        self._adopt_rules(dealing=True)
        self.round += 1
        self.round_winner = None
        self._pending_slaps.clear()
        self._early_slaps.clear()
        self._slaps_since_end.clear()
        self._back_since.clear()
        self._played_from.clear()
        self._unseen.clear()
        self._backed.clear()
        self._emptied.clear()
        self._misfits.clear()
        self._spat = {p: 0 for p in PILES}
        self._plays = {p: [] for p in PILES}
        self._owed.clear()
        self._stall_mark, self._stall_broken_at = None, None
        self._unread_reveal.clear()
        self._last_play.clear()
        self._landed.clear()
        self._last_to_centre = None
        self._shown = {}
        self._spit_seen_down.clear()
        self.spit_pile = self._own_piles()
        self._alone.clear()
        up: dict[Seat, tuple[Card | None, ...]] = {}
        fitted = self._counts_for({s: event.players[s].columns for s in SEATS})
        for seat in SEATS:
            view = event.players[seat]
            expected = columns_for(self.counts[seat])
            if view.columns != expected:
                said = (f"The deal does not match: {self._name(seat)} has {self.counts[seat]} cards and "
                        f"should lay {expected} columns, not {view.columns}")
                if fitted is not None:
                    said += f"; I count them as {fitted[seat]} cards"
                calls.append(Call(event.t, None, said + "."))
            up[seat] = tuple(view.up[:view.columns])
        if fitted is not None:
            self.counts = fitted
        self.table.deal(self.counts, up)
        self._spit_due, self._stall_unpressed = 1, False
        players = {s: TableauView(len(up[s]), self.table.sides[s].spit, up[s]) for s in SEATS}
        self.phase = "dealt"
        deal = Deal(event.t, self.round, players)
        calls.insert(0, Call(event.t, deal, (
            f"Round {self.round}: {self._name('A')} has {self.counts['A']} cards, "
            f"{self._name('B')} has {self.counts['B']}.")))
        return calls

    def _ended_unseen(self, event: Deal) -> bool:
        """Is this deal, after the piles were taken, a new game's whose last game ended
        unseen?  Both players lay a new game's columns, more than ``GAME_GOES_ON_S`` after
        the round was settled, while by our counts a player holds ``ALMOST_OUT`` cards or
        fewer (a count drifted by a card or two missed the game's end: dev video 2047,
        where the second game was refereed as the first one's later rounds).  A count
        that far below a whole tableau is no drift within a game going on."""
        fresh = columns_for(self.rules.first_round_cards)
        return (self.phase == "waiting_deal" and self.round > 0
                and event.t - self._settled_at > GAME_GOES_ON_S
                and all(event.players[s].columns == fresh for s in SEATS)
                and min(self.counts.values()) <= ALMOST_OUT)

    def _game_ended_unseen(self, event: Deal) -> list[Call]:
        """The last game went to the player our counts left with the fewest cards, at the
        round's settling; this deal starts a new game."""
        t = self._settled_at
        winner = min(SEATS, key=lambda s: self.counts[s])
        ended = Call(t, GameEnd(t, self.round, winner), (
            f"A new game is dealt, so the last one was over: {self._name(winner)}, who had "
            f"the fewest cards, wins it after {self.round} round{'s' if self.round != 1 else ''}."))
        return [ended, *self._next_game(event)]

    def _deal_after_end(self, event: Deal) -> list[Call]:
        """A deal after the game ended: the next game, or, when the game was called over in
        play and the players deal again within ``GAME_GOES_ON_S`` or lay columns a new
        game would not have, the same game going on (a miscounted spit pile ended it:
        dev game 2040 after round 6, after which nothing more was refereed, and then,
        as a new game, every later round under the wrong number)."""
        laid = {s: event.players[s].columns for s in SEATS}
        fresh = columns_for(self.rules.first_round_cards)
        if self._over_in_play and (event.t - self._over_at < GAME_GOES_ON_S
                                   or any(laid[s] != fresh for s in SEATS)):
            counts = self._nearest_counts(laid, 2 * self.rules.first_round_cards)
            if counts is not None:
                self.counts = counts
                self.phase, self._over_in_play = "waiting_deal", False
                return [Call(event.t, None, "The game is not over after all: play goes on."),
                        *self._deal(event)]
        return self._next_game(event)

    def _next_game(self, event: Deal) -> list[Call]:
        """``event`` deals a new game: everything starts afresh (rules wanted meanwhile
        too), and the deal is its round 1."""
        self._adopt_rules(dealing=True)
        self._new_game()
        return [Call(event.t, None, "A new game."), *self._deal(event)]

    def _counts_for(self, columns: Mapping[Seat, int]) -> dict[Seat, int] | None:
        """The counts nearest ours (same total) that deal the columns the players laid,
        when ours do not (a count drifted by an unseen card; the players' own layout is the
        firmer evidence); None when ours fit or no counts would."""
        if all(columns_for(self.counts[s]) == columns[s] for s in SEATS):
            return None
        return self._nearest_counts(columns, sum(self.counts.values()))

    def _nearest_counts(self, columns: Mapping[Seat, int], total: int) -> dict[Seat, int] | None:
        """The split of ``total`` cards nearest our counts that deals ``columns`` (None
        when no split does)."""
        fits = [a for a in range(total + 1)
                if columns_for(a) == columns["A"] and columns_for(total - a) == columns["B"]]
        if not fits:
            return None
        a = min(fits, key=lambda n: abs(n - self.counts["A"]))
        return {"A": a, "B": total - a}

    def _spit(self, event: Spit) -> list[Call]:
        if self.phase in ("waiting_deal", "round_over"):
            return [Call(event.t, None, "Spit cards were turned up outside of play; ignoring them.")]
        feeders = [s for s in SEATS if self.table.sides[s].spit > 0]
        if (len(feeders) == 1 and len(event.cards) == 2 and feeders[0] not in self._alone
                and self._spit_due > 0 and self.table.sides[feeders[0]].spit > 1):
            # Both piles took a spit card at once while we count spit cards for one player
            # only: the other had one more than we count, and so one card fewer for this
            # one (the cards the players hold add up; a take of an earlier round counted a
            # card on the wrong pile).  Taken for the lone spitter's choice of pile, it
            # kept their count from falling at every later spit (dev game 2078, round 8:
            # B dealt 2 spit cards, counted 1; A's next six spit cards counted nothing,
            # and the round's takes were 8 out).
            self._one_more_spit_card(other_seat(feeders[0]), feeders[0])
            feeders = [s for s in SEATS if self.table.sides[s].spit > 0]
        alone = len(feeders) == 1
        fed = False
        stalled = self.phase == "stalled"
        for pile, card in event.cards.items():
            feeder = next((s for s in feeders if self.spit_pile[s] == pile), None)
            if feeder is None and alone and feeders and feeders[0] not in self._alone:
                feeder = feeders[0]
                self.spit_pile[feeder] = pile  # spitting alone: that pile from now on
            if feeder is not None:
                feeders.remove(feeder)
                if alone:
                    self._alone[feeder] = pile
                fed = True
            # (a card on the other pile than a lone spitter keeps to is no spit card of
            # theirs: a pile misread, kept on the pile for a takeback, but no turn; dev
            # game 2005: an unread top taken for one moved that player's pile to the
            # other side, and both piles' counts were one out)
            self.table.piles[pile].append(card)
            self._owed.discard(pile)
        if self._spit_due > 0 and (fed or not event.cards):
            # A player with spit cards whose pile got none: their card went down unseen
            # (dev game 2035: a spit card on a pile read empty, then "Spit!" on the other
            # pile alone while that card was a play).
            # Not one whose spit pile the camera shows settled empty while we count a
            # card or two there: they had none left to turn, and our count drifted (dev
            # game 2061: B's last spit card went down unseen, taken for a card turned up
            # in A5; at the next spit B, counted with one card, was owed one on the left
            # pile, and no "Spit!" came for the rest of the round before the players
            # pressed).  With more counted, the zone is more likely beside the pile
            # (dev game 2014: spit zones read empty all game).
            self._owed.update(self.spit_pile[s] for s in feeders
                              if not (self._spit_shown.get(s) == "empty"
                                      and self.table.sides[s].spit <= SPIT_DRIFT))
            self._spit_turned()
        if fed:
            self._stall_mark = None  # the players spat: that stall is over
        elif stalled and event.cards:
            self._stall_broken_at = event.t  # no one's spit card: most likely a misread
        # Spit cards seen when no spit was due (a pile misread, a spit seen twice) are
        # kept on the pile but take nothing from a spit pile: the take counts keep the total.
        self.phase = "playing"
        return [Call(event.t, self._stamp(event), None), *self._after_change(event.t)]

    def _one_more_spit_card(self, seat: Seat, other: Seat) -> None:
        """``seat`` held one card more than we counted, all of it a spit card, and
        ``other`` one fewer."""
        self.table.sides[seat].spit += 1
        self.table.sides[other].spit -= 1
        self.counts[seat] += 1
        self.counts[other] -= 1

    def _play(self, event: Play, firm: bool = True) -> list[Call]:
        calls: list[Call] = []
        seat, card, pile = event.player, event.card, event.pile
        column = event.column
        # A play is "seen whole" when the card was known as the top of its column.
        known_top = self.table.find_top(seat, card) if card is not None else None
        column = known_top or column
        top = self.table.top(pile)
        reason: str | None = None
        doubt: str | None = None
        if self.phase == "dealt" or not self.table.piles[pile]:
            reason = f"the {pile} pile has no spit card yet"
            if not firm:
                doubt = reason
        elif card is not None and top is not None and not card.fits_on(top):
            reason = f"{card.code} is not one rank from {top.code} on the {pile} pile"
            landed = self._landed.get(pile)
            cards = self.table.piles[pile]
            under = cards[-2] if len(cards) >= 2 else None
            if landed is not None and landed[0] != seat and (
                    event.t - landed[1] < COLLISION_S
                    or (under is not None and card.fits_on(under)
                        and event.t - landed[1] < COLLISION_FIT_S)):
                # Both players reached the pile at once: the later card goes back
                # (a collision, not a foul); the takeback follows.
                reason, doubt = None, ""
            elif (card.rank.value - top.rank.value) % 13 in (0, 2, 11):
                # One card read a rank off (a likely misread) would make it legal.
                doubt = reason
            elif not firm:
                doubt = reason
        elif (self.rules.one_hand and known_top is not None and seat in self._last_play
              and 0 < event.t - self._last_play[seat] < self.rules.two_cards_window):
            reason = "two cards at once; the one-hand rule allows one card at a time"
            if not firm:
                doubt = reason
        if doubt is not None:
            reason = None
        other = self.table.top(other_pile(pile))
        if (not firm and card is not None and top is not None and other is not None
                and not card.fits_on(top) and card.fits_on(other)):
            self._misfits.append((pile, card))
        self.table.remove_top(seat, column)
        self._unread_reveal.pop((seat, column), None)
        self.table.piles[pile].append(card)
        self._owed.discard(pile)
        self._plays[pile].append(card)
        if card is not None:
            self._played_from[card] = (seat, column)
        if known_top is not None and firm:
            self._last_play[seat] = event.t
        self._last_to_centre = seat
        self._landed[pile] = (seat, event.t)
        stamped = Play(event.t, self.round, seat, card, pile, column)
        calls.append(Call(event.t, stamped, None))
        if doubt:
            calls.append(Call(event.t, None, f"I could not be sure of that play by {self._name(seat)}: "
                                             f"{doubt}."))
        if reason is not None:
            what = card.code if card is not None else "a card"
            calls.append(Call(event.t, Illegal(event.t, self.round, reason, seat, card, pile, column),
                              f"Illegal play by {self._name(seat)}: {what}, {reason}."))
            return calls  # nothing is decided on an illegal play: it is to be taken back
        return calls + self._after_change(event.t)

    def identify(self, t: float, seat: Seat, column: int, card: Card) -> list[Call]:
        """A column top that could not be read has now been read (no card moved)."""
        col = self.table.column(seat, column)
        if col is None or not col.has_up or col.up is not None:
            return []
        col.up = card
        return self._after_change(t)

    def identify_pile_top(self, t: float, pile: Pile, card: Card) -> list[Call]:
        """A centre pile's top that could not be read has now been read (no card landed)."""
        cards = self.table.piles[pile]
        if not cards or cards[-1] is not None:
            return []
        cards[-1] = card
        return self._after_change(t)

    def doubt_pile_top(self, pile: Pile, card: Card) -> None:
        """A card of a centre pile, believed to be ``card``, is not known after all (the
        tracker took its top from the reader's likely faces and a card that does not fit
        it was laid on it: the card laid next is judged on an unknown top; or the camera
        shows ``card`` in a column, and centre cards never come back up)."""
        cards = self.table.piles[pile]
        if card in cards:
            cards[len(cards) - 1 - cards[::-1].index(card)] = None

    def reconcile(self, t: float, columns: Mapping[Seat, Sequence[tuple[str, Card | None]]],
                  spit: Mapping[Seat, str] | None = None, unnamed: Collection[str] = (),
                  ranks: Mapping[str, frozenset[Rank]] | None = None) -> list[Call]:
        """Check the table against the columns the camera shows settled (the tracker's
        ``settled_columns()``: ``(state, card)`` per column, state ``empty``, ``face_down``,
        ``face_up``, ``unsettled`` or ``covered`` -- long covered over ``card``, which bears
        a "Spit!" only where the table agrees) and take in what an imperfect reader let slip by:

        - a column waiting for its face-down card to be turned shows a face: it was
          turned (a ``Reveal``, so that nobody waits for it before a "Spit!");
        - a column top not known shows a named face: it is that card; so is a column
          that shows, named by the reader itself, another card than the one we believe
          there, when that card lies nowhere else in the table;
        - all of a player's columns are empty: that player has laid the last tableau card
          (the round ends), whatever card went unseen on the way.

        ``spit`` is each player's spit pile as seen ("face_down", "empty" or "unsettled"):
        a player whose spit pile is still seen has not won the game, whatever the count.
        ``unnamed`` are the zones (``A1``.., ``left``, ``right``) whose card the reader
        did not name itself: no "Spit!" is called on the strength of such a card --
        unless it is a column top whose ranks the reader narrows down (``ranks``, the
        tracker's ``sure_ranks()``) and none of them fits a pile top: then no suit makes
        it a play.  A centre pile's unnamed top counts as named when the reader is
        sure of its rank, the rank of the card the table has there.
        """
        self._spit_shown = dict(spit or {})
        self._spit_seen_down |= {s for s, shown in self._spit_shown.items() if shown == "face_down"}
        self._unnamed = set(unnamed)
        self._ranks = dict(ranks or {})
        self.table.top_ranks = {pile: next(iter(sure)) for pile in PILES
                                if self.table.top(pile) is None and self.table.piles[pile]
                                and len(sure := self._ranks.get(pile, frozenset())) == 1}
        self._shown = {seat: list(columns.get(seat, ())) for seat in SEATS} if columns else {}
        for seat, shown_cols in self._shown.items():
            for i, (state, _card) in enumerate(shown_cols, start=1):
                if state == "face_down":
                    self._back_since.setdefault((seat, i), t)
                elif state in ("face_up", "empty"):  # (a hand passing over is no break)
                    self._back_since.pop((seat, i), None)
        if self.phase not in ("playing", "stalled") or not columns:
            return []
        calls: list[Call] = []
        for seat in SEATS:
            shown = columns.get(seat, ())
            cols = self.table.sides[seat].columns
            for i, col in enumerate(cols, start=1):
                if i > len(shown):
                    break
                state, card = shown[i - 1]
                if state in ("empty", "face_down") and col.has_up:
                    # Its top left unseen (where it went is not known): the column is
                    # what the camera shows, so nobody waits for that card to be played.
                    self._left_unseen(col.up)
                    if state == "face_down" and col.up is not None:
                        self._backed[(seat, i)] = (col.up, self._unseen[-1])
                    col.has_up, col.up = False, None
                    if state == "empty":
                        self._empty_column(seat, i, col)  # turned and played unseen
                    col.awaiting_reveal = col.down > 0
                    calls += self._after_change(t)
                    continue
                if state == "empty" and not col.has_up and col.down > 0:
                    # Face-down cards we counted are not there (turned and played unseen,
                    # or our count was high): nobody waits for them to be turned.
                    self._empty_column(seat, i, col)
                    col.awaiting_reveal = False
                    calls += self._after_change(t)
                    continue
                if state == "face_down" and not col.has_up and col.down == 0 and self._restore_down(seat, i):
                    calls += self._after_change(t)
                    continue
                if state != "face_up":
                    if state == "empty":
                        self._backed.pop((seat, i), None)
                    continue
                backed = self._backed.pop((seat, i), None)
                if (backed is not None and card == backed[0] and not col.has_up
                        and self.table.find_top(seat, card) is None):
                    # The card the back hid is there again (dev game 2008: a back shown
                    # over AS for 0.4 s, then AS again, had been taken for a reveal,
                    # and the column's count was short from then on).
                    if backed[1] in self._unseen:
                        self._unseen.remove(backed[1])
                    col.up, col.has_up, col.awaiting_reveal = card, True, False
                    calls += self._after_change(t)
                elif col.awaiting_reveal and not col.has_up:
                    calls += self._reveal(Reveal(t, self.round, seat, i, card))
                elif col.has_up and col.up is None and card is not None:
                    col.up = card
                    calls += self._after_change(t)
                elif (col.has_up and card is not None and card != col.up
                      and f"{seat}{i}" not in self._unnamed and not self._placed(card)):
                    # The reader names, settled, another card than the one we believe
                    # there (taken from its guesses, or a move we missed): it is that card.
                    col.up = card
                    calls += self._after_change(t)
                elif not col.has_up and card is not None and not self._placed(card):
                    # A card came unseen into a column the table had as empty (turned
                    # from a face-down card it had lost count of, or moved in): it is there.
                    col.up, col.has_up = card, True
                    calls += self._after_change(t)
                elif not col.has_up and card is None and not col.awaiting_reveal:
                    # ... and so did one the reader cannot name: the column is no longer
                    # free to move into (dev game 2008: an unread AC moved into B1, which
                    # the table kept as empty, so the moves into it held back a "Spit!")
                    col.has_up = True
                    calls += self._after_change(t)
            if (len(shown) >= len(cols) and all(state == "empty" for state, _card in shown)
                    and self.phase in ("playing", "stalled")):
                for col in cols:
                    self._clear_column(col)
                calls += self._after_change(t)
        if self.phase == "playing" and not self._busy and not calls and self._stuck():
            calls += self._after_change(t)  # a stall held back until the camera agreed
        return calls

    def _spit_turned(self) -> None:
        """Every player with spit cards turned one (one spit turn)."""
        for seat in SEATS:
            if self.table.sides[seat].spit > 0:
                self.table.sides[seat].spit -= 1
                self._spat[self.spit_pile[seat]] += 1
        self._spit_due = max(0, self._spit_due - 1)

    def _empty_column(self, seat: Seat, column: int, col: Column) -> None:
        """The camera shows ``col`` empty: its face-down cards left unseen (noted in
        ``_emptied``, to be put back if its back shows again)."""
        if col.down > 0:
            self._emptied[(seat, column)] = self._emptied.get((seat, column), 0) + col.down
        for _ in range(col.down):
            self._left_unseen(None)
        col.down = 0

    def _restore_down(self, seat: Seat, column: int) -> bool:
        """A column we took for empty shows its back again, or has a card turned on it:
        the face-down cards ``_empty_column`` took off were there all along (dev game
        2070: B3's two face-down cards read as an empty column for 0.2 s as B lifted 8H;
        with them gone, B's count and the take of the pile B won were one out)."""
        down = self._emptied.pop((seat, column), 0)
        col = self.table.column(seat, column)
        if down == 0 or col is None:
            return False
        for _ in range(down):
            if None in self._unseen:
                self._unseen.remove(None)
        col.down, col.awaiting_reveal = down, not col.has_up
        return True

    def _left_unseen(self, card: Card | None) -> None:
        """A tableau card went to the centre unseen: note the one pile it fitted, if any."""
        fits = [p for p in self.table.fed_piles()
                if card is not None and (top := self.table.top(p)) is not None and card.fits_on(top)]
        self._unseen.append(fits[0] if len(fits) == 1 else None)

    def _clear_column(self, col: Column) -> None:
        """The camera shows this column empty: every card it still held left unseen."""
        if col.has_up:
            self._left_unseen(col.up)
        for _ in range(col.down):
            self._left_unseen(None)
        col.down, col.up, col.has_up, col.awaiting_reveal = 0, None, False, False

    def _placed(self, card: Card) -> bool:
        """Is ``card`` already on a pile or a column top in the table?"""
        return (any(card in cards for cards in self.table.piles.values())
                or any(self.table.find_top(seat, card) is not None for seat in SEATS))

    def _fits_no_pile(self, zone: str) -> bool:
        """Is the reader sure enough of the ranks column ``zone``'s top can be, and does
        none of them fit a fed pile's top (each known and named)?"""
        ranks = self._ranks.get(zone)
        if not ranks:
            return False
        for pile in self.table.fed_piles():
            top = self.table.top(pile)
            top_rank = top.rank if top is not None else self.table.top_ranks.get(pile)
            if top_rank is None or self._pile_unsure(pile) or any(r.is_next_to(top_rank) for r in ranks):
                return False
        return True

    def _pile_unsure(self, pile: Pile) -> bool:
        """Is the centre pile's top a card the reader neither named nor narrowed to ranks
        that all come to the same (``ranks``: the top's rank, and others no card in
        view would fit either)?  Only ranks decide plays."""
        top = self.table.top(pile)
        if top is None:
            # a card played that nobody could read: its rank may still be sure, twice over
            # (``top_ranks``: its column's reads and the pile's agree; tracker.sure_ranks)
            return pile not in self.table.top_ranks
        if pile not in self._unnamed:
            return False
        ranks = self._ranks.get(pile)
        if not ranks or top.rank not in ranks:
            return True
        # (dev game 2418, cards 36 pixels wide: A's AD, played unread, liked as AS 0.73,
        # AD 0.18 or KS 0.04 on the pile; no column top was a queen, a king or a two, yet
        # the "Spit!" waited for the players' press, 0.6 s)
        return not all(self._nothing_fits(rank) for rank in ranks - {top.rank})

    def _nothing_fits(self, rank: Rank) -> bool:
        """Would no column top in view fit a pile top of ``rank``, by its card or by the
        ranks the reader is sure it can be?"""
        for seat in SEATS:
            for i, col in enumerate(self.table.sides[seat].columns, start=1):
                if not col.has_up:
                    continue
                ranks = {col.up.rank} if col.up is not None else self._ranks.get(f"{seat}{i}")
                if not ranks or any(r.is_next_to(rank) for r in ranks):
                    return False
        return True

    def _stuck(self) -> bool:
        """Is the table stuck, judging an unread column top by the rank the reader is sure of?"""
        if self.table.is_stuck():
            return True
        moves = self.table.open_moves()
        return bool(self.table.fed_piles()) and bool(moves) and all(
            m.kind == "play" and m.card is None and self._fits_no_pile(f"{m.player}{m.column}")
            for m in moves)

    def _camera_agrees(self) -> bool:
        """Does the camera show every column settled as the table has it (the same top,
        or empty)?  A stall is called only then: a top the table has wrong may be playable."""
        if self._owed or any(self._pile_unsure(pile) for pile in self.table.fed_piles()):
            return False
        for seat in SEATS:
            shown = self._shown.get(seat)
            if shown is None:
                continue
            for i, (col, (state, card)) in enumerate(zip(self.table.sides[seat].columns, shown,
                                                         strict=False), start=1):
                if col.has_up and f"{seat}{i}" in self._unnamed and not self._fits_no_pile(f"{seat}{i}"):
                    return False
                if state == "covered":
                    # Long covered (something lies over it): the card last seen there (or
                    # nothing) lies there still, unless we saw it played since.
                    if col.has_up and card == col.up:
                        continue
                    if not col.has_up and card is None:
                        continue  # empty before the cover, and no card on its way there
                    if not col.has_up and col.down == 0 and card is not None and any(
                            card in cards for cards in self.table.piles.values()):
                        continue
                    return False
                if state == "unsettled":
                    return False
                if col.has_up and (state != "face_up" or (card is not None and card != col.up)):
                    return False
                if not col.has_up and state == "face_up":
                    return False
                if not col.has_up and col.down == 0 and state == "face_down":
                    # A column we hold empty shows a back: no card goes face down into
                    # an empty column, so a face lies there that the camera misreads (dev
                    # game 2014: KD moved to A2, read as a back for nine seconds and
                    # given up as lost; a "Spit!" came while KD fitted the new pile QH).
                    return False
        return True

    def _reveal(self, event: Reveal) -> list[Call]:
        col = self.table.column(event.player, event.column)
        unread_at = self._unread_reveal.pop((event.player, event.column), None)
        if (col is not None and col.has_up and col.up is None and event.card is not None
                and unread_at is not None and event.t - unread_at <= RENAMED_REVEAL_S
                and not self._placed(event.card)):
            # The same reveal, named this time: the card turned moments ago and not read
            # is this one, and no other card was turned (dev game 2035: six reveals seen
            # twice, the first time unread; each took a face-down card more off its
            # column, and with B4's count gone a "Spit!" came while B could move 3S into
            # an empty column to turn the card under it).
            return self.identify(event.t, event.player, event.column, event.card)
        if event.card is None:
            self._unread_reveal[(event.player, event.column)] = event.t
        if col is not None and not col.has_up and col.down == 0:
            self._restore_down(event.player, event.column)
        if col is not None and col.has_up and col.down > 0:
            self._left_unseen(col.up)  # a new face over a top never seen leaving
        self.table.reveal(event.player, event.column, event.card)
        return [Call(event.t, self._stamp(event), None), *self._after_change(event.t)]

    def _move(self, event: Move, firm: bool = True) -> list[Call]:
        calls: list[Call] = [Call(event.t, self._stamp(event), None)]
        target = self.table.column(event.player, event.to_column)
        # (a card seen in the empty column before it was seen leaving its old one, taken
        # in already by ``reconcile``: no card lies under it; dev game 2078, where such
        # a move counted a face-down card under KS, and moving KS into an empty column
        # held back the next "Spit!")
        there = (target is not None and target.has_up and event.card is not None
                 and target.up == event.card)
        if target is not None and target.has_up and target.up is not None and firm and not there:
            reason = f"column {event.to_column} is not empty; cards move only into an empty column"
            calls.append(Call(event.t, Illegal(event.t, self.round, reason, event.player, event.card,
                                               None, event.to_column),
                              f"Illegal move by {self._name(event.player)}: {reason}."))
        self.table.remove_top(event.player, event.from_column)
        self._unread_reveal.pop((event.player, event.from_column), None)
        self._emptied.pop((event.player, event.to_column), None)  # it was empty
        if not there:
            self.table.put_on_column(event.player, event.to_column, event.card)
        return calls + self._after_change(event.t)

    def _takeback(self, event: Takeback) -> list[Call]:
        pile = self.table.piles[event.pile]
        back = False
        if pile and event.card is not None and pile[-1] == event.card:
            pile.pop()
            plays = self._plays[event.pile]
            if event.card in plays:
                del plays[len(plays) - 1 - plays[::-1].index(event.card)]
            if (event.pile, event.card) in self._misfits:
                # a card counted on the other pile is gone from the table all the same
                # (dev game 2040: 6C, reported on a pile it did not fit, taken back and
                # reported again, was moved to the other pile twice)
                self._misfits.remove((event.pile, event.card))
            seat, column = self._played_from.pop(event.card, (event.player, 0))
            if column:
                self.table.put_on_column(seat, column, event.card)
                back = True
            self._stall_goes_on(event.t)
        what = event.card.code if event.card is not None else "the card"
        said = f"Collision on the {event.pile} pile: {self._name(event.player)} takes back {what}."
        if (back and self.phase == "round_over" and event.player == self.round_winner
                and event.t - self._ended_at <= UNENDED_S
                and self.table.sides[event.player].tableau_cards > 0):
            # The card that ended the round lost a collision (dev game 2014: B's last
            # card KS lay on A's last card JH, the camera saw KS first and B won; KS went
            # back and JH was A's last): the round goes on, and the slaps pressed since
            # count when it really ends.
            self.phase, self.round_winner = "playing", None
            self._early_slaps = self._slaps_since_end + self._pending_slaps
            self._pending_slaps, self._slaps_since_end = [], []
            said += f" {_sentence(self._name(event.player))} has not won the round yet; play on."
        return [Call(event.t, self._stamp(event), said), *self._after_change(event.t)]

    def _mark_stall(self) -> None:
        """Note the centre piles and spit counts as a stall begins (``_stall_goes_on``)."""
        self._stall_mark = _StallMark(
            {p: tuple(self.table.piles[p]) for p in PILES},
            {s: self.table.sides[s].spit for s in SEATS}, dict(self._spat), self._spit_due)
        self._stall_broken_at = None

    def _stall_goes_on(self, t: float) -> None:
        """After a takeback: back in the stall that a card just taken back ended?

        Nothing can be played in a stall, so a card seen going onto a pile then (a
        misread top, or a card read on the pile a lone spitter does not keep to) and
        taken back within ``UNENDED_S`` leaves the table as it was: the stall already
        called goes on, with its spit counts, and is not called again.  Synthetic games
        at 8 % misreads: 1039 (8C "played" onto AH 0.6 s after "Spit!", which also took
        a spit turn as gone down unseen) and 1090 (KC read on the right pile while B spat
        alone onto the left) each got a second "Spit!" before the players' spit cards.
        """
        mark = self._stall_mark
        if (mark is None or self.phase != "playing" or self._stall_broken_at is None
                or t - self._stall_broken_at > UNENDED_S
                or any(tuple(self.table.piles[p]) != mark.piles[p] for p in PILES)
                or not self._stuck()):
            return
        for seat in SEATS:
            self.table.sides[seat].spit = mark.spit[seat]
        self._spat = dict(mark.spat)
        self._spit_due = mark.spit_due
        self._stall_broken_at = None
        self.phase = "stalled"

    def _after_change(self, t: float) -> list[Call]:
        """After the table changed: has a round ended, or is the game stuck?"""
        if self.phase not in ("playing", "stalled"):
            return []
        done = []
        for seat in SEATS:
            side = self.table.sides[seat]
            # (unless the camera still shows a card there: a card went by unseen)
            still_shown = any(state in ("face_up", "face_down") for state, _card in self._shown.get(seat, ()))
            if side.tableau_cards == 0 and not any(c.awaiting_reveal for c in side.columns) \
                    and not still_shown:
                done.append(seat)
        if len(done) == 2 and self._last_to_centre is not None:
            # both tableaux emptied (their last cards reported together): the first to
            # empty it wins, who is not the one whose card came to the centre last
            return self._round_end(t, other_seat(self._last_to_centre))
        if done:
            return self._round_end(t, done[0])
        if not self._stuck():
            if self.phase == "stalled" and t - self._stall_at < SPIT_REACTION_S:
                # too soon after our "Spit!" for spit cards to be down: a misread or a
                # collision's loser, taken back at once (synthetic game 1016 at 8 %
                # misreads: a 3H read on a pile it does not fit 0.17 s after the call used
                # up a spit turn, and "Spit!" was called again when it went back)
                return []
            if self.phase == "stalled":
                self._stall_broken_at = t
                if self._spit_due > 0:
                    self._spit_turned()  # play went on: the spit cards went down unseen
            self.phase = "playing"
            return []
        if self.phase == "stalled" or self._busy or not self._camera_agrees():
            return []  # while a card is in a hand or a zone is covered, wait to be sure
        if any(self.table.sides[s].spit > 0 for s in SEATS):
            self.phase = "stalled"
            self._spit_due += 1
            self._stall_unpressed = True
            self._stall_at = t
            self._mark_stall()
            return [Call(t, Stall(t, self.round), "Spit!")]
        # Nobody can spit and nobody can move: fewer tableau cards wins (default variant).
        a, b = (self.table.sides[s].tableau_cards for s in SEATS)
        last: Seat = self._last_to_centre or "A"
        if self.rules.stuck_rule == "last_play_wins":
            winner: Seat = last
        else:
            winner = "A" if a < b else "B" if b < a else last
        stuck = Call(t, None, "Nobody can move and nobody has spit cards left.")
        return [stuck, *self._round_end(t, winner)]

    def _spit_shown_empty(self, seat: Seat) -> bool:
        """Does the camera show ``seat``'s spit pile settled empty, having shown it with
        cards since the deal?  A zone that never showed the pile's back reads empty
        whatever lies there (dev game 2296, dark backs on a striped cloth: A's spit pile
        read empty from round 3's deal on, and counted with one card when A's tableau
        emptied, A was taken to be out of cards and the game won four rounds early)."""
        return self._spit_shown.get(seat) == "empty" and seat in self._spit_seen_down

    def _round_end(self, t: float, winner: Seat) -> list[Call]:
        self.round_winner = winner
        calls = [Call(t, RoundEnd(t, self.round, winner),
                      f"{_sentence(self._name(winner))} wins round {self.round}.")]
        side = self.table.sides[winner]
        if side.tableau_cards == 0 and 0 < side.spit <= SPIT_DRIFT and self._spit_shown_empty(winner):
            # the camera shows the spit pile settled empty: our count drifted.  Not when
            # the count holds more: a spit zone beside the pile (its back never found,
            # dev game 2014) reads empty all game, and a game is not over in round 1
            side.spit = 0
        if side.tableau_cards == 0 and side.spit == 0 and self._spit_shown.get(winner) != "face_down":
            self.phase = "game_over"
            self._over_at, self._over_in_play = t, True
            calls.append(Call(t, GameEnd(t, self.round, winner),
                              f"{_sentence(self._name(winner))} has no cards left and wins the game "
                              f"after {self.round} round{'s' if self.round != 1 else ''}."))
            return calls
        fed = self.table.fed_piles()
        if len(fed) == 1:
            # One centre pile: the winner takes nothing, the other player takes it.
            loser = other_seat(winner)
            return calls + self._settle(t, {loser: fed[0]})
        self.phase = "round_over"
        self._ended_at, self._slaps_since_end = t, []
        early = [s for s in self._early_slaps if 0 <= t - s.t < EARLY_SLAP_S
                 and (self.rules.take == "slap_race" or s.player == winner)]
        self._early_slaps = []
        if early:
            self._pending_slaps.extend(early)
            return calls + self._decide_slaps(t)
        who = "Either player" if self.rules.take == "slap_race" else _sentence(self._name(winner))
        calls.append(Call(t, None, f"{who}: slap to take a pile."))
        return calls

    # ------------------------------------------------------------------ buttons
    def press(self, press: ButtonPress) -> list[Call]:
        """Handle a spit button or slap pad press (timestamped at the edge)."""
        self._adopt_rules()
        echo = Call(press.t, Button(press.t, max(self.round, 1), press.button, press.player), None)
        if press.button == "spit":
            # The players answering our own "Spit!" (a spit card seen early may have put
            # the game back in play): the same stall, not a second one.
            answering = self._stall_unpressed and press.t - self._stall_at < ANSWER_S
            if self.phase in ("stalled", "playing"):
                # The players say they spit now (their cards will show, seen or not),
                # unless this press answers the "Spit!" the referee called itself.
                if self._stall_unpressed:
                    self._stall_unpressed = False
                else:
                    self._spit_due += 1
            if self.phase == "playing" and (self.table.is_stuck()
                                            or self._only_unknown_moves(press.t)):
                # Every move left to the referee needs a card the camera could not
                # read: the players, who can read it, say nobody can move.
                self.phase = "stalled"
                self._mark_stall()
                if answering:
                    return [echo, Call(press.t, None, "Three, two, one, spit!")]
                return [echo, Call(press.t, Stall(press.t, self.round), "Three, two, one, spit!")]
            return [echo, Call(press.t, None, self._spit_answer())]
        if press.player is None:
            return [echo, Call(press.t, None, "A slap needs the pad's player (A or B); ignoring it.")]
        if self.phase == "game_over":
            if self._over_in_play and self._finished_too(press, self._over_at):
                return [echo, *self._reopen_round(press)]
            return [echo, Call(press.t, None, "The game is over; deal a new game to play again.")]
        if self.phase in ("playing", "stalled") and self._looks_laid_out(press.player):
            # The camera shows the slapper's tableau gone: the round is over, whatever
            # card went unseen on the way.
            for col in self.table.sides[press.player].columns:
                self._clear_column(col)
            ended = self._after_change(press.t)
            if self.phase == "round_over":
                return [echo, *ended, *self.press(press)[1:]]
            return [echo, *ended]
        if self.phase != "round_over":
            if self.phase in ("playing", "stalled"):
                # The camera may not have seen the last card yet (a slapping hand hides it).
                self._early_slaps = [s for s in self._early_slaps if press.t - s.t < EARLY_SLAP_S]
                self._early_slaps.append(press)
            return [echo, Call(press.t, None, f"No round has ended; the slap by {self._name(press.player)} does nothing.")]
        self._slaps_since_end.append(press)
        if not self._pending_slaps and self._finished_too(press, self._ended_at):
            # Both tableaux are empty and the other player slaps: under winner-chooses
            # only the winner slaps, so they emptied theirs first (dev game 2064: B's
            # last card landed 40 ms before A's, was named a frame after it, and A was
            # called the winner; B's slap was refused, and the round was never taken).
            return [echo, *self._reopen_round(press, game_over=False)]
        if self.rules.take == "winner_chooses" and press.player != self.round_winner:
            assert self.round_winner is not None
            return [echo, Call(press.t, None,
                               f"{_sentence(self._name(self.round_winner))} won the round and chooses a pile first.")]
        self._pending_slaps.append(press)
        return [echo, *self._decide_slaps(press.t)]

    def _finished_too(self, press: ButtonPress, ended_at: float) -> bool:
        """Is ``press`` a slap, within ``UNENDED_S`` of the end called at ``ended_at``, by
        the player not called the winner, whose tableau is empty too (under
        winner-chooses only the winner slaps: ``_reopen_round``)?"""
        assert press.player is not None
        return (self.rules.take == "winner_chooses" and press.player != self.round_winner
                and press.t - ended_at <= UNENDED_S
                and self.table.sides[press.player].tableau_cards == 0)

    def _reopen_round(self, press: ButtonPress, game_over: bool = True) -> list[Call]:
        """The round (with ``game_over``, the game: that player had no spit cards) was
        called for one player, and now the other player, whose tableau is empty too,
        slaps: under winner-chooses only the round's winner slaps, so they emptied theirs
        first (the camera saw their last card a frame later: synthetic game 1094, the two
        last cards 0.65 ms apart, after which the whole game went unrefereed).  The round
        is theirs, its piles are taken as usual, and the game goes on."""
        assert press.player is not None
        self.phase, self.round_winner = "round_over", press.player
        self._over_at, self._over_in_play = -1e9, False
        self._ended_at, self._slaps_since_end = press.t, []
        self._pending_slaps = [press]
        said = (f"{_sentence(self._name(press.player))} finished first: "
                f"{self._name(press.player)} wins round {self.round}"
                + (", and the game goes on." if game_over else "."))
        return [Call(press.t, RoundEnd(press.t, self.round, press.player), said),
                *self._decide_slaps(press.t)]

    def _looks_laid_out(self, seat: Seat) -> bool:
        """Did the camera last show none of ``seat``'s columns with a card (at least two
        seen empty, the rest hidden by hands)?"""
        shown = self._shown.get(seat, [])
        return (not any(state in ("face_up", "face_down") for state, _card in shown)
                and sum(1 for state, _card in shown if state == "empty") >= 2)

    def _only_unknown_moves(self, t: float) -> bool:
        """Are the only moves still open plays of an unread card, onto an unread pile top or
        of a card the camera no longer shows settled in its column (it is in a hand: the
        player holding it knows), or turning a card in a column whose back the camera has
        shown for ``STALE_BACK_S`` (and is there spit to turn)?"""
        if not any(self.table.sides[s].spit > 0 for s in SEATS):
            return False
        moves = self.table.open_moves()
        return bool(moves) and all(
            (m.kind == "play" and (m.card is None or f"{m.player}{m.column}" in self._unnamed
                                   or (m.pile is not None and (self._pile_unsure(m.pile)
                                                               or m.pile in self._unnamed))
                                   or self._shown_state(m.player, m.column) == "unsettled"))
            or (m.kind == "reveal"
                and t - self._back_since.get((m.player, m.column), t) >= STALE_BACK_S)
            for m in moves)

    def _shown_state(self, seat: Seat, column: int) -> str | None:
        """How the camera last showed one of ``seat``'s columns (None: not shown)."""
        shown = self._shown.get(seat, [])
        return shown[column - 1][0] if 0 < column <= len(shown) else None

    def _spit_answer(self) -> str:
        if self.phase in ("dealt", "stalled"):
            return "Three, two, one, spit!"
        if self.phase == "playing":
            moves = self.table.open_moves()
            if moves:
                return f"Not stuck yet: {moves[0].describe()}."
            return "Three, two, one, spit!"
        if self.phase == "round_over":
            return "The round is over: slap your pad to take a pile."
        if self.phase == "game_over":
            return "The game is over."
        return "Deal the cards first."

    def tick(self, t: float, table_busy: bool = False, hold_slap: bool = False) -> list[Call]:
        """Let time pass to ``t``.

        A slap is final once no rival can be within the tie window.  ``table_busy`` says
        the camera sees a card in a hand or a covered zone: a stall is only called once
        the table is settled, so a card on its way never meets a premature "Spit!".
        ``hold_slap`` says a hand that was over a column holding a card when the slap
        came is there still: the piles are settled once it leaves (and what it took is
        known), or ``SLAP_HOLD_S`` after the slap.
        """
        self._adopt_rules()
        calls = self._decide_slaps(t, hold_slap)
        was_busy, self._busy = self._busy, table_busy
        if was_busy and not table_busy:
            calls += self._after_change(t)
        return calls

    @property
    def slap_pending(self) -> bool:
        """The round is over and a slap waits to settle who takes which pile."""
        return self.phase == "round_over" and bool(self._pending_slaps)

    @property
    def slap_at(self) -> float | None:
        """When the first slap still waiting to settle the piles came."""
        return min(s.t for s in self._pending_slaps) if self._pending_slaps else None

    def _decide_slaps(self, t: float, hold: bool = False) -> list[Call]:
        if not self._pending_slaps or self.phase != "round_over":
            return []
        slaps = sorted(self._pending_slaps)
        first = slaps[0]
        rivals = [s for s in slaps[1:] if s.player != first.player]
        window = self.rules.slap_tie_window
        if rivals and rivals[0].t - first.t <= window:
            self._pending_slaps.clear()
            return [Call(t, None, "A tie! Slap again.")]
        if not rivals and t - first.t <= window:
            return []  # a rival's slap may still arrive within the tie window
        if hold and t - first.t < SLAP_HOLD_S:
            return []  # a card may have left a column under a hand just before the slap
        self._pending_slaps.clear()
        assert first.player is not None
        _held, piles = self._held_and_piles()
        own = self.spit_pile[first.player]
        if self.rules.pad_claims == "spit_side":
            claimed = own
        else:
            claimed = own if piles[own] <= piles[other_pile(own)] else other_pile(own)
        return self._settle(first.t, {first.player: claimed, other_seat(first.player): other_pile(claimed)})

    def _settle(self, t: float, takes: dict[Seat, Pile]) -> list[Call]:
        """Players take piles; announce the takes and each player's count for the next round."""
        calls: list[Call] = []
        counts, in_pile = self._held_and_piles()
        words: list[str] = []
        for seat in takes:  # the slapper first
            pile = takes[seat]
            n = in_pile[pile]
            counts[seat] += n
            calls.append(Call(t, Take(t, self.round, seat, pile, n), None))
            words.append(f"{self._name(seat)} takes the {pile} pile, {n} cards")
        self.counts = counts
        calls.append(Call(t, RoundSummary(t, self.round, dict(counts)), (
            _sentence("; ".join(words)) + ". "
            f"Next round: {self._name('A')} has {counts['A']} cards, "
            f"{self._name('B')} has {counts['B']}.")))
        self.phase, self._settled_at = "waiting_deal", t
        for seat in SEATS:
            if counts[seat] == 0:
                self.phase, self._over_at = "game_over", t
                calls.append(Call(t, GameEnd(t, self.round, seat),
                                  f"{_sentence(self._name(seat))} has no cards left and wins the game."))
                return calls
        limit = self.rules.round_limit
        if limit is not None and self.round >= limit:
            a, b = counts["A"], counts["B"]
            winner: Seat = "A" if a < b else "B" if b < a else (self.round_winner or "A")
            self.phase, self._over_at = "game_over", t
            calls.append(Call(t, GameEnd(t, self.round, winner),
                              f"That was the last of {limit} rounds: {self._name(winner)} holds fewer "
                              "cards and wins the game."))
        return calls

    def _held_and_piles(self) -> tuple[dict[Seat, int], dict[Pile, int]]:
        """The cards each player still holds and the cards on each centre pile, adding up
        to the cards in play at the deal (52 in a whole game).

        What a player holds (tableau and spit cards, counted from the deal, reveals and
        spits) is the firmer count: a play the camera missed or doubled changes a pile's
        list, not the tableau; spit cards are counted by spit turns (one after the deal,
        one per stall or spit press), not by cards seen landing.  So the piles together
        hold exactly the rest.  Each pile has had its spit cards by the same turns (one
        from each player with spit cards, onto that player's spit pile), whatever spit
        cards the camera saw, and the plays reported onto it; a card missing from them
        goes to the pile its column top fitted when it left unseen (else to the pile with
        more plays reported: a play missed altogether most likely went where play was
        busiest), a card too many leaves a pile where it is doubled, then an unread play,
        then the larger pile.
        """
        total = sum(self.counts.values())
        held = {s: min(max(0, self.table.sides[s].total), self.counts[s]) for s in SEATS}
        rest = max(0, total - sum(held.values()))
        piles = {p: list(cards) for p, cards in self.table.piles.items()}
        fed = [p for p in PILES if piles[p]] or list(PILES)
        if len(fed) == 1:
            return held, {p: rest if p == fed[0] else 0 for p in PILES}
        plays = {p: list(cards) for p, cards in self._plays.items()}
        n = {p: self._spat[p] + len(plays[p]) for p in PILES}
        for pile, card in self._misfits:
            if card in plays[pile]:
                n[pile] -= 1
                n[other_pile(pile)] += 1
        missing = rest - sum(n.values())
        for guess in self._unseen:
            if missing <= 0:
                break
            if guess is not None:
                n[guess] += 1
                missing -= 1
        while missing > 0:
            # a play the camera missed altogether most likely went where play was busiest
            n[max(PILES, key=lambda p: len(plays[p]))] += 1
            missing -= 1
        if missing < 0:
            seen: set[Card] = set()
            for p in PILES:
                for seen_card in plays[p]:
                    if seen_card is not None and seen_card in seen and missing < 0 and n[p] > 0:
                        n[p] -= 1
                        missing += 1
                    elif seen_card is not None:
                        seen.add(seen_card)
            for p in sorted(PILES, key=lambda p: -plays[p].count(None)):
                drop = min(-missing, plays[p].count(None), n[p])
                n[p] -= drop
                missing += drop
            while missing < 0:
                n[max(PILES, key=lambda p: n[p])] -= 1
                missing += 1
        return held, n

    # ------------------------------------------------------------------ state
    def expected_columns(self) -> dict[Seat, int]:
        """Columns each player should lay at the next deal, from their card counts (after
        the game's end, a new game's)."""
        return {s: columns_for(n) for s, n in self.expected_counts().items()}

    @property
    def spit_feeders(self) -> int:
        """How many players have spit cards, so how many piles the next spit feeds.

        Between rounds, those whose cards for the next deal leave some over after their
        columns: the table still holds the round played, and a player who had run out of
        spit cards in it may have some again (dev game 2678, round 9: B's one spit card,
        turned as the deal was seen, left B's spit pile empty, and with one feeder taken
        from round 8's table A's spit card went down alone; B's was reported as a card
        played from B's column 5)."""
        if self.phase in ("waiting_deal", "game_over"):
            return sum(1 for n in self.expected_counts().values() if deal_for(n).spit > 0)
        return sum(1 for s in SEATS if self.table.sides[s].spit > 0)

    def expected_counts(self) -> dict[Seat, int]:
        """The cards each player should deal at the next deal (after the game's end, a
        new game's)."""
        if self.phase == "game_over":
            return {s: self.rules.first_round_cards for s in SEATS}
        return dict(self.counts)

    @property
    def expects_spit(self) -> bool:
        """True when the next cards on the centre piles should be spit cards."""
        return self.phase in ("dealt", "stalled")

    def snapshot(self) -> dict[str, object]:
        """The game as plain data for the dashboard."""
        return {"round": self.round, "phase": self.phase, "counts": dict(self.counts),
                "round_winner": self.round_winner, **self.table.snapshot()}

    def restore(self, events: Iterable[AnyEvent]) -> None:
        """Rebuild the game from a logged event list (the game log), without announcing."""
        for event in events:
            if isinstance(event, Button):
                self.press(ButtonPress(event.t, event.button, event.player))
                self.tick(event.t + 1.0)
            else:
                self.observe(event)
