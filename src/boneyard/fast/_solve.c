/* Optional compiled exact solver of boneyard's expert: a closed two-player line hand, searched to its end.
 *
 * The position is a FastGame's (boneyard/fast/engine.py, the definition) in the case the expert's
 * transposition-table search calls "plain" (boneyard/players/expert/fastsearch.py): two players, a line
 * with two open ends and no spinner, nothing scored during the hand, nothing left to draw.  A turn then
 * places a tile of the mover's hand on an end showing one of its numbers (a double keeps the end's number,
 * any other tile shows its other half), or passes when no tile fits; the hand ends when a hand is empty
 * (a domino) or when both players have passed in a row (a block).  tests/test_solve.py checks every value
 * against the Python search on random positions.
 *
 * No scoring rule is written here.  What an ended hand is worth comes from the caller: a table of values
 * by (end, seat, pips of hand 0, pips of hand 1), filled lazily by calling back into Python (which asks the
 * variant's own rule functions) the first time a key is met.  A blocked hand with equal pip totals is keyed
 * by the seat holding the lighter lightest tile (C2), which the caller's rule may use to break the tie; the
 * lightness order of the tiles is data the caller passes in.
 *
 * The search is the expert's: alpha-beta with the caller's side maximising and the other seat minimising,
 * the heaviest tile tried first, a play on either of two equal ends searched once, and a transposition table
 * of value bounds.  A position's value depends only on the hands, the ends, whose turn it is and the leaf
 * values, so the table's entries are tagged with the caller's ``owner`` token (one per leaf table) and stay
 * valid across calls and sampled deals; another owner's entries are never read.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "_ints.h"

#define MAXTILES 64
#define TT_BITS 13
#define TT_SIZE (1u << TT_BITS)

typedef struct {
    uint64_t hand0, hand1;
    uint32_t small, gen;  /* small: the lower and higher end, turn, passes, drawn */
    double lower, upper;
} Entry;

typedef struct {
    uint64_t hands[2];
    int ends[2], pips[2];
    int turn, passes, drawn;
} Pos;

typedef struct {
    int top, ntiles, side;    /* side: bit s set when seat s maximises */
    int high[MAXTILES], low[MAXTILES], pips[MAXTILES], rank[MAXTILES];
    uint64_t suit[16];
    int order[MAXTILES];      /* tile indices, heaviest first (ties: higher index first) */
    double *table;            /* leaf values, NaN where not yet asked */
    Py_ssize_t table_len;
    int span;                 /* pips + 1 of the largest total a hand may hold: the table's stride */
    PyObject *leaf;           /* the Python callback: leaf(end, who, pips0, pips1) -> float */
    long long nodes, limit;
    uint32_t owner;           /* the transposition table's tag of this caller's entries */
    int aborted;              /* the node limit was passed, or the callback raised */
    /* mixed choices (the expert's deep= and own=): a minimising node is worth (1 - deep) * its lowest child + deep *
     * its children's mean, a maximising one below the root (1 - own) * its highest + own * the mean; both 0:
     * plain alpha-beta */
    double deep, own;
    int mixed;
} Ctx;

static Entry *tt = NULL;

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return x;
}

static double leaf_value(Ctx *c, const Pos *p, int end, int seat) {
    int who = seat;
    if (end == 1) {  /* blocked: the seat with the lighter lightest tile, asked only on equal totals */
        who = 0;
        if (p->pips[0] == p->pips[1]) {
            int best = MAXTILES, holder = 0;
            for (int s = 0; s < 2; s++) {
                uint64_t h = p->hands[s];
                while (h) { int t = __builtin_ctzll(h); h &= h - 1; if (c->rank[t] < best) { best = c->rank[t]; holder = s; } }
            }
            who = holder;
        }
    }
    Py_ssize_t index = (((Py_ssize_t)(end * 2 + who) * c->span) + p->pips[0]) * c->span + p->pips[1];
    if (index < 0 || index >= c->table_len) { c->aborted = 1; PyErr_SetString(PyExc_IndexError, "leaf table too small"); return 0.0; }
    double v = c->table[index];
    if (isnan(v)) {
        PyObject *r = PyObject_CallFunction(c->leaf, "iiii", end, who, p->pips[0], p->pips[1]);
        if (!r) { c->aborted = 1; return 0.0; }
        v = PyFloat_AsDouble(r);
        Py_DECREF(r);
        if (v == -1.0 && PyErr_Occurred()) { c->aborted = 1; return 0.0; }
        c->table[index] = v;
    }
    return v;
}

