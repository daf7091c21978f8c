/*
 * The C core of the Тысяча double-dummy solver: the extension thousand.solver._csolver.
 *
 * This file is thousand/solver/alphabeta.py translated line by line (same move generation, same
 * move ordering, same bounds, same transposition-table contents), so that both give the same
 * answers; the tests compare them.  Change both together.
 *
 * The value searched is the declarer's future gain (card points of the tricks he still wins
 * plus what he still declares), with fail-soft alpha-beta.  The transposition table is probed
 * at trick boundaries only; an entry holds bounds on the gain and the best lead.
 *
 * Cards: 0..23 = suit * 6 + rank, ranks 9 J Q K T A; a hand is a 24-bit mask.  Inside the
 * search a card is numbered by its strength within its suit (alphabeta.py: Layout): with
 * ten_strength=high that is the card itself, with natural the ten moves below the jack
 * (9 10 J Q K A).  "Beats" is then a comparison of numbers whatever the option; points and
 * declarations are looked up in the core's layout tables.
 *
 * Two players (RULES §4 "Two players"; alphabeta.py: TwoSearch): a core made with seats=2 keeps
 * an empty third hand, so that what looks only at the cards (bounds, quick tricks, leads,
 * equivalent cards, the table) serves both unchanged.  What knows the seats of a trick (the
 * follower in follow, the side of a trick in trick_side, lead_side and last_side, the last
 * trick in boundary) is written once for both and tests S->two: with two seats the follower
 * is the last to play and the trick is won by winner2.  The three-player path keeps its
 * constants.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "options.h" /* PlayOpts, read by name: generated from native_options.py */

#define INF (1 << 20)
#define DECLARE 24
#define ACES_MASK 0x820820u  /* bits 5, 11, 17, 23 */
#define NINES_MASK 0x041041u /* bits 0, 6, 12, 18 */
#define MAX_MOVES 16

static const int RANK_POINTS[6] = {0, 2, 3, 4, 10, 11}; /* thousand.cards.RANK_POINTS */
/* The strength of each rank (9 J Q K T A) inside its suit: thousand.cards.STRENGTH. */
static const int STRENGTH_HIGH[6] = {0, 1, 2, 3, 4, 5};
static const int STRENGTH_NATURAL[6] = {0, 2, 3, 4, 1, 5};
static uint32_t SUIT_MASK[4];
static uint32_t HIGHER[24]; /* positions of the same suit above a position: the stronger cards */
static int PAT_COUNT[64];

static void init_tables(void) {
    for (int s = 0; s < 4; s++) SUIT_MASK[s] = 0x3Fu << (6 * s);
    for (int c = 0; c < 24; c++) HIGHER[c] = SUIT_MASK[c / 6] & ~((1u << (c + 1)) - 1u);
    for (int p = 0; p < 64; p++) PAT_COUNT[p] = __builtin_popcount((unsigned)p);
}

static inline int popcount(uint32_t m) { return __builtin_popcount(m); }
static inline int highest(uint32_t m) { return 31 - __builtin_clz(m); }

/* The tables of one ten_strength (alphabeta.py: Layout), by position. */
typedef struct {
    int natural;             /* not the identity: hands are mapped on the way in */
    int pos[24];             /* engine card -> position */
    uint8_t to_pat[64];      /* a suit's pattern of ranks -> of positions */
    int rank[24];            /* position -> real rank (0..5, 9 J Q K T A) */
    int points[24];          /* position -> card points */
    int pat_points[64];      /* points of a suit pattern of positions */
    int pat_sorted[64][6];   /* the points of a pattern's cards, fewest first */
    int8_t pat_dear[64];     /* position (0..5) of the card with the most points */
    int8_t pat_cheap[64];    /* ... with the fewest */
    uint32_t mm[4], hm[4];   /* K+Q, Q+J of each suit */
    uint32_t decl_cards;     /* J, Q, K, A and 9 of every suit: the cards that can declare */
} Layout;

static uint32_t map_mask(const Layout *L, uint32_t m) {
    return (uint32_t)L->to_pat[m & 63] | (uint32_t)L->to_pat[(m >> 6) & 63] << 6 |
           (uint32_t)L->to_pat[(m >> 12) & 63] << 12 | (uint32_t)L->to_pat[(m >> 18) & 63] << 18;
}

static uint32_t rank_mask(const Layout *L, int rank) {
    uint32_t m = 0;
    for (int s = 0; s < 4; s++) m |= 1u << L->pos[6 * s + rank];
    return m;
}

