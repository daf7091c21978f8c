"""The score sheet after a deal: the steps of RULES §7, as functions of the rules, the
seats' counters and the deal's result.

:meth:`thousand.engine.game.Game.finish_deal` calls them in the order RULES §7 settles
(deal values → the barrel rule for sitters → bolt, concede, redeal and cut penalties →
climbing on the barrel (and knock-off) → sitters whose deals ran out fall → the fall
reset → samosval → the end of the game); the game keeps what lies between deals (the
dealer, the deal count, the golden deals, the redeal streak).  Each step changes the
seats' :class:`SeatState` in place and marks what it did on a :class:`Marks`, so that a
step reads, and is mutation-tested (docs/testing.md), on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from .cards import NINE
from .deal import DealContext, DealResult, recorded_change
from .rules import Rules

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


@dataclass(slots=True)
class Marks:
    """What scoring one deal marks: the sheet's events in order, and the seats that left
    the barrel in it (the falls the fall reset counts, who may not climb back at once)."""

    events: list[Event] = field(default_factory=list)
    falls: list[int] = field(default_factory=list)

    def leave_barrel(
        self, seats: Sequence[SeatState], seat: int, kind: EventKind, amount: int = 0
    ) -> None:
        """``seat`` gets off the barrel (a fall, a knock-off, his deals ran out)."""
        seats[seat].on_barrel = False
        seats[seat].barrel_deals = 0
        self.falls.append(seat)
        self.events.append(Event(seat, kind, amount))


def deal_values(r: Rules, seats: Sequence[SeatState], res: DealResult, marks: Marks) -> None:
    """1-2. The deal's values, with the barrel rule for those sitting on it."""
    for seat, st in enumerate(seats):
        value = res.values[seat]
        declarer = seat == res.declarer
        st.score += recorded_change(r, st.score, st.on_barrel, declarer, res.made, value)
        if not (st.on_barrel and declarer):
            continue
        if res.made:
            if r.wins(st.score):
                st.on_barrel = False  # he made the contract that wins
        elif value < 0:
            # A failed contract, or a concede that costs him something, takes him
            # off; a concede that costs nothing leaves him sitting (RULES §7).
            marks.leave_barrel(seats, seat, "fall")


def bolts(r: Rules, seats: Sequence[SeatState], res: DealResult, marks: Marks) -> None:
    """3. Bolts are counted (and marked) only where the rules count them: ``bolts`` or
    ``bolt_samosval``; a game without them has no bolts to speak of."""
    if res.outcome != "played" or res.declarer is None:
        return
    if r.bolts is None and not r.bolt_samosval:
        return
    events = marks.events
    for seat in res.active:
        st = seats[seat]
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


def concede_penalty(r: Rules, seats: Sequence[SeatState], res: DealResult, marks: Marks) -> None:
    """3. A conceded deal counts to the declarer's concedes; every
    ``concede_penalty_every``-th costs the penalty."""
    if res.outcome != "conceded" or res.declarer is None:
        return
    st = seats[res.declarer]
    st.concedes += 1
    every = r.concede_penalty_every
    if every and st.concedes % every == 0:
        st.score -= r.penalty
        marks.events.append(Event(res.declarer, "concede_penalty", -r.penalty))


def redeal_penalty(
    r: Rules, seats: Sequence[SeatState], dealer: int, streak: int, marks: Marks
) -> None:
    """3. The dealer pays the penalty for every ``redeal_penalty_after``-th redeal in a row
    (``streak`` counts this one)."""
    every = r.redeal_penalty_after
    if every and streak % every == 0:
        seats[dealer].score -= r.penalty
        marks.events.append(Event(dealer, "redeal_penalty", -r.penalty))


def cut_penalty(r: Rules, seats: Sequence[SeatState], ctx: DealContext, marks: Marks) -> None:
    """3. Three nines at the cut cost the cutter the penalty (RULES §4 cut_nines)."""
    if not r.cut_nines or not ctx.cut:
        return
    nines = 0
    for c in ctx.cut:
        if c % 6 != NINE:
            break
        nines += 1
    if nines >= 3:
        cutter = (ctx.dealer + 1) % len(seats)
        seats[cutter].score -= r.penalty
        marks.events.append(Event(cutter, "cut_penalty", -r.penalty))


