"""The pure-Python search: alpha-beta on the declarer's future gain with a transposition table.

The value searched is the declarer's *future gain* from a position: the card points of the
tricks he still wins plus the declarations he still makes.  The solver adds
``declarer_points`` at the root.  Because the gain does not depend on the history, one table
entry serves every path that reaches the same cards, trump and lead, and it stays valid from one
root to the next while the options and the declarer stay the same.

The table is probed only at trick boundaries (as in bridge solvers): its key is the three hands,
the leader, the trump, whoever declared the trump (only with ``no_lead_own_trump``), the ace
duty of the leader, and whether declarations are still forbidden (the first lead).  An entry is
``[lower, upper, best lead]``: bounds on the gain, so that null-window searches of MTD(f) at
different thresholds all share it.

Inside the search the cards are numbered in strength order (:class:`Layout`): with
``ten_strength=high`` that is the engine's own numbering, with ``natural`` the ten moves below
the jack.  "Beats" is then a comparison of card numbers and "equivalent cards" are neighbours
in a suit, whatever the option; card points and declarations are looked up by position.

The rules come from the engine (:mod:`thousand.engine.play_rules`): the leads through
``lead_cards``, the declarations through ``declaration``.  The follower's cards
(:meth:`Search.follow_cands`), the trick winner (``_winner2``, ``_winner3``) and the best
declaration on a lead (:meth:`Search.best_declaration`) are faster copies in the layout's
numbering, which ``tests/test_solver.py`` ties to those functions on random positions.

Two players (RULES §4 "Two players"): :class:`TwoSearch` is the same search with tricks of
two cards and one defender.  It keeps three hands with the third one empty, so that everything
that only looks at the cards (the bounds, the quick tricks, the leads and their order, the
equivalent cards, the table's key) serves both unchanged.  What knows the seats of a trick
(who follows, who completes the trick, who wins it: :meth:`Search.follow`,
:meth:`Search.trick_side`, :meth:`Search.lead_side`, :meth:`Search.last_trick`) is written
once for both and reads :attr:`Search.seats`: with two seats the follower is the last to play
and the trick is won by ``_winner2``.  The search of three seats keeps its constants inline
(``% 3``, ``_winner3``) on its hot paths; the test on ``seats`` costs less than a call.

The C core in ``_native/`` is this module line by line; keep them in step (the tests compare
them on many positions).
"""

from __future__ import annotations

from ..engine.cards import (
    ACE,
    HALF_MARRIAGE_MASK,
    HIGHER_BY_STRENGTH,
    HIGHER_IN_SUIT,
    JACK,
    KING,
    MARRIAGE_MASK,
    N_CARDS,
    NINE,
    POINTS,
    QUEEN,
    STRENGTH,
    SUIT_MASK,
)
from ..engine.play_rules import lead_cards
from .position import ACES, DECLARE, NINES, PlayOptions, _declaration

INF = 1 << 20

