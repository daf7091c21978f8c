"""The game: deals in sequence, the score sheet, barrel, bolts, penalties and the end.

A :class:`Game` deals (from its own seeded random source, or from cards it is
given when a record is replayed), hands each deal a :class:`DealContext` that
says who may bid, bid dark or concede, and scores every finished deal in the
order RULES §7 settles:

deal values → the barrel rule for sitters → bolt, concede, redeal and cut
penalties → climbing on the barrel (and knock-off) → sitters whose deals ran out
fall → the fall reset → samosval → the end of the game.

Decisions beyond the rules (docs/rules.md) (documented in docs/rules-decisions.md):

* A redealt deal is not a deal for the barrel's count, ``max_deals`` or golden
  deals; the same dealer deals again.
* A sitter whose score drops below the barrel by a penalty leaves it; that is a fall.
* A bolt streak (``three_in_a_row``, ``bolt_samosval``) is broken by any played
  deal in which the player takes part without a bolt; a conceded deal, a redeal
  or sitting out leaves it as it is.
* ``golden_restart`` sets every score and count back to 0 and plays the golden
  deals again; ``max_deals`` keeps counting across the restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from .cards import FULL_DECK, JACK, NINE, Card, Mask, card_str, mask_of
from .deal import Deal, DealContext, DealResult, recorded_change, view_of
from .draws import Draws
from .moves import LOOK, Move
from .rules import Rules
from .view import GameInfo, View

#: What an :class:`Event` marks on the score sheet.
EventKind = Literal[
    "barrel_on",
    "fall",
    "knocked_off",
    "barrel_timeout",
    "bolt",
    "bolt_penalty",
    "bolt_samosval",
    "concede_penalty",
    "redeal_penalty",
    "cut_penalty",
    "fall_reset",
    "samosval",
    "golden_restart",
]


@dataclass(frozen=True, slots=True)
class Event:
    """Something the score sheet marks: ``kind`` is one of :data:`EventKind` (``barrel_on``,
    ``fall``, ``knocked_off``, ``barrel_timeout``, ``bolt``, ``bolt_penalty``,
    ``bolt_samosval``, ``concede_penalty``, ``redeal_penalty``, ``cut_penalty``,
    ``fall_reset``, ``samosval``, ``golden_restart``); ``amount`` is the score change it
    made, if any."""

    seat: int
    kind: EventKind
    amount: int = 0


@dataclass(slots=True)
class DealRecord:
    """What a record keeps of a deal: the cards dealt, the cut and the moves (with two
    players ``talons`` are talon 1 and talon 2, and ``talon`` both)."""

    dealer: int
    hands: tuple[Mask, ...]
    talon: Mask
    moves: list[Move] = field(default_factory=list)
    cut: tuple[Card, ...] = ()
    talons: tuple[Mask, ...] = ()


class DealtCards(NamedTuple):
    """The cards of one deal: the hands by seat, the talon (both talons with two players,
    which ``talons`` lists in order: RULES §4 "Two players" 1), the cut's cards seen."""

    hands: tuple[Mask, ...]
    talon: Mask
    cut: tuple[Card, ...]
    talons: tuple[Mask, ...] = ()


@dataclass(frozen=True, slots=True)
class DealSummary:
    """One row of the score sheet: the deal's result and what it did to the scores."""

    number: int
    dealer: int
    result: DealResult
    scores: tuple[int, ...]
    changes: tuple[int, ...]
    events: tuple[Event, ...]


@dataclass(slots=True)
class SeatState:
    """Per-player counters the rules need across deals."""

    score: int = 0
    on_barrel: bool = False
    barrel_deals: int = 0
    falls: int = 0
    no_barrel: bool = False
    bolts: int = 0
    bolt_streak: int = 0
    concedes: int = 0

    def copy(self) -> SeatState:
        return SeatState(
            self.score, self.on_barrel, self.barrel_deals, self.falls, self.no_barrel,
            self.bolts, self.bolt_streak, self.concedes,
        )


