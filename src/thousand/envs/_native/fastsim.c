/*
 * Random legal play of whole deals in C: the fast path of thousand.envs.fastsim.
 *
 * The card play is the solver's C core itself (src/thousand/solver/_native/core.c, included
 * below, not copied): who may lead and what (lead_cards: the ace duty, no_lead_own_trump, no
 * "+" on the first lead), who may follow (follow_cands), what a "+" lead declares
 * (declaration), who takes a trick (winner3), under the same options, read by name into the
 * structs of options.h (generated from thousand/solver/native_options.py, the one table of
 * the options).  This file adds what a whole deal needs around it: the deal from a seed, the
 * auction (the bid ladder of thousand.engine.deal), the talon and the two gives, the contract
 * choices, and the deal score of thousand.engine.deal.score_deal; and a random player that
 * picks among the legal moves,
 * listed in the engine's own order, with the random numbers of thousand.envs.fastsim
 * (SplitMix64).  tests/test_envs.py plays the same seeds through the engine
 * (thousand.engine.game.Game) and checks that every move and every deal value is the same.
 *
 * The rules covered are those of fastsim.supports(): three players, give_one_each, the
 * talon shown, no dark, golden, concede, buy-out, redeal or cut, ten_strength=high (where
 * the solver's card positions are the cards themselves); every play option.
 */
#include "../../solver/_native/core.c"

#define FS_PLAY 0
#define FS_DECLARE 24
#define FS_GIVE 48
#define FS_PASS 96
#define FS_BID 1000
#define FS_CONTRACT 100000

typedef struct {
    DealOpts d; /* the auction, the contract, the score (options.h) */
    Core S;     /* the card play: the solver's core with its PlayOpts S.o */
} Opts;

static inline uint64_t sm_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline int sm_below(uint64_t *s, int n) { return (int)(sm_next(s) % (uint64_t)n); }

/* thousand.cards.cards_of: suit by suit (spades first), highest rank first. */
static int cards_of(uint32_t m, int *out) {
    int n = 0;
    for (int s = 0; s < 4; s++)
        for (int r = 5; r >= 0; r--)
            if (m >> (6 * s + r) & 1) out[n++] = 6 * s + r;
    return n;
}

static int marriage_sum(const Opts *o, uint32_t hand) {
    int total = 0;
    for (int s = 0; s < 4; s++)
        if (marriage(&o->S, hand, s)) total += o->S.o.marriage_values[s];
    return total;
}

static int round_points(int x, int step) {
    if (step <= 1) return x;
    int r = ((x % step) + step) % step;
    return x - r + (r >= (step + 1) / 2 ? step : 0);
}

static inline int next_bid(const Opts *o, int bid) {
    return 100 + ((bid - 100) / o->d.bid_step + 1) * o->d.bid_step;
}

