"""From per-frame table readings to table events, in real time.

Each zone of the table (ten columns, two centre piles, two spit piles) has a small
state machine with temporal voting: a new reading is accepted once it has been
seen in ``stable_frames`` frames in a row; a ``covered`` reading (a hand over the
zone) pauses the zone without changing it; a dropped frame changes nothing.

Accepted changes are explained with the one fact that makes Spit tractable: every
card is unique.  The tracker keeps where it believes each card is (a column, a
hand, a centre pile) and reports a transition as an event:

- column -> pile: ``Play``;  column -> another (empty) column: ``Move``;
- a new card in a column that had face-down cards: ``Reveal``;
- a pile's top going back to the card under it: ``Takeback`` of the card that left;
- a card of unknown origin on a pile: a spit card (grouped into one ``Spit``).

When a hand hid a pile while two cards went onto it (the pile shows a card never
seen, and a card that left a column never landed anywhere), the rank chain and the
tableau change rebuild the sequence: play, reveal, play.  What cannot be explained
is reported as an ``Unsure`` note instead of being invented.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from tablecam.cards import FULL_DECK, Card, Rank
from tablecam.events import (
    PILES,
    SEATS,
    AnyEvent,
    Deal,
    Move,
    Pile,
    Play,
    Reveal,
    Seat,
    Spit,
    TableauView,
    Takeback,
    other_pile,
)
from tablecam.referee.table import TableModel

ZoneState = Literal["empty", "face_up", "face_down", "covered"]
COLUMN_ZONES: tuple[str, ...] = tuple(f"{s}{i}" for s in SEATS for i in range(1, 6))
SPIT_ZONES: tuple[str, ...] = tuple(f"spit{s}" for s in SEATS)
#: The reader reads a zone that changed since the last frame (a hand moving) as covered
#: at confidence 1; a still zone where something unlike the table lies but no card was
#: found, at the share of it unlike the table.  A pile read so, with no frame of motion,
#: is a card the finder missed, not a hand over it: a card read there next, unlike the
#: top, is that top misread (dev game 3024, cards 35 pixels wide: the right pile's 4S,
#: unfound for 0.2 s, then read as 5S, was taken for a card turned up and played from
#: A5, whose face-down count came one short, and the next "Spit!" was never called).
STILL_COVER = 0.999


class ZoneObservationLike(Protocol):
    """What the tracker needs of one zone's reading (``tablecam.reading`` provides it)."""

    @property
    def state(self) -> str: ...

    @property
    def card(self) -> Card | None: ...


class TableReadingLike(Protocol):
    """What the tracker needs of one frame's reading."""

    @property
    def t(self) -> float: ...

    @property
    def zones(self) -> Mapping[str, ZoneObservationLike]: ...


@dataclass(frozen=True, slots=True)
class Unsure:
    """Something the tracker saw but cannot explain; said aloud rather than guessed."""

    t: float
    text: str


@dataclass(frozen=True, slots=True)
class Identified:
    """A column's face-up top, unreadable until now, has been read (no card moved)."""

    t: float
    player: Seat
    column: int
    card: Card


@dataclass(frozen=True, slots=True)
class PileIdentified:
    """A centre pile's top, unreadable until now, has been read (no hand came over it)."""

    t: float
    pile: Pile
    card: Card


@dataclass(frozen=True, slots=True)
class Relaid:
    """A card reported onto one pile unread has been read on the other pile: it was put
    there.  ``takeback`` takes it off the wrong pile, ``play`` lays it on the right one
    (said as a correction, not a collision)."""

    t: float
    takeback: Takeback
    play: Play


@dataclass(frozen=True, slots=True)
class PileDoubted:
    """A centre pile's card is not the card it was taken for, and becomes unknown: a
    top taken from the reader's likely faces on which a named card that does not fit it
    was laid (before that card's play), or a card under the top seen in a column."""

    t: float
    pile: Pile
    card: Card


Tracked = AnyEvent | Unsure | Identified | PileIdentified | PileDoubted | Relaid
ZoneValue = tuple[str, Card | None]  # (state, card)


@dataclass(slots=True)
class _Zone:
    accepted: ZoneValue = ("empty", None)
    candidate: ZoneValue | None = None
    run: int = 0
    covered: bool = False
    last_agree: float = 0.0  # the last time a reading agreed with the accepted value
    last_hidden: float = -1e9  # the last time a hand (or a camera gap) hid the zone
    interrupted: bool = False  # a hand came over the zone while a new value was voted on
    # Unreadable cards look alike: the reader's re-read of a pile says a new one landed.
    generation: int = 0
    accepted_generation: int = 0
    candidate_generation: int = 0
    accepted_at: float = -1e9  # when the accepted value was accepted
    last_read: float = -1e9  # the last frame in which the reader read the zone afresh
    # The highest probability the reader gave each listed face while the accepted
    # value stood (and the same for the value before it, for a card that just left).
    evidence: dict[Card, float] = field(default_factory=dict)
    last_evidence: dict[Card, float] = field(default_factory=dict)
    # Frames of the value being voted on (and of the accepted one) in which the reader
    # named the card itself, rather than the tracker picking it from the candidates.
    named_run: int = 0
    accepted_named: int = 0
    #: the accepted face was unreadable before, with no hand over the zone since: read at last
    read_at_last: bool = False
    #: no hand (or camera gap) hid the zone between the value before and the accepted one
    untouched: bool = False
    #: a hand (or a camera gap) has hidden the zone since its value was accepted, not
    #: counting the hand it was accepted under (a card named under the hand laying it)
    touched: bool = False
    #: the accepted value was taken while a hand covered the zone
    accepted_covered: bool = False
    #: when a fresh look at a pile last showed an unread card landed (``_resolve``)
    unread_look: float = -1e9
    #: the face the reader liked best in the zone's last face-up reading, and how much
    liked: Card | None = None
    liked_p: float = 0.0
    #: when the zone's current cover began (a hand, or something left lying over it)
    covered_since: float = -1e9
    #: the reader's likeliest faces in the zone's last face-up reading
    looks: tuple[tuple[Card, float], ...] = ()
    #: ... and its likeliest ranks given a face (empty from a reader that gives none)
    rank_looks: tuple[tuple[Rank, float], ...] = ()
    #: the last frame in which the reader itself named the zone's accepted card there
    named_at: float = -1e9
    #: the reader itself named the value before the accepted one (a card that just left)
    left_named: bool = False
    #: the last time a hand (motion, not a still cover) was seen over the zone
    last_moved: float = -1e9
    #: the card the reader itself names in the zone, and in how many frames in a row so
    #: far (whatever the tracker accepted there)
    raw_named: tuple[Card | None, int] = (None, 0)
    #: the face the reader liked best when the accepted face was accepted without being
    #: named (None: it was named, or is no face)
    unnamed_face: Card | None = None
    #: for a face accepted unnamed, the one rank its looks then made sure (``rank_floor``;
    #: None: none, or it was named)
    unnamed_rank: Rank | None = None


@dataclass(slots=True)
class _InHand:
    """A card that left its column and has not been seen landing yet."""

    seat: Seat
    column: int
    since: float
    #: for an unnamed card: the likeliest probability the reader gave each face it
    #: listed while the card lay in its column
    evidence: dict[Card, float] = field(default_factory=dict)
    down: int = 0  # face-down cards left in the column when it left
    #: the reader itself named the card in its column before it left
    named: bool = False


@dataclass(slots=True)
class _Round:
    down: dict[tuple[Seat, int], int] = field(default_factory=dict)
    columns: dict[Seat, int] = field(default_factory=dict)
    pile_cards: dict[Pile, list[Card | None]] = field(default_factory=lambda: {p: [] for p in PILES})
    played_from: dict[Card, tuple[Seat, int]] = field(default_factory=dict)
    #: cards the reader itself named on a pile when they landed (a spit card or a play)
    named_on_pile: set[Card] = field(default_factory=set)
    #: per pile, a column's card its top was misread as, and that top (``_pile_arrival``)
    misread_tops: dict[Pile, tuple[Card, Card]] = field(default_factory=dict)
    #: ... of them, those named where no hand had been over the pile since its top before
    named_untouched: set[Card] = field(default_factory=set)
    #: columns whose accepted top was played while the zone still showed it (the reader
    #: took what lies there now for that card): what is there is not known until the
    #: zone's value changes
    played_tops: set[str] = field(default_factory=set)
    #: cards the reader named in their column that then landed where no other card
    #: could have gone (the one card in a hand), or named on a pile whose later unread
    #: look was judged to be the same top: the zone they lie in.  Such a top bears a
    #: "Spit!" though the reader does not name it there (``unnamed_tops``).
    traced: dict[Card, str] = field(default_factory=dict)
    #: piles whose top is a card played unread that its column's reads gave one rank
    #: surely: the pile's length then, and that rank (``sure_ranks``)
    unread_ranks: dict[Pile, tuple[int, Rank]] = field(default_factory=dict)
    #: named cards seen nowhere before that came into an empty column with no card in a
    #: hand to explain them: (seat, card, column, time)
    nowhere: list[tuple[Seat, Card, int, float]] = field(default_factory=list)
    #: piles where an unread card landed while more than one card in a hand fitted
    #: there: the card taken for it, and the others (``_may_have_landed``)
    contested: dict[Pile, tuple[Card, frozenset[Card]]] = field(default_factory=dict)