static void init_layout(Layout *L, int natural) {
    const int *strength = natural ? STRENGTH_NATURAL : STRENGTH_HIGH;
    L->natural = natural;
    for (int c = 0; c < 24; c++) {
        int p = 6 * (c / 6) + strength[c % 6];
        L->pos[c] = p;
        L->rank[p] = c % 6;
        L->points[p] = RANK_POINTS[c % 6];
    }
    for (int p = 0; p < 64; p++) {
        int q = 0, sum = 0, n = 0, dear = -1, cheap = -1;
        for (int r = 0; r < 6; r++)
            if (p >> r & 1) q |= 1 << strength[r];
        L->to_pat[p] = (uint8_t)q;
        for (int i = 0; i < 6; i++) {
            if (!(p >> i & 1)) continue;
            int pts = L->points[i];
            sum += pts;
            if (dear < 0 || pts > L->points[dear]) dear = i;
            if (cheap < 0 || pts < L->points[cheap]) cheap = i;
            int j = n++; /* insertion: fewest first */
            while (j > 0 && L->pat_sorted[p][j - 1] > pts) {
                L->pat_sorted[p][j] = L->pat_sorted[p][j - 1];
                j--;
            }
            L->pat_sorted[p][j] = pts;
        }
        L->pat_points[p] = sum;
        L->pat_dear[p] = (int8_t)dear;
        L->pat_cheap[p] = (int8_t)cheap;
    }
    for (int s = 0; s < 4; s++) {
        L->mm[s] = 1u << L->pos[6 * s + 3] | 1u << L->pos[6 * s + 2];
        L->hm[s] = 1u << L->pos[6 * s + 2] | 1u << L->pos[6 * s + 1];
    }
    /* the nine and the ace keep their places under every ten_strength (Core_init checks) */
    L->decl_cards = rank_mask(L, 1) | rank_mask(L, 2) | rank_mask(L, 3) | ACES_MASK | NINES_MASK;
}

static inline int points_of(const Layout *L, uint32_t m) {
    return L->pat_points[m & 63] + L->pat_points[(m >> 6) & 63] +
           L->pat_points[(m >> 12) & 63] + L->pat_points[(m >> 18) & 63];
}

/* The fewest points k cards of mask can hold (all of them if fewer). */
static int cheapest(const Layout *L, uint32_t mask, int k) {
    int pts[24], n = 0;
    for (int s = 0; s < 4; s++) {
        int p = (mask >> (6 * s)) & 63;
        for (int i = 0; i < PAT_COUNT[p]; i++) pts[n++] = L->pat_sorted[p][i];
    }
    /* insertion sort: at most 8 cards in practice */
    for (int i = 1; i < n; i++) {
        int v = pts[i], j = i - 1;
        while (j >= 0 && pts[j] > v) {
            pts[j + 1] = pts[j];
            j--;
        }
        pts[j + 1] = v;
    }
    int sum = 0;
    for (int i = 0; i < n && i < k; i++) sum += pts[i];
    return sum;
}

static inline int suit_of(int c) { return c / 6; }

/* Trick winners compare positions: the stronger card has the higher number. */

static inline int winner2(int c0, int c1, int trump) {
    int s1 = suit_of(c1);
    if (s1 == suit_of(c0)) return c1 > c0 ? 1 : 0;
    return s1 == trump ? 1 : 0;
}

static inline int winner3(int c0, int c1, int c2, int trump) {
    int best = 0, bc = c0, bs = suit_of(c0), s = suit_of(c1);
    if ((s == bs && c1 > bc) || (s == trump && bs != trump)) {
        best = 1;
        bc = c1;
        bs = s;
    }
    s = suit_of(c2);
    if ((s == bs && c2 > bc) || (s == trump && bs != trump)) best = 2;
    return best;
}

/* ---------------------------------------------------------------------------------------- */

typedef struct {
    uint64_t k1; /* h0 | h1 << 24 | generation << 48 */
    uint64_t k2; /* h2 | state << 24 */
    int16_t lo, hi;
    int8_t best; /* the best lead */
} Entry;

#define MAX_GEN 0xFFFFu

typedef struct {
    PyObject_HEAD
    int decl;
    int two; /* 1: the game for two (seats 0, 1; h[2] stays empty); 0: three seats */
    PlayOpts o; /* marriage_on_first_lead: the caller turns it into nodecl;
                 * marriage_points_declarer_only changes nothing the declarer scores */
    Layout L;
    /* by suit pattern (of positions): what a suit's cards can declare, the value by suit
     * (K+Q, and Q+J with half_marriage), whether they can declare, and which cards take part */
    int pot[4][64];
    uint8_t combo_pat[64], inv_pat[64];
    uint32_t h[3];
    int ds; /* suits whose marriage or half marriage was declared (see alphabeta.py) */
    Entry *tt;
    uint64_t tt_mask; /* number of entries - 1 */
    uint64_t gen;
    long long nodes;
} Core;

static inline int marriage(const Core *S, uint32_t hand, int s) {
    uint32_t m = S->L.mm[s];
    return (hand & m) == m;
}

static inline int half_marriage(const Core *S, uint32_t hand, int s) {
    uint32_t m = S->L.hm[s];
    return (hand & m) == m;
}

/* An upper bound on what hand can still declare (every declaration it holds). */
static int potential(const Core *S, uint32_t hand) {
    int total = S->pot[0][hand & 63] + S->pot[1][(hand >> 6) & 63] +
                S->pot[2][(hand >> 12) & 63] + S->pot[3][(hand >> 18) & 63];
    if (S->o.ace_marriage && (hand & ACES_MASK) == ACES_MASK) total += S->o.ace_marriage;
    if (S->o.four_nines_bonus && (hand & NINES_MASK) == NINES_MASK) total += S->o.four_nines_bonus;
    return total;
}