/* One deal; moves (if not NULL) get the engine's move values.  Returns the move count. */
static int play_deal(const Opts *o, uint64_t state, int dealer, int values[3], int *moves,
                     int *declarer_out, int *contract_out) {
    Core S = o->S; /* ds changes in the play */
    int deck[24];
    for (int i = 0; i < 24; i++) deck[i] = i;
    for (int i = 23; i > 0; i--) {
        int j = sm_below(&state, i + 1);
        int t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    uint32_t hands[3] = {0, 0, 0}, talon = 0;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 7; i++) hands[(dealer + 1 + k) % 3] |= 1u << deck[7 * k + i];
    for (int i = 21; i < 24; i++) talon |= 1u << deck[i];
    int nm = 0;
    int legal[64];
#define RECORD(m) do { if (moves) moves[nm] = (m); nm++; } while (0)
    /* the auction */
    int opener = o->d.dealer_opens ? dealer : (dealer + 1) % 3;
    int high = 0, bidder = -1, passed = 0, seat = opener;
    for (;;) {
        int n = 0, cap = o->d.bid_cap + marriage_sum(o, hands[seat]), low, top;
        if (high == 0) {
            low = 100;
            top = o->d.exactly_100 ? 100 : cap;
        } else {
            legal[n++] = FS_PASS;
            low = next_bid(o, high);
            top = o->d.bid_jumps ? cap : (cap < low ? cap : low);
        }
        for (int b = low; b <= top && n < 64; b += o->d.bid_step) legal[n++] = FS_BID + b;
        int m = legal[sm_below(&state, n)];
        RECORD(m);
        if (m == FS_PASS) {
            passed |= 1 << seat;
        } else {
            high = m - FS_BID;
            bidder = seat;
        }
        int remaining = 0, last = -1;
        for (int s = 0; s < 3; s++)
            if (!(passed >> s & 1)) {
                remaining++;
                last = s;
            }
        if (high && remaining == 1 && last == bidder) break;
        if (!remaining) { /* nobody may bid: the opener plays 100 (not in these rules) */
            bidder = opener;
            high = 100;
            break;
        }
        seat = (seat + 1) % 3;
        while (passed >> seat & 1) seat = (seat + 1) % 3;
    }
    int d = bidder, bid = high;
    /* the talon and the gives */
    hands[d] |= talon;
    for (int g = 0; g < 2; g++) {
        int cards[24];
        int n = cards_of(hands[d], cards);
        int c = cards[sm_below(&state, n)];
        RECORD(FS_GIVE + c);
        hands[d] &= ~(1u << c);
        hands[(d + 1 + g) % 3] |= 1u << c;
    }
    /* the contract */
    {
        int n = 0, cap = o->d.bid_cap + marriage_sum(o, hands[d]);
        legal[n++] = FS_CONTRACT + bid;
        for (int b = next_bid(o, bid); b <= cap && n < 64; b += o->d.bid_step)
            legal[n++] = FS_CONTRACT + b;
        int m = legal[sm_below(&state, n)];
        RECORD(m);
        *contract_out = m - FS_CONTRACT;
    }
    int contract = *contract_out;
    /* the play */
    int taken[3] = {0, 0, 0}, bonus[3] = {0, 0, 0};
    int leader = d, trump = -1, tdecl = -1, aces = -1;
    S.ds = 0;
    for (int trick = 0; trick < 8; trick++) {
        int tc[3];
        seat = leader;
        for (int k = 0; k < 3; k++) {
            uint32_t hand = hands[seat];
            int n = 0, m;
            if (k == 0) {
                uint32_t leads, decl; /* thousand.engine.play_rules.lead_cards */
                lead_cards(&S, hand, seat, trump, tdecl, aces, trick == 0 &&
                           !o->S.o.marriage_on_first_lead, &leads, &decl);
                n = cards_of(leads, legal);
                /* the "+" leads: marriages (K, Q, J) suit by suit, then aces, then nines */
                n += cards_of(decl & ~(ACES_MASK | NINES_MASK), legal + n);
                n += cards_of(decl & ACES_MASK, legal + n);
                n += cards_of(decl & NINES_MASK, legal + n);
                for (int i = n - __builtin_popcount(decl); i < n; i++) legal[i] += FS_DECLARE;
            } else {
                n = cards_of(follow_cands(&S, hand, tc[0], k == 2 ? tc[1] : -1, trump), legal);
            }
            m = legal[sm_below(&state, n)];
            RECORD(m);
            int c = m % 24;
            hands[seat] &= ~(1u << c);
            if (m >= FS_DECLARE) {
                int value = 0, changes = 0;
                declaration(&S, hand, c, &value, &changes);
                int rank = c % 6;
                if (rank == 5 && S.o.ace_marriage_all_in_row) aces = seat;
                if (o->S.o.marriage_points_declarer_only && seat != d) value = 0;
                bonus[seat] += value;
                if (changes) {
                    trump = c / 6;
                    tdecl = seat;
                }
                if (rank >= 1 && rank <= 3) S.ds |= 1 << (c / 6);
            }
            tc[k] = c;
            seat = (seat + 1) % 3;
        }
        int w = (leader + winner3(tc[0], tc[1], tc[2], trump)) % 3;
        taken[w] += RANK_POINTS[tc[0] % 6] + RANK_POINTS[tc[1] % 6] + RANK_POINTS[tc[2] % 6];
        if (w != aces) aces = -1;
        leader = w;
    }
    /* thousand.deal.score_deal (a played deal) */
    int total = taken[d] + bonus[d];
    int compared = o->d.round_declarer_before_compare ? round_points(total, o->d.rounding) : total;
    for (int s = 0; s < 3; s++) values[s] = round_points(taken[s] + bonus[s], o->d.rounding);
    if (compared >= contract)
        values[d] = o->d.declarer_scores_taken ? round_points(total, o->d.rounding) : contract;
    else
        values[d] = -contract;
    *declarer_out = d;
    return nm;
#undef RECORD
}

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* play(options, seed, first, n, record) -> (values, declarers, contracts, moves or None);
 * options: the dict of thousand.solver.native_options.values(DEAL + PLAY, rules), by name. */