class _Checkpoint(NamedTuple):
    """The game as it stood when a deal ended, before that deal was scored: what
    :meth:`Game.undo` restores to take back the deal's last move.  The deal itself is not
    kept (a game of many deals would hold them all): its context and its moves (with any
    ``look`` as it was made) rebuild it when needed."""

    seats: tuple[SeatState, ...]
    dealer: int
    deals_played: int
    golden_start: int
    golden_made: bool
    redeal_streak: int
    ctx: DealContext
    history: tuple[Move, ...]


class GameOver(RuntimeError):
    """A move was offered after the game had ended."""


class Game:
    """A whole game of Тысяча.  Moves go through :meth:`apply`; a finished deal is
    scored and, unless the game is over, the next one is dealt."""

    def __init__(
        self,
        rules: Rules | None = None,
        players: Sequence[str] | None = None,
        first_dealer: int | None = None,
        seed: int | None = None,
        auto_deal: bool = True,
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        n = self.rules.players
        self.names = list(players) if players is not None else [f"P{i + 1}" for i in range(n)]
        if len(self.names) != n:
            raise ValueError(f"{len(self.names)} player names for a {n}-player game")
        self.n = n
        self.seed = seed
        if first_dealer is None:
            # Drawn by lot (seed 002), from the game's own random source: a seed repeats it.
            first_dealer = self._random("first-dealer").below(n)
        if not (_is_int(first_dealer) and 0 <= first_dealer < n):
            raise ValueError(f"first_dealer must be a seat from 0 to {n - 1}")
        self.first_dealer = first_dealer
        self.auto_deal = auto_deal
        self.seats = [SeatState() for _ in range(n)]
        self.dealer = first_dealer
        self.deals_played = 0  # deals that were played or conceded (not redeals)
        self.golden_start = 0  # deals_played when the golden deals (re)started
        self.golden_made = False
        self.redeal_streak = 0
        self.summaries: list[DealSummary] = []
        self.records: list[DealRecord] = []
        self.deal: Deal | None = None
        self.winner: int | list[int] | None = None
        self.over = False
        self._checkpoints: list[_Checkpoint] = []
        if auto_deal:
            self.start_deal()

    # ---------------------------------------------------------------- queries

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(s.score for s in self.seats)

    @property
    def to_move(self) -> int:
        if self.deal is None:
            raise GameOver("no deal in progress")
        return self.deal.to_move

    def legal_moves(self) -> list[Move]:
        return [] if self.deal is None or self.over else self.deal.legal_moves()

    @property
    def golden_count(self) -> int:
        """How many golden deals a game begins with: one for each player who opens, three,
        or two with two players (RULES §4 golden_deals, "Two players" 6)."""
        return 2 if self.n == 2 else 3

    def is_golden(self) -> bool:
        return (
            self.rules.golden_deals
            and self.deals_played - self.golden_start < self.golden_count
        )

    def info(self) -> GameInfo:
        r = self.rules
        return GameInfo(
            deal_number=self.deals_played + 1,
            scores=self.scores,
            on_barrel=tuple(s.on_barrel for s in self.seats),
            barrel_deals_left=tuple(
                r.barrel_deals - s.barrel_deals if s.on_barrel and r.barrel_deals else None
                for s in self.seats
            ),
            bolts=tuple(s.bolts for s in self.seats),
            concedes=tuple(s.concedes for s in self.seats),
            falls=tuple(s.falls for s in self.seats),
            golden=self.is_golden(),
        )

    def view(self, seat: int | None) -> View:
        """What ``seat`` (``None``: a spectator) may see of the current deal."""
        if self.deal is None:
            raise GameOver("no deal in progress")
        return view_of(self.deal, seat, self.info())

    # ---------------------------------------------------------------- dealing

    def opener(self) -> int:
        """Who opens the auction (or plays a golden deal) when ``self.dealer`` deals."""
        if self.rules.first_bidder == "dealer":
            return self.dealer
        return (self.dealer + 1) % self.n

    def cutter(self) -> int:
        """The player left of the dealer cuts (seed 002) *(decision)*."""
        return (self.dealer + 1) % self.n

    def _random(self, purpose: str) -> Draws:
        """A random source for one purpose: from the seed and the purpose alone, so that the
        cards of deal k are the same whether the game ran from its start or was restored
        from its record before deal k (:mod:`thousand.engine.draws`); without a seed, the system's
        cryptographic source."""
        return Draws(self.seed, purpose)

    def random_cards(self) -> DealtCards:
        """Shuffle, cut (``cut_nines``) and deal 7 cards to each player in the deal and the
        last 3 to the talon (two players: 10 each, and two talons of the last 4): the next
        deal's cards (deal ``len(self.records)``)."""
        rng = self._random(f"deal/{len(self.records)}")
        deck = list(range(24))
        rng.shuffle(deck)
        cut: tuple[Card, ...] = ()
        if self.rules.cut_nines:
            cut = self._random_cut(rng)
            if cut[-1] % 6 != JACK:
                # The card seen last lies at the bottom of the deck: a talon card.
                deck.remove(cut[-1])
                deck.append(cut[-1])
        hands = [0] * self.n
        size = self.hand_size
        i = 0
        for k in range(1, self.n + 1):
            seat = (self.dealer + k) % self.n
            if self.n == 4 and seat == self.dealer:
                continue
            hands[seat] = mask_of(deck[i : i + size])
            i += size
        talon = mask_of(deck[i:])
        # Two players: talon 1 is the 21st and 22nd cards, talon 2 the last two, whose
        # bottom card the cut showed the dealer.
        talons = (mask_of(deck[20:22]), mask_of(deck[22:24])) if self.n == 2 else ()
        return DealtCards(tuple(hands), talon, cut, talons)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player in a deal: 7, or 10 with two players."""
        return 10 if self.n == 2 else 7

    @staticmethod
    def _random_cut(rng: Draws) -> tuple[Card, ...]:
        """The bottom cards seen at the cut (RULES §4 "The cut"): a nine is shown and the
        deck cut again (a cut may show the same nine again); after the third nine the
        deck stays as it lies; a jack is shown and the dealer cuts once more unseen."""
        seen: list[Card] = []
        while True:
            card = rng.below(24)
            seen.append(card)
            if card % 6 != NINE or len(seen) == 3:
                return tuple(seen)

    def start_deal(
        self,
        hands: Sequence[Mask] | None = None,
        talon: Mask | None = None,
        cut: Sequence[Card] = (),
        talons: Sequence[Mask] = (),
    ) -> Deal:
        """Deal the next deal: the given cards (a replay) or random ones.  With two players
        ``talons`` gives talon 1 and talon 2 (``talon`` may then be left out)."""
        if self.over:
            raise GameOver("the game is over")
        if self.deal is not None:
            raise RuntimeError("a deal is in progress: finish it before dealing the next")
        if hands is None:
            hands_t, talon_m, cut_t, talons_t = self.random_cards()
        else:
            talons_t = tuple(talons)
            if talon is None and talons_t:
                talon = 0
                for t in talons_t:
                    talon |= t
            if talon is None:
                raise ValueError("a talon is needed with the hands")
            hands_t, talon_m, cut_t = tuple(hands), talon, tuple(cut)
            self.check_cards(hands_t, talon_m, talons_t)
            # the cut's bottom card lies in talon 2 with two players
            self.check_cut(cut_t, talons_t[1] if self.n == 2 else talon_m)
        r = self.rules
        opener = self.opener()
        golden = self.is_golden()
        anyone_on_barrel = any(s.on_barrel for s in self.seats)
        dark_seat = (self.dealer + 1) % self.n
        dark_allowed = (
            r.dark
            and not golden
            and not anyone_on_barrel
            and self.seats[dark_seat].score >= r.dark_min_score
        )
        barred = frozenset(
            s for s in range(self.n)
            if r.min_score_to_bid is not None and self.seats[s].score <= r.min_score_to_bid
        )
        # concede_on_barrel=false: nobody concedes while anyone sits on the barrel (RULES §4)
        concede_allowed = tuple(
            (r.concede_limit is None or st.concedes < r.concede_limit)
            and (r.concede_on_barrel or not anyone_on_barrel)
            and (r.concede_in_golden or not golden)
            for st in self.seats
        )
        ctx = DealContext(
            rules=r, dealer=self.dealer, hands=hands_t, talon=talon_m, opener=opener,
            golden=golden, dark_allowed=dark_allowed and dark_seat not in barred, barred=barred,
            concede_allowed=concede_allowed, cut=cut_t, talons=talons_t,
        )
        self.deal = Deal(ctx)
        self.records.append(DealRecord(self.dealer, hands_t, talon_m, [], cut_t, talons_t))
        return self.deal

    def check_cut(self, cut: tuple[Card, ...], talon: Mask) -> None:
        """Reject a cut list the cut cannot produce (RULES §6): none without ``cut_nines``;
        with it, up to three nines, then (unless there were three) one other card; after a
        jack nothing more; the last card, unless a jack, is a talon card."""
        if not self.rules.cut_nines:
            if cut:
                raise ValueError("a cut is listed, but these rules have no cut (cut_nines)")
            return
        if not cut:
            raise ValueError("the cut is missing: with cut_nines a deal lists the cards seen")
        if any(not (_is_int(c) and 0 <= c < 24) for c in cut):
            raise ValueError("the cut lists something that is not a card")
        nines = 0
        while nines < len(cut) and cut[nines] % 6 == NINE:
            nines += 1
        last = cut[-1]
        if nines < 3 and nines < len(cut) - 1:
            raise ValueError("the cut lists cards after the first card that is not a nine")
        if nines < 3 and nines == len(cut):
            raise ValueError("the cut ends with a nine: after a nine it is cut again")
        if nines >= 3 and len(cut) > 3:
            raise ValueError("after three nines the deck is not cut again: nothing follows them")
        if last % 6 != JACK and not talon >> last & 1:
            where = "talon 2" if self.n == 2 else "the talon"
            raise ValueError(
                f"the last card seen at the cut, {card_str(last)}, lies at the bottom of the "
                f"deck and must be in {where}"
            )

    def check_cards(
        self, hands: tuple[Mask, ...], talon: Mask, talons: tuple[Mask, ...] = ()
    ) -> None:
        """Reject a deal that does not hold every card exactly once in the right places."""
        if len(hands) != self.n:
            raise ValueError(f"{len(hands)} hands for {self.n} players")
        seen = talon
        size = 4 if self.n == 2 else 3
        if talon.bit_count() != size:
            raise ValueError(f"the talon must have {size} cards, not {talon.bit_count()}")
        if self.n == 2:
            if len(talons) != 2 or any(t.bit_count() != 2 for t in talons):
                raise ValueError("the talon of two players is two talons of two cards each")
            if talons[0] & talons[1] or talons[0] | talons[1] != talon:
                raise ValueError("the talon's four cards must be the two talons' cards")
        elif talons:
            raise ValueError("the talon is one with three or four players: only two have two")
        for seat, h in enumerate(hands):
            want = 0 if self.n == 4 and seat == self.dealer else self.hand_size
            if h.bit_count() != want:
                who = "the sitting-out dealer" if want == 0 else f"seat {seat}"
                raise ValueError(f"{who} must be dealt {want} cards, not {h.bit_count()}")
            if seen & h:
                raise ValueError("a card is dealt twice")
            seen |= h
        if seen != FULL_DECK:
            raise ValueError("the deal does not hold all 24 cards")

    # ------------------------------------------------------------------ moves

    def apply(self, move: Move) -> None:
        """Make a move in the current deal; score the deal when it ends."""
        if self.over:
            raise GameOver("the game is over")
        deal = self.deal
        if deal is None:
            raise GameOver("no deal in progress")
        deal.apply(move)
        if move != LOOK:  # ``look`` is never recorded (moves.py)
            self.records[-1].moves.append(move)
        if deal.done:
            self._end_deal(deal)

    def _end_deal(self, deal: Deal) -> None:
        assert deal.result is not None
        self.finish_deal(deal.result, deal.ctx)

    def finish_deal(self, result: DealResult, ctx: DealContext) -> DealSummary:
        """Score a finished deal's result and deal the next one (when dealing itself).

        :meth:`apply` calls this when a deal ends; it is public so that the game's
        scoring can be checked on a deal result alone.
        """
        if self.deal is not None:
            self._checkpoints.append(_Checkpoint(
                tuple(st.copy() for st in self.seats), self.dealer, self.deals_played,
                self.golden_start, self.golden_made, self.redeal_streak, self.deal.ctx,
                tuple(self.deal.history),
            ))
        summary = self._score(result, ctx)
        self.summaries.append(summary)
        self.deal = None
        if not self.over and self.auto_deal:
            self.start_deal()
        return summary

    def undo(self) -> Move:
        """Take back the last move, across the end of a deal too (the deal's scoring and
        the next deal's dealing are taken back with it); return it.

        A finished deal is rebuilt from its context and record, so that undoing in a clone
        never touches the original.
        """
        deal = self.deal
        if deal is None or not deal.history:
            if not self._checkpoints:
                raise IndexError("no move to undo")
            cp = self._checkpoints.pop()
            if deal is not None:
                self.records.pop()  # the next deal, dealt but not begun
            self.seats = [st.copy() for st in cp.seats]
            self.dealer = cp.dealer
            self.deals_played = cp.deals_played
            self.golden_start = cp.golden_start
            self.golden_made = cp.golden_made
            self.redeal_streak = cp.redeal_streak
            self.summaries.pop()
            self.winner = None
            self.over = False
            deal = self.deal = self._rebuild(cp)
        move = deal.undo()
        if move != LOOK:
            self.records[-1].moves.pop()
        return move

    def last_finished_deal(self) -> Deal:
        """The last deal that ended, as it ended (rebuilt from its record)."""
        if not self._checkpoints:
            raise GameOver("no deal has ended yet")
        return self._rebuild(self._checkpoints[-1])

    @staticmethod
    def _rebuild(cp: _Checkpoint) -> Deal:
        deal = Deal(cp.ctx)
        for m in cp.history:
            deal.apply(m)
        return deal

    def clone(self) -> Game:
        """An independent copy: moves and undos on either leave the other as it was."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.names = list(self.names)
        other.seats = [st.copy() for st in self.seats]
        other.summaries = list(self.summaries)
        other.records = [
            DealRecord(r.dealer, r.hands, r.talon, list(r.moves), r.cut, r.talons)
            for r in self.records
        ]
        other.deal = self.deal.clone() if self.deal is not None else None
        other._checkpoints = list(self._checkpoints)
        other.winner = list(self.winner) if isinstance(self.winner, list) else self.winner
        return other

    # ---------------------------------------------------------------- scoring

    def _score(self, res: DealResult, ctx: DealContext) -> DealSummary:
        r = self.rules
        seats = self.seats
        n = self.n
        before = self.scores
        events: list[Event] = []
        falls: list[int] = []
        barrel = r.barrel
        wins = self._wins
        sat_before = [s.on_barrel for s in seats]
        before_penalties = before
        if res.outcome == "redeal":
            self._score_redeal(events)
        else:
            self.redeal_streak = 0
            self.deals_played += 1
            # 1-2. deal values, with the barrel rule for those sitting on it.
            for seat in range(n):
                st = seats[seat]
                value = res.values[seat]
                declarer = seat == res.declarer
                st.score += recorded_change(r, st.score, st.on_barrel, declarer, res.made, value)
                if not (st.on_barrel and declarer):
                    continue
                if res.made:
                    if wins(st.score):
                        st.on_barrel = False  # he made the contract that wins
                elif value < 0:
                    # A failed contract, or a concede that costs him something, takes him
                    # off; a concede that costs nothing leaves him sitting (RULES §7).
                    self._leave_barrel(seat, falls, events, "fall")
            # 3. penalties: bolts, concede.
            before_penalties = self.scores
            self._score_bolts(res, events)
            if res.outcome == "conceded" and res.declarer is not None:
                st = seats[res.declarer]
                st.concedes += 1
                every = r.concede_penalty_every
                if every and st.concedes % every == 0:
                    st.score -= r.penalty
                    events.append(Event(res.declarer, "concede_penalty", -r.penalty))
            if r.golden_deals and res.golden and res.made:
                self.golden_made = True
        self._score_cut(ctx, events)
        if barrel is not None:
            # A penalty on a sitter takes him off the barrel: a fall (RULES §7).
            for seat, st in enumerate(seats):
                if st.on_barrel and st.score < before_penalties[seat]:
                    self._leave_barrel(seat, falls, events, "fall")
            if res.outcome != "redeal":
                self._climb(res, sat_before, falls, events)
                # 5. sitters whose deals ran out.
                for seat, st in enumerate(seats):
                    if st.on_barrel and sat_before[seat]:
                        st.barrel_deals += 1
                        if r.barrel_deals is not None and st.barrel_deals >= r.barrel_deals:
                            st.score -= r.penalty
                            self._leave_barrel(seat, falls, events, "barrel_timeout", -r.penalty)
            # 6. every third fall resets the score.
            for seat in falls:
                st = seats[seat]
                st.falls += 1
                every = r.barrel_falls_reset
                if every and st.falls % every == 0:
                    change = r.barrel_reset_score - st.score
                    st.score = r.barrel_reset_score
                    events.append(Event(seat, "fall_reset", change))
                    if r.no_barrel_after_reset:
                        st.no_barrel = True
        # 7. samosval.
        if r.samosval:
            for seat, st in enumerate(seats):
                if st.score != before[seat] and st.score in r.samosval:
                    events.append(Event(seat, "samosval", -st.score))
                    st.score = 0
        # golden restart, after the last golden deal.
        if (
            r.golden_deals
            and r.golden_restart
            and res.outcome != "redeal"
            and self.deals_played - self.golden_start == self.golden_count
            and not self.golden_made
        ):
            self.seats = [SeatState() for _ in range(n)]
            self.golden_start = self.deals_played
            self.golden_made = False
            events.append(Event(-1, "golden_restart"))
        # 8. the end of the game.
        if res.outcome != "redeal":
            self._check_end(res)
        if res.outcome == "redeal":
            pass  # the same dealer deals again
        else:
            self.dealer = (self.dealer + 1) % n
        after = self.scores
        return DealSummary(
            number=len(self.summaries) + 1,
            dealer=ctx.dealer,
            result=res,
            scores=after,
            changes=tuple(a - b for a, b in zip(after, before, strict=True)),
            events=tuple(events),
        )

    def _leave_barrel(
        self, seat: int, falls: list[int], events: list[Event], kind: EventKind, amount: int = 0
    ) -> None:
        self.seats[seat].on_barrel = False
        self.seats[seat].barrel_deals = 0
        falls.append(seat)
        events.append(Event(seat, kind, amount))

    def _score_redeal(self, events: list[Event]) -> None:
        r = self.rules
        self.redeal_streak += 1
        every = r.redeal_penalty_after
        if every and self.redeal_streak % every == 0:
            self.seats[self.dealer].score -= r.penalty
            events.append(Event(self.dealer, "redeal_penalty", -r.penalty))

    def _score_cut(self, ctx: DealContext, events: list[Event]) -> None:
        """Three nines at the cut cost the cutter the penalty (RULES §4 cut_nines)."""
        if not self.rules.cut_nines or not ctx.cut:
            return
        nines = 0
        for c in ctx.cut:
            if c % 6 != NINE:
                break
            nines += 1
        if nines >= 3:
            cutter = (ctx.dealer + 1) % self.n
            self.seats[cutter].score -= self.rules.penalty
            events.append(Event(cutter, "cut_penalty", -self.rules.penalty))

    def _score_bolts(self, res: DealResult, events: list[Event]) -> None:
        """Bolts are counted (and marked) only where the rules count them: ``bolts`` or
        ``bolt_samosval``; a game without them has no bolts to speak of."""
        r = self.rules
        if res.outcome != "played" or res.declarer is None:
            return
        if r.bolts is None and not r.bolt_samosval:
            return
        for seat in res.active:
            st = self.seats[seat]
            if seat == res.declarer:
                st.bolt_streak = 0
                continue
            bolt = res.points[seat] == 0 if r.bolt_means == "no_points" else res.tricks[seat] == 0
            if not bolt:
                st.bolt_streak = 0
                continue
            if st.on_barrel and not r.barrel_bolts:
                continue
            st.bolts += 1
            st.bolt_streak += 1
            events.append(Event(seat, "bolt"))
            if r.bolts is not None:
                hit = (
                    (r.bolts == "every_3rd" and st.bolts % 3 == 0)
                    or (r.bolts == "every_5th" and st.bolts % 5 == 0)
                    or (r.bolts == "three_in_a_row" and st.bolt_streak % 3 == 0)
                )
                if hit:
                    st.score -= r.penalty
                    events.append(Event(seat, "bolt_penalty", -r.penalty))
            if r.bolt_samosval and st.bolt_streak % 3 == 0:
                events.append(Event(seat, "bolt_samosval", -st.score))
                st.score = 0
            if st.bolt_streak % 3 == 0:
                st.bolt_streak = 0

    def _climb(
        self,
        res: DealResult,
        sat_before: list[bool],
        falls: list[int],
        events: list[Event],
    ) -> None:
        """4. Climbing on the barrel, knock-off and simultaneous fall (RULES §7 Barrel)."""
        r = self.rules
        barrel = r.barrel
        wins = self._wins
        assert barrel is not None
        climbers = [
            s for s in range(self.n)
            if not self.seats[s].on_barrel
            and not self.seats[s].no_barrel
            and s not in falls  # who left the barrel in this deal does not climb back in it
            and self.seats[s].score >= barrel
            and not wins(self.seats[s].score)
        ]
        if not climbers:
            return
        pre_cap = {s: self.seats[s].score for s in climbers}
        for s in climbers:
            st = self.seats[s]
            if r.barrel_score == "capped":
                st.score = barrel
            st.on_barrel = True
            st.barrel_deals = 0
            events.append(Event(s, "barrel_on", st.score - pre_cap[s]))
        fallen: list[int] = []
        if r.barrel_simultaneous_fall and len(climbers) > 1:
            fallen = list(climbers)
        elif r.barrel_knock_off and len(climbers) > 1:
            keep = self._who_stays(res, climbers, pre_cap)
            fallen = [s for s in climbers if s != keep]
        if r.barrel_knock_off:
            fallen += [s for s in range(self.n) if sat_before[s] and self.seats[s].on_barrel]
        for s in fallen:
            # barrel − penalty; with barrel_score=kept his own score stands for the barrel
            self.seats[s].score -= r.penalty
            self._leave_barrel(s, falls, events, "knocked_off", -r.penalty)

    def _who_stays(self, res: DealResult, climbers: list[int], pre_cap: dict[int, int]) -> int:
        if res.declarer in climbers:
            return res.declarer
        best = max(pre_cap[s] for s in climbers)
        top = [s for s in climbers if pre_cap[s] == best]
        if len(top) == 1:
            return top[0]
        start = res.declarer if res.declarer is not None else self.dealer
        for k in range(1, self.n + 1):
            s = (start + k) % self.n
            if s in top:
                return s
        return top[0]

    def _wins(self, score: int) -> bool:
        """Whether a score wins the game (:meth:`thousand.engine.rules.Rules.wins`)."""
        return self.rules.wins(score)

    def _check_end(self, res: DealResult) -> None:
        scores = self.scores
        reached = [s for s in range(self.n) if self._wins(scores[s])]
        if reached:
            if res.declarer in reached:
                self.winner = res.declarer
            else:
                best = max(scores[s] for s in reached)
                top = [s for s in reached if scores[s] == best]
                self.winner = top[0] if len(top) == 1 else top
            self.over = True
            return
        if self.rules.max_deals is not None and self.deals_played >= self.rules.max_deals:
            best = max(scores)
            top = [s for s in range(self.n) if scores[s] == best]
            self.winner = top[0] if len(top) == 1 else top
            self.over = True

    def settlement(self) -> list[int] | None:
        """What each player owes the winner: the points he lacks to the win score
        (RULES §7 Settlement); ``None`` while unfinished or for a shared win."""
        if not self.over or not isinstance(self.winner, int):
            return None
        win = self.rules.win_score
        return [0 if s == self.winner else max(0, win - sc) for s, sc in enumerate(self.scores)]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