static double search(Ctx *c, Pos *p, double alpha, double beta);
static double search_mixed(Ctx *c, Pos *p);

/* A position's key beside the hands: the lower and higher end, turn, passes, drawn. */
static inline uint32_t small_key(const Pos *p) {
    int lo = p->ends[0] < p->ends[1] ? p->ends[0] : p->ends[1];
    int hi = p->ends[0] ^ p->ends[1] ^ lo;
    return (uint32_t)lo | ((uint32_t)hi << 4) | ((uint32_t)p->turn << 8) | ((uint32_t)p->passes << 9)
           | ((uint32_t)p->drawn << 11);
}

/* The table entry a position maps to. */
static inline Entry *slot(const Pos *p, uint32_t small) {
    return &tt[mix(p->hands[0] ^ mix(p->hands[1] ^ ((uint64_t)small << 56))) & (TT_SIZE - 1)];
}

/* The plays of the seat to move, in the search's order (heaviest tile first, end 0 before end 1, a play on either
 * of two equal ends once): tiles[i] placed on end arms[i].  Returns how many (0: no tile fits, a pass). */
static int plays(const Ctx *c, const Pos *p, int *tiles, int *arms) {
    uint64_t hand = p->hands[p->turn];
    int a = p->ends[0], b = p->ends[1], n = 0;
    for (int i = 0; i < c->ntiles; i++) {
        int t = c->order[i];
        if (!((hand >> t) & 1)) continue;
        for (int arm = 0; arm < 2; arm++) {
            int v = p->ends[arm];
            if (c->high[t] != v && c->low[t] != v) continue;
            if (arm == 1 && a == b) continue;  /* equal ends: one play searched */
            tiles[n] = t; arms[n++] = arm;
        }
    }
    return n;
}

/* The value of passing (no tile fits): two passes in a row block the hand, else the other seat moves. */
static double pass(Ctx *c, const Pos *p, double alpha, double beta) {
    Pos q = *p;
    q.passes = q.drawn ? 0 : q.passes + 1;
    q.drawn = 0;
    if (q.passes >= 2) return leaf_value(c, &q, 1, -1);
    q.turn = p->turn ^ 1;
    return c->mixed ? search_mixed(c, &q) : search(c, &q, alpha, beta);
}

/* The position once the seat to move has placed tile t on end ``arm`` (-1: leading it, the ends then its two
 * halves), the turn not yet passed on. */
static Pos placed(const Ctx *c, const Pos *p, int t, int arm) {
    int seat = p->turn;
    Pos q = *p;
    q.hands[seat] &= ~(1ULL << t);
    q.pips[seat] -= c->pips[t];
    if (arm < 0) { q.ends[0] = c->high[t]; q.ends[1] = c->low[t]; }
    else q.ends[arm] = c->high[t] + c->low[t] - p->ends[arm];
    q.passes = q.drawn = 0;
    return q;
}

/* The value of placing tile t on end ``arm`` (-1: leading it). */
static double play(Ctx *c, const Pos *p, int t, int arm, double alpha, double beta) {
    int seat = p->turn;
    Pos q = placed(c, p, t, arm);
    if (!q.hands[seat]) return leaf_value(c, &q, 0, seat);
    q.turn = seat ^ 1;
    return c->mixed ? search_mixed(c, &q) : search(c, &q, alpha, beta);
}