_SUIT = tuple(c // 6 for c in range(N_CARDS))


def potential(hand: int, opts: PlayOptions) -> int:
    """An upper bound on what ``hand`` can still declare (every declaration it holds)."""
    total = 0
    mv = opts.marriage_values
    for s in range(4):
        mm = MARRIAGE_MASK[s]
        if hand & mm == mm:
            total += mv[s]
        if opts.half_marriage:
            hm = HALF_MARRIAGE_MASK[s]
            if hand & hm == hm:
                total += mv[s] // 2
    if opts.ace_marriage and hand & ACES == ACES:
        total += opts.ace_marriage
    if opts.four_nines_bonus and hand & NINES == NINES:
        total += opts.four_nines_bonus
    return total


def _bits_high_first(mask: int) -> list[int]:
    out = []
    while mask:
        c = mask.bit_length() - 1
        out.append(c)
        mask ^= 1 << c
    return out


class Layout:
    """How the search numbers the cards under one ``ten_strength`` (RULES §1).

    Card ``c`` of the engine (``suit * 6 + rank``) sits at position
    ``suit * 6 + STRENGTH[ten_strength][c]``: inside a suit the weakest card is bit 0 and a
    stronger card has a higher bit.  With ``high`` this is the identity; with ``natural`` the
    ten goes to bit 1 and the jack, queen and king move up by one (9 10 J Q K A).  The order
    comes from the engine's tables (``thousand.engine.cards.STRENGTH``, checked against
    ``HIGHER_BY_STRENGTH``); what depends on the rank itself (points, K+Q, Q+J) is a table by
    position here (the nine and the ace keep their places).  Positions fit one suit's 6 bits,
    so a mask is mapped suit by suit through a 64-entry pattern table.
    """

    __slots__ = (
        "card", "from_pat", "half", "higher", "identity", "marriage",
        "name", "pat_cheap", "pat_dear", "pat_points", "pat_sorted", "points", "pos",
        "rank", "to_pat",
    )

    def __init__(self, ten_strength: str) -> None:
        strength = STRENGTH[ten_strength]
        self.name = ten_strength
        pos = tuple(6 * (c // 6) + strength[c] for c in range(N_CARDS))
        card = [0] * N_CARDS
        for c, p in enumerate(pos):
            card[p] = c
        self.pos: tuple[int, ...] = pos
        self.card: tuple[int, ...] = tuple(card)
        self.identity = pos == tuple(range(N_CARDS))
        #: the real rank (0..5, 9 J Q K T A) of the card at each position
        self.rank: tuple[int, ...] = tuple(c % 6 for c in card)
        # a suit's 6-bit pattern of ranks -> of positions, and back (the same in every suit)
        self.to_pat: tuple[int, ...] = tuple(
            sum(1 << strength[r] for r in range(6) if p >> r & 1) for p in range(64)
        )
        self.from_pat: tuple[int, ...] = tuple(
            sum(1 << self.rank[q] for q in range(6) if p >> q & 1) for p in range(64)
        )
        self.points: tuple[int, ...] = tuple(POINTS[c] for c in card)
        self.pat_points: tuple[int, ...] = tuple(
            sum(self.points[q] for q in range(6) if p >> q & 1) for p in range(64)
        )
        #: the points of a pattern's cards, fewest first
        self.pat_sorted: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(self.points[q] for q in range(6) if p >> q & 1)) for p in range(64)
        )
        #: the position (0..5) of the card with the most / the fewest points of a pattern
        self.pat_dear: tuple[int, ...] = tuple(
            max((q for q in range(6) if p >> q & 1), key=self.points.__getitem__, default=-1)
            for p in range(64)
        )
        self.pat_cheap: tuple[int, ...] = tuple(
            min((q for q in range(6) if p >> q & 1), key=self.points.__getitem__, default=-1)
            for p in range(64)
        )
        self.marriage: tuple[int, ...] = tuple(self.to_layout(m) for m in MARRIAGE_MASK)
        self.half: tuple[int, ...] = tuple(self.to_layout(m) for m in HALF_MARRIAGE_MASK)
        # The nine and the ace are the weakest and the strongest card under every
        # ten_strength, so ACES and NINES are the same masks here.
        if self.to_layout(ACES) != ACES or self.to_layout(NINES) != NINES:
            raise ValueError(f"ten_strength={ten_strength}: the nine or the ace moved")
        #: the cards that beat each position: the engine's table, mapped
        self.higher: tuple[int, ...] = tuple(
            self.to_layout(HIGHER_BY_STRENGTH[ten_strength][c]) for c in card
        )
        if self.higher != HIGHER_IN_SUIT:  # pragma: no cover - a strength table out of order
            raise ValueError(f"ten_strength={ten_strength}: strength is not an order of the ranks")

    def to_layout(self, mask: int) -> int:
        """A mask of engine cards as a mask of positions."""
        t = self.to_pat
        return t[mask & 63] | t[mask >> 6 & 63] << 6 | t[mask >> 12 & 63] << 12 | (
            t[mask >> 18 & 63] << 18
        )

    def from_layout(self, mask: int) -> int:
        """A mask of positions as a mask of engine cards."""
        t = self.from_pat
        return t[mask & 63] | t[mask >> 6 & 63] << 6 | t[mask >> 12 & 63] << 12 | (
            t[mask >> 18 & 63] << 18
        )


_LAYOUTS = {name: Layout(name) for name in STRENGTH}


def layout(ten_strength: str) -> Layout:
    """The :class:`Layout` of a ``ten_strength`` value."""
    return _LAYOUTS[ten_strength]


class Search:
    """One search context: the options, the declarer, the transposition table.

    Hands, trick cards and moves inside it are in the numbering of its :class:`Layout`;
    :meth:`search` takes the engine's cards.
    """

    #: the players at the table: 3, or 2 in :class:`TwoSearch`
    seats = 3

    def __init__(self, options: PlayOptions, declarer: int) -> None:
        self.opts = options
        self.decl = declarer
        self.tt: dict[int, list[int]] = {}
        self.nodes = 0
        self.h = [0, 0, 0]
        # Suits whose marriage or half marriage was declared (a suit's queen serves one
        # declaration only); changed and restored around declaring leads.
        self.ds = 0
        self.mv = options.marriage_values
        self.overtake = options.must_overtake
        self.nlot = options.no_lead_own_trump
        self.half = options.half_marriage
        self.ace_val = options.ace_marriage
        self.ace_row = options.ace_marriage_all_in_row
        self.nines_val = options.four_nines_bonus
        lay = self.layout = layout(options.ten_strength)
        self.mapped = not lay.identity
        self.points = lay.points
        self.pat_points = lay.pat_points
        self.pat_sorted = lay.pat_sorted
        self.pat_dear = lay.pat_dear
        self.pat_cheap = lay.pat_cheap
        self.higher = lay.higher
        self.rank = lay.rank
        self.mm = lay.marriage
        self.hm = lay.half
        # By suit pattern (of positions): what a suit's cards can declare (K+Q, and Q+J with
        # half_marriage) by suit, whether they can declare, and which cards take part.
        kq, qj = lay.marriage[0], lay.half[0]  # K+Q, Q+J as patterns of one suit
        pot: list[list[int]] = [[], [], [], []]
        combo_pat: list[int] = []
        inv_pat: list[int] = []
        for p in range(64):
            has_kq = p & kq == kq
            has_qj = self.half and p & qj == qj
            for s in range(4):
                pot[s].append((self.mv[s] if has_kq else 0) + (self.mv[s] // 2 if has_qj else 0))
            combo_pat.append(int(has_kq or has_qj))
            inv_pat.append((kq if has_kq else 0) | (qj if has_qj else 0))
        self.pot = (tuple(pot[0]), tuple(pot[1]), tuple(pot[2]), tuple(pot[3]))
        self.combo_pat = tuple(combo_pat)
        self.inv_pat = tuple(inv_pat)

    # --- the entry point --------------------------------------------------------------------

    def search(
        self,
        hands: tuple[int, ...],
        leader: int,
        trick: tuple[int, ...],
        trump: int,
        tdecl: int,
        aces: int,
        nodecl: bool,
        alpha: int,
        beta: int,
        declared_suits: int = 0,
    ) -> tuple[int, int]:
        """The future gain from a position given in the engine's cards, fail-soft within
        (alpha, beta), and the nodes searched: the C core's ``Core.search``."""
        if self.mapped:
            f = self.layout.to_layout
            hands = tuple(f(h) for h in hands)
            pos = self.layout.pos
            trick = tuple(pos[c] for c in trick)
        # two players: a third, empty hand (see TwoSearch)
        self.h = [*hands, 0] if len(hands) == 2 else list(hands)
        self.ds = declared_suits
        before = self.nodes
        v = self.in_trick(leader, trick, trump, tdecl, aces, nodecl, alpha, beta)
        return v, self.nodes - before

    # --- declarations -----------------------------------------------------------------------

    def potential(self, hand: int) -> int:
        """An upper bound on what ``hand`` can still declare (every declaration it holds)."""
        p0, p1, p2, p3 = self.pot
        total = p0[hand & 63] + p1[hand >> 6 & 63] + p2[hand >> 12 & 63] + p3[hand >> 18 & 63]
        if self.ace_val and hand & ACES == ACES:
            total += self.ace_val
        if self.nines_val and hand & NINES == NINES:
            total += self.nines_val
        return total

    def declaration(self, hand: int, card: int) -> tuple[int, bool] | None:
        """(value, changes trump) of leading ``card`` with ``+`` here (the rules of
        :func:`thousand.solver.position._declaration`, with the suits declared so far)."""
        if self.mapped:
            lay = self.layout
            return _declaration(lay.from_layout(hand), lay.card[card], self.opts, self.ds)
        return _declaration(hand, card, self.opts, self.ds)

    # --- moves ------------------------------------------------------------------------------

    def lead_moves(self, seat: int, trump: int, tdecl: int, aces: int, nodecl: bool) -> list[int]:
        """Lead moves of ``seat``, best-looking first (declarations, then masters, then low).

        Which cards may be led, plain and with ``+``, is the engine's rule
        (:func:`thousand.engine.play_rules.lead_cards`); this orders them and drops the
        dominated and the equivalent ones.
        """
        h = self.h
        hand = h[seat]
        if aces == seat and hand & ACES:
            # the ace duty (lead_cards says the same: the aces, no declaration), unordered
            return _bits_high_first(hand & ACES)
        if self.mapped:
            lay = self.layout
            plain, declaring = lead_cards(
                lay.from_layout(hand), seat, trump, tdecl, aces, self.ds, 0 if nodecl else 1,
                self.opts,
            )
            plain, declaring = lay.to_layout(plain), lay.to_layout(declaring)
        else:
            plain, declaring = lead_cards(
                hand, seat, trump, tdecl, aces, self.ds, 0 if nodecl else 1, self.opts
            )
        is_decl = seat == self.decl
        others = (h[0] | h[1] | h[2]) & ~hand
        opp = h[(seat + 1) % 3] | h[(seat + 2) % 3] if is_decl else h[self.decl]
        scored: list[tuple[int, int]] = []
        while declaring:
            c = declaring.bit_length() - 1
            declaring ^= 1 << c
            d = self.declaration(hand, c)
            assert d is not None
            value, changes = d
            rank = self.rank[c]
            if rank == NINE:
                # No trump change, no duty: for the declarer it beats the plain nine;
                # for a defender it is the plain nine.
                if is_decl:
                    plain &= ~(1 << c)
                    scored.append((1000 + value, DECLARE + c))
                continue
            if rank == ACE and not changes and not self.ace_row:
                if is_decl:
                    plain &= ~(1 << c)
                    scored.append((1000 + value, DECLARE + c))
                continue
            scored.append((1000 + value if is_decl else 500, DECLARE + c))
        if plain & (plain - 1):
            plain = self.reduce(seat, seat, -1, -1, plain, trump)
        pts = self.points
        higher = self.higher
        m = plain
        while m:
            c = m.bit_length() - 1
            m ^= 1 << c
            s = _SUIT[c]
            sm = SUIT_MASK[s]
            p = pts[c]
            if not (others & higher[c]):
                # a master: it wins unless someone ruffs
                if trump >= 0 and s != trump and opp & SUIT_MASK[trump] and not (opp & sm):
                    score = -p
                else:
                    score = 100 + p
            else:
                score = -p - (20 if opp & sm & higher[c] else 0)
            scored.append((score, c))
        scored.sort(reverse=True)
        return [mv for _, mv in scored]

    # --- bounds -----------------------------------------------------------------------------

    def quick(
        self, leader: int, trump: int, tdecl: int, aces: int, nodecl: bool, ub: int
    ) -> tuple[int, int]:
        """Bounds on the gain from the tricks the leader can surely cash in a row.

        The leader leads his top cards suit by suit.  A card at the top of its suit wins unless
        someone ruffs; an opponent who holds a trump keeps following a side suit while he has
        cards in it, so the leader counts in each side suit no more tricks than any such
        opponent has cards there (cashing the dearest of his top cards).  The opponents give at
        least their cheapest cards.  For a defender on lead his partner is treated like an
        opponent (a ruff would take the lead).
        """
        h = self.h
        decl = self.decl
        hand = h[leader]
        lb = 0
        if aces == leader:
            return lb, ub  # the ace duty: no cashing plan, no declaration
        tm = SUIT_MASK[trump] if trump >= 0 else 0
        barred = self.nlot and trump >= 0 and tdecl == leader and hand & ~tm
        if leader == decl and not nodecl:
            lb = self.best_declaration(hand & ~tm if barred else hand, hand)
        h1 = h[(leader + 1) % 3]
        h2 = h[(leader + 2) % 3]
        others = h1 | h2
        ruff1 = h1 & tm
        ruff2 = h2 & tm
        higher = self.higher
        pp = self.pat_points
        sp = self.pat_sorted
        gain = 0
        tricks = 0
        kt = 0
        ks = [0, 0, 0, 0]
        for s in range(4):
            sm = SUIT_MASK[s]
            mine = hand & sm
            if not mine:
                continue
            if sm == tm and barred:
                continue
            rest = others & sm
            top = mine & higher[rest.bit_length() - 1] if rest else mine
            if not top:
                continue
            n = k = top.bit_count()
            if sm != tm:
                if ruff1:
                    k = min(k, (h1 & sm).bit_count())
                if ruff2:
                    k = min(k, (h2 & sm).bit_count())
                if k <= 0:
                    continue
                ks[s] = k
            else:
                kt = k
            pat = top >> (6 * s) & 63
            gain += pp[pat] if n == k else sum(sp[pat][n - k:])  # his k dearest top cards
            tricks += k
        if not tricks:
            return lb, ub
        for opp, ruff in ((h1, ruff1), (h2, ruff2)):
            if ruff:
                for s in range(4):
                    if ks[s]:
                        gain += _cheapest(opp & SUIT_MASK[s], ks[s], sp)
                if kt:
                    gain += _cheapest(ruff, kt, sp)
            else:
                gain += _cheapest(opp, tricks, sp)
        if leader == decl:
            return (gain if gain > lb else lb), ub
        return 0, ub - gain

    def best_declaration(self, leads: int, hand: int) -> int:
        """The highest value ``hand`` can declare on this lead by leading a card of ``leads``."""
        best = 0
        mv = self.mv
        for s in range(4):
            if self.ds >> s & 1:
                continue
            mm = self.mm[s]
            if hand & mm == mm:
                if leads & mm and mv[s] > best:
                    best = mv[s]
            elif self.half:
                hm = self.hm[s]
                if hand & hm == hm and leads & hm and mv[s] // 2 > best:
                    best = mv[s] // 2
        if self.ace_val and hand & ACES == ACES and leads & ACES and self.ace_val > best:
            best = self.ace_val
        if self.nines_val and hand & NINES == NINES and leads & NINES and self.nines_val > best:
            best = self.nines_val
        return best

    # --- search -----------------------------------------------------------------------------

    def boundary(
        self, leader: int, trump: int, tdecl: int, aces: int, nodecl: bool, alpha: int, beta: int
    ) -> int:
        """Future gain of the declarer from the start of a trick, fail-soft within (alpha, beta)."""
        h = self.h
        h0, h1, h2 = h
        allc = h0 | h1 | h2
        if not allc:
            return 0
        self.nodes += 1
        if not (h0 & (h0 - 1)):
            return self.last_trick(leader, trump)
        decl = self.decl
        pp = self.pat_points
        ub = (
            pp[allc & 63] + pp[allc >> 6 & 63] + pp[allc >> 12 & 63] + pp[allc >> 18 & 63]
            + self.potential(h[decl])
        )
        if ub <= alpha:
            return ub
        if beta <= 0:
            return 0
        if aces != leader or not (h[leader] & ACES):
            aces = -1
        td = tdecl if (self.nlot and trump >= 0) else -1
        ds = self.ds
        if ds:  # a declared suit matters while some hand could declare in it again
            ds &= self.combos(h0) | self.combos(h1) | self.combos(h2)
        key = (
            h0
            | h1 << 24
            | h2 << 48
            | leader << 72
            | (trump + 1) << 74
            | (td + 1) << 77
            | (aces >= 0) << 79
            | nodecl << 80
            | ds << 81
        )
        tt = self.tt
        ent = tt.get(key)
        best_move = -1
        lo, hi = 0, ub
        if ent is not None:
            lo, hi, best_move = ent
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
        if ent is None:
            qlo, qhi = self.quick(leader, trump, tdecl, aces, nodecl, ub)
            if qhi <= alpha:
                return qhi
            if qlo >= beta:
                return qlo
            lo, hi = qlo, qhi
        a = alpha if alpha > lo else lo
        b = beta if beta < hi else hi
        v = self.lead(leader, trump, tdecl, aces, nodecl, a, b, best_move)
        best = self.last_best
        # store
        if v <= a:
            hi = v
        elif v >= b:
            lo = v
        else:
            lo = hi = v
        if ent is None:
            tt[key] = [lo, hi, best]
        else:
            ent[0] = lo
            ent[1] = hi
            ent[2] = best
        return v

    def last_trick(self, leader: int, trump: int) -> int:
        """The gain of the last trick: one card each, no declaration possible."""
        h = self.h
        pts = self.points
        c0 = h[leader].bit_length() - 1
        if self.seats == 2:
            c1 = h[leader ^ 1].bit_length() - 1
            if leader ^ _winner2(c0, c1, trump) == self.decl:
                return pts[c0] + pts[c1]
            return 0
        c1 = h[(leader + 1) % 3].bit_length() - 1
        c2 = h[(leader + 2) % 3].bit_length() - 1
        if (leader + _winner3(c0, c1, c2, trump)) % 3 == self.decl:
            return pts[c0] + pts[c1] + pts[c2]
        return 0

    def lead(
        self,
        leader: int,
        trump: int,
        tdecl: int,
        aces: int,
        nodecl: bool,
        alpha: int,
        beta: int,
        first: int = -1,
    ) -> int:
        """Gain from the lead of a trick (``self.last_best`` is set to the best lead)."""
        h = self.h
        moves = self.lead_moves(leader, trump, tdecl, aces, nodecl)
        if first >= 0 and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        maximize = leader == self.decl
        best = -INF if maximize else INF
        best_move = moves[0]
        for mv in moves:
            gain = 0
            nt, ntd, na = trump, tdecl, aces
            ds = self.ds
            if mv >= DECLARE:
                c = mv - DECLARE
                d = self.declaration(h[leader], c)
                assert d is not None
                if maximize:
                    gain = d[0]
                if d[1]:
                    nt, ntd = _SUIT[c], leader
                rank = self.rank[c]
                if self.ace_row and rank == ACE:
                    na = leader
                if rank in (JACK, QUEEN, KING):
                    self.ds = ds | 1 << _SUIT[c]
            else:
                c = mv
            h[leader] ^= 1 << c
            v = gain + self.follow(leader, c, -1, nt, ntd, na, alpha - gain, beta - gain)
            h[leader] ^= 1 << c
            self.ds = ds
            if maximize:
                if v > best:
                    best, best_move = v, mv
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            else:
                if v < best:
                    best, best_move = v, mv
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
        self.last_best = best_move
        return best

    def follow(self, leader: int, c0: int, c1: int, trump: int, tdecl: int, aces: int,
               alpha: int, beta: int) -> int:
        """Gain when the second (``c1 < 0``) or the third player is to play to the trick.  With
        two seats the second player completes the trick (``c1`` is always -1): he wins it
        when he can and it is worth it, or throws his cheapest card."""
        h = self.h
        pts = self.points
        two = self.seats == 2
        second = c1 < 0 and not two
        seat = leader ^ 1 if two else (leader + (1 if second else 2)) % 3
        cands = self.follow_cands(h[seat], c0, c1, trump)
        decl = self.decl
        maximize = seat == decl
        if cands & (cands - 1):
            cands = self.reduce(seat, leader, c0, c1, cands, trump)
        # Order: play the cards that do the mover's side most good first.
        # (with two seats the leader, who holds the trick so far, is never the mover's friend)
        if c1 < 0:
            wcard, widx = c0, 0
        else:
            w = _winner2(c0, c1, trump)
            wcard, widx = (c1, 1) if w else (c0, 0)
        wseat = (leader + widx) % 3
        friend_wins = not two and (wseat == decl) == maximize
        base = pts[c0] + (0 if c1 < 0 else pts[c1])
        scored: list[tuple[int, int]] = []
        m = cands
        ws = _SUIT[wcard]
        while m:
            c = m.bit_length() - 1
            m ^= 1 << c
            cs = _SUIT[c]
            beats = (cs == ws and c > wcard) or (cs == trump and ws != trump)
            p = pts[c]
            if second:
                score = 50 + p if beats else -p
            elif beats or friend_wins:
                score = 100 + base + p - (10 if beats and friend_wins else 0)
            else:
                score = -p
            scored.append((score, c))
        scored.sort(reverse=True)
        best = -INF if maximize else INF
        self.nodes += 1
        for _, c in scored:
            h[seat] ^= 1 << c
            if second:
                v = self.follow(leader, c0, c, trump, tdecl, aces, alpha, beta)
            else:
                if two:
                    winner = leader ^ _winner2(c0, c, trump)
                else:
                    winner = (leader + _winner3(c0, c1, c, trump)) % 3
                gain = base + pts[c] if winner == decl else 0
                na = aces if aces == winner else -1
                v = gain + self.boundary(winner, trump, tdecl, na, False, alpha - gain, beta - gain)
            h[seat] ^= 1 << c
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
        return best

    def follow_cands(self, hand: int, c0: int, c1: int, trump: int) -> int:
        """The cards ``hand`` may play to a trick holding ``c0`` (and ``c1`` unless < 0)."""
        led = _SUIT[c0]
        cands = hand & SUIT_MASK[led]
        if cands:
            if self.overtake:
                top = c0 if c1 < 0 or _SUIT[c1] != led or c1 < c0 else c1
                hi = cands & self.higher[top]
                if hi:
                    cands = hi
            return cands
        if trump >= 0 and hand & SUIT_MASK[trump]:
            return hand & SUIT_MASK[trump]
        return hand

    def combos(self, hand: int) -> int:
        """The suits (a 4-bit mask) in which ``hand`` holds K+Q, or Q+J with half_marriage."""
        c = self.combo_pat
        return c[hand & 63] | c[hand >> 6 & 63] << 1 | c[hand >> 12 & 63] << 2 | (
            c[hand >> 18 & 63] << 3
        )

    def involved(self, hand: int) -> int:
        """Cards of ``hand`` whose holding can still matter for a declaration or a duty."""
        t = self.inv_pat
        inv = t[hand & 63] | t[hand >> 6 & 63] << 6 | t[hand >> 12 & 63] << 12 | (
            t[hand >> 18 & 63] << 18
        )
        if self.ace_val and (self.ace_row or hand & ACES == ACES):
            inv |= ACES
        if self.nines_val and hand & NINES == NINES:
            inv |= NINES
        return inv

    def reduce(self, seat: int, leader: int, c0: int, c1: int, cands: int, trump: int) -> int:
        """Drop the follower's cards that an equivalent card makes useless.

        Cards of one hand and suit with no card of another hand, nor of the trick, between
        them in strength (neighbours in the layout) win and lose exactly the same tricks
        ("equivalent").  When the side that wins the current trick is the same whatever is
        played after this card, playing the dearest of equivalent cards is best if the
        mover's side wins, the cheapest if it loses: whatever the kept card later earns, it
        earns at most its own points more (the value is non-decreasing and 1-Lipschitz in the
        points of a card still held).  With ``ten_strength=natural`` the dearest is not
        always the strongest (10 J Q: the ten).
        """
        h = self.h
        hand = h[seat]
        decl = self.decl
        present = (h[0] | h[1] | h[2]) & ~hand
        if c0 >= 0:
            present |= 1 << c0
        if c1 >= 0:
            present |= 1 << c1
        inv = self.involved(hand)
        out = 0
        m = cands
        while m:
            top = m.bit_length() - 1
            m ^= 1 << top
            low = top
            if not inv >> top & 1:
                while m:
                    c = m.bit_length() - 1
                    if (
                        _SUIT[c] != _SUIT[low]
                        or inv >> c & 1
                        or present & ((1 << low) - (1 << (c + 1)))
                    ):
                        break
                    low = c
                    m ^= 1 << c
            if low == top:
                out |= 1 << top
                continue
            run = cands & ((1 << (top + 1)) - (1 << low))
            side = self.trick_side(seat, leader, c0, c1, top, trump)
            if side < 0:
                out |= run
                continue
            base = 6 * _SUIT[top]
            if side == (seat == decl):
                out |= 1 << (base + self.pat_dear[run >> base & 63])
            else:
                out |= 1 << (base + self.pat_cheap[run >> base & 63])
        return out

    def trick_side(self, seat: int, leader: int, c0: int, c1: int, c: int, trump: int) -> int:
        """1 if the declarer surely wins the trick after ``seat`` plays ``c``, 0 if he surely
        loses it, -1 if the last player's choice decides."""
        if c0 < 0:
            return self.lead_side(leader, c, trump)
        if self.seats == 2:
            return 1 if leader ^ _winner2(c0, c, trump) == self.decl else 0
        if c1 >= 0:
            return 1 if (leader + _winner3(c0, c1, c, trump)) % 3 == self.decl else 0
        return self.last_side(leader, c0, c, trump)

    def lead_side(self, leader: int, c: int, trump: int) -> int:
        """:meth:`trick_side` for a plain lead ``c``: every reply (every pair of replies with
        three seats) is tried."""
        if self.seats == 2:
            return self.last_side(leader, c, -1, trump)
        side = -1
        r2s = self.follow_cands(self.h[(leader + 1) % 3], c, -1, trump)
        while r2s:
            r2 = r2s.bit_length() - 1
            r2s ^= 1 << r2
            won = self.last_side(leader, c, r2, trump)
            if won < 0 or (side >= 0 and side != won):
                return -1
            side = won
        return side

    def last_side(self, leader: int, c0: int, c1: int, trump: int) -> int:
        """:meth:`trick_side` when the last player is to complete the trick ``c0`` (and
        ``c1`` with three seats): 1 if every card he may play gives the trick to the
        declarer, 0 if none does, -1 if his choice decides."""
        decl = self.decl
        two = self.seats == 2
        last = leader ^ 1 if two else (leader + 2) % 3
        replies = self.follow_cands(self.h[last], c0, c1, trump)
        side = -1
        while replies:
            r = replies.bit_length() - 1
            replies ^= 1 << r
            if two:
                won = 1 if leader ^ _winner2(c0, r, trump) == decl else 0
            else:
                won = 1 if (leader + _winner3(c0, c1, r, trump)) % 3 == decl else 0
            if side < 0:
                side = won
            elif side != won:
                return -1
        return side

    def in_trick(
        self,
        leader: int,
        trick: tuple[int, ...],
        trump: int,
        tdecl: int,
        aces: int,
        nodecl: bool,
        alpha: int,
        beta: int,
    ) -> int:
        """Gain from any point of a trick (cards in the layout's numbering)."""
        if not trick:
            return self.boundary(leader, trump, tdecl, aces, nodecl, alpha, beta)
        if len(trick) == 1:
            return self.follow(leader, trick[0], -1, trump, tdecl, aces, alpha, beta)
        return self.follow(leader, trick[0], trick[1], trump, tdecl, aces, alpha, beta)


class TwoSearch(Search):
    """The search of the game for two (RULES §4 "Two players" 5): tricks of two cards, the
    declarer against one defender.

    Seats are 0 and 1 and ``self.h`` keeps an empty third hand, so the methods that look only
    at the cards (bounds, quick tricks, leads, equivalent cards, the table) serve unchanged;
    those that know the seats of a trick read :attr:`seats`: the follower is the last to
    play, the trick is won by :func:`_winner2`, and the next seat is ``seat ^ 1``.
    """

    seats = 2


def search_for(options: PlayOptions, declarer: int, seats: int) -> Search:
    """A search context for ``seats`` players (3, or 2: :class:`TwoSearch`)."""
    return TwoSearch(options, declarer) if seats == 2 else Search(options, declarer)


def _cheapest(mask: int, k: int, sp: tuple[tuple[int, ...], ...]) -> int:
    """The fewest points ``k`` cards of ``mask`` can hold (all of them if fewer); ``sp``: the
    sorted points of each suit pattern (:attr:`Layout.pat_sorted`)."""
    if not mask >> 6:
        return sum(sp[mask][:k])
    pts = sorted(sp[mask & 63] + sp[mask >> 6 & 63] + sp[mask >> 12 & 63] + sp[mask >> 18 & 63])
    return sum(pts[:k])


def _winner2(c0: int, c1: int, trump: int) -> int:
    """Which of two cards (in a layout's numbering: the higher card the stronger) wins."""
    s1 = _SUIT[c1]
    if s1 == _SUIT[c0]:
        return 1 if c1 > c0 else 0
    return 1 if s1 == trump else 0


def _winner3(c0: int, c1: int, c2: int, trump: int) -> int:
    best, bc = 0, c0
    bs = _SUIT[c0]
    s = _SUIT[c1]
    if (s == bs and c1 > bc) or (s == trump and bs != trump):
        best, bc, bs = 1, c1, s
    s = _SUIT[c2]
    if (s == bs and c2 > bc) or (s == trump and bs != trump):
        best = 2
    return best