static PyObject *fs_play(PyObject *self, PyObject *args) {
    PyObject *opts;
    unsigned long long seed, first;
    long long count;
    int record;
    if (!PyArg_ParseTuple(args, "OKKLp", &opts, &seed, &first, &count, &record)) return NULL;
    Opts o;
    memset(&o, 0, sizeof o);
    if (read_DealOpts(opts, &o.d) < 0 || read_PlayOpts(opts, &o.S.o) < 0) return NULL;
    if (o.d.bid_step < 5 || o.S.o.ten_natural || count < 0) {
        PyErr_SetString(PyExc_ValueError, "bid_step below 5, ten_strength natural, or a "
                        "negative count");
        return NULL;
    }
    init_layout(&o.S.L, 0);
    PyObject *values = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(12 * count));
    PyObject *decl = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)count);
    PyObject *contracts = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(4 * count));
    PyObject *all_moves = record ? PyList_New((Py_ssize_t)count) : (Py_INCREF(Py_None), Py_None);
    if (!values || !decl || !contracts || !all_moves) goto fail;
    int32_t *pv = (int32_t *)PyBytes_AS_STRING(values);
    int8_t *pd = (int8_t *)PyBytes_AS_STRING(decl);
    int32_t *pc = (int32_t *)PyBytes_AS_STRING(contracts);
    int moves[256];
    for (long long i = 0; i < count; i++) {
        uint64_t k = first + (uint64_t)i;
        uint64_t state = mix64(seed + mix64(k + 1));
        int vals[3], dd, contract;
        int nm = play_deal(&o, state, (int)(k % 3), vals, record ? moves : NULL, &dd, &contract);
        for (int s = 0; s < 3; s++) pv[3 * i + s] = vals[s];
        pd[i] = (int8_t)dd;
        pc[i] = contract;
        if (record) {
            PyObject *lst = PyList_New(nm);
            if (!lst) goto fail;
            for (int j = 0; j < nm; j++) {
                PyObject *x = PyLong_FromLong(moves[j]);
                if (!x) {
                    Py_DECREF(lst);
                    goto fail;
                }
                PyList_SET_ITEM(lst, j, x);
            }
            PyList_SET_ITEM(all_moves, (Py_ssize_t)i, lst);
        }
    }
    return Py_BuildValue("(NNNN)", values, decl, contracts, all_moves);
fail:
    Py_XDECREF(values);
    Py_XDECREF(decl);
    Py_XDECREF(contracts);
    Py_XDECREF(all_moves);
    return NULL;
}

static PyMethodDef fs_methods[] = {
    {"play", fs_play, METH_VARARGS,
     "play(options, seed, first, n, record): deals first .. first+n-1 of seed, random play."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef fs_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_fastsim",
    .m_doc = "Random legal play of whole deals on the solver's C core (thousand.envs.fastsim).",
    .m_size = -1,
    .m_methods = fs_methods,
};

PyMODINIT_FUNC PyInit__fastsim(void) {
    init_tables();
    PyObject *m = PyModule_Create(&fs_module);
    if (m && PyModule_AddStringConstant(m, "SOURCE_HASH", CORE_SOURCE_HASH) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