static double search(Ctx *c, Pos *p, double alpha, double beta) {
    if (++c->nodes > c->limit) { c->aborted = 1; return 0.0; }
    uint32_t small = small_key(p);
    Entry *e = slot(p, small);
    /* the bounds are copied: a leaf callback may run another thread's search, which may reuse the entry */
    double known_lower = -INFINITY, known_upper = INFINITY;
    if (e->gen == c->owner && e->hand0 == p->hands[0] && e->hand1 == p->hands[1] && e->small == small) {
        known_lower = e->lower;
        known_upper = e->upper;
        if (known_lower >= beta) return known_lower;
        if (known_upper <= alpha || known_lower == known_upper) return known_upper;
        if (known_lower > alpha) alpha = known_lower;
        if (known_upper < beta) beta = known_upper;
    }
    double alpha0 = alpha, beta0 = beta;
    int maximise = (c->side >> p->turn) & 1;
    double best = maximise ? -INFINITY : INFINITY;
    int tiles[2 * MAXTILES], arms[2 * MAXTILES];
    int moved = plays(c, p, tiles, arms);
    for (int i = 0; i < moved; i++) {
        double score = play(c, p, tiles[i], arms[i], alpha, beta);
        if (c->aborted) return 0.0;
        if (maximise) {
            if (score > best) { best = score; if (score > alpha) alpha = score; }
        } else {
            if (score < best) { best = score; if (score < beta) beta = score; }
        }
        if (alpha >= beta) goto done;
    }
    if (!moved) {  /* no tile fits: a pass; two in a row block the hand */
        best = pass(c, p, alpha, beta);
        if (c->aborted) return 0.0;
    }
done:
    if (best <= alpha0) known_upper = best;
    else if (best >= beta0) known_lower = best;
    else known_lower = known_upper = best;
    e->gen = c->owner; e->hand0 = p->hands[0]; e->hand1 = p->hands[1]; e->small = small;
    e->lower = known_lower; e->upper = known_upper;
    return best;
}

/* The value of a position where the players' choices are mixed (Ctx.deep, Ctx.own): every child is valued
 * exactly (no cut-off), and the table holds exact values. */
static double search_mixed(Ctx *c, Pos *p) {
    if (++c->nodes > c->limit) { c->aborted = 1; return 0.0; }
    uint32_t small = small_key(p);
    Entry *e = slot(p, small);
    if (e->gen == c->owner && e->hand0 == p->hands[0] && e->hand1 == p->hands[1] && e->small == small)
        return e->lower;
    int maximise = (c->side >> p->turn) & 1;
    double best = maximise ? -INFINITY : INFINITY, sum = 0.0;
    int tiles[2 * MAXTILES], arms[2 * MAXTILES];
    int moved = plays(c, p, tiles, arms);
    for (int i = 0; i < moved; i++) {
        double score = play(c, p, tiles[i], arms[i], -INFINITY, INFINITY);
        if (c->aborted) return 0.0;
        sum += score;
        if (maximise ? score > best : score < best) best = score;
    }
    if (!moved) {
        best = pass(c, p, -INFINITY, INFINITY);
        if (c->aborted) return 0.0;
    } else {
        double w = maximise ? c->own : c->deep;
        best = (1.0 - w) * best + w * sum / moved;
    }
    e->gen = c->owner; e->hand0 = p->hands[0]; e->hand1 = p->hands[1]; e->small = small;
    e->lower = e->upper = best;
    return best;
}

/* ---------------------------------------------------------------- alpha-mu: one strategy over many deals
 *
 * Perfect-information Monte Carlo values a move on each sampled deal as if the seat would know that deal at its
 * later choices (strategy fusion).  Alpha-mu (Cazenave and Ventos, 2019) searches the sampled deals ("worlds")
 * together: the seat to value (``me``) must make the same choice in every world it cannot tell apart, while the
 * other seat, as in every exact search, chooses in each world knowing it.  A node's value is then a *front*: the
 * vectors of per-world values that the seat's strategies from there can reach, keeping only those no other
 * vector matches or beats in every world.  At the other seat's node the front of each of its moves is combined
 * world by world with the lowest (each world takes its worst move among those legal there; a move is legal only
 * in the worlds where its tile is held); at this seat's node the fronts of its moves are pooled.  After ``fuse``
 * choices of this seat (the root move the first) each world is solved on its own by the alpha-beta above, so
 * fuse = 1 is perfect-information Monte Carlo and every fuse is exact on a single world.
 *
 * The worlds differ only in the other seat's hand (this seat's hand and the table are known): a world's hand at a
 * node is its hand at the root less the tiles the other seat has played since, the same tiles in every world
 * still alive there (what was played is public). */

#define MAXW 64

typedef struct {
    int n, cap;
    double *v;             /* n vectors, each ``worlds`` values (the dead worlds' entries unused) */
} Front;

typedef struct {
    Ctx *c;
    int worlds, me, limit; /* limit: vectors a front keeps at most (the best by their sums beyond it) */
    uint64_t opp[MAXW];    /* each world's hand of the other seat at the root */
    int failed;            /* out of memory */
} Am;