class Tracker:
    """Turns a stream of ``TableReading``s into table events (see the module docstring)."""

    def __init__(self, stable_frames: int = 2, spit_window: float = 0.6,
                 deal_settle: float = 0.6, hand_timeout: float = 2.0) -> None:
        self.stable_frames = stable_frames
        self.spit_window = spit_window
        self.deal_settle = deal_settle
        self.hand_timeout = hand_timeout
        #: A pile hidden (hand or camera gap) this long may have had cards played under its new top.
        self.hidden_pile_s = 0.5
        #: ... but not for a card plainly played from a column, unless hidden this long.
        self.long_hidden_s = 1.0
        #: A card in a hand that can only go onto one pile is taken to be there after this
        #: long, busy table or not (its landing was missed).
        self.quick_settle_s = 0.7
        #: ... and after this long when a hand is over that pile.
        self.covered_settle_s = 0.5
        #: A column's named top read as another card of its colour within this long of
        #: its last agreeing read, no back shown between, is that card read again.
        self.reread_s = 0.4
        #: A card seen nowhere that came into an empty column is the card of the same
        #: colour that leaves another of the player's columns within this long after.
        self.nowhere_s = 1.0
        #: A card played, the one under it turned up and played too take longer than this.
        self.chain_s = 0.6
        #: Columns each player should lay at the next deal (set by the pipeline from the
        #: referee's counts); lets a deal be reported as soon as it is complete.
        self.expected_columns: dict[Seat, int] | None = None
        #: Whether new cards on the centre piles should be spit cards (set by the pipeline
        #: from the referee: after a deal or a stall).  Otherwise a card of unknown origin
        #: is first explained as a face-down card revealed and played under a hand.
        self.spit_expected = True
        self._spit_due_since: float | None = None  # the first frame with spit cards due
        #: How many piles the next spit feeds (players with spit cards), from the referee.
        self.spit_feeders: int | None = None
        #: Whether the round's takes are settled and the next deal is awaited (set by the
        #: pipeline from the referee): once neither pile shows a face, the piles were taken.
        self.round_settled = False
        self.round = 0
        self._zones: dict[str, _Zone] = {}
        self._phase: Literal["idle", "playing"] = "idle"
        self._cleared: set[Seat] = set(SEATS)  # sides seen empty since the last round
        self._cleared_weakly: set[Seat] = set()  # ... or two columns empty, the rest hidden
        self._last_change = 0.0
        self._in_hand: dict[Card, _InHand] = {}
        self._unseen_left: list[_InHand] = []  # face-down cards turned up and gone unseen
        self._unknown_hands: list[_InHand] = []  # unreadable tops that left their column
        # columns hidden at the deal, taken to hold a face: the first face read there is it
        self._dealt_hidden: set[str] = set()
        self._held_reveals: dict[tuple[Seat, int], Reveal] = {}
        self._pending_spit: dict[Pile, Card | None] = {}
        self._spit_since = 0.0
        self._spit_unexpected = False  # the pending spit began with no spit cards due
        self._spit_feeders = 2
        self._r = _Round()
        self._busy = False
        #: like ``_busy``, but a column long covered over its named card is settled
        self._unsettled = False
        self._moving = False  # a zone is changing, or covered over a card not known
        self._moving_zones: set[str] = set()  # ... which zones
        self._resting: set[str] = set()  # columns a hand rests over, their top known
        self._last_t = 0.0
        self._deferred: dict[str, tuple[ZoneValue, float, bool]] = {}
        self._located_cache: dict[Card, str] | None = None
        self._reread: set[str] = set()  # zones the reader read afresh in this frame
        self._frame_zones: Mapping[str, ZoneObservationLike] = {}  # this frame's reading
        #: An unreadable face is named after its likeliest *possible* card when the
        #: reader gives that card at least ``candidate_floor`` and ``candidate_margin``
        #: times the next possible one (``deal_floor`` at the deal, where few cards
        #: are ruled out).
        self.candidate_floor = 0.05
        self.candidate_margin = 4.0
        self.deal_floor = 0.5
        #: A top the tracker believes, that the reader did not name but likes best with
        #: at least this probability in the frame, may bear a "Spit!" (``unnamed_tops``).
        self.liked_floor = 0.5
        #: ... but not a column's, when the reader gives another rank there at least this
        #: likely and a card of that rank would fit a pile (``_doubt_fits``).
        self.liked_doubt = 0.1
        #: ... as may a top traced from its column (``_Round.traced``), unless the reader
        #: all but names another face there: this likely (a 9 read as a 6 at 0.55 is no
        #: reason to doubt where the one card in a hand went; dev game 2064).
        self.traced_doubt = 0.9
        #: A column covered this long while it showed a card the reader named (or nothing)
        #: keeps that card for the referee (``busy``, ``settled_columns``): something lies over it,
        #: and a card taken from under it would show up in a hand or on a pile.
        self.long_cover_s = 1.0
        #: A pile read as covered with no motion over it this long since a hand last was
        #: there holds no stall check back (its known top is still there).
        self.still_pile_s = 0.3
        #: An unnamed column top is one of the ranks its likeliest faces give at least
        #: this much together (``sure_ranks``), whatever its suit.
        self.rank_floor = 0.95
        #: The plays and moves of the last ``update`` that the camera saw whole: the
        #: card named by the reader on the pile it landed on, the pile's top under it
        #: named there too, no long hand over the pile and no other card on its way
        #: that could lie between (a move: its column seen holding a card).  Only these
        #: are evidence enough to call a play or move illegal (``app.judge``).
        self.firm: list[Play | Move] = []

    # ------------------------------------------------------------------ public
    @property
    def busy(self) -> bool:
        """A card is in a hand, a zone is covered or still changing: the table is not settled
        (a column covered for ``long_cover_s`` over a named card counts as settled)."""
        return self._unsettled or bool(self._in_hand) or self._awaiting()

    @property
    def settling(self) -> bool:
        """Like ``busy``, except that a hand resting over a column whose top is known
        (named, or empty) does not count, nor a card in a hand that can only go back
        (``_returning``): the stall check may go on.  Every pile is in view, so no card
        can reach one unseen; and on a stuck table that top fits no pile, so picking it
        up changes nothing a stall depends on.  Nor does a hand moving over its own player's
        columns while that player takes such a card back (``_homeward``)."""
        returning = self._returning()
        if set(self._in_hand) - returning or self._awaiting():
            return True
        return self._moving and not self._homeward(returning)

    def _homeward(self, returning: set[Card]) -> bool:
        """Is every zone a hand moves over a column of a player taking a card back to its
        column (``returning``: a collision's loser)?  That hand carries the card home; on a
        stuck table nothing it could do in its own columns frees a move the referee does
        not already count (a reveal or a move into an empty column is one), so the stall
        check need not wait for it (dev games 2045, 2064 and 2072: "Spit!" called only
        once the loser's card lay back in its column, 0.51-0.67 s after the stall; the
        players' press came first in two)."""
        if self.spit_expected or self._pending_spit:
            # (spit cards due or on their way: the tops a card fits may be changing
            # unseen; dev game 2678: A's 8H, lifted as the spit cards came down, fitted
            # neither top as last read, and a "Spit!" was called while B's 7C fitted
            # the new one)
            return False
        seats = {self._in_hand[card].seat for card in returning}
        return bool(seats) and all(
            name in COLUMN_ZONES and _seat_column(name)[0] in seats for name in self._moving_zones)

    def _awaiting(self) -> bool:
        """Is something besides zones and held cards still to be explained (a spit card
        waiting for its partner, a departure, a deferred pile, an unreadable card)?"""
        return (bool(self._pending_spit) or bool(self._unseen_left) or bool(self._deferred)
                or bool(self._unknown_hands))

    def _returning(self) -> set[Card]:
        """The cards in a hand that fit neither pile's top (both known) and whose column
        shows no other card: they can only go back (a collision's loser on its way home).
        Neither a stall check nor the referee's view of that column waits for them."""
        tops = [self._top(p) for p in PILES]
        if self._phase != "playing" or any(top is None for top in tops):
            return set()
        out = set()
        for card, hand in self._in_hand.items():
            state, shown = self._column_value(hand.seat, hand.column)
            if (not any(card.fits_on(top) for top in tops if top is not None)
                    and not (state == "face_up" and shown is not None and shown != card)
                    and not self._may_have_landed(card)):
                out.add(card)
        return out

    def _may_have_landed(self, card: Card) -> bool:
        """Could ``card`` be the unread card that landed on a pile, which the tracker took
        for another card in a hand that fitted there too?  (Dev game 2378: A's 9D and
        B's JC went for 10D together, the top read unnamed; 9D was taken for it, JC for
        a card on its way back, and "Spit!" was called mid-collision: JC had won, and A
        took 9D back.)"""
        for pile in PILES:
            chosen, others = self._r.contested.get(pile, (None, frozenset()))
            cards = self._r.pile_cards[pile]
            if card in others and cards and cards[-1] == chosen:
                return True
        return False

    @property
    def waiting_for_deal(self) -> bool:
        """No round is on the table: the next thing to see is a deal."""
        return self._phase == "idle"

    def update(self, reading: TableReadingLike) -> list[Tracked]:
        """Take one frame's reading; return the events (and notes) it makes certain."""
        t = reading.t
        changes: list[tuple[str, ZoneValue, ZoneValue]] = []
        busy = unsettled = moving = False
        self._resting = set()
        self._moving_zones = set()
        gap = t - self._last_t > 0.5
        self._last_t = t
        reread = set(getattr(reading, "reread", ()) or ())
        self._reread = reread
        self._frame_zones = reading.zones
        self._located_cache = None
        self.firm = []
        if not self.spit_expected:
            self._spit_due_since = None
        elif self._spit_due_since is None:
            self._spit_due_since = t
        for name, obs in reading.zones.items():
            zone = self._zones.setdefault(name, _Zone())
            if obs.state == "face_up" and obs.card is not None:
                zone.raw_named = (obs.card, zone.raw_named[1] + 1 if zone.raw_named[0] == obs.card else 1)
            else:
                zone.raw_named = (None, 0)
            state = obs.state
            if gap:
                zone.last_hidden = t
                zone.touched = True
            if state == "covered":
                zone.last_hidden = t
                if not zone.covered:
                    zone.covered_since = t
                still = getattr(obs, "confidence", 1.0) < STILL_COVER
                if not still:
                    zone.last_moved = t
                if not (zone.accepted_covered and zone.covered_since <= zone.accepted_at) and not (
                        name in PILES and still):
                    zone.touched = True
                zone.covered = True
                zone.interrupted = zone.candidate is not None
                busy = True
                if (zone.candidate is not None and zone.named_run
                        and self._held_fit(name, zone.candidate[1], changes)):
                    # A card named on this pile under the hand that laid it, whose
                    # column is seen to have lost it only now, with the hand still
                    # there: it is as good as named in this frame (dev game 2000: 10H
                    # named under the hand at 0.03 s, reported at 0.29 s when the hand
                    # had gone and it was named a second time)
                    changes.append((name, zone.accepted, zone.candidate))
                    zone.run, zone.named_run = 1, 1
                    continue
                hint = obs.card if getattr(obs, "under_hand", False) else None
                if (hint is not None and zone.accepted != ("face_up", hint)
                        and self._held_fit(name, hint, changes)):
                    # The reader's hint under the hand that laid it (its one name for the
                    # new top, below the confidence it names a card with) is a card in a
                    # hand that fits this pile: it is that card, in this frame (dev game
                    # 2001: 8D hinted at 0.88 0.07 s after it landed, named 0.2 s later).
                    # Not named, though: no "Spit!" rests on it until the reader names it.
                    zone.candidate = ("face_up", hint)
                    changes.append((name, zone.accepted, zone.candidate))
                    zone.run, zone.named_run = 1, 0
                    continue
                if (hint is not None and name in PILES and self.spit_expected
                        and zone.accepted != ("face_up", hint) and self._where(hint)[0] == "unknown"):
                    # Spit cards are due and the reader names a card seen nowhere under the
                    # hand that turned it: a vote for that spit card, as a frame naming it
                    # in plain view would be.  The look under the hand is outlined from
                    # what changed, and the pile's outline once the hand has gone may take
                    # in cards below (dev game 2078: 6C, hinted at 0.96 under the hand and
                    # named in the next frame, then read as QC 0.44 for 0.8 s; the "Spit!"
                    # after it waited for the players' press).
                    voted: ZoneValue = ("face_up", hint)
                    if _vote(zone, voted, 1, zone.candidate == voted) >= self.stable_frames:
                        changes.append((name, zone.accepted, voted))
                    continue
                if self._resting_over_known(name, zone):
                    self._resting.add(name)
                    # (a column long covered over its known card is settled outright)
                    unsettled = unsettled or t - zone.covered_since < self.long_cover_s
                elif (name in PILES and self._phase == "playing" and zone.accepted[0] == "face_up"
                      and zone.accepted[1] is not None and t - zone.last_moved > self.still_pile_s
                      and not self.spit_expected):
                    # A pile whose top is known, read as covered with no motion over it
                    # for a while: its outline is lost, no hand is there (a card laid would
                    # have come with one); the stall check need not wait for it (dev game
                    # 2378, cards 35 pixels wide: QD "unfound" for 1.6 s after A's arm had
                    # passed, and the "Spit!" waited 0.8 s for the players' press)
                    unsettled = True
                elif name in SPIT_ZONES and self._phase == "playing":
                    # A hand over a spit pile in play: spit cards go down only after a
                    # "Spit!", and a card on its way from a column is in a hand already;
                    # the stall check need not wait for it (dev game 2048: A's hand
                    # rested by A's spit pile, and a stall was called 0.36 s late)
                    unsettled = True
                else:
                    unsettled = moving = True
                    self._moving_zones.add(name)
                continue
            zone.covered = False
            if state == "face_up":
                looks = getattr(obs, "candidates", ()) or ()
                zone.liked, zone.liked_p = max(looks, key=lambda cp: cp[1]) if looks else (obs.card, 1.0)
                zone.looks = tuple(looks)
                zone.rank_looks = tuple(getattr(obs, "ranks", ()) or ())
            value: ZoneValue = (state, self._resolve(name, zone, obs) if state == "face_up" else None)
            if (value == ("face_up", None) and zone.accepted[0] == "face_down" and name in COLUMN_ZONES
                    and self._phase == "playing" and zone.last_hidden < zone.accepted_at):
                # A back does not turn itself over: with no hand over the column since its
                # back was seen, an unnamed face there is that back misread (dev game 2040:
                # a back on a pale cloth read as a face, reported as an unread reveal; the
                # real reveal a second later counted a face-down card twice, and the unread
                # "card" lost in a hand was then played onto a pile nobody touched).
                value = zone.accepted
            named = int(value[1] is not None and obs.card == value[1])
            if named and value == zone.accepted:
                zone.named_at = t
            same_face = _likeliest_face(getattr(obs, "candidates", ()) or ()) == _likeliest_face(
                tuple(zone.evidence.items())) is not None
            if state == "face_up" and zone.accepted == ("face_up", None) and value == zone.accepted:
                for seen, p in getattr(obs, "candidates", ()) or ():
                    if p > zone.evidence.get(seen, 0.0):
                        zone.evidence[seen] = p
            unreadable = value == ("face_up", None)
            # A re-read after a hand was over the pile may be a new card; one with no
            # hand over it since the last read shows the same card, and so does one whose
            # likeliest face is the one the reader liked best for the unread top (a hand
            # reaching past the pile, not a card laid on it).
            if (unreadable and name in PILES and name in reread and self._phase == "playing"
                    and zone.last_hidden > zone.last_read and not same_face):
                zone.generation += 1
            if name in reread:
                zone.last_read = t
            if value == zone.accepted and (not unreadable or zone.generation == zone.accepted_generation):
                zone.candidate, zone.run = None, 0
                zone.last_agree = t
                zone.accepted_named += named
                continue
            busy = unsettled = moving = True
            needed = self.stable_frames * (3 if unreadable and not self._awaited(name) else 1)
            if value[1] is not None and self._held_fit(name, value[1], changes, lifting=bool(named)):
                needed = 1
            careful = False
            if (value[0] == "empty" and name in PILES and self._phase == "playing"
                    and self._r.pile_cards[name]
                    and not any(self._r.pile_cards[p] for p in PILES if p != name)):
                # The one pile in use this round (a player spitting alone from the start)
                # holding cards empties only when it is taken, after a round's end: with
                # the other pile empty all along, a few frames of "empty" there would end
                # the round (dev game 2041: the left pile read empty for three frames
                # during a collision, and the rest of the round went unrefereed).  Hands
                # come and go while piles are taken, so the frames need not be in a row.
                # (With both piles in use, both must read empty at once; on a checked
                # cloth an empty pile soon reads as a back, and waiting longer there
                # missed dev game 2040's fourth deal.)
                needed += 2
            if self._phase == "playing" and not self._expected(name, zone.accepted, value, t):
                needed += 2  # a surprising reading must persist longer than a likely one
                careful = True
            elif name in COLUMN_ZONES and value[0] == "face_up" and (
                    zone.accepted[0] == "face_down"
                    or (value[1] is not None and self._where(value[1])[0] == "unknown")):
                needed += 1  # a reveal is not urgent, and a misread one would stick
                careful = True
            same = value == zone.candidate and (not unreadable or zone.generation == zone.candidate_generation)
            # (careful changes count only frames in a row with no hand in between)
            if _vote(zone, value, named, same and not (careful and zone.interrupted)) >= needed:
                changes.append((name, zone.accepted, value))
        # Accept after judging every zone, so each judgement saw the table as it was.
        for name, _old, value in changes:
            zone = self._zones[name]
            # (the hand that laid a card named under it is no hand since: dev game 2064,
            # AH named under B's hand, then read 8H at 0.98 as the hand left, was taken
            # for a spit card 8H; the stall after the next play waited for the press)
            zone.untouched = not zone.touched
            zone.read_at_last = (zone.accepted == ("face_up", None) and value[0] == "face_up"
                                 and zone.untouched)
            zone.left_named = zone.accepted[0] == "face_up" and zone.accepted_named >= self.stable_frames
            zone.accepted, zone.candidate, zone.run = value, None, 0
            zone.accepted_generation = zone.candidate_generation
            zone.accepted_at = t
            zone.accepted_named = zone.named_run
            zone.touched, zone.accepted_covered = False, zone.covered
            # (a face accepted unnamed in this frame: the look it was accepted with)
            zone.unnamed_face = (zone.liked if value[0] == "face_up" and zone.named_run == 0
                                 and not zone.covered else None)
            zone.unnamed_rank = (self._sure_rank(dict(zone.looks))
                                 if zone.unnamed_face is not None else None)
            zone.last_evidence, zone.evidence = zone.evidence, {}
            self._r.played_tops.discard(name)
        self._busy, self._unsettled, self._moving = busy, unsettled, moving
        out: list[Tracked] = []
        if changes:
            self._last_change = t
        if (self._phase == "playing" and self.round_settled
                and all(p in reading.zones and reading.zones[p].state != "face_up"
                        for p in PILES)):
            # The referee has settled who takes which pile and neither pile shows a face:
            # they were taken, though an empty pile may not read "empty" (dev game 2078,
            # striped cloth: a taken pile read as a back for 4 s, and empty for two frames
            # only as the next deal's spit cards came; that deal went unseen and every
            # later round was counted one short).
            out += self._round_taken(t)
        if self._phase == "idle":
            out += self._watch_for_deal(t, changes)
            return out
        # Departures from columns first, then arrivals on piles, then arrivals in columns.
        changed_now = {name for name, _old, _new in changes}
        reread = {name for name, old, new in changes
                  if name in COLUMN_ZONES and self._read_again(t, name, old, new)}
        for name, old, new in changes:
            if name in COLUMN_ZONES and name not in reread:
                out += self._departure(t, name, old, new, changed_now)
        # Cards that left their column earlier are taken to have landed earlier.
        # A pile hidden for a while (a hand, a camera gap) waits until the columns have
        # settled, so that every card that left a column is known when its new top is
        # explained (up to half a second).
        for name, _old, new in changes:
            if name in PILES:
                zone = self._zones[name]
                hidden = (new[0] == "face_up" and t - zone.last_agree > self.hidden_pile_s
                          and not (t - zone.last_agree < self.long_hidden_s
                                   and self._plainly_played(name, new[1])))
                _value, since, was_hidden = self._deferred.get(name, (new, t, False))
                self._deferred[name] = (new, since, hidden or was_hidden)
        unsettled = any(self._zones[z].candidate is not None or self._zones[z].covered
                        for z in COLUMN_ZONES if z in self._zones)
        ready = [(name, new, hidden) for name, (new, since, hidden) in self._deferred.items()
                 if not (hidden and unsettled and t - since < 0.5)]
        for name, _new, _hidden in ready:
            del self._deferred[name]
        # Cards that left their column earlier are taken to have landed earlier.
        ready.sort(key=lambda c: self._left_at(c[1][1], t))
        for name, new, hidden in ready:
            out += self._pile_change(t, name, new, hidden)
        if self._pending_spit and len(self._pending_spit) >= self._spit_feeders:
            out += self._emit_spit(t)  # every spit card that landed in this frame, together
        for name, old, new in changes:
            if name in COLUMN_ZONES and new[0] == "face_up" and name not in reread:
                seat, column = _seat_column(name)
                if new[1] is None:
                    out += self._unreadable_arrival(t, seat, column, old[0])
                elif old == ("face_up", None) and name in self._dealt_hidden and any(
                        other != name and self._zones[other].accepted == new
                        for other in COLUMN_ZONES if other in self._zones):
                    # A column unknown since the deal named as the card another column
                    # shows: a misread of one of them, nothing moved; this one stays unknown
                    self._zones[name].accepted = old
                elif (old == ("face_up", None) and new[1] not in self._in_hand
                      and self._where_pile(new[1]) is None and self._read_at_last(name, new[1], t)):
                    out.append(Identified(t, seat, column, new[1]))  # read at last, nothing moved
                else:
                    out += self._column_arrival(t, seat, column, new[1], old[0] == "empty", old[1],
                                                old[0] == "face_down")
        self._dealt_hidden -= changed_now
        out += self._timeouts(t)
        return out

    # ------------------------------------------------------------------ reading
    def _resolve(self, name: str, zone: _Zone, obs: ZoneObservationLike) -> Card | None:
        """The card a face-up reading shows, given what the game allows there.

        A confident read is taken as it is (the voting judges it).  An unreadable one
        keeps the zone's card when no hand has been over the zone since that card was
        accepted (a card does not change untouched); otherwise the reader's likeliest
        faces are narrowed to the cards that can be there (every card is unique; a pile
        takes a card one rank from its top, from a column top or a hand, or a spit card
        or a face-down card turned over; a column shows its own card, a card coming back
        or moved in, or a face-down card turned over), and the best of those is taken
        when the reader clearly prefers it.  Otherwise the card stays unknown.
        """
        card = obs.card
        accepted = zone.accepted[1] if zone.accepted[0] == "face_up" else None
        if (card is not None and name in PILES and getattr(obs, "under_hand", False)
                and not self.spit_expected and self._awaited(name)
                and self._where(card)[0] == "unknown"
                and not card.fits_on(self._r.pile_cards[name][-1] or card)):
            # Named only from what a hand left showing of a pile, a card seen nowhere
            # that does not fit the top, while a card in a hand does: the view was
            # partial (its outline off the new top, taking in a card below), and the
            # card in the hand landed (dev game 2065: A's 5H on 6D, outlined over the
            # 8S under it and named 8H at 1.00, was taken for a spit card).
            return None
        if (card is not None and card != accepted and name in COLUMN_ZONES
                and self._phase == "playing"):
            where, owner, place = self._where(card)
            if where in ("column", "hand") and owner is not None and owner != name[0]:
                # Cards never pass between the players' tableaux: a card the other
                # player's column or hand holds is a misread here, of the card that lies
                # here (dev game 2078: B2's 3C, read 3S at 0.87-0.93 after a hand passed
                # while A3 showed 3S, was taken for a card gone into a hand, which held
                # every "Spit!" back to the players' press for the rest of the round)
                card = None
            elif (where == "column" and accepted is not None and f"{owner}{place}" != name
                    and self._still_holds(f"{owner}{place}", card)):
                # Nor is a card that another of the player's columns still holds as far
                # as the camera shows: no card is laid on a column's card, and one lifted
                # from under a hand would leave something else showing there (dev game
                # 2546: B's 2C, named in B5, read 2S after hands had passed over it for
                # 2 s, with 2S in B2; when 2C was moved out, "2S" was taken for moved
                # from B5 onto B2, and a pile's take came one out)
                card = None
            elif (where == "pile" and accepted is not None and place in PILES
                    and self._r.pile_cards[place][-1] != card):
                # Nor is a card under a pile's top, which never comes back up
                card = None
        if card is not None:
            return card
        if accepted is not None and (zone.last_hidden < zone.accepted_at or name in COLUMN_ZONES):
            # A card taken from a column shows the card back or the table under it
            # before anything new is laid there: an unnamed face is the same card.
            return accepted
        if (accepted is not None and name in PILES and self.spit_expected
                and self._spit_due_since is not None and zone.last_hidden < self._spit_due_since):
            # Spit cards are due, but no hand has been over this pile since: no card was
            # turned onto it, and its unread top is the one accepted before (dev game
            # 2061: KC, read as QC 0.55, JC 0.3 or KC 0.1, became an unnamed spit card
            # once "Spit!" was called, and with no top known there no "Spit!" was called
            # for the rest of the round).
            return accepted
        candidates = getattr(obs, "candidates", ()) or ()
        if not candidates:
            return None
        liked = dict(candidates)
        favourite = _likeliest_face(candidates)
        possible = self._possible(name) if self._phase == "playing" else None
        if (possible is not None and name in PILES and favourite is not None
                and favourite == zone.unnamed_face and favourite not in self._in_hand
                and self._top(name) is not None
                and (not self.spit_expected or (self._spit_due_since is not None
                                                and zone.last_hidden < self._spit_due_since))):
            # The pile's top, a card we know though the reader does not name it there,
            # liked best as the same face as when it was last accepted: the same card (a
            # hand passing by; a card laid on it would look otherwise), not the likeliest
            # face that may lie on it (the demo's 7C, landed unread on the left pile and
            # liked as 8S 0.21, became 8S, and once B's hand had passed with 3C it was
            # explained as a face-down card of B5 turned up and played unseen; the real
            # reveal there came "from nowhere").  So too once spit cards are due, until
            # a hand comes over the pile (dev game 2040: 4S, unread and liked as 3C,
            # became a spit card 3C the moment "Spit!" was called).  An unknown top (a
            # spit card unread) is still narrowed to the likeliest card that may be there.
            return accepted
        if possible is not None and accepted is not None and name in PILES:
            # The pile's known top among the reader's likely faces, with no card in a hand
            # and no spit due: the same card blurred (a hand passing), not a new one.
            if (liked.get(accepted, 0.0) >= self.candidate_floor and not self._in_hand
                    and not self._unknown_hands and not self.spit_expected):
                return accepted
            # ... and so is the known top still liked best, when no card in a hand fits it
            # (an unnamed one whose reads in its column gave only ranks that do not fit
            # it cannot have landed there either: dev game 2061, an arm over 8C while AC,
            # liked as AS or AC, went from A2 to the other pile).
            if (favourite == accepted and not self._awaited(name)
                    and not any(self._may_fit(hand, accepted) for hand in self._unknown_hands)
                    and not self.spit_expected):
                return accepted
        floor = self.candidate_floor if possible is not None else self.deal_floor
        best = self._best_possible(candidates, possible, floor)
        if (best is None and name in PILES and possible is not None and not self.spit_expected
                and favourite is not None and favourite in possible
                and liked[favourite] >= self.liked_floor
                and self._where(favourite)[0] in ("column", "hand")
                and (favourite in self._in_hand or not self._awaited(name))):
            # The reader likes best, at half or more, a card that may have left its
            # column under a hand and fits: that card, though a card never seen is liked
            # a little less (it would have to be turned up in view first; dev game 2040:
            # A's AD, lifted from under a hand resting on A2, liked as AD 0.59 or AH 0.39
            # on 2S, was taken for a spit card nobody was due to turn).  Not while a card
            # seen leaving its column is in a hand and fits (dev game 2078: B's 3S,
            # lifted from B5, laid on 4C as B's arm passed over A's 5S, and liked as 5S
            # 0.68 or 5C 0.21, was taken for 5S played from under the arm).
            return favourite
        if (name in PILES and possible is not None and accepted is not None and best == accepted
                and self.spit_expected and zone.accepted_named >= self.stable_frames
                and zone.last_hidden > zone.accepted_at and self._looked_since_hand(name, zone)):
            # Spit cards are due, a hand has been over the pile, and the reader, which
            # named its top surely before, no longer names it, though it likes it best of
            # the cards that may be there: a spit card it cannot name landed (dev game
            # 2041: JS turned onto 10D, liked as 10D or JD, was taken for 10D, and that
            # spit turn went uncounted).
            zone.unread_look = self._last_t
            return None
        if (name in PILES and possible is not None and accepted is not None and best in (accepted, None)
                and self._looked_since_hand(name, zone) and self._awaited(name)
                and (favourite != accepted
                     or (zone.accepted_named >= self.stable_frames and self._only_pile(name)))):
            # The reader, looking afresh after a hand, no longer likes the known top best
            # while a card in a hand fits it, or no longer names the top it named surely
            # before while no hand has been over the other pile since that card left:
            # that card landed, though the reader cannot name it (``_pile_arrival`` takes
            # it from the hand; dev game 2035: B's 8C, laid on 9C and liked as 9C but not
            # named, was never reported, and the "Spit!" due then was not called while
            # 8S still seemed to fit 9C).
            zone.unread_look = self._last_t
            return None
        if (name in PILES and zone.accepted == ("face_up", None) and zone.unread_look >= zone.accepted_at - 1.0
                and name not in self._reread and zone.last_read <= zone.unread_look):
            # The same look, a frame later, is still that unread card (not the old top,
            # which would be a takeback).
            return None
        if (name in PILES and best is not None and best not in self._in_hand
                and self._awaited(name) and liked.get(best, 0.0) < self.liked_floor
                and self._where(best)[0] in (("column",) if self.spit_expected
                                             else ("column", "unknown"))):
            # A card seen leaving its column fits this pile, and the reader only half likes
            # a card never seen leaving its own: the card in the hand landed, unread
            # (dev game 2061: A's KC, lifted from A4, laid on QD and liked as QC 0.17,
            # QS 0.14, JC 0.09 or JS, was taken for JS from under a hand resting on A2).
            # Nor is it a card never seen at all, which would have to be turned up in a
            # column first (dev game 2040: A's AH, blurred on KD and liked as KH 0.17 or
            # QH 0.11, was taken for QH from under B2, where a hand was turning 3C up).
            return None
        return best

    def _looked_since_hand(self, name: str, zone: _Zone) -> bool:
        """Has the reader read zone ``name`` afresh since a hand was last over it?"""
        return name in self._reread or zone.last_read > zone.last_hidden

    def _best_possible(self, candidates: tuple[tuple[Card, float], ...], possible: set[Card] | None,
                       floor: float) -> Card | None:
        """The likeliest of ``candidates`` in ``possible`` (None: any), if the reader gives
        it at least ``floor`` and ``candidate_margin`` times the next possible one.

        A card never seen (to be turned up unseen, or a spit card) must also stand out
        of the faces the reader did not list: it lists only its likeliest few, and a
        possible card left off may have as much as the least listed one (no more than
        what the list leaves of 1).  Dev game 2040 at 352.1 s: a face on 6S liked as 7S
        0.11, 8S 0.10, 10S or 9S 0.07, none of the others possible there listed, was
        taken for 7S turned up in A5 and played (the real 6S, laid a moment before,
        blurred); a "Spit!" was then called while a king could still move to an empty
        column.  A card seen in a hand or a column, or liked for an unnamed card in a
        hand, needs no more: that it is there is evidence the reader's list does not give
        (dev game 2065: KC, moved from A5 and liked in A1 as JC 0.34, QC 0.14 or KC
        0.13)."""
        ranked = sorted(((p, c) for c, p in candidates if possible is None or c in possible),
                        key=lambda pc: -pc[0])
        if not ranked:
            return None
        best_p, best = ranked[0]
        second_p = ranked[1][0] if len(ranked) > 1 else 0.0
        listed = {c for c, _ in candidates}
        if self._where(best)[0] == "unknown" and not self._liked_in_hand(best) and (
                possible is None or any(c not in listed for c in possible)):
            least = min(p for _, p in candidates)
            second_p = max(second_p, min(least, max(0.0, 1.0 - sum(p for _, p in candidates))))
        if best_p >= floor and best_p >= self.candidate_margin * second_p:
            return best
        return None

    def _located(self) -> dict[Card, str]:
        """Every card whose place this round is known (column tops, hands, piles)."""
        if self._located_cache is not None:
            return self._located_cache
        where: dict[Card, str] = {}
        for pile in PILES:
            for card in self._r.pile_cards[pile]:
                if card is not None:
                    where[card] = pile
        for card in self._in_hand:
            where[card] = "hand"
        for zone_name in COLUMN_ZONES:
            zone = self._zones.get(zone_name)
            if (zone is not None and zone.accepted[0] == "face_up" and zone.accepted[1] is not None
                    and zone_name not in self._r.played_tops):
                where[zone.accepted[1]] = zone_name
        self._located_cache = where
        return where

    def _located_now(self) -> dict[Card, str]:
        """``_located`` afresh (after this frame's changes)."""
        self._located_cache = None
        return self._located()

    def _possible(self, name: str) -> set[Card]:
        """The cards that can be the top of zone ``name`` now (see ``_resolve``)."""
        located = self._located()
        unseen = {c for c in FULL_DECK if c not in located}
        if name in PILES:
            cards = self._r.pile_cards["left" if name == "left" else "right"]
            shown = self._zones[name].accepted
            # the card the pile shows, else the last one we know went there
            top = shown[1] if shown[0] == "face_up" and shown[1] is not None else (
                cards[-1] if cards else None)
            out: set[Card] = {c for c in cards[-2:] if c is not None}
            # A column top still lying in its column, in plain view, is not on the pile.
            movers = [c for c, w in located.items()
                      if w == "hand" or (w in COLUMN_ZONES and not self._in_plain_view(w))]
            out |= {c for c in movers if top is None or c.fits_on(top)}
            if self.spit_expected or top is None:
                return out | unseen
            return out | {c for c in unseen if c.fits_on(top)}
        if name not in COLUMN_ZONES:
            return unseen | set(located)
        seat, column = _seat_column(name)
        zone = self._zones[name]
        out = {zone.accepted[1]} if zone.accepted[1] is not None else set()
        if self._r.down.get((seat, column), 0) > 0 or zone.accepted == ("face_up", None):
            out |= unseen
        out |= {c for c, h in self._in_hand.items() if h.seat == seat}
        out |= {c for c, w in located.items() if w in COLUMN_ZONES and w[0] == seat}
        out |= {c for c, src in self._r.played_from.items() if src == (seat, column)}
        return out

    def _in_plain_view(self, name: str) -> bool:
        """Does column ``name`` show its accepted card, with no hand over it and no change
        being voted on?"""
        zone = self._zones[name]
        return not zone.covered and zone.candidate is None and zone.last_agree >= self._last_t

    def _resting_over_known(self, name: str, zone: _Zone) -> bool:
        """Is ``name`` a column covered over a card the reader named itself, or over
        nothing, with no change being voted on?"""
        return (name in COLUMN_ZONES and self._phase == "playing" and zone.candidate is None
                and (zone.accepted == ("empty", None)
                     or (zone.accepted[0] == "face_up" and zone.accepted[1] is not None
                         and zone.accepted_named >= self.stable_frames)))

    def settled_columns(self) -> dict[Seat, list[ZoneValue]]:
        """Each player's columns as the camera shows them now, for the referee to check
        its table against (``Referee.reconcile``): ``(state, card)`` per column, with
        ``state`` "unsettled" where a hand, a vote or an unexplained departure is pending;
        ``("covered", card)`` where a hand rests over a column whose card the reader
        named (``card``, still there unless it left unseen) or over nothing (``card``
        None).
        Empty while no round is in play."""
        if self._phase != "playing":
            return {}
        returning = {(self._in_hand[card].seat, self._in_hand[card].column): card
                     for card in self._returning()}
        unexplained = ({(h.seat, h.column) for h in [*self._unknown_hands, *self._unseen_left]}
                       | set(self._held_reveals))
        held = [(h.seat, h.column) for h in self._in_hand.values()]
        pending = unexplained | set(held)
        # a column other cards are also on their way from (or back to) waits for them
        other_pending = unexplained | {place for place in held if held.count(place) > 1}
        out: dict[Seat, list[ZoneValue]] = {}
        for seat in SEATS:
            values: list[ZoneValue] = []
            for i in range(1, 6):
                zone = self._zones.get(f"{seat}{i}")
                if f"{seat}{i}" in self._r.played_tops:
                    values.append(("unsettled", None))
                elif (seat, i) in returning and (seat, i) not in other_pending:
                    values.append(("covered", returning[(seat, i)]))  # on its way back
                elif ((seat, i) in returning and (seat, i) not in other_pending - set(self._held_reveals)
                      and zone is not None and zone.accepted == ("face_up", None)
                      and not zone.covered and zone.candidate is None):
                    # A face the reader cannot name lies where a card on its way back
                    # left: that card laid back, or the one under it turned.  Either way
                    # it is what the column shows, and the referee judges it by the ranks
                    # the reader is sure of (dev game 2060: KS lost a collision and went
                    # back to A5, read as KS 0.50 or KC 0.50; the "Spit!" waited 0.6 s,
                    # to the players' press).
                    values.append(zone.accepted)
                elif zone is not None and f"{seat}{i}" in self._resting and (seat, i) not in pending:
                    values.append(("covered", zone.accepted[1]))
                elif zone is None or zone.covered or zone.candidate is not None or (seat, i) in pending:
                    values.append(("unsettled", None))
                else:
                    values.append(zone.accepted)
            out[seat] = values
        return out

    def unnamed_tops(self) -> set[str]:
        """The zones whose face-up card the reader has not named itself (the tracker took
        it from the candidates the rules allow, or it is unknown): a "Spit!" must not
        rest on them."""
        return {name for name, zone in self._zones.items()
                if (zone.accepted[0] == "face_up" and zone.accepted_named < self.stable_frames
                    and not self._liked_top(name, zone) and not self._traced_top(name, zone))
                or self._pile_look_lost(name, zone)}

    def _pile_look_lost(self, name: str, zone: _Zone) -> bool:
        """Has pile ``name``, named before a hand was over it, shown since only a face the
        reader cannot name and scarcely likes as anything, while a card is in a hand?
        Then something may have landed that we do not know fits (dev game 2418: B's 3C,
        taken for 3S, was laid on a 2C we had as 3C; the pile's new look, liked as 3C
        0.13, was taken for the old top, and "Spit!" was called with 3S in B's hand,
        fitting no pile as we had them, 0.8 s before the table stuck)."""
        obs = self._frame_zones.get(name)
        return (name in PILES and zone.accepted[0] == "face_up" and obs is not None
                and obs.state == "face_up" and obs.card is None and zone.liked_p < self.liked_floor
                and zone.named_at < zone.last_hidden and bool(self._in_hand or self._unknown_hands))

    def sure_ranks(self) -> dict[str, frozenset[Rank]]:
        """The column tops the reader did not name, with the ranks they can be in this
        frame: the likeliest ranks of its likeliest faces that together make at least
        ``rank_floor`` (what the listed faces leave unsaid counts as any rank; no other
        card believed there).  A play from them is judged by rank, the suit does not
        matter: when none of those ranks fits a pile, that top cannot be played (dev game
        2008: a small 6C read as 8C 0.75 or 6C 0.21 on piles of JS and 6S).

        A centre pile's unnamed top is listed too, when the ranks the reader is that sure
        of include the rank of the card we believe lies there: a "Spit!" rests on ranks
        only (dev game 2060: the spit card AC, read as AS 0.58 or AC 0.42 while AS lay in
        a column, held a stall back a second, to the players' press), and the referee
        judges whether the other ranks matter.  So is a top we know only as a card played
        unread, when the pile's reads give one rank alone and the reads in its column were
        as sure of it (``_Round.unread_ranks``)."""
        out: dict[str, frozenset[Rank]] = {}
        for name in (*COLUMN_ZONES, *PILES):
            zone = self._zones.get(name)
            if (zone is None or zone.accepted[0] != "face_up" or zone.covered or zone.candidate is not None
                    or zone.last_agree < self._last_t or not zone.looks):
                continue
            ranks, total = self._look_ranks(zone)
            believed = zone.accepted[1]
            if name in PILES:
                believed = self._top(name)
                # (a card played unread: listed when its column's reads gave the same one
                # rank; dev game 2066: 2C, read 2C 0.74 / 2S 0.26 in B4 and 2S 0.61 / 2C
                # 0.39 on the pile, left the "Spit!" after it to the players' press)
                if believed is None and (len(ranks) != 1 or self._unread_rank(name) not in ranks):
                    continue
            if total >= self.rank_floor and (believed is None or believed.rank in ranks):
                out[name] = frozenset(ranks)
        return out

    def _look_ranks(self, zone: _Zone) -> tuple[set[Rank], float]:
        """The likeliest ranks of the zone's last face-up look that together make at least
        ``rank_floor``, and their probability: from the reader's ranks given a face where
        it gives them, else from its faces.  A face's probability carries the doubt that
        the view is a face at all, which a zone seen face up settles: the faces of a court
        card sure of its rank and not of its suit can add up to less than the rank (dev
        game 2045: B5's QD, read QH 0.47, QD 0.40, QS 0.06 or QC 0.01, the rank head sure
        of a queen; the "Spit!" it held back came 1.1 s late, with the players' press)."""
        if not zone.rank_looks:
            return self._likely_ranks(zone.looks)
        return self._enough_ranks(dict(zone.rank_looks))

    def _likely_ranks(self, faces: Iterable[tuple[Card, float]]) -> tuple[set[Rank], float]:
        """The likeliest ranks of the reader's faces for a card that together make at
        least ``rank_floor`` (all of them, if they never do), and their probability."""
        by_rank: dict[Rank, float] = {}
        for card, p in faces:
            by_rank[card.rank] = by_rank.get(card.rank, 0.0) + p
        return self._enough_ranks(by_rank)

    def _enough_ranks(self, by_rank: Mapping[Rank, float]) -> tuple[set[Rank], float]:
        """The likeliest of ``by_rank`` that together make at least ``rank_floor`` (all of
        them, if they never do), and their probability."""
        ranks: set[Rank] = set()
        total = 0.0
        for rank, p in sorted(by_rank.items(), key=lambda rp: -rp[1]):
            if total >= self.rank_floor:
                break
            ranks.add(rank)
            total += p
        return ranks, total

    def _sure_rank(self, evidence: Mapping[Card, float]) -> Rank | None:
        """The one rank that the reader's faces for a card give at least ``rank_floor``
        together, if any."""
        ranks, total = self._likely_ranks(evidence.items())
        return next(iter(ranks)) if len(ranks) == 1 and total >= self.rank_floor else None

    def _unread_rank(self, pile: Pile) -> Rank | None:
        """The sure rank of ``pile``'s top, a card played unread (``_Round.unread_ranks``),
        while it is still the top."""
        cards = self._r.pile_cards[pile]
        known = self._r.unread_ranks.get(pile)
        if known is None or known[0] != len(cards) - 1 or cards[-1] is not None:
            return None
        return known[1]

    def _sole_hand(self, card: Card, seat: Seat | None = None, source: str | None = None) -> bool:
        """Is ``card``, named by the reader in its column before it left, the one card
        in a hand (of ``seat``, if given) with no spit due: then wherever a card lands
        unnamed next (of that seat's), it is this one.  A card laid before its column
        (``source``) was seen without it counts when the reader named it there and no
        other column is hidden or changing (dev game 2040: B's 4S, named in B5, laid
        on 3S and read there only as 5S 0.15, 6S 0.14 or 7S 0.14)."""
        if self.spit_expected:
            return False
        hand = self._in_hand.get(card)
        if hand is None:
            zone = self._zones.get(source) if source is not None else None
            if (zone is None or zone.accepted != ("face_up", card)
                    or zone.accepted_named < self.stable_frames
                    or any(other.covered or other.candidate is not None
                           for name, other in self._zones.items()
                           if name in COLUMN_ZONES and name != source)):
                return False
        elif not hand.named:
            return False
        return not any(other != card and (seat is None or held.seat == seat)
                       for other, held in self._in_hand.items()) and not any(
            seat is None or held.seat == seat for held in (*self._unknown_hands, *self._unseen_left))

    def _believed_top(self, name: str, zone: _Zone) -> Card | None:
        """The card we believe tops zone ``name``: a pile's last card, a column's accepted one."""
        return self._top("left" if name == "left" else "right") if name in PILES else zone.accepted[1]

    def _traced_top(self, name: str, zone: _Zone) -> bool:
        """Is the card we believe tops zone ``name`` one traced there (``_Round.traced``:
        named in its column and laid as the one card in a hand, or named on this pile
        before), with the reader liking no other face there at ``traced_doubt`` or more?"""
        top = self._believed_top(name, zone)
        return (top is not None and self._r.traced.get(top) == name
                and not (zone.liked is not None and zone.liked != top
                         and zone.liked_p >= self.traced_doubt))

    def _liked_top(self, name: str, zone: _Zone) -> bool:
        """Is the card we believe tops zone ``name`` the face the reader likes best there
        now (it did not name it, but would pick no other)?"""
        top = self._believed_top(name, zone)
        if not (top is not None and zone.liked == top and zone.liked_p >= self.liked_floor
                and zone.last_agree >= self._last_t and not self._doubt_fits(name, zone, top)):
            return False
        if name in PILES and zone.rank_looks and self._guessed_spit(top):
            # A spit card liked but never named is judged by the ranks the reader gives it
            # (``sure_ranks``), unless they come to its rank alone: it may be any card not
            # seen yet (a played card is one a column showed), so a face liked at little
            # more than half names no rank (dev game 2678: the spit card 2S, liked as 5S
            # 0.57, 6S 0.12 or 3S 0.10, ranks 5 0.65, 6 0.13 or 3 0.12, was taken for 5S,
            # and "Spit!" was called while AS and AC could go on it).
            ranks, total = self._look_ranks(zone)
            return total >= self.rank_floor and ranks == {top.rank}
        return True

    def _doubt_fits(self, name: str, zone: _Zone, top: Card) -> bool:
        """Does the reader give column ``name``'s card, which we believe is ``top``,
        another rank at ``liked_doubt`` or more that fits a pile?  Then a "Spit!" does
        not rest on ``top``, but on the ranks the reader is sure of (``sure_ranks``):
        dev game 2546, A4's 9H, never named, liked as 8H 0.70, 10H 0.16 or 9H 0.14 on
        piles of 3H and 10D, was taken for 8H, and "Spit!" was called 0.55 s before the
        table stuck."""
        return name in COLUMN_ZONES and any(
            card.rank != top.rank and p >= self.liked_doubt
            and any(self._fits_top(pile, card) for pile in PILES)
            for card, p in zone.looks)

    def settled_spit(self) -> dict[Seat, str]:
        """Each player's spit pile as the camera shows it now: "face_down" (cards left),
        "empty", or "unsettled"."""
        out: dict[Seat, str] = {}
        for seat in SEATS:
            zone = self._zones.get(f"spit{seat}")
            out[seat] = ("unsettled" if zone is None or zone.covered or zone.candidate is not None
                         else zone.accepted[0])
        return out

    def resume(self, round_number: int, table: TableModel) -> None:
        """Carry on a game restored from the log: believe the table the referee keeps."""
        self.round = round_number
        self._phase = "playing"
        self._cleared, self._cleared_weakly = set(), set()
        self._r = _Round()
        for seat in SEATS:
            columns = table.sides[seat].columns
            self._r.columns[seat] = len(columns)
            for i, col in enumerate(columns, start=1):
                self._r.down[(seat, i)] = col.down
                value: ZoneValue = (("face_up", col.up) if col.has_up
                                    else ("face_down", None) if col.down else ("empty", None))
                self._zones[f"{seat}{i}"] = _Zone(accepted=value)
        for pile in PILES:
            self._r.pile_cards[pile] = list(table.piles[pile])
            top = table.top(pile)
            self._zones[pile] = _Zone(accepted=("face_up", top) if table.piles[pile] else ("empty", None))

    def _awaited(self, name: str) -> bool:
        """Is ``name`` a pile that a card in a hand fits, so that a new unread card there is
        likely that card (it needs no longer look than a named one)?"""
        return name in PILES and self._phase == "playing" and self._held_fits(name)

    def _may_fit(self, hand: _InHand, top: Card) -> bool:
        """May the unnamed card in ``hand`` fit on ``top``?  No only when the reader,
        while the card lay in its column, liked one of its faces at ``liked_floor`` or
        more and none of the faces it liked at all (``candidate_floor``) fits."""
        liked = [card for card, p in hand.evidence.items() if p >= self.candidate_floor]
        if not liked or max(hand.evidence.values()) < self.liked_floor:
            return True
        return any(card.fits_on(top) for card in liked)

    def _only_pile(self, name: str) -> bool:
        """Has no hand been over the other pile since the cards now in hands left their
        columns (so that one of them can only have gone onto ``name``)?"""
        if not self._in_hand:
            return False
        left = min(hand.since for hand in self._in_hand.values())
        return all(self._zones.get(p, _Zone()).last_hidden < left for p in PILES if p != name)

    def _held_fit(self, name: str, card: Card | None,
                  changes: Sequence[tuple[str, ZoneValue, ZoneValue]] = (), lifting: bool = False) -> bool:
        """Is ``card`` one in a hand that fits the top of pile ``name``?  The reader naming
        it there once, or liking it best of the cards that can lie there without naming
        it, is then enough: that saves a frame on every such play, and the other player's
        hand is often over the pile the frame after (dev game 2072: B's 9H, liked at 0.78
        the frame the hand left, was reported a frame later).  Not for a card whose
        column's change is still being voted on: taken that early, heavy misreads
        (synthetic games at 8 %) made 3 false stalls more, and a synthetic game logged a
        move after its round had ended.  But a card whose column's change was decided in
        this very frame (``changes``, the columns being judged before the piles) is in a
        hand as much as one that left a frame earlier (dev game 2000: 6C named on the
        left pile in the one frame between its column turning to the back under it and
        the other player's hand, reported 0.42 s late).

        With ``lifting`` (the reader names ``card`` on the pile), so is the top of a column
        that a hand is over, if a hand has been over the pile since (``_lifting``; dev
        games 2066 and 2067: 3D and 10D named on the pile the frame the hand laying them
        left, their columns still covered, reported a frame and a look later).  Only for
        a card named in this frame: taken for one named earlier under a hand too, or
        with no hand seen over the pile, a misread played a card still in its column
        (synthetic games at 8 % misreads)."""
        if card is None or name not in PILES or self._phase != "playing":
            return False
        if card not in self._in_hand and not (lifting and self._lifting(name, card)) and not any(
                old == ("face_up", card) and new[1] != card for zone, old, new in changes
                if zone in COLUMN_ZONES):
            return False
        return self._fits_top(name, card)

    def _lifting(self, name: str, card: Card) -> bool:
        """Is ``card`` the named top of a column that a hand is over now, with a hand over
        pile ``name`` since that one came (a card picked up and laid there)?"""
        hidden = self._zones[name].last_hidden
        return any(zone.covered and zone.accepted == ("face_up", card)
                   and zone.accepted_named >= self.stable_frames and hidden >= zone.covered_since
                   for column, zone in self._zones.items() if column in COLUMN_ZONES)

    def _unread_fit(self, name: Pile, card: Card) -> bool:
        """Does ``card`` fit the top of pile ``name``, and is it a face the reader liked
        (``candidate_floor``) for an unnamed card that left its column and has not been
        seen landing (``_unknown_hands``)?"""
        return self._fits_top(name, card) and self._liked_in_hand(card)

    def _liked_of(self, zone: _Zone | None, cards: Sequence[Card]) -> Card | None:
        """The one of ``cards`` the pile's last face-up look likes (``candidate_floor``)
        ``candidate_margin`` times more than each of the others (one it did not list
        counts as its least listed face), if any.  Two cards in hands that fit an unread
        top: the reader's look tells which landed better than which left first (dev game
        2678: A's 2C and B's KS laid on AS together, B's taken back; the pile liked as
        2S 0.52 or 2C 0.48, KS not listed, KS was taken for the card that landed, being
        lifted first, and 2C was lost with the pile's count one out)."""
        if zone is None or not zone.looks or len(cards) < 2:
            return None
        liked = dict(zone.looks)
        least = min(liked.values())
        p = {card: liked.get(card, least) for card in cards}
        best = max(cards, key=lambda card: p[card])
        if p[best] >= self.candidate_floor and all(
                p[best] >= self.candidate_margin * p[other] for other in cards if other != best):
            return best
        return None

    def _liked_in_hand(self, card: Card) -> bool:
        """Is ``card`` a face the reader liked (``candidate_floor``) for an unnamed card
        that left its column and has not been seen landing (``_unknown_hands``)?"""
        return any(hand.evidence.get(card, 0.0) >= self.candidate_floor
                   for hand in self._unknown_hands)

    def _fits_top(self, pile: Pile, card: Card) -> bool:
        """Does ``card`` fit the card we believe lies on top of ``pile`` (known, not unread)?"""
        top = self._top(pile)
        return top is not None and card.fits_on(top)

    def _expected(self, name: str, old: ZoneValue, new: ZoneValue, t: float) -> bool:
        """Is this change what play usually brings (a known card moving, a reveal)?"""
        state, card = new
        if state != "face_up" or card is None:
            return True
        if name in PILES:
            if self.spit_expected:
                return True
            where = self._where(card)[0]
            return where in ("column", "hand") or (where == "unknown" and self._unread_fit(name, card))
        if name in COLUMN_ZONES:
            if old[0] == "face_down":
                return True  # a reveal
            seat, column = _seat_column(name)
            where, owner, place = self._where(card)
            zone = self._zones.get(name)
            if (where == "unknown" and self._r.down.get((seat, column), 0) > 0
                    and zone is not None and t - zone.last_hidden < 1.0):
                return True  # the top left and the card under it was turned, both under a hand
            if where == "pile":
                return self._r.played_from.get(card) == (seat, column)  # taken back
            # A card of this player moving into an empty column (moves go nowhere else).
            return where in ("hand", "column") and owner == seat and old[0] == "empty"
        return True

    def hands_in_columns_since(self, t: float) -> bool:
        """Is a hand over a column holding a face-up card, there since ``t`` or before,
        or has it just left and the column's new look is still being voted on?  That
        card may have left under it (a play just before a slap)."""
        return any(zone.accepted[0] == "face_up" and zone.covered_since <= t
                   and (zone.covered or zone.candidate is not None)
                   for name, zone in self._zones.items() if name in COLUMN_ZONES)

    def settle_held(self, t: float) -> list[Tracked]:
        """The round is over and a slap is about to settle the piles: every card still in
        a hand that fits only one pile's top was played there, unseen (the slapping hand
        covered the pile).  Said now, so that the take counts include it; it is what
        ``_settle_lost`` says anyway once both piles are taken, too late for the counts
        (dev game 2005: A's 2C played onto the right pile just after B's last card)."""
        out: list[Tracked] = []
        for card, _hand in sorted(self._in_hand.items(), key=lambda item: item[1].since):
            if card in self._in_hand and self._fitting_pile(card) is not None:
                out += self._settle_lost(t, card)
            elif card in self._in_hand and (pile := self._unread_landing(card)) is not None:
                # It fits neither known top, and one pile's top is a card nobody read:
                # it went there (dev game 2378: A's last card, AC, laid on the unread
                # spit card 2D and read unnamed as the slap came, was left out of the
                # right pile's take)
                hand = self._in_hand.pop(card)
                out += self._play(t, hand.seat, hand.column, card, pile)
        return out

    def _unread_landing(self, card: Card) -> Pile | None:
        """The one pile whose top is a card nobody read, when ``card`` fits the other
        pile's known top not at all."""
        unread = [p for p in PILES if self._r.pile_cards[p] and self._top(p) is None]
        if len(unread) != 1:
            return None
        other = other_pile(unread[0])
        return None if self._fits_top(other, card) or self._top(other) is None else unread[0]

    def flush(self, t: float) -> list[Tracked]:
        """At the end of a recording: report what is still pending."""
        out: list[Tracked] = []
        if self._pending_spit:
            out += self._emit_spit(t)
        for card, hand in list(self._in_hand.items()):
            out.append(Unsure(t, f"lost sight of {card.code} from {hand.seat}'s column {hand.column}"))
        self._in_hand.clear()
        self._unseen_left.clear()
        self._unknown_hands.clear()
        return out

    # ------------------------------------------------------------------ deal
    def _column_value(self, seat: Seat, column: int) -> ZoneValue:
        zone = self._zones.get(f"{seat}{column}")
        return zone.accepted if zone is not None else ("empty", None)

    def _watch_for_deal(self, t: float, changes: list[tuple[str, ZoneValue, ZoneValue]]) -> list[Tracked]:
        for seat in SEATS:
            # Picked up: every column seen empty, or hidden now (a hand, or something
            # lying over it) while most are empty.
            values = [self._column_value(seat, i)[0] for i in range(1, 6)]
            hidden = [self._zones.get(f"{seat}{i}", _Zone()).covered for i in range(1, 6)]
            if all(v == "empty" or h for v, h in zip(values, hidden, strict=True)):
                if values.count("empty") >= 3:
                    self._cleared.add(seat)
                elif values.count("empty") >= 2:
                    # ... or two empty and the rest hidden: on a striped cloth the bare
                    # table under a gathered column can read as something lying there
                    # (dev game 2378: B's columns read so while cards were gathered, and
                    # no deal after the first was seen).  Then only a whole deal counts.
                    self._cleared_weakly.add(seat)
        if self._cleared | self._cleared_weakly != set(SEATS):
            return []
        pile_started = any(self._zones.get(p, _Zone()).accepted[0] == "face_up" for p in PILES)
        laid: dict[Seat, list[Card | None]] = {}
        hidden_faces: list[str] = []
        for seat in SEATS:
            cards: list[Card | None] = []
            for i in range(1, 6):
                state, card = self._column_value(seat, i)
                if state == "face_down" and pile_started:
                    # Once spit cards are on the centre the deal is over, and every column
                    # top is face up by the rules: a "back" there is a face the reader
                    # could not make out, not a column left without its face-up card.
                    state = "face_up"
                if (state == "empty" and pile_started and self._hidden_column(seat, i)
                        and any(self._column_value(seat, j)[0] != "empty" for j in range(i + 1, 6))):
                    # Columns are laid from the first: one hidden with a card beyond it
                    # holds a face too (dev game 2296, a court card on stripes that no
                    # outline fitted: the deal was seen 7.7 s late, when it was played)
                    state, card = "face_up", None
                    hidden_faces.append(f"{seat}{i}")
                if state != "face_up":
                    break
                cards.append(card)
            if any(self._column_value(seat, i)[0] != "empty" for i in range(len(cards) + 1, 6)):
                return []  # not laid as a tableau (yet)
            laid[seat] = cards
        if not all(laid.values()):
            return []
        expected = self.expected_columns
        complete = expected is not None and all(len(laid[s]) == expected[s] for s in SEATS)
        settled = t - self._last_change >= self.deal_settle and not self._busy
        if not (pile_started or (complete and not self._busy) or settled):
            return []
        if self._cleared_weakly - self._cleared and not complete:
            return []
        for name in hidden_faces:
            self._zones[name].accepted = ("face_up", None)
        # (a face laid unread, too: the first name read there is the dealt card, hands
        # over it or not; dev game 2378, small cards on stripes: A5's KC was unnamed as
        # the deal was taken, named after a hand had passed, and taken for a card turned
        # up; A5's face-down count came one short, and a "Spit!" was called while A
        # could move KH into an empty column to turn the card under it)
        self._dealt_hidden = set(hidden_faces) | {
            f"{seat}{i}" for seat in SEATS for i, card in enumerate(laid[seat], start=1)
            if card is None and self._column_value(seat, i) == ("face_up", None)}
        return self._start_round(t, laid)

    def _hidden_column(self, seat: Seat, column: int) -> bool:
        zone = self._zones.get(f"{seat}{column}")
        return zone is not None and zone.covered

    def _start_round(self, t: float, laid: dict[Seat, list[Card | None]]) -> list[Tracked]:
        self.round += 1
        self._phase = "playing"
        self._cleared, self._cleared_weakly = set(), set()
        self._in_hand.clear()
        self._unseen_left.clear()
        self._unknown_hands.clear()
        self._held_reveals.clear()
        self._pending_spit.clear()
        self._r = _Round()
        named = [card for seat in SEATS for card in laid[seat] if card is not None]
        twice = {card for card in named if named.count(card) > 1}
        if twice:
            # Every card is dealt once: a name read in two columns is a misread in one of
            # them at least, and neither is known (dev game 2418, cards 36 pixels wide:
            # B's AH and AD both read AS; when AD was played and taken back, its return
            # was taken for a card turned up, and B4's face-down count came one short)
            # (the first face read there afterwards is its card, as in a column hidden
            # at the deal: not a card turned up)
            laid = {seat: [None if card in twice else card for card in laid[seat]] for seat in SEATS}
            for seat in SEATS:
                for i, card in enumerate(laid[seat], start=1):
                    zone = self._zones.get(f"{seat}{i}")
                    if card is None and zone is not None and zone.accepted[1] in twice:
                        zone.accepted = ("face_up", None)
                        self._dealt_hidden.add(f"{seat}{i}")
        for seat in SEATS:
            self._r.columns[seat] = len(laid[seat])
            for i in range(1, len(laid[seat]) + 1):
                self._r.down[(seat, i)] = i - 1
        players = {s: TableauView(len(laid[s]), 0, tuple(laid[s])) for s in SEATS}
        out: list[Tracked] = [Deal(t, self.round, players)]
        # Spit cards that landed before the deal settled (whatever the referee, which
        # has not seen this deal yet, expects).
        expected, self.spit_expected = self.spit_expected, True
        for pile in PILES:
            state, card = self._zones.get(pile, _Zone()).accepted
            if state == "face_up":
                out += self._pile_arrival(t, pile, card)
        self.spit_expected = expected
        if self._pending_spit and len(self._pending_spit) >= self._spit_feeders:
            out += self._emit_spit(t)  # (else the other spit card has its window to land)
        return out

    # ------------------------------------------------------------------ changes
    def _where(self, card: Card) -> tuple[str, Seat | None, int | Pile | None]:
        for seat in SEATS:
            for i in range(1, 6):
                state, top = self._column_value(seat, i)
                if state == "face_up" and top == card and f"{seat}{i}" not in self._r.played_tops:
                    return ("column", seat, i)
        if card in self._in_hand:
            hand = self._in_hand[card]
            return ("hand", hand.seat, hand.column)
        for pile in PILES:
            if card in self._r.pile_cards[pile]:
                return ("pile", None, pile)
        return ("unknown", None, None)

    def _pile_change(self, t: float, name: str, new: ZoneValue, hidden: bool = False) -> list[Tracked]:
        pile: Pile = "left" if name == "left" else "right"
        if new[0] == "face_up":
            return self._pile_arrival(t, pile, new[1], hidden)
        if new[0] == "empty" and all(self._zones[p].accepted[0] == "empty"
                                     for p in PILES if p in self._zones) \
                and any(self._r.pile_cards[p] for p in PILES):
            # The piles were taken: the round is over.  A card still in a hand went
            # where the rules allow (the round's last card, hidden by a slap).  (Piles
            # that never held a card this round were not taken: a spit card seen face
            # down as it was turned over, then lifted, is no round's end; dev game 2053
            # went unrefereed for a whole round that way.)
            return self._round_taken(t)
        return []

    def _round_taken(self, t: float) -> list[Tracked]:
        """The piles were taken: the round is over, and the next thing to see is a deal.
        A card still in a hand went where the rules allow (the round's last card, hidden
        by a slap)."""
        out: list[Tracked] = []
        for card in list(self._in_hand):
            out += self._settle_lost(t, card)
        self._phase = "idle"
        self._cleared, self._cleared_weakly = set(), set()
        return out

    def _departure(self, t: float, name: str, old: ZoneValue, new: ZoneValue,
                   changed_now: set[str]) -> list[Tracked]:
        """A column's top card changed: where did the old top go?"""
        seat, column = _seat_column(name)
        old_state, card = old
        if old_state == "face_down" and new[0] == "empty" and self._r.down.get((seat, column), 0) > 0:
            self._unseen_left.append(_InHand(seat, column, t))
            return []
        if old_state == "face_up" and card is None:
            identified = new[0] == "face_up" and self._read_at_last(name, new[1], t)
            if not identified:
                earlier = next((h for h in self._unknown_hands
                                if (h.seat, h.column) == (seat, column)), None)
                if earlier is not None and self._laid_back(earlier, None):
                    # The unread top that left this column before, seen landing on no
                    # pile, was laid back: the unread face held as its reveal was that
                    # card, and it is this one leaving now (dev game 2069: B's JC, a
                    # court card the reader cannot name, lost a collision and went back
                    # to B4; when it was played, the hand that had lost it was taken for
                    # it, and every later unread play was put on the column before it).
                    self._unknown_hands.remove(earlier)
                self._unknown_hands.append(_InHand(seat, column, t, self._zones[name].last_evidence))
            return []
        if old_state != "face_up" or card is None or card == new[1]:
            return []
        if self._where_pile(card) is not None:
            if self._r.played_from.get(card) != (seat, column):
                # On a pile as a spit card or another column's play: the reader's name
                # for this column's top was a misread, and what left is unknown (dev
                # game 2078: A's 9H in A3, read 10H, the spit card that came down in
                # the same moment; 9H was then taken for a spit card of its own); the
                # name it was read by is kept as the reader's likeliest face for it
                self._unknown_hands.append(_InHand(seat, column, t,
                                                   {**self._zones[name].last_evidence, card: 1.0}))
            return []  # already seen landing on a pile
        for i in range(1, 6):
            if (i != column and self._column_value(seat, i) == ("face_up", card)
                    and f"{seat}{i}" not in changed_now):
                # Seen in its new column (in an earlier frame) before it was seen leaving this one.
                return [Move(t, self.round, seat, card, column, i)]
        came = next((c for c in self._r.nowhere if c[0] == seat and t - c[3] <= self.nowhere_s
                     and c[1].suit.is_red == card.suit.is_red
                     and self._column_value(seat, c[2]) == ("face_up", c[1])), None)
        if came is not None:
            # Just before, a card seen nowhere came into another of the player's columns,
            # which was empty: only a column's card goes there, so it is this one, which
            # a hand hid leaving (dev game 2078, cards 30 pixels wide: A's KS, read AS in
            # A5, was moved to the empty A2 as a hand hid A5; the move went unreported,
            # and AS, taken to be in A's hand, was later taken for the spit card AC).
            self._r.nowhere.remove(came)
            return [Move(t, self.round, seat, came[1], column, came[2])]
        self._in_hand[card] = _InHand(seat, column, t, down=self._r.down.get((seat, column), 0),
                                      named=self._zones[name].left_named)
        return []

    def _read_again(self, t: float, name: str, old: ZoneValue, new: ZoneValue) -> bool:
        """Is a column's named top, now named as another card, the same card read again?

        So it is when the new name came within ``reread_s`` of the last read agreeing
        with the old one, with no back shown between, is of the old card's colour (the
        reader confuses clubs with spades, hearts with diamonds and neighbouring ranks
        on small cards, not red with black), and neither card is anywhere else.  A
        card played and the one under it turned up take longer, and show the back
        between (over the small-card dev games, each of 19 such changes was a misread,
        one way or the other: dev game 2078, A's AC read AS, then AC once the second
        opinion named it; AS was taken for played, the pile's count came one card over
        and a reveal was counted that never happened).  The table takes the new name."""
        card, now = old[1], new[1]
        if (old[0] != "face_up" or new[0] != "face_up" or card is None or now is None
                or card == now or card.suit.is_red != now.suit.is_red
                or t - self._zones[name].last_agree > self.reread_s):
            return False
        if any(self._where_pile(c) is not None or c in self._in_hand for c in (card, now)):
            return False
        return not any(other != name and self._zones[other].accepted[1] in (card, now)
                       for other in COLUMN_ZONES if other in self._zones)

    def _still_holds(self, name: str, card: Card) -> bool:
        """Do we believe column ``name`` holds ``card``, with nothing else read there in
        this frame (the reader names ``card`` there, or a face it cannot name, or a hand
        hides it) and no change being voted on?"""
        zone = self._zones.get(name)
        obs = self._frame_zones.get(name)
        return (zone is not None and zone.accepted == ("face_up", card) and zone.candidate is None
                and obs is not None and (obs.state == "covered" or (
                    obs.state == "face_up" and obs.card in (card, None))))

    def _covered_unread_top(self, card: Card) -> str | None:
        """The one covered column whose unread top the reader liked best as ``card``
        (at least ``candidate_floor``) while it lay there, if there is one."""
        found = [name for name in COLUMN_ZONES
                 if (zone := self._zones.get(name)) is not None and zone.covered
                 and zone.accepted == ("face_up", None) and zone.evidence
                 and zone.evidence.get(card, 0.0) >= self.candidate_floor
                 and zone.evidence[card] == max(zone.evidence.values())]
        return found[0] if len(found) == 1 else None

    def _plainly_played(self, name: str, card: Card | None) -> bool:
        """Is ``card`` on pile ``name`` a column top or a card in a hand that fits the
        card under it?  Then nothing needs rebuilding, and it is reported at once."""
        if card is None or self._where(card)[0] not in ("column", "hand"):
            return False
        cards = self._r.pile_cards["left" if name == "left" else "right"]
        return not cards or cards[-1] is None or card.fits_on(cards[-1])

    def _read_at_last(self, name: str, card: Card | None, t: float) -> bool:
        """Is a named face in a column whose top could not be read that same top, read at
        last (no hand for 0.6 s, or the reader already listed it for the unread top, or
        the column was hidden at the deal and this is the first face read there)?"""
        zone = self._zones[name]
        return name in self._dealt_hidden or t - zone.last_hidden > 0.6 or (
            card is not None and zone.last_evidence.get(card, 0.0) >= self.candidate_floor)

    def _left_at(self, card: Card | None, t: float) -> float:
        hand = self._in_hand.get(card) if card is not None else None
        return hand.since if hand is not None else t

    def _where_pile(self, card: Card) -> Pile | None:
        for pile in PILES:
            if card in self._r.pile_cards[pile]:
                return pile
        return None

    def _column_arrival(self, t: float, seat: Seat, column: int, card: Card,
                        was_empty: bool, covered: Card | None = None,
                        turned: bool = False) -> list[Tracked]:
        out: list[Tracked] = []
        sole = self._sole_hand(card, seat)
        hand = self._in_hand.pop(card, None)
        if hand is not None:
            if hand.seat == seat and hand.column != column:
                move = Move(t, self.round, seat, card, hand.column, column)
                if sole:
                    self._r.traced[card] = f"{seat}{column}"
                if (covered is not None and covered not in self._in_hand
                        and self._where_pile(covered) is None):
                    # Laid on a card the camera saw there and never saw leave: a wrong move.
                    self.firm.append(move)
                out.append(move)
                out += self._release_reveal(hand.seat, hand.column)
            elif self._held_reveals.pop((seat, column), None) is not None:
                # It came back over the card we took for its reveal: that reveal was wrong.
                self._r.down[(seat, column)] += 1
            if hand.seat == seat and hand.column == column:
                # Back over the face-down cards it left: the column read empty meanwhile
                # (a hand passing) lost none of them.  Left waiting to be explained, such
                # a vanished card held every later "Spit!" of the round back to the
                # players' press (dev game 2041: B's 5D lost a collision and went back to
                # B2, which had read empty for a few frames under the hands).
                self._forget_vanished(seat, column)
            return out  # back where it came from: no event
        pile = self._where_pile(card)
        if pile is not None:
            cards = self._r.pile_cards[pile]
            if cards and cards[-1] == card and self._r.played_from.get(card) == (seat, column):
                cards.pop()
                self._r.played_from.pop(card, None)
                out.append(Takeback(t, self.round, seat, card, pile))
                return out
            lone = self._lone_held(seat, column) if was_empty and cards[-1] != card else None
            if lone is not None:
                # A card under a pile's top never comes back up, and only a column's card
                # goes into an empty one: this is the one such card in the player's
                # hands, misread (dev game 2078, cards 30 pixels wide: A's KS, moved from
                # A5 to the empty A3 and read there as AS, which lay under the left
                # pile's top; KS was taken to be still in A's hand, and the "Spit!" due
                # was never called).
                return self._moved_misread(t, seat, column, *lone)
            if cards[-1] == card or not turned:
                return out
            # A card under a pile's top never comes back up: turned up over a column's
            # face-down cards, it is here, and that sighting was a misread (dev game
            # 2070: the spit card 2S read as 2C; the real 2C, turned in A4 and moved to
            # A5, was taken for the pile's, and its play went unreported, so the take of
            # that pile was one short).  Over a face, the column's reading is the misread
            # (synthetic games at 8 % misreads).
            cards[cards.index(card)] = None
            self._located_cache = None
            out.append(PileDoubted(t, pile, card))
        for i in range(1, 6):
            if i != column and self._column_value(seat, i) == ("face_up", card):
                old = self._zones[f"{seat}{i}"]
                if (was_empty and not old.covered
                        and old.named_at < old.last_hidden < old.last_read):
                    # The old column, read afresh since a hand was over it, shows a face
                    # the reader cannot name: the card moved here and the face-down card
                    # under it was turned, whatever our count of them said (dev game
                    # 2035: 3D moved from A5 to A4 over an unread KC; A5 was taken to
                    # hold 3D still, the move was never reported, and no "Spit!" came at
                    # the players' press).
                    old.accepted, old.accepted_at, old.accepted_named = ("face_up", None), t, 0
                    self._r.down[(seat, i)] = max(0, self._r.down.get((seat, i), 0) - 1)
                    return [Move(t, self.round, seat, card, i, column),
                            Reveal(t, self.round, seat, i, None)]
                return out  # still shown in its old column: the move is reported on departure
        down = self._r.down.get((seat, column), 0)
        if down > 0:
            self._r.down[(seat, column)] = down - 1
            # (a face-down card lifted to be turned leaves its column empty for a moment:
            # it is this card, not one turned and moved unseen; left waiting to be
            # explained, it held every later "Spit!" of the round back to the players'
            # press, dev game 2042)
            self._forget_vanished(seat, column)
            reveal = Reveal(t, self.round, seat, column, card)
            if any(h.seat == seat and h.column == column
                   for h in [*self._in_hand.values(), *self._unknown_hands]):
                self._held_reveals[(seat, column)] = reveal  # after the old top's fate is known
            else:
                out.append(reveal)
            return out
        source = next((u for u in self._unseen_left if u.seat == seat), None)
        if source is not None and was_empty:
            # A face-down card was turned up and moved here while a hand hid it.
            self._unseen_left.remove(source)
            self._r.down[(seat, source.column)] -= 1
            out.append(Reveal(t, self.round, seat, source.column, card))
            out.append(Move(t, self.round, seat, card, source.column, column))
            return out
        unread = next((h for h in self._unknown_hands if h.seat == seat and h.column != column), None)
        if unread is not None and was_empty:
            # An unreadable top left its column and this card came into an empty one: moved.
            self._unknown_hands.remove(unread)
            return [Move(t, self.round, seat, card, unread.column, column),
                    *self._release_reveal(seat, unread.column)]
        lone = self._lone_held(seat, column) if was_empty else None
        if lone is not None:
            # Only a card from another of the player's columns goes into an empty one, and
            # this card was seen nowhere: it is the one such card in a hand, misnamed in
            # its column (dev game 2078, cards 30 pixels wide: A's KS, read AS in A5, was
            # moved to the empty A1 and named KS there; the move went unreported, and AS
            # was later taken for played on the pile it fitted, a take one card out).
            return self._moved_misread(t, seat, column, *lone, name=card)
        if was_empty:
            self._r.nowhere.append((seat, card, column, t))
        out.append(Unsure(t, f"{card.code} appeared in {seat}'s column {column} from nowhere"))
        return out

    def _lone_held(self, seat: Seat, column: int) -> tuple[Card, _InHand] | None:
        """The one card in ``seat``'s hands lifted from a column other than ``column``,
        when no other card of that player's is on its way (unread, or turned unseen)."""
        held = [(card, hand) for card, hand in self._in_hand.items()
                if hand.seat == seat and hand.column != column]
        if (len(held) != 1 or any(u.seat == seat for u in self._unseen_left)
                or any(h.seat == seat for h in self._unknown_hands)):
            return None
        return held[0]

    def _moved_misread(self, t: float, seat: Seat, column: int, card: Card,
                       hand: _InHand, name: Card | None = None) -> list[Tracked]:
        """``card``, lifted from ``hand.column``, is what came into the empty ``column``:
        moved there as ``name`` (the name it was lifted by, unless given), whatever the
        reader named it in one of the two columns."""
        name = name or card
        del self._in_hand[card]
        self._zones[f"{seat}{column}"].accepted = ("face_up", name)
        return [Move(t, self.round, seat, name, hand.column, column),
                *self._release_reveal(seat, hand.column)]

    def _forget_vanished(self, seat: Seat, column: int) -> None:
        """The face-down cards of ``seat``'s ``column`` noted as turned and moved unseen
        (``_unseen_left``) are explained after all: none is waited for any more."""
        self._unseen_left = [u for u in self._unseen_left if (u.seat, u.column) != (seat, column)]

    def _unreadable_arrival(self, t: float, seat: Seat, column: int, old_state: str) -> list[Tracked]:
        """A face-up card that cannot be read appeared in a column."""
        down = self._r.down.get((seat, column), 0)
        if old_state == "face_down" and down > 0:
            self._r.down[(seat, column)] = down - 1
            reveal = Reveal(t, self.round, seat, column, None)
            if any(h.seat == seat and h.column == column
                   for h in [*self._in_hand.values(), *self._unknown_hands]):
                self._held_reveals[(seat, column)] = reveal
                return []
            return [reveal]
        if old_state == "empty":
            source = next((h for h in self._unknown_hands if h.seat == seat and h.column != column), None)
            if source is not None:
                self._unknown_hands.remove(source)
                return [Move(t, self.round, seat, None, source.column, column),
                        *self._release_reveal(seat, source.column)]
            back = next((h for h in self._unknown_hands if h.seat == seat and h.column == column), None)
            if back is not None:
                self._unknown_hands.remove(back)  # put back where it was
                return []
            lone = self._lone_held(seat, column)
            if lone is not None:
                # Only a card from another of the player's columns goes into an empty one,
                # and the one such card in a hand is this face the reader cannot name (dev
                # game 2072: A's AD, named in A5, moved to A1 and read there unnamed; the
                # move went unreported, A1 held back the "Spit!" as an unknown card that
                # might still play, and AD's play was put on A5).
                return self._moved_misread(t, seat, column, *lone)
        return []

    def _release_reveal(self, seat: Seat, column: int) -> list[Tracked]:
        reveal = self._held_reveals.pop((seat, column), None)
        return [reveal] if reveal is not None else []

    def _pile_arrival(self, t: float, pile: Pile, card: Card | None, hidden: bool = False) -> list[Tracked]:
        cards = self._r.pile_cards[pile]
        zone = self._zones.get(pile)
        if pile in self._pending_spit and card != self._pending_spit[pile]:
            if self._lone_unread_spit() and card is not None and cards and cards[-1] == card:
                self._pending_spit.clear()  # the top named again
                return []
            if (card is not None and cards and cards[-1] == card and zone is not None
                    and zone.untouched and self._pending_spit[pile] is not None):
                # The top named again with no hand over the pile since the spit card was
                # named: that name was the top misread, for a spit card laid there would
                # still show (synthetic games at 8 % misreads: 4S read for two frames on
                # 6S while "Spit!" was due was reported as a spit card and taken back; the spit
                # turn counted, the real spit cards a moment later were taken for a
                # misread on one pile and a late spit card on the other, and a false
                # "Spit!" followed)
                del self._pending_spit[pile]
                return []
            # Another card on a spit card still waiting for its partner: the spit card
            # lies under it, so the spit goes down first.
            spit = self._emit_spit(t)
            return spit + self._pile_arrival(t, pile, card, hidden)
        if (card is not None and cards and cards[-1] is None
                and ((zone is not None and (zone.read_at_last
                                            or (zone.untouched and zone.accepted_named > 0)))
                     or (not self.spit_expected and not self._pending_spit
                         and self._top_rank(pile) == card.rank))
                and card not in self._located()):
            # The unread top named at last, no new card: with no hand over the pile since,
            # or, a hand passing by or not, as a card of the rank the unread top is known
            # by, since nothing but a spit card is laid on a card of its own rank (dev
            # game 2069: A's KH, played unread from A3 with its rank sure, named on the
            # left pile for a frame as B's hand went by to the right pile, was taken for a
            # card turned and played from B5, and B's count was one short).  So too a name
            # the reader gives itself with no hand over the pile since the look before,
            # whatever that look was (dev game 2078: the spit card 9D, read 10D, a card
            # under the pile's top, was counted unread; named 9D 1.3 s later with no hand
            # near, it stayed unknown, and the next "Spit!" waited 1.1 s for the press).
            cards[-1] = card
            self._located_cache = None
            return [PileIdentified(t, pile, card)]
        if (card is not None and cards and cards[-1] is not None and zone is not None
                and zone.read_at_last and zone.accepted_named == 0 and not self.spit_expected):
            # The unread top, known as the card a hand laid there, given another name only
            # by narrowing the reader's faint likes, with no hand over the pile since: no
            # card came, and the top is still the one laid (dev game 2040: A's 2C landed
            # unread, liked as AC 0.21; when B lifted AC from B3, AC became the likeliest
            # card that could be there, and it was reported on that pile as well as on
            # the other, where it went).
            zone.accepted = ("face_up", cards[-1])
            return []
        if card is not None and len(cards) >= 2 and cards[-2] == card:
            # The top went back to the card under it: the top card was taken back.
            gone = cards[-1]
            if gone is None:
                cards.pop()
                return []
            if gone.fits_on(card):
                # Only a collision's loser is taken back, and it lies on a card it does
                # not fit (both fitted the top before).  A top that fits the card under
                # it stays: that card, already played, is a misread of a new top, the
                # one card in a hand of its rank when there is one, its suit misread
                # (dev game 2066: A's AC laid on KH and named AS at 0.98, the ace under
                # KH, was reported when its hand's time was up, 0.8 s late).
                twin = self._same_rank_in_hand(pile, card) if not self.spit_expected else None
                if twin is not None and zone is not None and not zone.untouched:
                    hand = self._in_hand[twin]
                    return self._play(t, hand.seat, hand.column, twin, pile)
                source = self._liked_source(card) if not self.spit_expected else None
                if source is not None and zone is not None and not zone.untouched:
                    return self._placed_wrongly(t, pile, card, source)
                if self.spit_expected and zone is not None and not zone.untouched:
                    # ... and with spit cards due, a hand laid it: a spit card, unread
                    # (dev game 2078: the spit card 9D, read as the 10D under the top
                    # 9C, went uncounted; its pile was owed a spit card, which held
                    # "Spit!" back to the players' press)
                    return self._pile_arrival(t, pile, None, hidden)
                return []
            if gone not in self._r.played_from and zone is not None and zone.accepted_named == 0:
                # Spit cards are never taken back: the card under one, only the likeliest
                # of the reader's faces, is a misread of the pile, most likely of a card
                # laid on the spit card (dev game 2040: 4S laid on the spit card 3H read
                # as the 7C under it; 3H was called taken back, and 4S and 5S were counted
                # on 7C, where the next card did not fit).
                if not self.spit_expected and self._held_fits(pile):
                    return self._pile_arrival(t, pile, None, hidden)
                if self.spit_expected and zone is not None and not zone.untouched:
                    # ... and with spit cards due, a hand laid one (dev game 2378: the
                    # spit card QC, laid on the spit card 9C and liked as the JC under
                    # 9C, went uncounted, and the pile's take came one short)
                    return self._pile_arrival(t, pile, None, hidden)
                return []
            cards.pop()
            seat, column = self._r.played_from.pop(gone, ("A", 0))
            if column:
                self._in_hand[gone] = _InHand(seat, column, t)
            return [Takeback(t, self.round, seat, gone, pile)]
        if card is not None and cards and cards[-1] == card:
            return []
        top = cards[-1] if cards else None
        if (card is not None and top is not None and not self.spit_expected
                and not self._pending_spit
                and ((card.suit == top.suit and {card.rank, top.rank} == {Rank.SIX, Rank.NINE})
                     or (card.rank == top.rank and not self._held_fits(pile)
                         and not self._unknown_hands))
                and card not in self._located()):
            # A card seen nowhere before, named on the top where it would not fit: the top
            # misread, not a card laid on it.  A 9 read upside down as a 6 (or a 6 as a
            # 9), of the top's suit (dev game 2068: 9H, just played, read as 6H for 1.6 s,
            # was reported as a card turned and played from A5, then taken back and
            # played again); or a card of the top's own rank, where only a spit card goes,
            # with no card in a hand that may fit there (dev game 2942: B's 2S, laid unread
            # on the right pile, read 2C once A's arm had passed; 2C was reported turned
            # up in A5 and played, 0.2 s after A5's KH went to the other pile, and A's
            # face-down count came one short, so the round was called won while A5 still
            # held a card).
            if zone is not None:
                zone.accepted = ("face_up", top)
            return []
        if card is not None:
            where, owner, place = self._where(card)
            if (where == "column" and not self.spit_expected and self._named_in_its_column(card)
                    and self._held_fits(pile)):
                # The reader names this card in its column, in plain view, in this very
                # frame: the pile's reading is a misread of a card in a hand (dev game
                # 2056: B's AD, laid on KS, read as A's KD, and KD, never played, was
                # reported as a play after AD).
                return self._pile_arrival(t, pile, None, hidden)
            if (where == "column" and not self.spit_expected and top is not None
                    and not card.fits_on(top) and zone is not None and not zone.untouched
                    and not self._named_in_its_column(card) and self._shown_in_its_column(card)):
                # A card its column shows in plain view (accepted there, not named in this
                # frame), named on a pile whose top it does not fit once a hand has been
                # over the pile: a card laid there unread, misread as that one (dev game
                # 2418: B's 3H, laid on the spit card 4H, read AH at 0.97 while A2 showed
                # its AH unnamed; AH was reported played from A2, A's tableau held empty,
                # and the game called won by A with B's 3H never counted).
                return self._pile_arrival(t, pile, None, hidden)
            if (where == "column" and not self.spit_expected and top is not None
                    and not card.fits_on(top)
                    and (self._named_in_its_column(card)
                         or (self._r.misread_tops.get(pile) == (card, top)
                             and self._zones[str(owner) + str(place)].accepted == ("face_up", card)))):
                # ... and with no card in a hand that fits there, a card its column names
                # in plain view in this very frame, named on a pile whose top it does not
                # fit, is the pile's top misread: nothing landed (dev game 2678: the
                # right pile's 7H, read 10H at 0.95 as A's arm left it, while A3 showed
                # 10H; 10H was reported played from A3, the referee held A's tableau
                # empty, and the moment a hand next covered A3 the game was called won by
                # A, with B still to turn five spit cards).
                if zone is not None:
                    zone.accepted = ("face_up", top)
                # (read so again while a hand covers the column, it is the same misread)
                self._r.misread_tops[pile] = (card, top)
                return []
            twin = (self._same_rank_in_hand(pile, card)
                    if where == "column" and not self.spit_expected else None)
            if twin is not None and twin.suit.is_red == card.suit.is_red:
                # A card still in its column (never seen leaving it) named on a pile that
                # the one card in a hand of its rank and colour fits: that card, its suit
                # misread on the pile (dev game 2418, cards 36 pixels wide: A's AC laid on
                # an unread spit card, named AS, the card B4 was taken to hold while B's
                # hand was over it; AS was reported played from B4 and its return as a
                # card turned up, B4's face-down count came one short, and a "Spit!" was
                # called while B could move QD into an empty column to turn the card
                # under it).
                hand = self._in_hand[twin]
                return self._play(t, hand.seat, hand.column, twin, pile)
            if where == "column" and self.spit_expected and self._named_in_its_column(card):
                # Spit cards are due and the reader names this card in its column, in
                # plain view, in this very frame: the card on the pile is a spit card,
                # and one of the two names is a misread (dev game 2078: A's 9H in A3,
                # read 10H; the spit card 10H was reported as played from A3 and
                # "revealed" there at once, and A3's 9H, played next, as a spit card).
                # It goes on as a card of unknown origin: a spit card, below.
                where, owner, place = "unknown", None, None
            if where in ("column", "hand") and owner is not None and isinstance(place, int):
                below = cards[-1] if cards else None
                whole = not hidden and self._seen_whole(pile, card)
                if below is not None and (not card.fits_on(below) or hidden):
                    # Does a card that left a column unseen fit between? Then it went first.
                    under: list[Tracked] = self._rebuild_chain(t, pile, card, play_top=False)
                    if not under and not card.fits_on(below) and self._guessed_spit(below):
                        # The spit card under it was only the reader's likeliest face, and
                        # a card named on it does not fit it: that guess was wrong (dev game
                        # 2056: the left spit card AD, taken for 9D; 2S laid on it was
                        # counted to the other pile, where it fitted, and both piles'
                        # takes were one out).
                        cards[-1] = None
                        self._located_cache = None
                        under = [PileDoubted(t, pile, below)]
                    return under + self._play(t, owner, place, card, pile, firm=whole and not under)
                return self._play(t, owner, place, card, pile, firm=whole)
            if where == "pile":
                relaid = self._relay(t, pile, card)
                theirs = self._r.pile_cards[other_pile(pile)]
                if (relaid or not self.spit_expected or zone is None or zone.untouched
                        or (theirs and theirs[-1] == card)):
                    return relaid
                # Spit cards are due and a hand has just laid on this pile a card we had
                # placed under a pile's top: centre cards never come back up, so that
                # earlier sighting was a misread (dev game 2044: KS, a spit card, read as
                # QH; the real QH, spat 20 s later, was ignored, and KH laid on it was
                # called illegal).  The earlier card stays counted, unnamed; this one is
                # a spit card.  (With no hand over the pile since its last top, the top is
                # more likely misread now: synthetic games at 8 % misreads.)
                for placed in self._r.pile_cards.values():
                    for k, known in enumerate(placed):
                        if known == card:
                            placed[k] = None
                self._located_cache = None
                return self._pile_arrival(t, pile, card, hidden)
            if not self.spit_expected and zone is not None and zone.untouched and cards:
                return []  # a never-seen card with no hand over the pile: the top misread
            twin = self._same_rank_in_hand(pile, card) if not self.spit_expected else None
            if twin is not None:
                # A never-seen card of the rank of the one card in a hand that fits here:
                # that card, its suit misread (a reveal played under a hand would leave
                # the held card still to land).  Unless another column shows the held
                # card's name in plain view, named there: then the name it left its
                # column by was the misread, and the pile's stands (dev game 2296: B's 3D,
                # read 3H in B3 while A5 showed 3H, was played as 3H; A5's 3H, played
                # next, was taken for a card already on the pile, and A5's face-down count
                # stayed one high, so a move into an empty column seemed open for 25 s).
                hand = self._in_hand[twin]
                if self._named_elsewhere(twin, f"{hand.seat}{hand.column}"):
                    del self._in_hand[twin]
                    return self._play(t, hand.seat, hand.column, card, pile)
                return self._play(t, hand.seat, hand.column, twin, pile)
            near = self._misread_neighbour(t, pile, card) if not self.spit_expected else None
            if near is not None:
                # A never-seen card that does not fit the pile's top, one rank from the
                # card of its suit that left a column just now and fits there: that
                # card, its rank misread.  Played, the card under it turned up and
                # played too would take longer (dev game 2078: 9D laid on 8D, read 10D
                # on the pile 0.2 s after 9D left A5, whose back then showed, was taken
                # for 9D and then 10D played from A5, and the pile's take came one over).
                hand = self._in_hand[near]
                return self._play(t, hand.seat, hand.column, near, pile)
            misnamed = self._misnamed_in_hand(t, pile, card) if not self.spit_expected else None
            if misnamed is not None:
                # A never-seen card that fits the pile's top, one rank from the card of
                # its suit that left a column just now and fits no pile: that card, its
                # rank misread in its column (dev game 2168, cards 33 pixels wide: A's 8H,
                # read 9H in A4, laid on 7C and named 8H there, was taken for B's card
                # turned up and played unseen, and "9H" for played after it).
                hand = self._in_hand.pop(misnamed)
                return self._play(t, hand.seat, hand.column, card, pile)
            under_hand = self._covered_unread_top(card) if not self.spit_expected else None
            if under_hand is not None:
                # The unread top of a column a hand covers, whose reads liked this card
                # best: taken from under the hand and played, not a spit card.
                seat, column = _seat_column(under_hand)
                left = self._zones[under_hand]
                left.accepted = ("face_down" if self._r.down.get((seat, column), 0) > 0 else "empty", None)
                left.accepted_at = t
                return self._play(t, seat, column, card, pile)
            recent = [h for h in self._unknown_hands if t - h.since <= self.hidden_pile_s]
            if not self.spit_expected and recent:
                # An unreadable top left its column just now: that is the card (one
                # event), rather than a face-down card turned and played unseen (two;
                # dev game 2008: B's unread 8S taken for A's reveal, A's count short).
                return self._play_unread_top(t, pile, card, recent)
            if not self.spit_expected:
                rebuilt = self._rebuild_hidden(t, pile, card)
                if rebuilt:
                    return rebuilt
        held = self._held_out_of_view()
        if card is None and not self.spit_expected and held:
            # An unreadable card landed while a card we know is in a hand: that one,
            # if it may go there (the earliest to leave its column first).
            below = cards[-1] if cards else None
            fitting = [(hand.since, known) for known, hand in held.items()
                       if below is None or known.fits_on(below)]
            if fitting:
                known = self._liked_of(zone, [c for _since, c in fitting]) or min(fitting)[1]
                hand = self._in_hand[known]
                others = frozenset(other for _since, other in fitting if other != known)
                if others:
                    # (the others may be the card that landed: ``_may_have_landed``)
                    self._r.contested[pile] = (known, others)
                return self._play(t, hand.seat, hand.column, known, pile)
        if not self.spit_expected and self._unknown_hands:
            # An unreadable top left its column and this card landed: that was the card
            # (from the column whose reads liked it best, else the first to leave).
            if card is not None:
                return self._play_unread_top(t, pile, card, self._unknown_hands)
            source = self._unread_source(pile)
            if source is None:
                return self._play_turned_unseen(t, pile)
            hand = source
            self._unknown_hands.remove(hand)
            card = self._likeliest(hand.evidence, cards[-1] if cards else None)
            played = self._play(t, hand.seat, hand.column, card, pile)
            rank = self._sure_rank(hand.evidence) if card is None else None
            if rank is not None:
                self._r.unread_ranks[pile] = (len(cards) - 1, rank)
            return played
        if (card is None and not self.spit_expected and held
                and not (cards and cards[-1] in self._r.played_from)):
            # An unreadable card landed in play and a known card is in a hand, though it
            # does not fit the top we believe the pile has (that top may be wrong): that
            # card, rather than a spit card nobody was due to turn.  Not when that top was
            # seen leaving its column, and so is no misread: the held card would have been
            # laid illegally, and the pile's top is misread instead (dev game 2040: 7D,
            # read as 3D for a moment while A held AS; AS was counted on it, and when it
            # went on the other pile, both piles' takes were one out).
            known = min((hand.since, known) for known, hand in held.items())[1]
            hand = self._in_hand[known]
            return self._play(t, hand.seat, hand.column, known, pile)
        if card is not None and not self.spit_expected and held:
            below = cards[-1] if cards else None
            kin = [known for known in held if known.suit == card.suit
                   and (below is None or known.fits_on(below))]
            if len(kin) == 1:
                # A card seen nowhere, named on a pile where no spit card was due, while
                # the one card in a hand of its suit fits there: that card, its rank
                # misread (dev game 2418, cards 36 pixels wide: B's 6S, laid on 5H and read
                # 4S, was taken for a spit card nobody had turned, and 6S was lost; B2's
                # face-down count then stayed one high, and a move of 7H into an empty
                # column was held open for the rest of the round, so no "Spit!" came).
                hand = self._in_hand[kin[0]]
                return self._play(t, hand.seat, hand.column, kin[0], pile)
        # A card of unknown origin: a spit card.
        if not self._pending_spit:
            self._spit_since = t
            self._spit_unexpected = not self.spit_expected
            # Players with spit cards, by the referee's count or by the camera, whichever
            # says more (a drifted count must not cut a spit in two).
            seen = sum(1 for s in SEATS if self._zones.get(f"spit{s}", _Zone()).accepted[0] == "face_down")
            self._spit_feeders = max(self.spit_feeders or 0, seen) or 2
        same: Pile | None = next(
            (p for p, c in self._pending_spit.items() if p != pile and c == card),
            None) if card is not None else None
        if same is not None:
            # Every card is unique: the same spit card on both piles is one read the
            # tracker took from the reader's likely faces, and that one is unknown (dev
            # game 2056: the left spit card, unnamed and taken for 8H, the right one
            # named 8H; with 8H on the left, the round's last play did not fit, and a
            # false "Spit!" was called).
            if self._zones[pile].accepted_named > self._zones[same].accepted_named:
                self._pending_spit[same] = None
                self._zones[same].accepted = ("face_up", None)
            else:
                card = None
                self._zones[pile].accepted = ("face_up", None)
        self._pending_spit[pile] = card
        return []

    def _held_out_of_view(self) -> dict[Card, _InHand]:
        """The cards in a hand that no column shows in this frame: one shown face up in
        another column was moved there (its arrival is taken after the piles'), and an
        unread card landing on a pile is not it (dev game 2069: A moved 8C from A5 to
        A4 as B's QS landed unread on the right pile, in the same frame; 8C was
        reported played there)."""
        if not self._in_hand:
            return {}
        shown = {zone.accepted[1] for name in COLUMN_ZONES
                 if (zone := self._zones.get(name)) is not None and zone.accepted[0] == "face_up"}
        return {card: hand for card, hand in self._in_hand.items() if card not in shown}

    def _unread_source(self, pile: Pile) -> _InHand | None:
        """Which unread top that left its column (``_unknown_hands``) an unread card
        landing on ``pile`` is: the first to leave whose rank, where the reader was sure
        of it (``_sure_rank``), fits the pile's top (``_top_rank``).  When every one's
        sure rank does not fit and a face-down card left a column unseen
        (``_unseen_left``), None: that card, turned and played under a hand (dev game
        2069: A's QC, read QC 0.68 or QS 0.31, and B's KD, never found face up, went
        onto the left pile's JH and the right pile's AH at once; QC was put on AH).
        Otherwise the first to leave."""
        top = self._top_rank(pile)
        if top is None:
            return self._unknown_hands[0]
        for hand in self._unknown_hands:
            rank = self._sure_rank(hand.evidence)
            if rank is None or rank.is_next_to(top):
                return hand
        return None if self._unseen_left else self._unknown_hands[0]

    def _play_turned_unseen(self, t: float, pile: Pile) -> list[Tracked]:
        """An unread card on ``pile`` that was the face-down card that left its column
        first unseen (``_unseen_left``): turned and played under a hand."""
        source = self._unseen_left.pop(0)
        self._r.down[(source.seat, source.column)] = max(
            0, self._r.down.get((source.seat, source.column), 0) - 1)
        reveal = Reveal(t, self.round, source.seat, source.column, None)
        return [reveal, *self._play(t, source.seat, source.column, None, pile)]

    def _held_fits(self, pile: Pile) -> bool:
        """Does a card in a hand fit the top we believe ``pile`` has, or the rank the
        reader is sure of for its unread top (``_top_rank``)?"""
        rank = self._top_rank(pile)
        return rank is not None and any(held.rank.is_next_to(rank) for held in self._in_hand)

    def _top_rank(self, pile: Pile) -> Rank | None:
        """The rank of ``pile``'s top: the known card's, else, for a top read unnamed,
        the one rank of a card played unread (``_unread_rank``) or the one rank the
        reader was sure of when it took that top unnamed (``_Zone.unnamed_rank``)."""
        cards = self._r.pile_cards[pile]
        if not cards:
            return None
        if cards[-1] is not None:
            return cards[-1].rank
        zone = self._zones.get(pile)
        rank = self._unread_rank(pile)
        if rank is None and zone is not None and zone.accepted == ("face_up", None):
            rank = zone.unnamed_rank
        return rank

    def _named_in_its_column(self, card: Card) -> bool:
        """Does the column we believe ``card`` tops show it, named by the reader itself
        in this frame, with no hand over it?"""
        return (self._shown_in_its_column(card)
                and self._zones[self._located()[card]].named_at >= self._last_t)

    def _shown_in_its_column(self, card: Card) -> bool:
        """Does the column we believe ``card`` tops show it in plain view in this frame,
        named there or not (``_in_plain_view``)?"""
        name = self._located().get(card)
        zone = self._zones.get(name) if name is not None else None
        return (zone is not None and name in COLUMN_ZONES and zone.accepted == ("face_up", card)
                and self._in_plain_view(name))

    def _named_elsewhere(self, card: Card, source: str) -> bool:
        """Does the reader name ``card`` itself, in this frame and the frames just before,
        in a column other than ``source``?"""
        return any(name in COLUMN_ZONES and name != source and zone.raw_named[0] == card
                   and zone.raw_named[1] >= self.stable_frames for name, zone in self._zones.items())

    def _guessed_spit(self, card: Card) -> bool:
        """Is ``card``, on a pile, a spit card the reader never named (taken from its
        likely faces)?  Played cards are in ``played_from``."""
        return card not in self._r.named_on_pile and card not in self._r.played_from

    def _play_unread_top(self, t: float, pile: Pile, card: Card, hands: list[_InHand],
                         ) -> list[Tracked]:
        """``card`` landed on ``pile`` and was one of the unread tops ``hands`` (of
        ``_unknown_hands``) that left their columns: the one whose reads liked it best,
        else the first to leave."""
        hand = max(hands, key=lambda h: (h.evidence.get(card, 0.0), -h.since))
        self._unknown_hands.remove(hand)
        return self._play(t, hand.seat, hand.column, card, pile)

    def _placed_wrongly(self, t: float, pile: Pile, card: Card, source: _InHand) -> list[Tracked]:
        """``card``, which we had placed on a pile before, laid now from ``source``, the
        column that named it before it left unseen: the earlier sighting was the misread
        (dev game 2296, cards 30 pixels wide: B's 2D read 2H on the right pile; A's 2H,
        the round's last card, laid on 3H there 1.5 s later, was taken for the card under
        the top showing again and never reported, and both takes were one out).  The
        earlier card stays counted, unnamed."""
        for placed in self._r.pile_cards.values():
            for k, known in enumerate(placed):
                if known == card:
                    placed[k] = None
        self._located_cache = None
        self._unknown_hands.remove(source)
        return self._play(t, source.seat, source.column, card, pile)

    def _liked_source(self, card: Card) -> _InHand | None:
        """The one card that left a column unseen whose reads there liked ``card`` best."""
        liked = [hand for hand in self._unknown_hands
                 if hand.evidence and hand.evidence.get(card, 0.0) >= self.candidate_floor
                 and hand.evidence[card] == max(hand.evidence.values())]
        return liked[0] if len(liked) == 1 else None

    def _misread_neighbour(self, t: float, pile: Pile, card: Card) -> Card | None:
        """The one card in a hand, of ``card``'s suit and one rank from it, that left its
        column under ``chain_s`` ago and fits ``pile``'s top, where ``card`` does not."""
        top = self._top(pile)
        if top is None or card.fits_on(top):
            return None
        near = [known for known, hand in self._in_hand.items()
                if known.suit == card.suit and card.fits_on(known) and known.fits_on(top)
                and t - hand.since < self.chain_s]
        return near[0] if len(near) == 1 else None

    def _misnamed_in_hand(self, t: float, pile: Pile, card: Card) -> Card | None:
        """The one card in a hand, of ``card``'s suit and one rank from it, that left its
        column under ``chain_s`` ago and fits no pile, where ``card`` fits ``pile``'s top."""
        top = self._top(pile)
        if top is None or not card.fits_on(top):
            return None
        near = [known for known, hand in self._in_hand.items()
                if known.suit == card.suit and card.fits_on(known) and t - hand.since < self.chain_s
                and not any(self._fits_top(p, known) for p in PILES)]
        return near[0] if len(near) == 1 else None

    def _same_rank_in_hand(self, pile: Pile, card: Card) -> Card | None:
        """The one card in a hand with ``card``'s rank and another suit that fits ``pile``."""
        top = self._top(pile)
        twins = [known for known in self._in_hand if known.rank == card.rank and known != card
                 and (top is None or known.fits_on(top))]
        return twins[0] if len(twins) == 1 else None

    def _relay(self, t: float, pile: Pile, card: Card) -> list[Tracked]:
        """``card``, named here by the reader, is the top of the other pile, where it was
        put without being read (a wrong guess of the pile), or read where no hand had
        been over that pile since its top before: it was laid here instead.  (Dev game
        3024, cards 36 pixels wide: A's 9H on the left pile, named once, read 10D with no
        hand over the pile while B lifted 10D from B1; B's play of it on the right pile,
        named there, went unreported, and both takes were one out.)"""
        other = other_pile(pile)
        wrong, cards = self._r.pile_cards[other], self._r.pile_cards[pile]
        zone = self._zones.get(pile)
        source = self._r.played_from.get(card)
        if (source is None or not wrong or wrong[-1] != card
                or (card in self._r.named_on_pile and card not in self._r.named_untouched)
                or zone is None or zone.accepted_named < self.stable_frames
                or (zone.untouched and card in self._r.named_untouched)
                or (cards and cards[-1] is not None and not card.fits_on(cards[-1]))):
            return []
        wrong.pop()
        self._r.named_untouched.discard(card)  # (named here now, after a hand)
        seat, column = source
        takeback = Takeback(t, self.round, seat, card, other)
        played = self._play(t, seat, column, card, pile)
        play = played[0]
        assert isinstance(play, Play)
        return [Relaid(t, takeback, play), *played[1:]]

    def _likeliest(self, evidence: Mapping[Card, float], below: Card | None) -> Card | None:
        """The card an unnamed column top was, from its reads, among the unplaced cards
        that fit ``below`` (None when the reads do not single one out)."""
        located = self._located_now()
        ranked = sorted(((p, c) for c, p in evidence.items() if c not in located
                         and (below is None or c.fits_on(below))), key=lambda pc: -pc[0])
        if not ranked:
            return None
        second = ranked[1][0] if len(ranked) > 1 else 0.0
        if ranked[0][0] >= self.candidate_floor and ranked[0][0] >= self.candidate_margin * second:
            return ranked[0][1]
        return None

    def _seen_whole(self, pile: Pile, card: Card) -> bool:
        """Did the camera see ``card`` land on ``pile`` whole: the reader named it there
        (not picked from its candidates), named the card under it when that one landed,
        and no other card is on its way that could have gone between?"""
        cards = self._r.pile_cards[pile]
        zone = self._zones.get(pile)
        return (zone is not None and zone.accepted == ("face_up", card)
                and zone.accepted_named >= self.stable_frames
                and bool(cards) and cards[-1] in self._r.named_on_pile
                and not self._unseen_left and not self._unknown_hands
                and all(other == card for other in self._in_hand))

    def _note_named(self, pile: Pile, card: Card | None) -> None:
        """Remember ``card`` as named on ``pile`` if the reader named it there itself."""
        zone = self._zones.get(pile)
        if (card is not None and zone is not None and zone.accepted == ("face_up", card)
                and zone.accepted_named >= self.stable_frames):
            self._r.named_on_pile.add(card)
            if zone.untouched:
                self._r.named_untouched.add(card)

    def _play(self, t: float, seat: Seat, column: int, card: Card | None, pile: Pile,
              firm: bool = False) -> list[Tracked]:
        self._note_named(pile, card)
        self._r.pile_cards[pile].append(card)
        source = self._zones.get(f"{seat}{column}")
        if (card is not None and source is not None and not source.covered
                and source.accepted == ("face_up", card) and source.named_at < source.last_hidden):
            # played while its column, in plain view, still seems to show it, though the
            # reader has not named it there since a hand was over the column: what lies
            # there was taken for it (a light back read as an unnamed face).  (Named
            # there since, the card is there: the play was a misread.)
            self._r.played_tops.add(f"{seat}{column}")
            self._located_cache = None
        if card is not None:
            if self._sole_hand(card, source=f"{seat}{column}"):
                self._r.traced[card] = pile
            else:
                self._r.traced.pop(card, None)
            self._in_hand.pop(card, None)
            self._r.played_from[card] = (seat, column)
        play = Play(t, self.round, seat, card, pile, column)
        if firm:
            self.firm.append(play)
        return [play, *self._release_reveal(seat, column)]

    def _rebuild_hidden(self, t: float, pile: Pile, card: Card) -> list[Tracked]:
        """A never-seen card on a pile: was it revealed and played under a hand?

        Either a card left a column unseen and this one was under it (the rank chain
        says so), or a column's last face-down card vanished, or exactly one column
        waits for its reveal.  Anything less certain is left to be a spit card.
        """
        chain = self._rebuild_chain(t, pile, card)
        if chain:
            return chain
        source = self._unseen_left.pop(0) if self._unseen_left else None
        if source is None:
            # (not a column whose top is still in a hand: its back shows because that
            # card has not landed yet; dev game 2040: A's 10C lifted, and a misread of the
            # unread right pile was taken for the card under it, turned and played)
            held_from = {(hand.seat, hand.column) for hand in self._in_hand.values()}
            waiting = [(s, i) for s in SEATS for i in range(1, 6)
                       if self._column_value(s, i)[0] == "face_down" and self._r.down.get((s, i), 0) > 0
                       and (s, i) not in held_from]
            if len(waiting) != 1:
                return []
            source = _InHand(waiting[0][0], waiting[0][1], t)
        seat, column = source.seat, source.column
        self._r.down[(seat, column)] -= 1
        return [Reveal(t, self.round, seat, column, card), *self._play(t, seat, column, card, pile)]

    def _rebuild_chain(self, t: float, pile: Pile, card: Card, play_top: bool = True) -> list[Tracked]:
        """Cards in hands that fit, one on the next, between the pile's top and ``card`` went first.

        The longest such chain is taken, so every card that left a column is counted
        on a pile.  With ``play_top`` the new top is a never-seen card: it was under the
        chain's last card, revealed and played from the same column -- or, where there
        was no time for that (``_no_turn_since``), a misread of the chain's last card.
        """
        cards = self._r.pile_cards[pile]
        below = cards[-1] if cards else None
        held = [c for c in self._in_hand if c != card]
        chain = self._longest_chain(t, below, card, held, need_down=play_top)
        misread = False
        if not chain and play_top:
            # The chain's last card left a column whose back has shown since the hand
            # over it went, a moment ago: no card was turned there, so ``card`` is that
            # last card misread on the pile (dev game 2378, cards 35 pixels wide: A's
            # 6H, laid askew on 7H, read 7D from the 7H's corner; 7D was reported turned
            # up in A5 and played, though A5 showed its back 0.3 s after the hand came
            # over it, and A's count came one short).
            chain = self._longest_chain(t, below, card, held, need_down=False)
            source = self._in_hand[chain[-1]] if chain else None
            misread = source is not None and self._no_turn_since(source.seat, source.column, t)
            if not misread:
                return []
        if not chain:
            return []
        out: list[Tracked] = []
        for under in chain:
            hand = self._in_hand[under]
            out += self._play(t, hand.seat, hand.column, under, pile)
        if misread:
            zone = self._zones.get(pile)
            if zone is not None:
                zone.accepted = ("face_up", chain[-1])
            return out
        if play_top:
            last = chain[-1]
            seat, column = self._r.played_from[last]
            if not any(isinstance(e, Reveal) and e.column == column and e.player == seat for e in out):
                self._r.down[(seat, column)] -= 1
                out.append(Reveal(t, self.round, seat, column, card))
            out += self._play(t, seat, column, card, pile)
        return out

    def _longest_chain(self, t: float, below: Card | None, top: Card, hands: list[Card],
                       need_down: bool) -> list[Card]:
        """The longest order of ``hands`` cards that goes from ``below`` up to ``top`` by rank."""
        best: list[Card] = []

        def extend(path: list[Card], last: Card | None, left: list[Card]) -> None:
            nonlocal best
            if path and top.fits_on(path[-1]) and len(path) > len(best):
                hand = self._in_hand[path[-1]]
                if not need_down or (self._r.down.get((hand.seat, hand.column), 0) > 0
                                     and not self._no_turn_since(hand.seat, hand.column, t)):
                    best = list(path)
            for card in left:
                if last is None or card.fits_on(last):
                    extend([*path, card], card, [c for c in left if c != card])

        extend([], below, hands[:6])
        return best

    def _no_turn_since(self, seat: Seat, column: int, t: float) -> bool:
        """Has column ``column`` shown a face-down card since the hand over it went, with
        no hand over it since, and did that hand come less than ``chain_s`` before ``t``?
        Then no card was turned up there and played by ``t``: its top's play alone takes
        most of that time."""
        zone = self._zones.get(f"{seat}{column}")
        return (zone is not None and zone.accepted[0] == "face_down" and zone.candidate is None
                and not zone.covered and zone.last_hidden < zone.accepted_at
                and t - zone.covered_since < self.chain_s)

    def _lone_unread_spit(self) -> bool:
        """Is the pending spit an unread card on one pile only, though no spit card was
        due and both players would spit?  No card left a column for it either (else it
        would be that card), so it is the pile's top misread after a hand was over it,
        not a new card: a spit card unnamed would have its partner on the other pile
        (dev game 2040: A's 8D, the loser of a collision on B's unread 8S, was taken
        back, and the 8S was counted again as a spit card; A's next card there, 9D, was
        taken for that spit card, and the round's takes were one out)."""
        return (self._spit_unexpected and len(self._pending_spit) < self._spit_feeders
                and all(card is None for card in self._pending_spit.values()))

    def _emit_spit(self, t: float) -> list[Tracked]:
        cards = dict(self._pending_spit)
        self._pending_spit.clear()
        for pile, card in cards.items():
            self._note_named(pile, card)
            self._r.pile_cards[pile].append(card)
            zone = self._zones.get(pile)
            if (card is None and zone is not None and zone.accepted == ("face_up", None)
                    and zone.unnamed_rank is not None):
                # An unread spit card of a rank the reader is sure of is known by it
                # (``_top_rank``) until it is named: a look that names it later, after
                # a hand has passed, is that card (dev game 2296: the spit card 2S,
                # liked as 2S 0.78 or 2C 0.22; named so by narrowing once B's arm had
                # passed over the pile, it was taken for B's face-down card turned and
                # played unseen)
                self._r.unread_ranks[pile] = (len(self._r.pile_cards[pile]) - 1, zone.unnamed_rank)
        return [Spit(t, self.round, cards)]

    def _timeouts(self, t: float) -> list[Tracked]:
        out: list[Tracked] = []
        for hand in list(self._unknown_hands):
            if t - hand.since >= self.hand_timeout and not self._busy:
                self._unknown_hands.remove(hand)
                if self._laid_back(hand, None):
                    continue
                out.append(Unsure(t, f"lost sight of an unreadable card from {hand.seat}'s column "
                                     f"{hand.column}"))
                out += self._release_reveal(hand.seat, hand.column)
        if self._pending_spit and t - self._spit_since >= self.spit_window:
            if self._lone_unread_spit():
                for lone in self._pending_spit:
                    # the top it was taken for is still the card named there before (dev
                    # game 2040: 8H, named on the left pile, read as QD 0.3 once a hand
                    # had passed by, held the "Spit!" due back to the players' press)
                    top = self._top(lone)
                    if top is not None and top in self._r.named_on_pile:
                        self._r.traced[top] = lone
                self._pending_spit.clear()
            else:
                out += self._emit_spit(t)
        for card, hand in list(self._in_hand.items()):
            quick = self.quick_settle_s
            pile = self._fitting_pile(card)
            if pile is not None and self._zones.get(pile, _Zone()).covered:
                quick = self.covered_settle_s  # a hand is over that pile now: laying it there
            if t - hand.since >= quick and self._fits_one_pile_only(hand, card):
                out += self._settle_lost(t, card, trace=True)
                continue
            if t - hand.since < self.hand_timeout or self._busy:
                continue
            out += self._settle_lost(t, card)
        return out

    def _fitting_pile(self, card: Card) -> Pile | None:
        """The one pile whose top ``card`` fits, if only one."""
        fits = [p for p in PILES if self._fits_top(p, card)]
        return fits[0] if len(fits) == 1 else None

    def _top(self, pile: Pile) -> Card | None:
        """The card we believe lies on top of ``pile`` (None: empty or unread)."""
        cards = self._r.pile_cards[pile]
        return cards[-1] if cards else None

    def _fits_one_pile_only(self, hand: _InHand, card: Card) -> bool:
        """Can ``card`` go nowhere but onto one pile (it fits one pile's top, not the
        other's, and its player has no empty column to move it into)?"""
        laid = self._r.columns.get(hand.seat, 5)
        if any(self._column_value(hand.seat, i)[0] == "empty" for i in range(1, laid + 1)):
            return False
        tops = [self._r.pile_cards[p][-1] if self._r.pile_cards[p] else None for p in PILES]
        if any(top is None for top in tops):
            return False
        return sum(1 for top in tops if top is not None and card.fits_on(top)) == 1

    def _settle_lost(self, t: float, card: Card, trace: bool = False) -> list[Tracked]:
        """A card left its column and was never seen landing: the rules may say where it went.

        If it fits on exactly one pile's top, it was played there (a hand, a slap or the
        end of the round hid it); otherwise where it went is not known, and that is said.
        With ``trace`` (it can go nowhere else and was settled within ``quick_settle_s``),
        the one card in a hand, named in its column, is traced to that pile like one seen
        landing (``_sole_hand``; dev game 2378: B's 5C, named in B5, laid on 4H and read
        there only as 7H 0.59 or 7D 0.13, was settled onto the left pile 0.7 s after it
        left, and "Spit!" waited 1.4 s for the players' press).  A card lost for longer may
        never have left (dev game 2678: A2's KC read as a back after a hand went by was
        settled onto the right pile 5 s later), and is not.
        """
        hand = self._in_hand.pop(card)
        if self._column_value(hand.seat, hand.column) == ("face_up", card):
            return []
        pile = self._fitting_pile(card)
        if pile is not None:
            if trace:
                self._in_hand[card] = hand  # still held as ``_play`` judges it (and drops it)
            return self._play(t, hand.seat, hand.column, card, pile)
        if self._laid_back(hand, card):
            return []
        return [Unsure(t, f"lost sight of {card.code} from {hand.seat}'s column {hand.column}; "
                          "its pile is not known"),
                *self._release_reveal(hand.seat, hand.column)]

    def _laid_back(self, hand: _InHand, card: Card | None) -> bool:
        """Was ``card`` (None: a top the reader could not name), which left its column
        and landed on no pile, laid back there?  So it is when the face its column shows
        again, held as the reveal of the card under it, may be that card: unnamed, or of
        its rank (a suit the reader misread), or for an unnamed top one the reader liked
        for it.  A played card would have shown on a pile; a collision's loser goes back
        (dev game 2060: A's KS, taken for KC, lost to B's JC and was laid back on A5,
        read unnamed; its "reveal" left A one card short and the left pile one too many).
        The reveal is dropped and the face-down card counted back under it."""
        reveal = self._held_reveals.get((hand.seat, hand.column))
        if reveal is None:
            return False
        shown = reveal.card
        if not (shown is None or (card is not None and shown.rank == card.rank)
                or (card is None and hand.evidence.get(shown, 0.0) >= self.candidate_floor)):
            return False
        del self._held_reveals[(hand.seat, hand.column)]
        self._r.down[(hand.seat, hand.column)] = self._r.down.get((hand.seat, hand.column), 0) + 1
        return True


def _likeliest_face(candidates: tuple[tuple[Card, float], ...]) -> Card | None:
    """The face the reader gave the highest probability, if any."""
    return max(candidates, key=lambda cp: cp[1])[0] if candidates else None


def _vote(zone: _Zone, value: ZoneValue, named: int, goes_on: bool) -> int:
    """Count one frame's vote for ``value`` in ``zone`` (``named``: 1 if the reader named
    the card itself): the run on the value being voted on goes on, or starts afresh with
    it.  Returns the run's length."""
    if goes_on:
        zone.run += 1
        zone.named_run += named
    else:
        zone.candidate, zone.run, zone.named_run = value, 1, named
        zone.candidate_generation = zone.generation
    zone.interrupted = False
    return zone.run


def _seat_column(zone: str) -> tuple[Seat, int]:
    seat: Seat = "A" if zone[0] == "A" else "B"
    return seat, int(zone[1])