/* Declaration made by leading card with '+': returns 1 and sets value / changes, else 0. */
static int declaration(const Core *S, uint32_t hand, int card, int *value, int *changes) {
    int suit = card / 6, rank = S->L.rank[card];
    if (rank >= 1 && rank <= 3 && (S->ds >> suit & 1)) return 0;
    if (rank == 3 || rank == 2) {
        if (marriage(S, hand, suit)) {
            *value = S->o.marriage_values[suit];
            *changes = 1;
            return 1;
        }
        if (rank == 2 && S->o.half_marriage && half_marriage(S, hand, suit)) {
            *value = S->o.marriage_values[suit] / 2;
            *changes = 1;
            return 1;
        }
        return 0;
    }
    if (rank == 1) {
        if (S->o.half_marriage && half_marriage(S, hand, suit)) {
            *value = S->o.marriage_values[suit] / 2;
            *changes = 1;
            return 1;
        }
        return 0;
    }
    if (rank == 5) {
        if (S->o.ace_marriage && (hand & ACES_MASK) == ACES_MASK) {
            *value = S->o.ace_marriage;
            *changes = S->o.ace_marriage_trump;
            return 1;
        }
        return 0;
    }
    if (rank == 0 && S->o.four_nines_bonus && (hand & NINES_MASK) == NINES_MASK) {
        *value = S->o.four_nines_bonus;
        *changes = 0;
        return 1;
    }
    return 0;
}

/* The highest value hand can declare on this lead by leading a card of leads. */
static int best_declaration(const Core *S, uint32_t leads, uint32_t hand) {
    int best = 0;
    const int *mv = S->o.marriage_values;
    for (int s = 0; s < 4; s++) {
        if (S->ds >> s & 1) continue;
        if (marriage(S, hand, s)) {
            if ((leads & S->L.mm[s]) && mv[s] > best) best = mv[s];
        } else if (S->o.half_marriage && half_marriage(S, hand, s) && (leads & S->L.hm[s]) &&
                   mv[s] / 2 > best) {
            best = mv[s] / 2;
        }
    }
    if (S->o.ace_marriage && (hand & ACES_MASK) == ACES_MASK && (leads & ACES_MASK) &&
        S->o.ace_marriage > best)
        best = S->o.ace_marriage;
    if (S->o.four_nines_bonus && (hand & NINES_MASK) == NINES_MASK && (leads & NINES_MASK) &&
        S->o.four_nines_bonus > best)
        best = S->o.four_nines_bonus;
    return best;
}

static void sort_desc(int *keys, int n) {
    for (int i = 1; i < n; i++) {
        int v = keys[i], j = i - 1;
        while (j >= 0 && keys[j] < v) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = v;
    }
}

/* The cards hand may play to a trick holding c0 (and c1 unless < 0). */
static uint32_t follow_cands(const Core *S, uint32_t hand, int c0, int c1, int trump) {
    int led = c0 / 6;
    uint32_t cands = hand & SUIT_MASK[led];
    if (cands) {
        if (S->o.must_overtake) {
            int top = (c1 < 0 || c1 / 6 != led || c1 < c0) ? c0 : c1;
            uint32_t hi = cands & HIGHER[top];
            if (hi) cands = hi;
        }
        return cands;
    }
    if (trump >= 0 && (hand & SUIT_MASK[trump])) return hand & SUIT_MASK[trump];
    return hand;
}

/* The suits (a 4-bit mask) in which hand holds K+Q, or Q+J with half_marriage. */
static int combos(const Core *S, uint32_t hand) {
    return S->combo_pat[hand & 63] | S->combo_pat[(hand >> 6) & 63] << 1 |
           S->combo_pat[(hand >> 12) & 63] << 2 | S->combo_pat[(hand >> 18) & 63] << 3;
}

/* Cards of hand whose holding can still matter for a declaration or a duty. */
static uint32_t involved(const Core *S, uint32_t hand) {
    uint32_t inv = (uint32_t)S->inv_pat[hand & 63] | (uint32_t)S->inv_pat[(hand >> 6) & 63] << 6 |
                   (uint32_t)S->inv_pat[(hand >> 12) & 63] << 12 |
                   (uint32_t)S->inv_pat[(hand >> 18) & 63] << 18;
    if (S->o.ace_marriage && (S->o.ace_marriage_all_in_row || (hand & ACES_MASK) == ACES_MASK))
        inv |= ACES_MASK;
    if (S->o.four_nines_bonus && (hand & NINES_MASK) == NINES_MASK) inv |= NINES_MASK;
    return inv;
}

/* trick_side when the last player is to complete the trick c0 (and c1 with three seats): 1
 * if every card he may play gives the trick to the declarer, 0 if none does, -1 if his choice
 * decides (alphabeta.py: last_side). */
static inline __attribute__((always_inline)) int last_side_of(const Core *S, const int two,
                                                               int leader, int c0, int c1,
                                                               int trump) {
    int decl = S->decl;
    int last = two ? leader ^ 1 : (leader + 2) % 3;
    uint32_t replies = follow_cands(S, S->h[last], c0, c1, trump);
    int side = -1;
    while (replies) {
        int r = highest(replies);
        replies ^= 1u << r;
        int winner =
            two ? leader ^ winner2(c0, r, trump) : (leader + winner3(c0, c1, r, trump)) % 3;
        int won = winner == decl ? 1 : 0;
        if (side < 0)
            side = won;
        else if (side != won)
            return -1;
    }
    return side;
}

/* last_side compiled once for each number of seats (two is a constant in each copy, so the
 * three-player copy has no test of it): one source, two specialised functions. */
static int last_side3(const Core *S, int leader, int c0, int c1, int trump) {
    return last_side_of(S, 0, leader, c0, c1, trump);
}
static int last_side2(const Core *S, int leader, int c0, int trump) {
    return last_side_of(S, 1, leader, c0, -1, trump);
}