static int front_reserve(Am *a, Front *f, int need) {
    if (need <= f->cap) return 1;
    int cap = f->cap ? f->cap : 4;
    while (cap < need) cap *= 2;
    double *v = PyMem_Realloc(f->v, (size_t)cap * a->worlds * sizeof(double));
    if (!v) { a->failed = 1; return 0; }
    f->v = v; f->cap = cap;
    return 1;
}

static double *front_push(Am *a, Front *f) {
    if (!front_reserve(a, f, f->n + 1)) return NULL;
    return f->v + (size_t)(f->n++) * a->worlds;
}

static void front_free(Front *f) { PyMem_Free(f->v); f->v = NULL; f->n = f->cap = 0; }

/* Sum of a vector over ``mask``'s worlds (entries still infinite, worlds no move has reached yet, left out). */
static double vec_sum(const Am *a, const double *x, uint64_t mask) {
    double s = 0.0;
    (void)a;
    while (mask) { int w = __builtin_ctzll(mask); mask &= mask - 1; if (x[w] != INFINITY) s += x[w]; }
    return s;
}

/* Whether x is at least y in every world of ``mask``. */
static int covers(const double *x, const double *y, uint64_t mask) {
    while (mask) { int w = __builtin_ctzll(mask); mask &= mask - 1; if (x[w] < y[w]) return 0; }
    return 1;
}

/* Keeps the vectors no other one covers (of equal vectors, the first), then at most ``limit`` of them: the best
 * by their sums over ``mask``. */
static void front_prune(Am *a, Front *f, uint64_t mask) {
    int W = a->worlds, kept = 0;
    for (int i = 0; i < f->n; i++) {
        double *x = f->v + (size_t)i * W;
        int dominated = 0;
        for (int j = 0; j < f->n && !dominated; j++) {
            if (j == i) continue;
            double *y = f->v + (size_t)j * W;
            if (covers(y, x, mask) && (!covers(x, y, mask) || j < i)) dominated = 1;
        }
        if (!dominated) { if (kept != i) memmove(f->v + (size_t)kept * W, x, W * sizeof(double)); kept++; }
    }
    f->n = kept;
    while (f->n > a->limit) {  /* drop the worst by its sum */
        int worst = 0;
        double low = vec_sum(a, f->v, mask);
        for (int i = 1; i < f->n; i++) {
            double s = vec_sum(a, f->v + (size_t)i * W, mask);
            if (s < low) { low = s; worst = i; }
        }
        if (worst != f->n - 1) memcpy(f->v + (size_t)worst * W, f->v + (size_t)(f->n - 1) * W, W * sizeof(double));
        f->n--;
    }
}

/* World w's position: the shared one with that world's hand for the other seat. */
static void world_pos(const Am *a, const Pos *shared, uint64_t gone, int w, Pos *out) {
    *out = *shared;
    int other = a->me ^ 1;
    uint64_t h = a->opp[w] & ~gone;
    out->hands[other] = h;
    out->pips[other] = 0;
    while (h) { int t = __builtin_ctzll(h); h &= h - 1; out->pips[other] += a->c->pips[t]; }
}

/* A one-vector front: each world of ``mask`` valued on its own (end -1: solved by the alpha-beta; 0: a domino by
 * ``seat``; 1: a block). */
static int front_single(Am *a, const Pos *shared, uint64_t gone, uint64_t mask, int end, int seat, Front *out) {
    double *x = front_push(a, out);
    if (!x) return 0;
    for (int w = 0; w < a->worlds; w++) x[w] = 0.0;
    while (mask) {
        int w = __builtin_ctzll(mask); mask &= mask - 1;
        Pos q;
        world_pos(a, shared, gone, w, &q);
        x[w] = end < 0 ? search(a->c, &q, -INFINITY, INFINITY) : leaf_value(a->c, &q, end, seat);
        if (a->c->aborted) return 0;
    }
    return 1;
}

static int am_mine(Am *a, const Pos *p, uint64_t gone, uint64_t mask, int fuse, Front *out);