def barrel_rule(
    r: Rules,
    seats: Sequence[SeatState],
    res: DealResult,
    before_penalties: Sequence[int],
    sat_before: Sequence[bool],
    dealer: int,
    marks: Marks,
) -> None:
    """The barrel after the deal's values and penalties (with ``r.barrel`` set): a penalty
    on a sitter takes him off (a fall, RULES §7); after a played or conceded deal (4) the
    climbers get on and (5) sitters whose deals ran out fall; (6) every
    ``barrel_falls_reset``-th fall resets the score."""
    for seat, st in enumerate(seats):
        if st.on_barrel and st.score < before_penalties[seat]:
            marks.leave_barrel(seats, seat, "fall")
    if res.outcome != "redeal":
        climb(r, seats, res, sat_before, dealer, marks)
        # 5. sitters whose deals ran out.
        for seat, st in enumerate(seats):
            if st.on_barrel and sat_before[seat]:
                st.barrel_deals += 1
                if r.barrel_deals is not None and st.barrel_deals >= r.barrel_deals:
                    st.score -= r.penalty
                    marks.leave_barrel(seats, seat, "barrel_timeout", -r.penalty)
    # 6. every third fall resets the score.
    for seat in marks.falls:
        st = seats[seat]
        st.falls += 1
        every = r.barrel_falls_reset
        if every and st.falls % every == 0:
            change = r.barrel_reset_score - st.score
            st.score = r.barrel_reset_score
            marks.events.append(Event(seat, "fall_reset", change))
            if r.no_barrel_after_reset:
                st.no_barrel = True


def climb(
    r: Rules,
    seats: Sequence[SeatState],
    res: DealResult,
    sat_before: Sequence[bool],
    dealer: int,
    marks: Marks,
) -> None:
    """4. Climbing on the barrel, knock-off and simultaneous fall (RULES §7 Barrel)."""
    barrel = r.barrel
    assert barrel is not None
    n = len(seats)
    climbers = [
        s for s in range(n)
        if not seats[s].on_barrel
        and not seats[s].no_barrel
        and s not in marks.falls  # who left the barrel in this deal does not climb back in it
        and seats[s].score >= barrel
        and not r.wins(seats[s].score)
    ]
    if not climbers:
        return
    pre_cap = {s: seats[s].score for s in climbers}
    for s in climbers:
        st = seats[s]
        if r.barrel_score == "capped":
            st.score = barrel
        st.on_barrel = True
        st.barrel_deals = 0
        marks.events.append(Event(s, "barrel_on", st.score - pre_cap[s]))
    fallen: list[int] = []
    if r.barrel_simultaneous_fall and len(climbers) > 1:
        fallen = list(climbers)
    elif r.barrel_knock_off and len(climbers) > 1:
        keep = who_stays(res, climbers, pre_cap, dealer, n)
        fallen = [s for s in climbers if s != keep]
    if r.barrel_knock_off:
        fallen += [s for s in range(n) if sat_before[s] and seats[s].on_barrel]
    for s in fallen:
        # barrel − penalty; with barrel_score=kept his own score stands for the barrel
        seats[s].score -= r.penalty
        marks.leave_barrel(seats, s, "knocked_off", -r.penalty)


def who_stays(
    res: DealResult, climbers: list[int], pre_cap: dict[int, int], dealer: int, n: int
) -> int:
    """Of several climbers under ``barrel_knock_off``, the one who stays: the declarer,
    else the highest score, a tie going to the first clockwise from the declarer."""
    if res.declarer in climbers:
        return res.declarer
    best = max(pre_cap[s] for s in climbers)
    top = [s for s in climbers if pre_cap[s] == best]
    if len(top) == 1:
        return top[0]
    start = res.declarer if res.declarer is not None else dealer
    for k in range(1, n + 1):
        s = (start + k) % n
        if s in top:
            return s
    return top[0]


def samosval(
    r: Rules, seats: Sequence[SeatState], before: Sequence[int], marks: Marks
) -> None:
    """7. A score that changed in this deal onto a ``samosval`` value drops to 0."""
    if not r.samosval:
        return
    for seat, st in enumerate(seats):
        if st.score != before[seat] and st.score in r.samosval:
            marks.events.append(Event(seat, "samosval", -st.score))
            st.score = 0


def winner(
    r: Rules, scores: Sequence[int], res: DealResult, deals_played: int
) -> int | list[int] | None:
    """8. The end of the game: who won (several seats for a shared win), or None while it
    goes on.  Reaching the win score ends it (the declarer first, then the highest score);
    else ``max_deals`` deals played do, the highest score winning."""
    n = len(scores)
    reached = [s for s in range(n) if r.wins(scores[s])]
    if reached:
        if res.declarer in reached:
            return res.declarer
        best = max(scores[s] for s in reached)
        top = [s for s in reached if scores[s] == best]
        return top[0] if len(top) == 1 else top
    if r.max_deals is not None and deals_played >= r.max_deals:
        best = max(scores)
        top = [s for s in range(n) if scores[s] == best]
        return top[0] if len(top) == 1 else top
    return None