/* The side of a plain lead c: 1 the declarer surely wins the trick, 0 surely loses it,
 * -1 the followers decide (every reply, every pair of replies with three seats). */
static int lead_side(const Core *S, int leader, int c, int trump) {
    if (S->two) return last_side2(S, leader, c, trump);
    int side = -1;
    uint32_t r2s = follow_cands(S, S->h[(leader + 1) % 3], c, -1, trump);
    while (r2s) {
        int r2 = highest(r2s);
        r2s ^= 1u << r2;
        int won = last_side3(S, leader, c, r2, trump);
        if (won < 0 || (side >= 0 && side != won)) return -1;
        side = won;
    }
    return side;
}

static int trick_side(const Core *S, int seat, int leader, int c0, int c1, int c, int trump) {
    (void)seat;
    if (c0 < 0) return lead_side(S, leader, c, trump);
    if (S->two) return (leader ^ winner2(c0, c, trump)) == S->decl ? 1 : 0;
    if (c1 >= 0) return (leader + winner3(c0, c1, c, trump)) % 3 == S->decl ? 1 : 0;
    return last_side3(S, leader, c0, c, trump);
}

/* Drop the cards an equivalent card makes useless (see alphabeta.py: reduce): of neighbours in
 * strength, the dearest when the mover's side wins the trick, the cheapest when it loses. */
static uint32_t reduce(const Core *S, int seat, int leader, int c0, int c1, uint32_t cands,
                       int trump) {
    const uint32_t *h = S->h;
    uint32_t hand = h[seat];
    int decl = S->decl;
    uint32_t present = (h[0] | h[1] | h[2]) & ~hand;
    if (c0 >= 0) present |= 1u << c0;
    if (c1 >= 0) present |= 1u << c1;
    uint32_t inv = involved(S, hand);
    uint32_t out = 0, m = cands;
    while (m) {
        int top = highest(m);
        m ^= 1u << top;
        int low = top;
        if (!(inv >> top & 1)) {
            while (m) {
                int c = highest(m);
                if (c / 6 != low / 6 || (inv >> c & 1) ||
                    (present & ((1u << low) - (1u << (c + 1)))))
                    break;
                low = c;
                m ^= 1u << c;
            }
        }
        if (low == top) {
            out |= 1u << top;
            continue;
        }
        uint32_t run = cands & ((1u << (top + 1)) - (1u << low));
        int side = trick_side(S, seat, leader, c0, c1, top, trump);
        if (side < 0) {
            out |= run;
            continue;
        }
        int base = 6 * (top / 6);
        if (side == (seat == decl))
            out |= 1u << (base + S->L.pat_dear[(run >> base) & 63]);
        else
            out |= 1u << (base + S->L.pat_cheap[(run >> base) & 63]);
    }
    return out;
}

/* The lead rules of thousand.engine.play_rules.lead_cards, the one home (RULES §4 ace duty,
 * no_lead_own_trump, no declaration on the first lead when nodecl): the cards hand may lead
 * (*plain) and those of them it may lead declaring (*declaring), every one, before the
 * search's pruning.  Under the ace duty that is any ace, trump or not, and no "+".  The fast
 * path of thousand.envs.fastsim takes its leads from here too. */
static void lead_cards(const Core *S, uint32_t hand, int seat, int trump, int tdecl, int aces,
                       int nodecl, uint32_t *plain, uint32_t *declaring) {
    *declaring = 0;
    if (aces == seat && S->o.ace_marriage_all_in_row && (hand & ACES_MASK)) {
        *plain = hand & ACES_MASK;
        return;
    }
    *plain = hand;
    if (S->o.no_lead_own_trump && trump >= 0 && tdecl == seat && (hand & ~SUIT_MASK[trump]))
        *plain = hand & ~SUIT_MASK[trump];
    if (nodecl) return;
    uint32_t pot = *plain & S->L.decl_cards;
    while (pot) {
        int c = highest(pot);
        pot ^= 1u << c;
        int value, changes;
        if (declaration(S, hand, c, &value, &changes)) *declaring |= 1u << c;
    }
}