/* The other seat to move, in the worlds of ``mask``. */
static int am_other(Am *a, const Pos *p, uint64_t gone, uint64_t mask, int fuse, Front *out) {
    if (++a->c->nodes > a->c->limit) { a->c->aborted = 1; return 0; }
    if (fuse <= 0) return front_single(a, p, gone, mask, -1, 0, out);
    Ctx *c = a->c;
    int W = a->worlds, seat = p->turn;
    uint64_t legal[2 * MAXTILES], passing = 0;
    int codes[2 * MAXTILES], ncodes = 0;
    memset(legal, 0, sizeof legal);
    for (uint64_t m = mask; m;) {
        int w = __builtin_ctzll(m); m &= m - 1;
        Pos q;
        world_pos(a, p, gone, w, &q);
        int tiles[2 * MAXTILES], arms[2 * MAXTILES];
        int n = plays(c, &q, tiles, arms);
        if (!n) passing |= 1ULL << w;
        for (int i = 0; i < n; i++) {
            int code = 2 * tiles[i] + arms[i];
            if (!legal[code]) codes[ncodes++] = code;
            legal[code] |= 1ULL << w;
        }
    }
    /* the combination so far: one vector, every world not yet reached infinite (the identity of the lowest) */
    Front acc = {0, 0, NULL};
    double *x = front_push(a, &acc);
    if (!x) return 0;
    for (int w = 0; w < W; w++) x[w] = INFINITY;
    uint64_t reached = 0;
    for (int b = 0; b <= ncodes; b++) {
        uint64_t bmask = b < ncodes ? legal[codes[b]] : passing;
        if (!bmask) continue;
        Front child = {0, 0, NULL};
        int ok;
        Pos q = *p;
        uint64_t g = gone;
        if (b < ncodes) {  /* the tile is played: the same count of tiles is left in every world */
            int t = codes[b] / 2;
            g |= 1ULL << t;
            q = placed(c, p, t, codes[b] % 2);  /* the shared hand of this seat is unused: world_pos sets it */
            Pos first;
            world_pos(a, &q, g, __builtin_ctzll(bmask), &first);
            if (!first.hands[seat]) ok = front_single(a, &q, g, bmask, 0, seat, &child);
            else { q.turn = seat ^ 1; ok = am_mine(a, &q, g, bmask, fuse, &child); }
        } else {
            q.passes = q.drawn ? 0 : q.passes + 1;
            q.drawn = 0;
            if (q.passes >= 2) ok = front_single(a, &q, g, bmask, 1, -1, &child);
            else { q.turn = seat ^ 1; ok = am_mine(a, &q, g, bmask, fuse, &child); }
        }
        if (!ok) { front_free(&child); front_free(&acc); return 0; }
        reached |= bmask;
        Front next = {0, 0, NULL};
        for (int i = 0; i < acc.n; i++)
            for (int j = 0; j < child.n; j++) {
                double *y = front_push(a, &next);
                if (!y) { front_free(&child); front_free(&acc); front_free(&next); return 0; }
                const double *u = acc.v + (size_t)i * W, *v = child.v + (size_t)j * W;
                for (int w = 0; w < W; w++) y[w] = ((bmask >> w) & 1) && v[w] < u[w] ? v[w] : u[w];
            }
        front_free(&child);
        front_free(&acc);
        acc = next;
        front_prune(a, &acc, reached);
    }
    *out = acc;
    return 1;
}

/* This seat to move (the same choice in every world of ``mask``); ``fuse``: its choices still to be made alike. */
static int am_mine(Am *a, const Pos *p, uint64_t gone, uint64_t mask, int fuse, Front *out) {
    if (++a->c->nodes > a->c->limit) { a->c->aborted = 1; return 0; }
    Ctx *c = a->c;
    int seat = p->turn;
    int tiles[2 * MAXTILES], arms[2 * MAXTILES];
    int n = plays(c, p, tiles, arms);
    if (!n) {  /* a pass is no choice */
        Pos q = *p;
        q.passes = q.drawn ? 0 : q.passes + 1;
        q.drawn = 0;
        if (q.passes >= 2) return front_single(a, &q, gone, mask, 1, -1, out);
        q.turn = seat ^ 1;
        return am_other(a, &q, gone, mask, fuse, out);
    }
    int left = n == 1 ? fuse : fuse - 1;  /* a forced play is no choice either */
    for (int i = 0; i < n; i++) {
        Pos q = placed(c, p, tiles[i], arms[i]);
        Front child = {0, 0, NULL};
        int ok;
        if (!q.hands[seat]) ok = front_single(a, &q, gone, mask, 0, seat, &child);
        else { q.turn = seat ^ 1; ok = am_other(a, &q, gone, mask, left, &child); }
        if (!ok || !front_reserve(a, out, out->n + child.n)) { front_free(&child); return 0; }
        memcpy(out->v + (size_t)out->n * a->worlds, child.v, (size_t)child.n * a->worlds * sizeof(double));
        out->n += child.n;
        front_free(&child);
    }
    front_prune(a, out, mask);
    return 1;
}

