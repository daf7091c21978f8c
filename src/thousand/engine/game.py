"""The game: deals in sequence, the score sheet, barrel, bolts, penalties and the end.

A :class:`Game` deals (from its own seeded random source, or from cards it is
given when a record is replayed), hands each deal a :class:`DealContext` that
says who may bid, bid dark or concede, and scores every finished deal in the
order RULES §7 settles, by the steps of :mod:`thousand.engine.scoring`:

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
from typing import NamedTuple

from . import scoring
from .cards import FULL_DECK, JACK, NINE, Card, Mask, card_str, mask_of
from .deal import Deal, DealContext, DealResult, view_of
from .draws import Draws
from .moves import LOOK, Move
from .rules import Rules
from .scoring import Event as Event
from .scoring import EventKind as EventKind
from .scoring import Marks
from .scoring import SeatState as SeatState
from .view import GameInfo, View


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
        """Score a finished deal on the sheet, step by step in the order of RULES §7
        (:mod:`thousand.engine.scoring`), and move the deal on to the next dealer."""
        r = self.rules
        seats = self.seats
        before = self.scores
        marks = Marks()
        sat_before = [s.on_barrel for s in seats]
        before_penalties = before
        if res.outcome == "redeal":
            self.redeal_streak += 1
            scoring.redeal_penalty(r, seats, self.dealer, self.redeal_streak, marks)
        else:
            self.redeal_streak = 0
            self.deals_played += 1
            scoring.deal_values(r, seats, res, marks)
            before_penalties = self.scores
            scoring.bolts(r, seats, res, marks)
            scoring.concede_penalty(r, seats, res, marks)
            if r.golden_deals and res.golden and res.made:
                self.golden_made = True
        scoring.cut_penalty(r, seats, ctx, marks)
        if r.barrel is not None:
            scoring.barrel_rule(r, seats, res, before_penalties, sat_before, self.dealer, marks)
        scoring.samosval(r, seats, before, marks)
        if res.outcome != "redeal":  # a redeal: the same dealer deals again
            self._golden_restart(marks)
            won = scoring.winner(r, self.scores, res, self.deals_played)
            if won is not None:
                self.winner = won
                self.over = True
            self.dealer = (self.dealer + 1) % self.n
        after = self.scores
        return DealSummary(
            number=len(self.summaries) + 1,
            dealer=ctx.dealer,
            result=res,
            scores=after,
            changes=tuple(a - b for a, b in zip(after, before, strict=True)),
            events=tuple(marks.events),
        )

    def _golden_restart(self, marks: Marks) -> None:
        """After the last golden deal with none made (``golden_restart``): every score and
        count back to 0, and the golden deals again."""
        r = self.rules
        if (
            r.golden_deals
            and r.golden_restart
            and self.deals_played - self.golden_start == self.golden_count
            and not self.golden_made
        ):
            self.seats = [SeatState() for _ in range(self.n)]
            self.golden_start = self.deals_played
            self.golden_made = False
            marks.events.append(Event(-1, "golden_restart"))

    def _wins(self, score: int) -> bool:
        """Whether a score wins the game (:meth:`thousand.engine.rules.Rules.wins`, the one
        threshold the scoring steps ask too)."""
        return self.rules.wins(score)

    def settlement(self) -> list[int] | None:
        """What each player owes the winner: the points he lacks to the win score
        (RULES §7 Settlement); ``None`` while unfinished or for a shared win."""
        if not self.over or not isinstance(self.winner, int):
            return None
        win = self.rules.win_score
        return [0 if s == self.winner else max(0, win - sc) for s, sc in enumerate(self.scores)]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