/* Lead moves, best-looking first.  keys get score * 64 + move; returns the count. */
static int lead_moves(const Core *S, int seat, int trump, int tdecl, int aces, int nodecl,
                      int *moves) {
    const uint32_t *h = S->h;
    uint32_t hand = h[seat], plain, declaring;
    int n = 0;
    lead_cards(S, hand, seat, trump, tdecl, aces, nodecl, &plain, &declaring);
    if (aces == seat && (hand & ACES_MASK)) { /* the ace duty (aces is -1 without it) */
        uint32_t cands = plain;
        while (cands) {
            int c = highest(cands);
            cands ^= 1u << c;
            moves[n++] = c;
        }
        return n;
    }
    int is_decl = seat == S->decl;
    uint32_t others = (h[0] | h[1] | h[2]) & ~hand;
    uint32_t opp = is_decl ? (h[(seat + 1) % 3] | h[(seat + 2) % 3]) : h[S->decl];
    int keys[MAX_MOVES + 8];
    while (declaring) {
        int c = highest(declaring);
        declaring ^= 1u << c;
        int value, changes;
        declaration(S, hand, c, &value, &changes);
        int rank = S->L.rank[c];
        if (rank == 0 || (rank == 5 && !changes && !S->o.ace_marriage_all_in_row)) {
            if (is_decl) { /* no trump change: the declarer leads it with "+" only */
                plain &= ~(1u << c);
                keys[n++] = (1000 + value) * 64 + DECLARE + c;
            }
            continue;
        }
        keys[n++] = (is_decl ? 1000 + value : 500) * 64 + DECLARE + c;
    }
    if (plain & (plain - 1)) plain = reduce(S, seat, seat, -1, -1, plain, trump);
    uint32_t m = plain;
    while (m) {
        int c = highest(m);
        m ^= 1u << c;
        int s = c / 6;
        uint32_t sm = SUIT_MASK[s];
        int p = S->L.points[c];
        int score;
        if (!(others & HIGHER[c])) {
            if (trump >= 0 && s != trump && (opp & SUIT_MASK[trump]) && !(opp & sm))
                score = -p;
            else
                score = 100 + p;
        } else {
            score = -p - ((opp & sm & HIGHER[c]) ? 20 : 0);
        }
        keys[n++] = score * 64 + c;
    }
    sort_desc(keys, n);
    for (int i = 0; i < n; i++) moves[i] = ((keys[i] % 64) + 64) % 64;
    return n;
}

/* Bounds from the tricks the leader can surely cash in a row (see alphabeta.py: quick). */
static void quick(const Core *S, int leader, int trump, int tdecl, int aces, int nodecl, int ub,
                  int *qlo, int *qhi) {
    const uint32_t *h = S->h;
    int decl = S->decl;
    uint32_t hand = h[leader];
    int lb = 0;
    *qlo = 0;
    *qhi = ub;
    if (aces == leader) return; /* the ace duty: no cashing plan, no declaration */
    uint32_t tm = trump >= 0 ? SUIT_MASK[trump] : 0;
    int barred = S->o.no_lead_own_trump && trump >= 0 && tdecl == leader && (hand & ~tm);
    if (leader == decl && !nodecl) lb = best_declaration(S, barred ? hand & ~tm : hand, hand);
    uint32_t h1 = h[(leader + 1) % 3], h2 = h[(leader + 2) % 3];
    uint32_t others = h1 | h2;
    uint32_t ruff1 = h1 & tm, ruff2 = h2 & tm;
    int gain = 0, tricks = 0, kt = 0, ks[4] = {0, 0, 0, 0};
    for (int s = 0; s < 4; s++) {
        uint32_t sm = SUIT_MASK[s];
        uint32_t mine = hand & sm;
        if (!mine) continue;
        if (sm == tm && barred) continue;
        uint32_t rest = others & sm;
        uint32_t top = rest ? (mine & HIGHER[highest(rest)]) : mine;
        if (!top) continue;
        int n = popcount(top), k = n;
        if (sm != tm) {
            if (ruff1) {
                int c1 = popcount(h1 & sm);
                if (c1 < k) k = c1;
            }
            if (ruff2) {
                int c2 = popcount(h2 & sm);
                if (c2 < k) k = c2;
            }
            if (k <= 0) continue;
            ks[s] = k;
        } else {
            kt = k;
        }
        int pat = (top >> (6 * s)) & 63;
        if (n == k) {
            gain += S->L.pat_points[pat];
        } else {
            for (int i = n - k; i < n; i++) gain += S->L.pat_sorted[pat][i]; /* his k dearest */
        }
        tricks += k;
    }
    if (!tricks) {
        *qlo = lb;
        return;
    }
    uint32_t opps[2] = {h1, h2}, ruffs[2] = {ruff1, ruff2};
    for (int i = 0; i < 2; i++) {
        if (ruffs[i]) {
            for (int s = 0; s < 4; s++)
                if (ks[s]) gain += cheapest(&S->L, opps[i] & SUIT_MASK[s], ks[s]);
            if (kt) gain += cheapest(&S->L, ruffs[i], kt);
        } else {
            gain += cheapest(&S->L, opps[i], tricks);
        }
    }
    if (leader == decl) {
        *qlo = gain > lb ? gain : lb;
        return;
    }
    *qlo = 0;
    *qhi = ub - gain;
}

static int boundary(Core *S, int leader, int trump, int tdecl, int aces, int nodecl, int alpha,
                    int beta);

static int follow3(Core *S, int leader, int c0, int c1, int trump, int tdecl, int aces,
                   int alpha, int beta);

/* The second (c1 < 0) or the third player to play to the trick; with two seats the second
 * completes it (c1 is always -1): he wins it when he can and it is worth it, or throws his
 * cheapest card.  Compiled once for each number of seats (follow3, follow2). */