/* The root move (code as solve() takes it) made by ``me``, then the other seat: the best vector's mean. */
static double am_root(Am *a, const Pos *p, int code, int fuse) {
    Ctx *c = a->c;
    int seat = p->turn;
    Pos q = placed(c, p, code < 0 ? -1 - code : code / 2, code < 0 ? -1 : code % 2);
    uint64_t all = a->worlds == 64 ? ~0ULL : (1ULL << a->worlds) - 1;
    Front f = {0, 0, NULL};
    int ok;
    if (!q.hands[seat]) ok = front_single(a, &q, 0, all, 0, seat, &f);
    else { q.turn = seat ^ 1; ok = am_other(a, &q, 0, all, fuse - 1, &f); }
    double best = -INFINITY;
    if (ok)
        for (int i = 0; i < f.n; i++) {
            double s = vec_sum(a, f.v + (size_t)i * a->worlds, all);
            if (s > best) best = s;
        }
    front_free(&f);
    if (!ok && !c->aborted) { c->aborted = 1; a->failed = 1; }
    return best / a->worlds;
}

/* ---------------------------------------------------------------- Python glue */

/* The arguments solve() and solve_worlds() share, from ``owner`` to ``limit`` (see solve()): the context, the
 * position and the leaf table's buffer (released by the caller), the roots (``*nroots`` -1 for None). */
static int prepare(Ctx *c, Pos *p, Py_buffer *view, int *roots, int *nroots, unsigned int owner, int top,
                   PyObject *rank_obj, int side, PyObject *hands_obj, PyObject *ends_obj, int turn, int passes, int drawn,
                   PyObject *roots_obj, PyObject *table_obj, int span, PyObject *leaf, long long limit) {
    if (owner == 0 || top < 0 || top > 9 || turn < 0 || turn > 1 || span < 1 || passes < 0 || passes > 1) {
        PyErr_SetString(PyExc_ValueError, "solve: two players on a set up to double-nine");
        return 0;
    }
    if (!tt && !(tt = PyMem_Calloc(TT_SIZE, sizeof(Entry)))) { PyErr_NoMemory(); return 0; }
    memset(c, 0, sizeof *c);
    c->top = top;
    c->ntiles = (top + 1) * (top + 2) / 2;
    c->side = side;
    c->span = span;
    c->leaf = leaf;
    c->limit = limit;
    c->owner = owner;
    for (int hi = 0, t = 0; hi <= top; hi++)
        for (int lo = 0; lo <= hi; lo++, t++) {
            c->high[t] = hi; c->low[t] = lo; c->pips[t] = hi + lo;
            c->suit[hi] |= 1ULL << t; c->suit[lo] |= 1ULL << t;
        }
    if (int_list(rank_obj, c->rank, MAXTILES, "rank") != c->ntiles) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "rank: one entry per tile");
        return 0;
    }
    for (int t = 0; t < c->ntiles; t++) c->order[t] = t;
    for (int i = 1; i < c->ntiles; i++) {  /* heaviest first; equal pips: higher index first */
        int t = c->order[i], j = i;
        while (j > 0 && (c->pips[c->order[j - 1]] < c->pips[t]
                         || (c->pips[c->order[j - 1]] == c->pips[t] && c->order[j - 1] < t))) { c->order[j] = c->order[j - 1]; j--; }
        c->order[j] = t;
    }
    memset(p, 0, sizeof *p);
    int ends[2];
    if (int_list(ends_obj, ends, 2, "ends") != 2) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "ends: two numbers"); return 0; }
    PyObject *fast = PySequence_Fast(hands_obj, "hands");
    if (!fast) return 0;
    if (PySequence_Fast_GET_SIZE(fast) != 2) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "hands: two bit sets"); return 0; }
    for (int s = 0; s < 2; s++) {
        p->hands[s] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, s));
        if (PyErr_Occurred()) { Py_DECREF(fast); return 0; }
        uint64_t h = p->hands[s];
        if (h >> c->ntiles) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "hands: a tile outside the set"); return 0; }
        while (h) { int t = __builtin_ctzll(h); h &= h - 1; p->pips[s] += c->pips[t]; }
        if (p->pips[s] >= span) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "span: below a hand's pips"); return 0; }
    }
    Py_DECREF(fast);
    p->ends[0] = ends[0]; p->ends[1] = ends[1]; p->turn = turn; p->passes = passes; p->drawn = drawn;
    *nroots = -1;
    if (roots_obj != Py_None) {
        if ((*nroots = int_list(roots_obj, roots, MAXTILES * 2, "roots")) < 0) return 0;
        for (int i = 0; i < *nroots; i++) {
            int t = roots[i] < 0 ? -1 - roots[i] : roots[i] / 2, end = roots[i] < 0 ? -1 : roots[i] % 2;
            if (t >= c->ntiles || !((p->hands[turn] >> t) & 1)
                || (end >= 0 && c->high[t] != p->ends[end] && c->low[t] != p->ends[end])) {
                PyErr_Format(PyExc_ValueError, "roots: %d is no legal move here", roots[i]);
                return 0;
            }
        }
    }
    if (PyObject_GetBuffer(table_obj, view, PyBUF_WRITABLE | PyBUF_FORMAT) < 0) return 0;
    if (!view->format || strcmp(view->format, "d") != 0 || view->len / (Py_ssize_t)sizeof(double) < 4 * (Py_ssize_t)span * span) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "table: a writable buffer of 4 * span * span doubles");
        return 0;
    }
    c->table = (double *)view->buf;
    c->table_len = view->len / (Py_ssize_t)sizeof(double);
    return 1;
}

/* The roots' values as the result tuple (values, nodes); values None when the limit was passed. */
static PyObject *result(const Ctx *c, const double *values, int nroots) {
    if (c->aborted) {
        if (PyErr_Occurred()) return NULL;
        return Py_BuildValue("(OL)", Py_None, c->nodes);
    }
    if (nroots < 0) return Py_BuildValue("(dL)", values[0], c->nodes);
    PyObject *out = PyList_New(nroots);
    if (!out) return NULL;
    for (int i = 0; i < nroots; i++) {
        PyObject *v = PyFloat_FromDouble(values[i]);
        if (!v) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, v);
    }
    return Py_BuildValue("(NL)", out, c->nodes);
}

/* solve(owner, top, rank, side, hands, ends, turn, passes, drawn, roots, table, span, leaf, limit)
 *     -> (values or None, nodes)
 * owner: the caller's token (a positive number, one per leaf table) tagging its transposition-table entries;
 * top: the set's highest pip (up to 9); rank: per tile index its place in the lightness order (C2);
 * side: bit s set where seat s maximises; hands: two bit sets; ends: the two open numbers (ignored when the
 * roots are leads); turn, passes, drawn: as the FastGame holds them; roots: the moves to value, each
 * ``2 * tile + end`` (end 0 or 1), or ``-1 - tile`` for leading the tile, or None for the value of the
 * position itself; table: a writable buffer of doubles (NaN: not yet known) of 4 * span * span entries;
 * leaf: callback(end 0 domino / 1 blocked, seat or lighter seat, pips0, pips1); limit: nodes at most over
 * all roots; deep, own (optional, 0 to 1, default 0): the mixed choices of search_mixed (Ctx.deep, Ctx.own).
 * Values: a list, one per root (a float without roots); None when the limit was passed. */
static PyObject *solve(PyObject *self, PyObject *args) {
    (void)self;
    int top, side, turn, passes, drawn, span;
    unsigned int owner;
    long long limit;
    double deep = 0.0, own = 0.0;
    PyObject *rank_obj, *hands_obj, *ends_obj, *roots_obj, *table_obj, *leaf;
    if (!PyArg_ParseTuple(args, "IiOiOOiiiOOiOL|dd", &owner, &top, &rank_obj, &side, &hands_obj, &ends_obj,
                          &turn, &passes, &drawn, &roots_obj, &table_obj, &span, &leaf, &limit, &deep, &own))
        return NULL;
    if (!(deep >= 0.0 && deep <= 1.0 && own >= 0.0 && own <= 1.0)) {
        PyErr_SetString(PyExc_ValueError, "solve: deep and own are numbers from 0 to 1");
        return NULL;
    }
    Ctx c;
    Pos p;
    Py_buffer view;
    int roots[MAXTILES * 2], nroots;
    if (!prepare(&c, &p, &view, roots, &nroots, owner, top, rank_obj, side, hands_obj, ends_obj, turn, passes, drawn,
                 roots_obj, table_obj, span, leaf, limit))
        return NULL;
    c.deep = deep;
    c.own = own;
    c.mixed = deep > 0.0 || own > 0.0;
    double values[MAXTILES * 2];
    if (nroots < 0) values[0] = c.mixed ? search_mixed(&c, &p) : search(&c, &p, -INFINITY, INFINITY);
    for (int i = 0; i < nroots && !c.aborted; i++) {
        int t = roots[i] < 0 ? -1 - roots[i] : roots[i] / 2, end = roots[i] < 0 ? -1 : roots[i] % 2;
        values[i] = play(&c, &p, t, end, -INFINITY, INFINITY);
    }
    PyBuffer_Release(&view);
    return result(&c, values, nroots);
}