static inline __attribute__((always_inline)) int follow_of(Core *S, const int two, int leader,
                                                           int c0, int c1, int trump, int tdecl,
                                                           int aces, int alpha, int beta) {
    uint32_t *h = S->h;
    int second = c1 < 0 && !two;
    int seat = two ? leader ^ 1 : (leader + (second ? 1 : 2)) % 3;
    uint32_t cands = follow_cands(S, h[seat], c0, c1, trump);
    int decl = S->decl;
    int maximize = seat == decl;
    if (cands & (cands - 1)) cands = reduce(S, seat, leader, c0, c1, cands, trump);
    /* (with two seats the leader, who holds the trick so far, is never the mover's friend) */
    int wcard, widx;
    if (c1 < 0) {
        wcard = c0;
        widx = 0;
    } else if (winner2(c0, c1, trump)) {
        wcard = c1;
        widx = 1;
    } else {
        wcard = c0;
        widx = 0;
    }
    int wseat = (leader + widx) % 3;
    int friend_wins = !two && (wseat == decl) == maximize;
    const int *points = S->L.points;
    int base = points[c0] + (c1 < 0 ? 0 : points[c1]);
    int keys[MAX_MOVES];
    int n = 0;
    int ws = wcard / 6;
    uint32_t m = cands;
    while (m) {
        int c = highest(m);
        m ^= 1u << c;
        int cs = c / 6;
        int beats = (cs == ws && c > wcard) || (cs == trump && ws != trump);
        int p = points[c];
        int score;
        if (second) {
            score = beats ? 50 + p : -p;
        } else if (beats || friend_wins) {
            score = 100 + base + p - ((beats && friend_wins) ? 10 : 0);
        } else {
            score = -p;
        }
        keys[n++] = score * 64 + c;
    }
    sort_desc(keys, n);
    int best = maximize ? -INF : INF;
    S->nodes++;
    for (int i = 0; i < n; i++) {
        int c = ((keys[i] % 64) + 64) % 64;
        int v;
        h[seat] ^= 1u << c;
        if (second) {
            v = follow3(S, leader, c0, c, trump, tdecl, aces, alpha, beta);
        } else {
            int winner =
                two ? leader ^ winner2(c0, c, trump) : (leader + winner3(c0, c1, c, trump)) % 3;
            int gain = winner == decl ? base + points[c] : 0;
            int na = aces == winner ? aces : -1;
            v = gain + boundary(S, winner, trump, tdecl, na, 0, alpha - gain, beta - gain);
        }
        h[seat] ^= 1u << c;
        if (maximize) {
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (v >= beta) break;
                }
            }
        } else {
            if (v < best) {
                best = v;
                if (v < beta) {
                    beta = v;
                    if (v <= alpha) break;
                }
            }
        }
    }
    return best;
}

static int follow3(Core *S, int leader, int c0, int c1, int trump, int tdecl, int aces,
                   int alpha, int beta) {
    return follow_of(S, 0, leader, c0, c1, trump, tdecl, aces, alpha, beta);
}

static int follow2(Core *S, int leader, int c0, int trump, int tdecl, int aces, int alpha,
                   int beta) {
    return follow_of(S, 1, leader, c0, -1, trump, tdecl, aces, alpha, beta);
}

/* alphabeta.py: Search.follow (the seats tested once here, not at every node). */
static int follow(Core *S, int leader, int c0, int c1, int trump, int tdecl, int aces, int alpha,
                  int beta) {
    return S->two ? follow2(S, leader, c0, trump, tdecl, aces, alpha, beta)
                  : follow3(S, leader, c0, c1, trump, tdecl, aces, alpha, beta);
}