/* solve_worlds(owner, top, rank, side, hands, ends, turn, passes, drawn, roots, table, span, leaf, limit, worlds,
 *              fuse, keep) -> (values or None, nodes)
 * Alpha-mu (above) for the seat to move (``turn``, which must be the only seat of ``side``): the arguments up to
 * ``limit`` as solve()'s, the other seat's entry of ``hands`` unused; worlds: the other seat's hand in each
 * sampled deal (1 to 64 bit sets, as many tiles each); fuse: this seat's choices made alike over the worlds, the
 * root move the first (1: each world solved on its own); keep: the vectors a front keeps at most.  Values: per
 * root its best strategy's mean over the worlds; None when the node limit was passed. */
static PyObject *solve_worlds(PyObject *self, PyObject *args) {
    (void)self;
    int top, side, turn, passes, drawn, span, fuse, keep;
    unsigned int owner;
    long long limit;
    PyObject *rank_obj, *hands_obj, *ends_obj, *roots_obj, *table_obj, *leaf, *worlds_obj;
    if (!PyArg_ParseTuple(args, "IiOiOOiiiOOiOLOii", &owner, &top, &rank_obj, &side, &hands_obj, &ends_obj,
                          &turn, &passes, &drawn, &roots_obj, &table_obj, &span, &leaf, &limit, &worlds_obj,
                          &fuse, &keep))
        return NULL;
    if (fuse < 1 || keep < 1 || roots_obj == Py_None || turn < 0 || turn > 1 || side != 1 << turn) {
        PyErr_SetString(PyExc_ValueError, "solve_worlds: fuse and keep at least 1, roots, the mover alone maximising");
        return NULL;
    }
    Ctx c;
    Pos p;
    Py_buffer view;
    int roots[MAXTILES * 2], nroots;
    if (!prepare(&c, &p, &view, roots, &nroots, owner, top, rank_obj, side, hands_obj, ends_obj, turn, passes, drawn,
                 roots_obj, table_obj, span, leaf, limit))
        return NULL;
    Am a;
    memset(&a, 0, sizeof a);
    a.c = &c;
    a.me = turn;
    a.limit = keep;
    PyObject *fast = PySequence_Fast(worlds_obj, "worlds");
    if (!fast) { PyBuffer_Release(&view); return NULL; }
    a.worlds = (int)PySequence_Fast_GET_SIZE(fast);
    int count = -1, bad = a.worlds < 1 || a.worlds > MAXW;
    for (int w = 0; w < a.worlds && !bad; w++) {
        a.opp[w] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, w));
        if (PyErr_Occurred()) { Py_DECREF(fast); PyBuffer_Release(&view); return NULL; }
        int n = __builtin_popcountll(a.opp[w]);
        bad = (a.opp[w] >> c.ntiles) || (a.opp[w] & p.hands[turn]) || (count >= 0 && n != count) || !n;
        count = n;
    }
    Py_DECREF(fast);
    if (bad) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "worlds: 1 to 64 hands of the set, as many tiles each, none of the mover's");
        return NULL;
    }
    double values[MAXTILES * 2];
    for (int i = 0; i < nroots && !c.aborted; i++) values[i] = am_root(&a, &p, roots[i], fuse);
    PyBuffer_Release(&view);
    if (a.failed && !PyErr_Occurred()) return PyErr_NoMemory();
    return result(&c, values, nroots);
}

static PyMethodDef methods[] = {
    {"solve", solve, METH_VARARGS, "Exact value of a closed two-player line hand (see the module comment)."},
    {"solve_worlds", solve_worlds, METH_VARARGS, "Alpha-mu: one strategy of the mover over sampled deals."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_solve", "Compiled exact solver of closed two-player line hands.",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__solve(void) { return PyModule_Create(&module); }