static int lead(Core *S, int leader, int trump, int tdecl, int aces, int nodecl, int alpha,
                int beta, int first, int *best_out) {
    uint32_t *h = S->h;
    int moves[MAX_MOVES + 8];
    int n = lead_moves(S, leader, trump, tdecl, aces, nodecl, moves);
    if (first >= 0) {
        for (int i = 0; i < n; i++) {
            if (moves[i] == first) {
                for (int j = i; j > 0; j--) moves[j] = moves[j - 1];
                moves[0] = first;
                break;
            }
        }
    }
    int maximize = leader == S->decl;
    int best = maximize ? -INF : INF;
    int best_move = moves[0];
    for (int i = 0; i < n; i++) {
        int mv = moves[i];
        int gain = 0, nt = trump, ntd = tdecl, na = aces, c;
        int ds = S->ds;
        if (mv >= DECLARE) {
            c = mv - DECLARE;
            int value = 0, changes = 0;
            declaration(S, h[leader], c, &value, &changes);
            if (maximize) gain = value;
            if (changes) {
                nt = c / 6;
                ntd = leader;
            }
            int rank = S->L.rank[c];
            if (S->o.ace_marriage_all_in_row && rank == 5) na = leader;
            if (rank >= 1 && rank <= 3) S->ds = ds | 1 << (c / 6);
        } else {
            c = mv;
        }
        h[leader] ^= 1u << c;
        int v = gain + follow(S, leader, c, -1, nt, ntd, na, alpha - gain, beta - gain);
        h[leader] ^= 1u << c;
        S->ds = ds;
        if (maximize) {
            if (v > best) {
                best = v;
                best_move = mv;
                if (v > alpha) {
                    alpha = v;
                    if (v >= beta) break;
                }
            }
        } else {
            if (v < best) {
                best = v;
                best_move = mv;
                if (v < beta) {
                    beta = v;
                    if (v <= alpha) break;
                }
            }
        }
    }
    *best_out = best_move;
    return best;
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static int boundary(Core *S, int leader, int trump, int tdecl, int aces, int nodecl, int alpha,
                    int beta) {
    uint32_t *h = S->h;
    uint32_t h0 = h[0], h1 = h[1], h2 = h[2];
    uint32_t allc = h0 | h1 | h2;
    if (!allc) return 0;
    S->nodes++;
    if (!(h0 & (h0 - 1))) {
        if (S->two) { /* the last trick of two cards */
            int c0 = highest(h[leader]), c1 = highest(h[leader ^ 1]);
            if ((leader ^ winner2(c0, c1, trump)) == S->decl)
                return S->L.points[c0] + S->L.points[c1];
            return 0;
        }
        int c0 = highest(h[leader]), c1 = highest(h[(leader + 1) % 3]),
            c2 = highest(h[(leader + 2) % 3]);
        int w = winner3(c0, c1, c2, trump);
        if ((leader + w) % 3 == S->decl)
            return S->L.points[c0] + S->L.points[c1] + S->L.points[c2];
        return 0;
    }
    int decl = S->decl;
    int ub = points_of(&S->L, allc) + potential(S, h[decl]);
    if (ub <= alpha) return ub;
    if (beta <= 0) return 0;
    if (aces != leader || !(h[leader] & ACES_MASK)) aces = -1;
    int td = (S->o.no_lead_own_trump && trump >= 0) ? tdecl : -1;
    /* a declared suit matters while some hand could declare in it again */
    uint64_t ds = (uint64_t)S->ds;
    if (ds) ds &= (uint64_t)(combos(S, h0) | combos(S, h1) | combos(S, h2));
    uint64_t state = (uint64_t)leader | (uint64_t)(trump + 1) << 2 | (uint64_t)(td + 1) << 5 |
                     (uint64_t)(aces >= 0) << 7 | (uint64_t)(nodecl ? 1 : 0) << 8 | ds << 9;
    uint64_t hands01 = (uint64_t)h0 | (uint64_t)h1 << 24;
    uint64_t k1 = hands01 | S->gen << 48;
    uint64_t k2 = (uint64_t)h2 | state << 24;
    uint64_t idx = mix(hands01 ^ (k2 * 0x9E3779B97F4A7C15ULL)) & S->tt_mask & ~3ULL;
    Entry *bucket = S->tt + idx;
    Entry *ent = NULL;
    for (int i = 0; i < 4; i++) {
        if (bucket[i].k1 == k1 && bucket[i].k2 == k2) {
            ent = bucket + i;
            break;
        }
    }
    int best_move = -1;
    int lo = 0, hi = ub;
    if (ent) {
        lo = ent->lo;
        hi = ent->hi;
        best_move = ent->best;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo == hi) return lo;
    } else {
        int qlo, qhi;
        quick(S, leader, trump, tdecl, aces, nodecl, ub, &qlo, &qhi);
        if (qhi <= alpha) return qhi;
        if (qlo >= beta) return qlo;
        lo = qlo;
        hi = qhi;
    }
    int a = alpha > lo ? alpha : lo;
    int b = beta < hi ? beta : hi;
    int best;
    int v = lead(S, leader, trump, tdecl, aces, nodecl, a, b, best_move, &best);
    if (v <= a)
        hi = v;
    else if (v >= b)
        lo = v;
    else
        lo = hi = v;
    if (!ent) {
        /* The slot: a stale one, else the one with the fewest cards (cheapest to redo). */
        int pick = 0, fewest = 99;
        for (int i = 0; i < 4; i++) {
            if ((bucket[i].k1 >> 48) != S->gen) {
                pick = i;
                break;
            }
            int n = popcount((uint32_t)(bucket[i].k1 & 0xFFFFFFu));
            if (n < fewest) {
                fewest = n;
                pick = i;
            }
        }
        ent = bucket + pick;
        ent->k1 = k1;
        ent->k2 = k2;
    }
    ent->best = (int8_t)best;
    ent->lo = (int16_t)lo;
    ent->hi = (int16_t)hi;
    return v;
}

/* ---------------------------------------------------------------------------------------- */

static void Core_dealloc(Core *self) {
    PyMem_RawFree(self->tt);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Core_init(Core *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"options", "declarer", "log2_entries", "seats", NULL};
    PyObject *opts;
    int decl, log2 = 18, seats = 3;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Oi|ii", kwlist, &opts, &decl, &log2, &seats))
        return -1;
    if (read_PlayOpts(opts, &self->o) < 0) return -1;
    if (seats != 2 && seats != 3) {
        PyErr_SetString(PyExc_ValueError, "seats is 3, or 2 for the game for two");
        return -1;
    }
    if (decl < 0 || decl >= seats) {
        PyErr_SetString(PyExc_ValueError, "declarer is a seat 0..seats-1");
        return -1;
    }
    self->two = seats == 2;
    if (log2 < 4 || log2 > 28) {
        PyErr_SetString(PyExc_ValueError, "log2_entries out of range");
        return -1;
    }
    self->decl = decl;
    if (self->o.ten_natural > 1) {
        PyErr_SetString(PyExc_ValueError, "ten_natural is 0 (high) or 1 (natural)");
        return -1;
    }
    init_layout(&self->L, self->o.ten_natural);
    if (rank_mask(&self->L, 5) != ACES_MASK || rank_mask(&self->L, 0) != NINES_MASK) {
        PyErr_SetString(PyExc_ValueError, "the nine and the ace must keep their places");
        return -1;
    }
    uint32_t kq = self->L.mm[0], qj = self->L.hm[0]; /* K+Q, Q+J as patterns of one suit */
    const int *mv = self->o.marriage_values;
    for (int p = 0; p < 64; p++) {
        int has_kq = ((uint32_t)p & kq) == kq, has_qj =
            self->o.half_marriage && ((uint32_t)p & qj) == qj;
        for (int s = 0; s < 4; s++)
            self->pot[s][p] = (has_kq ? mv[s] : 0) + (has_qj ? mv[s] / 2 : 0);
        self->combo_pat[p] = (uint8_t)(has_kq || has_qj);
        self->inv_pat[p] = (uint8_t)((has_kq ? kq : 0) | (has_qj ? qj : 0));
    }
    PyMem_RawFree(self->tt);
    size_t n = (size_t)1 << log2;
    self->tt = (Entry *)PyMem_RawCalloc(n, sizeof(Entry));
    if (!self->tt) {
        PyErr_NoMemory();
        return -1;
    }
    self->tt_mask = n - 1;
    self->gen = 1;
    self->nodes = 0;
    return 0;
}

static PyObject *Core_clear(Core *self, PyObject *Py_UNUSED(ignored)) {
    self->gen++;
    if (self->gen > MAX_GEN) {
        memset(self->tt, 0, (self->tt_mask + 1) * sizeof(Entry));
        self->gen = 1;
    }
    Py_RETURN_NONE;
}

static int get_hand(PyObject *o, uint32_t *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (v >> 24) {
        PyErr_SetString(PyExc_ValueError, "a hand is a 24-bit mask");
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* search(hands, leader, trick, trump, tdecl, aces, nodecl, alpha, beta, declared_suits=0)
 *   -> (value, nodes) */
static PyObject *Core_search(Core *self, PyObject *args) {
    PyObject *hands, *trick;
    int leader, trump, tdecl, aces, nodecl, alpha, beta, ds = 0;
    if (!PyArg_ParseTuple(args, "OiOiiipii|i", &hands, &leader, &trick, &trump, &tdecl, &aces,
                          &nodecl, &alpha, &beta, &ds))
        return NULL;
    if (ds < 0 || ds > 15) {
        PyErr_SetString(PyExc_ValueError, "declared_suits is a mask of suits (0..15)");
        return NULL;
    }
    int seats = self->two ? 2 : 3;
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != seats || !PyTuple_Check(trick) ||
        PyTuple_GET_SIZE(trick) >= seats) {
        PyErr_SetString(PyExc_ValueError,
                        "hands: a tuple of one mask per seat; trick: fewer cards than seats");
        return NULL;
    }
    if (leader < 0 || leader >= seats || trump < -1 || trump > 3 || tdecl < -1 ||
        tdecl >= seats || aces < -1 || aces >= seats) {
        PyErr_SetString(PyExc_ValueError, "bad seat or suit");
        return NULL;
    }
    self->h[2] = 0; /* two seats: the third hand stays empty */
    for (int i = 0; i < seats; i++)
        if (get_hand(PyTuple_GET_ITEM(hands, i), &self->h[i]) < 0) return NULL;
    if (self->L.natural)
        for (int i = 0; i < seats; i++) self->h[i] = map_mask(&self->L, self->h[i]);
    int t[2] = {-1, -1};
    Py_ssize_t nt = PyTuple_GET_SIZE(trick);
    for (Py_ssize_t i = 0; i < nt; i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(trick, i));
        if (c == -1 && PyErr_Occurred()) return NULL;
        if (c < 0 || c > 23) {
            PyErr_SetString(PyExc_ValueError, "a card is 0..23");
            return NULL;
        }
        t[i] = self->L.pos[c]; /* the search's numbering */
    }
    /* The card counts must fit a real position (the search relies on it). */
    uint32_t seen = 0;
    for (int i = 0; i < seats; i++) {
        if (seen & self->h[i]) {
            PyErr_SetString(PyExc_ValueError, "a card is in two hands");
            return NULL;
        }
        seen |= self->h[i];
    }
    int n = popcount(self->h[leader]) + (nt > 0);
    for (int i = 0; i < seats; i++) {
        int played = (i - leader + seats) % seats < nt;
        if (popcount(self->h[i]) != n - played) {
            PyErr_SetString(PyExc_ValueError, "the hands do not hold the right number of cards");
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < nt; i++) {
        if (seen >> t[i] & 1) {
            PyErr_SetString(PyExc_ValueError, "a trick card is still in a hand");
            return NULL;
        }
        seen |= 1u << t[i];
    }
    self->ds = ds;
    long long before = self->nodes;
    int v;
    if (nt == 0)
        v = boundary(self, leader, trump, tdecl, aces, nodecl, alpha, beta);
    else
        v = follow(self, leader, t[0], t[1], trump, tdecl, aces, alpha, beta);
    return Py_BuildValue("(iL)", v, self->nodes - before);
}

static PyMethodDef Core_methods[] = {
    {"search", (PyCFunction)Core_search, METH_VARARGS,
     "search(hands, leader, trick, trump, tdecl, aces, nodecl, alpha, beta, declared_suits=0)"
     " -> (value, nodes)"},
    {"clear", (PyCFunction)Core_clear, METH_NOARGS, "Forget the transposition table."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "thousand.solver._csolver.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search context: options, declarer, transposition table.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_csolver",
    .m_doc = "C core of the Тысяча double-dummy solver.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__csolver(void) {
    init_tables();
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
#ifndef CORE_SOURCE_HASH
#define CORE_SOURCE_HASH ""
#endif
    if (PyModule_AddStringConstant(m, "SOURCE_HASH", CORE_SOURCE_HASH) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
