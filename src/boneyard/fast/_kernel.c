/* Optional compiled kernel of boneyard.fast: random playouts of a line-game hand.
 *
 * It plays the hand of a FastGame (same representation: tiles as bit indices, arms with a
 * number, the halves they expose and their tip's table index) from a given position to its end
 * as the ``random`` player does, and hands the final position back.  The rules are those of
 * boneyard/fast/engine.py, which is the definition; tests/test_fast.py replays every traced
 * kernel playout on the Python engine action by action.  Sets of up to 64 tiles (double-six,
 * double-nine); boneyard.fast falls back to Python for larger sets or when this is not built.
 *
 * Block, Draw and All Fives score (or not) as below.  Bergen, Flower & Scorpion and Double Bergen
 * score by the rule functions of boneyard.rules, never copied here: the kernel only looks points up
 * in tables that Python fills from those functions (FastGame.kernel_tables), and an entry not filled
 * yet is asked of Python once (a callback) and kept.  See "Scoring by table" below.
 *
 * The random player (boneyard.players.base.RandomPlayer) puts the legal actions in the choice
 * order (FastGame.choice_order: placements by tile, then the tip tile they join, then the number;
 * draw and pass last) and, when there is more than one, takes the one at SplitMix.below(n) of
 * its seat's splitmix64 stream (boneyard.chance.SplitMix).  The kernel does exactly that, with
 * one stream state per seat, so a compiled hand is the same hand as one played in Python.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "_ints.h"

#define MAXP 10
#define MAXARMS 32
#define MAXTILES 64
#define MISS INT32_MIN  /* a table entry not filled yet */
#define ADJ_POINTS 32   /* the adjustment table: points -32..31 ... */
#define ADJ_SCORES 512  /* ... by scores -512..511; anything else is asked of Python every time */

enum { PLAIN, FIVES, BERGEN, FLOWER, DOUBLE };  /* boneyard.fast.engine's modes */

/* a points table: int32 entries (MISS: not known yet) and the Python function that gives an entry */
typedef struct {
    Py_buffer view;
    int32_t *data;
    Py_ssize_t size;
    PyObject *fn;
} Table;

typedef struct {
    int players, arms, spinner_mode, can_draw, reserve, voluntary, scoring, unit, immediate, partners, target, top;
    int ntiles, draw, passing;
    uint64_t suit[16];
    int high[MAXTILES], low[MAXTILES], dbl[MAXTILES];
    uint64_t hands[MAXP];
    int stock[MAXTILES], stock_len, stock_pos;
    int turn, passes, drawn, placed, lead_tile, narms, lead_sides, lead_spinner, lead_double, spinners, count;
    int value[MAXARMS], weight[MAXARMS], owner[MAXARMS], spin[MAXARMS];
    long scores[MAXP];
    int in_hand, end, end_seat;
    uint64_t streams[MAXP];
    int mode, cover_any, cover_double, spinner_covered, spinner_pair, cover;
    uint64_t lead_mask;
    Table play, adjust;  /* the play's points by line ends (and tile) or arm tips; the score's adjustment */
    int error;           /* a table's Python function raised: the playout stops, the error propagates */
} St;

static inline uint64_t next_random(uint64_t *s) {  /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int below(uint64_t *s, int n) {  /* Lemire's nearly divisionless bounded random */
    uint64_t x = next_random(s) >> 32;
    return (int)((x * (uint64_t)n) >> 32);
}

static int legal(const St *g, int *out) {
    int n = 0;
    uint64_t hand = g->hands[g->turn];
    if (!g->placed) {
        if (g->lead_tile >= 0) { out[0] = g->lead_tile * g->arms; return 1; }
        if (g->lead_mask) hand &= g->lead_mask;
        while (hand) { int t = __builtin_ctzll(hand); out[n++] = t * g->arms; hand &= hand - 1; }
        return n;
    }
    int previous = -1, cover = g->placed < g->cover;  /* while the lead is to be covered, only it takes tiles */
    for (int arm = 0; arm < g->narms; arm++) {
        int v = g->value[arm];
        if (v < 0 || (cover && g->owner[arm] != 1)) { previous = -1; continue; }
        if (g->owner[arm] == previous && g->value[arm - 1] == v) continue;
        previous = g->owner[arm];
        uint64_t fits = hand & g->suit[v];
        while (fits) { int t = __builtin_ctzll(fits); out[n++] = t * g->arms + arm; fits &= fits - 1; }
    }
    int can_draw = g->can_draw && g->stock_len - g->stock_pos > g->reserve;
    if (n) { if (g->voluntary && can_draw) out[n++] = g->draw; return n; }
    out[0] = can_draw ? g->draw : g->passing;
    return 1;
}

/* the actions in the random player's choice order (FastGame.choice_order): a placement's key is its
 * tile, then the tip tile and the number it joins, above the action itself; draw and pass last */
static void choice_order(const St *g, int *actions, int n) {
    if (n < 2 || !g->placed) return;  /* leads come by tile index already */
    uint64_t keys[MAXTILES * 2 + 2];
    for (int i = 0; i < n; i++) {
        int a = actions[i];
        uint64_t key;
        if (a < g->draw) {
            int arm = a % g->arms;
            key = ((uint64_t)((a / g->arms) << 16 | g->owner[arm] << 5 | g->value[arm]) << 20) | (uint64_t)a;
        } else {
            key = 1ULL << 60 | (uint64_t)a;
        }
        int j = i;
        for (; j > 0 && keys[j - 1] > key; j--) keys[j] = keys[j - 1];
        keys[j] = key;
    }
    for (int i = 0; i < n; i++) actions[i] = (int)(keys[i] & 0xFFFFF);
}

static void open_ends(St *g, int spinner, int v) {
    int n = g->narms;
    g->value[n] = g->value[n + 1] = v;
    g->weight[n] = g->weight[n + 1] = 0;
    g->owner[n] = g->owner[n + 1] = spinner;
    g->spin[n] = g->spin[n + 1] = 0;
    g->narms = n + 2;
}

static int game_over(const St *g) {
    long best = g->scores[0];
    for (int s = 1; s < g->players; s++) if (g->scores[s] > best) best = g->scores[s];
    if (best < g->target) return 0;
    int leaders = 0, first = -1, second = -1;
    for (int s = 0; s < g->players; s++) if (g->scores[s] == best) { if (first < 0) first = s; else if (second < 0) second = s; leaders++; }
    if (leaders == 1) return 1;
    return g->partners && leaders == 2 && second - first == 2;
}

/* ---------------------------------------------------------------- Scoring by table
 * Bergen and Flower & Scorpion: a play scores by the two line ends after it (number v and exposed
 * halves k of each; F&S also by the tile played, which Bergen's table leaves out of the key), then the score change is adjusted by the scorer's
 * score (Bergen's approach cap, F&S's floor).  Double Bergen: by the multiset of arm tips (arms not
 * on the spinner), plus the spinner's pair while it is not covered.  The keys:
 *   ends:  ((v0 * 3 + k0) * (top + 1) + v1) * 3 + k1, times the number of tiles plus the tile (F&S)
 *   tips:  the tips' codes 3 * v + k in ascending order, padded with 3 * (top + 1), in base 3 * (top + 1) + 1
 *   adjustment: (points + ADJ_POINTS) * 2 * ADJ_SCORES + score + ADJ_SCORES
 * FastGame.kernel_tables decodes them the same way. */
static long ask(St *g, PyObject *fn, int n, const long *a) {  /* fn(*a[:n]), n = 1, 2 or 5 */
    PyObject *r = n == 1 ? PyObject_CallFunction(fn, "l", a[0])
                : n == 2 ? PyObject_CallFunction(fn, "ll", a[0], a[1])
                : PyObject_CallFunction(fn, "lllll", a[0], a[1], a[2], a[3], a[4]);
    if (!r) { g->error = 1; return 0; }
    long v = PyLong_AsLong(r);
    Py_DECREF(r);
    if (v == -1 && PyErr_Occurred()) { g->error = 1; return 0; }
    if (v <= MISS || v > INT32_MAX) { PyErr_SetString(PyExc_OverflowError, "a table entry out of range"); g->error = 1; return 0; }
    return v;
}

/* the entry at ``key``, or (missing) fn(*a[:n]), kept; a key outside the table: fn(*a[:n]) every time */
static long look_up(St *g, Table *t, long key, int n, const long *a) {
    if (key >= 0 && key < t->size) {
        int32_t v = t->data[key];
        if (v != MISS) return v;
        long asked = ask(g, t->fn, n, a);
        if (!g->error) t->data[key] = (int32_t)asked;
        return asked;
    }
    return ask(g, t->fn, n, a);
}

static long family_points(St *g, int seat, int tile) {
    long points;
    if (g->mode == DOUBLE) {
        int base = 3 * (g->top + 1), codes[4] = {base, base, base, base}, n = 0;
        for (int arm = 0; arm < g->narms && n < 4; arm++) {
            if (g->owner[arm] == 1) continue;
            int code = 3 * g->value[arm] + g->weight[arm], j = n++;
            for (; j > 0 && codes[j - 1] > code; j--) codes[j] = codes[j - 1];
            codes[j] = code;
        }
        long key = ((codes[0] * (long)(base + 1) + codes[1]) * (base + 1) + codes[2]) * (base + 1) + codes[3];
        points = look_up(g, &g->play, key, 1, &key);
        return g->placed < g->spinner_covered ? points + g->spinner_pair : points;
    }
    long key = ((g->value[0] * 3 + g->weight[0]) * (g->top + 1) + g->value[1]) * 3 + g->weight[1];
    if (g->mode == FLOWER) key = key * g->ntiles + tile;
    long ends[5] = {tile, g->value[0], g->weight[0], g->value[1], g->weight[1]};
    points = look_up(g, &g->play, key, 5, ends);
    if (g->error || !g->adjust.fn) return points;
    long score = g->scores[seat], slot = (points + ADJ_POINTS) * 2 * ADJ_SCORES + score + ADJ_SCORES;
    if (points < -ADJ_POINTS || points >= ADJ_POINTS || score < -ADJ_SCORES || score >= ADJ_SCORES) slot = -1;
    long both[2] = {points, score};
    return look_up(g, &g->adjust, slot, 2, both);
}

static void apply(St *g, int action) {
    int seat = g->turn;
    if (action >= g->draw) {
        if (action == g->draw) {
            g->hands[seat] |= 1ULL << g->stock[g->stock_pos++];
            g->drawn++;
            g->passes = 0;
            return;
        }
        g->passes = g->drawn == 0 ? g->passes + 1 : 0;
        g->drawn = 0;
        if (g->passes >= g->players) { g->in_hand = 0; g->end = 1; g->end_seat = -1; }
        else g->turn = (seat + 1) % g->players;
        return;
    }
    int tile = action / g->arms, arm = action % g->arms;
    int number = ++g->placed;
    g->hands[seat] &= ~(1ULL << tile);
    int dbl = g->dbl[tile];
    if (number == 1) {
        g->value[0] = g->high[tile];
        g->value[1] = g->low[tile];
        g->weight[0] = g->weight[1] = 1;
        g->owner[0] = g->owner[1] = 1;
        g->spin[0] = g->spin[1] = 0;
        g->lead_spinner = dbl && g->spinner_mode != 0;
        g->spinners += g->lead_spinner;
        g->lead_double = dbl;
        g->cover = g->cover_any ? g->cover_any : (dbl ? g->cover_double : 0);
        g->narms = 2;
        g->lead_sides = 0;
        g->lead_tile = -1;
    } else {
        int v = g->value[arm], new_spin = 0;
        if (dbl) {
            g->weight[arm] = 2;
            if (g->spinner_mode == 2 || (g->spinner_mode == 1 && g->spinners == 0)) { g->spinners++; new_spin = number; }
        } else {
            g->value[arm] = g->high[tile] + g->low[tile] - v;
            g->weight[arm] = 1;
        }
        int old_owner = g->owner[arm];
        g->owner[arm] = number;
        if (old_owner == 1 && arm < 2 && g->lead_double) {
            g->lead_sides++;
            if (g->owner[arm ^ 1] == 1) g->weight[arm ^ 1] = 2;
            else if (g->lead_spinner) open_ends(g, 1, v);
        } else if (g->spin[arm]) {
            open_ends(g, g->spin[arm], v);
        }
        g->spin[arm] = new_spin;
    }
    g->passes = g->drawn = 0;
    long points = 0;
    if (g->mode >= BERGEN) {
        points = family_points(g, seat, tile);
        if (g->error) return;
        g->scores[seat] += points;
    } else if (g->scoring) {
        int total = 0;
        for (int i = 0; i < g->narms; i++) if (g->value[i] >= 0) total += g->value[i] * g->weight[i];
        g->count = total;
        if (total > 0 && total % 5 == 0) { points = total / g->unit; g->scores[seat] += points; }
    }
    if (!g->hands[seat]) { g->in_hand = 0; g->end = 0; g->end_seat = seat; }
    else if (points && g->immediate && game_over(g)) { g->in_hand = 0; g->end = 2; g->end_seat = -1; }
    else g->turn = (seat + 1) % g->players;
}

/* ---------------------------------------------------------------- Python glue */

static int get_table(Table *t, PyObject *array, PyObject *fn, const char *what) {
    if (array == Py_None) return 0;
    if (!PyCallable_Check(fn)) { PyErr_Format(PyExc_TypeError, "tables: %s needs a function", what); return -1; }
    if (PyObject_GetBuffer(array, &t->view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (t->view.itemsize != 4 || !t->view.format || strcmp(t->view.format, "i") != 0) {
        PyBuffer_Release(&t->view);
        PyErr_Format(PyExc_TypeError, "tables: %s must be an array('i')", what);
        return -1;
    }
    t->data = (int32_t *)t->view.buf;
    t->size = t->view.len / 4;
    t->fn = fn;
    return 0;
}

static void release_tables(St *g) {
    if (g->play.fn) PyBuffer_Release(&g->play.view);
    if (g->adjust.fn) PyBuffer_Release(&g->adjust.view);
    g->play.fn = g->adjust.fn = NULL;
}

static PyObject *play_hand(const St *start, int want_trace);

/* rollout(config, state, streams, trace, tables) -> (end, end_seat, turn, placed, stock_pos, hands, scores, moves,
 *                                                   streams, trace)
 * config: (players, arms, spinner_mode, can_draw, reserve, voluntary, scoring, unit, immediate, partners, target, top,
 *          mode, cover_any, cover_double, spinner_covered, spinner_pair)
 * state: (hands, stock, stock_pos, turn, passes, drawn, placed, lead_tile, narms, lead_sides, lead_spinner,
 *         lead_double, spinners, count, value, weight, owner, spin, scores, cover, lead_mask)
 * streams: each seat's splitmix64 state; the result holds them as the hand left them.
 * trace: when true, the last item is a list of (legal action count, action) pairs; otherwise None.
 * tables: None (Block, Draw, All Fives) or (play, play_fn, adjust, adjust_fn): array('i') tables and the
 *         functions that give a missing entry: play_fn(tile, v0, k0, v1, k1) by the line ends (Bergen, F&S),
 *         play_fn(key) by the arm tips (Double Bergen), adjust_fn(points, score); adjust None: no adjustment.  Filled entries stay in the arrays for the next call (see "Scoring by table"). */
/* fills ``g`` from the arguments rollout and greedy share (see rollout); 0, or -1 with an exception set.
 * The tables' buffers are held on success: the caller releases them (release_tables). */
static int load_state(St *g, PyObject *config, PyObject *state, PyObject *tables) {
    memset(g, 0, sizeof *g);
    int cfg[17];
    if (int_list(config, cfg, 17, "config") != 17) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "config needs 17 items"); return -1; }
    g->players = cfg[0]; g->arms = cfg[1]; g->spinner_mode = cfg[2]; g->can_draw = cfg[3]; g->reserve = cfg[4];
    g->voluntary = cfg[5]; g->scoring = cfg[6]; g->unit = cfg[7]; g->immediate = cfg[8]; g->partners = cfg[9];
    g->target = cfg[10]; g->top = cfg[11]; g->mode = cfg[12]; g->cover_any = cfg[13]; g->cover_double = cfg[14];
    g->spinner_covered = cfg[15]; g->spinner_pair = cfg[16];
    if (g->players < 2 || g->players > MAXP || g->top < 0 || g->top > 9 || g->arms < 2 || g->arms > MAXARMS || g->unit < 1) {
        PyErr_SetString(PyExc_ValueError, "the kernel plays 2-10 players on sets up to double-nine");
        return -1;
    }
    if (g->mode < PLAIN || g->mode > DOUBLE || (g->mode == DOUBLE && g->arms != 4) || (g->mode >= BERGEN && g->mode < DOUBLE && g->arms != 2)) {
        PyErr_SetString(PyExc_ValueError, "config: unknown scoring mode, or arms that do not fit it");
        return -1;
    }
    g->ntiles = (g->top + 1) * (g->top + 2) / 2;
    g->draw = g->ntiles * g->arms;
    g->passing = g->draw + 1;
    for (int a = 0, t = 0; a <= g->top; a++)
        for (int b = 0; b <= a; b++, t++) {
            g->high[t] = a; g->low[t] = b; g->dbl[t] = a == b;
            g->suit[a] |= 1ULL << t; g->suit[b] |= 1ULL << t;
        }
    if (PyTuple_GET_SIZE(state) != 21) { PyErr_SetString(PyExc_ValueError, "state needs 21 items"); return -1; }
    PyObject *hands = PyTuple_GET_ITEM(state, 0);
    if (!PyList_Check(hands) || PyList_GET_SIZE(hands) != g->players) { PyErr_SetString(PyExc_ValueError, "hands: one int per seat"); return -1; }
    for (int s = 0; s < g->players; s++) {
        g->hands[s] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(hands, s));
        if (PyErr_Occurred()) return -1;
    }
    if ((g->stock_len = int_list(PyTuple_GET_ITEM(state, 1), g->stock, MAXTILES, "stock")) < 0) return -1;
    int scalars[12];
    for (int i = 0; i < 12; i++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(state, 2 + i));
        if (x == -1 && PyErr_Occurred()) return -1;
        scalars[i] = (int)x;
    }
    g->stock_pos = scalars[0]; g->turn = scalars[1]; g->passes = scalars[2]; g->drawn = scalars[3]; g->placed = scalars[4];
    g->lead_tile = scalars[5]; g->narms = scalars[6]; g->lead_sides = scalars[7]; g->lead_spinner = scalars[8];
    g->lead_double = scalars[9]; g->spinners = scalars[10]; g->count = scalars[11];
    if (g->narms > g->arms || g->narms < 0 || g->stock_pos > g->stock_len || g->stock_pos < 0 || g->turn < 0
        || g->turn >= g->players) {
        PyErr_SetString(PyExc_ValueError, "inconsistent state");
        return -1;
    }
    for (int i = g->stock_pos; i < g->stock_len; i++)  /* (the tiles drawn already are never read) */
        if (g->stock[i] < 0 || g->stock[i] >= g->ntiles) { PyErr_SetString(PyExc_ValueError, "stock: tile out of range"); return -1; }
    if (int_list(PyTuple_GET_ITEM(state, 14), g->value, MAXARMS, "value") < 0) return -1;
    if (int_list(PyTuple_GET_ITEM(state, 15), g->weight, MAXARMS, "weight") < 0) return -1;
    if (int_list(PyTuple_GET_ITEM(state, 16), g->owner, MAXARMS, "owner") < 0) return -1;
    if (int_list(PyTuple_GET_ITEM(state, 17), g->spin, MAXARMS, "spin") < 0) return -1;
    int sc[MAXP];
    if (int_list(PyTuple_GET_ITEM(state, 18), sc, MAXP, "scores") != g->players) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "scores: one per seat"); return -1; }
    for (int s = 0; s < g->players; s++) g->scores[s] = sc[s];
    long cover = PyLong_AsLong(PyTuple_GET_ITEM(state, 19));
    if (cover == -1 && PyErr_Occurred()) return -1;
    g->cover = (int)cover;
    g->lead_mask = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(state, 20));
    if (PyErr_Occurred()) return -1;
    if (g->mode >= BERGEN) {
        if (!PyTuple_Check(tables) || PyTuple_GET_SIZE(tables) != 4 || PyTuple_GET_ITEM(tables, 0) == Py_None) {
            PyErr_SetString(PyExc_ValueError, "tables: (play, play_fn, adjust, adjust_fn) for this scoring mode");
            return -1;
        }
        if (get_table(&g->play, PyTuple_GET_ITEM(tables, 0), PyTuple_GET_ITEM(tables, 1), "play") < 0) return -1;
        if (get_table(&g->adjust, PyTuple_GET_ITEM(tables, 2), PyTuple_GET_ITEM(tables, 3), "adjust") < 0) {
            release_tables(g);
            return -1;
        }
    }
    return 0;
}

static PyObject *rollout(PyObject *self, PyObject *args) {
    PyObject *config, *state, *streams, *tables;
    int want_trace;
    if (!PyArg_ParseTuple(args, "O!O!O!pO", &PyTuple_Type, &config, &PyTuple_Type, &state, &PyList_Type, &streams,
                          &want_trace, &tables)) return NULL;
    St g;
    if (load_state(&g, config, state, tables) < 0) return NULL;
    if (PyList_GET_SIZE(streams) != g.players) {
        release_tables(&g);
        PyErr_SetString(PyExc_ValueError, "streams: one per seat");
        return NULL;
    }
    for (int s = 0; s < g.players; s++) {
        g.streams[s] = PyLong_AsUnsignedLongLongMask(PyList_GET_ITEM(streams, s));
        if (PyErr_Occurred()) { release_tables(&g); return NULL; }
    }
    PyObject *result = play_hand(&g, want_trace);
    release_tables(&g);
    return result;
}

/* plays the hand from ``start`` (a copy: the tables' buffers stay with the caller, who releases them) */
static PyObject *play_hand(const St *start, int want_trace) {
    St g = *start;
    g.in_hand = 1;
    PyObject *trace = NULL;
    if (want_trace && !(trace = PyList_New(0))) return NULL;
    int actions[MAXTILES * 2 + 2];
    long moves = 0;
    while (g.in_hand && !g.error) {
        int n = legal(&g, actions);
        int action = actions[0];
        if (n > 1) { choice_order(&g, actions, n); action = actions[below(&g.streams[g.turn], n)]; }
        if (trace) {
            PyObject *pair = Py_BuildValue("(ii)", n, action);
            if (!pair || PyList_Append(trace, pair) < 0) { Py_XDECREF(pair); Py_DECREF(trace); return NULL; }
            Py_DECREF(pair);
        }
        apply(&g, action);
        moves++;
    }
    if (g.error) { Py_XDECREF(trace); return NULL; }
    PyObject *out_hands = PyList_New(g.players), *out_scores = PyList_New(g.players);
    PyObject *out_streams = PyList_New(g.players);
    if (!out_hands || !out_scores || !out_streams) {
        Py_XDECREF(out_hands); Py_XDECREF(out_scores); Py_XDECREF(out_streams); Py_XDECREF(trace); return NULL;
    }
    for (int s = 0; s < g.players; s++) {
        PyList_SET_ITEM(out_hands, s, PyLong_FromUnsignedLongLong(g.hands[s]));
        PyList_SET_ITEM(out_scores, s, PyLong_FromLong(g.scores[s]));
        PyList_SET_ITEM(out_streams, s, PyLong_FromUnsignedLongLong(g.streams[s]));
    }
    PyObject *end_seat = g.end_seat < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(g.end_seat);
    return Py_BuildValue("(iNiiiNNlNN)", g.end, end_seat, g.turn, g.placed, g.stock_pos, out_hands, out_scores,
                         moves, out_streams, trace ? trace : Py_NewRef(Py_None));
}

/* ---------------------------------------------------------------- Greedy playouts
 * The expert's playout policy (boneyard.players.expert.fastsearch.FastRoot._playout, which is its definition
 * and the fallback): the placement that scores most now (``scoring``: where plays score; for a seat in ``defend``,
 * less the most the next seat could score with its reply, or where plays do not score, a placement that leaves
 * the next seat no placement first), then the highest
 * ranks[tile] (Python's: a double first where asked, then the tile's weight), ties at random from one
 * splitmix64 stream; a draw or a pass only where no placement is legal.  A play's points are what apply()
 * gives it on a copy of the position, so the rules stay those above.  Every playout after the first plays
 * on a new random order of the undrawn stock (the stock's order is hidden from the searching seat). */
#define GREEDY_POINT 4096L                /* a key's unit of points (a rank stays below it) */
#define GREEDY_DRAW (-(1L << 40))         /* a draw or pass: after every placement */

/* the points ``a`` scores now for the seat on turn (on a copy of the position); with ``defend``, less the most
 * the next seat can score with one placement right after it (where the hand goes on and the turn passes) --
 * where plays do not score (``scoring`` 0), less 1 if the next seat can place a tile at all */
static long greedy_points(const St *g, int a, int scoring, int defend, St *probe, St *reply) {
    *probe = *g;
    apply(probe, a);
    long points = probe->scores[g->turn] - g->scores[g->turn];
    if (!defend || probe->error || !probe->in_hand || probe->turn == g->turn) return probe->error ? 0 : points;
    int answers[MAXTILES * 2 + 2];
    int n = legal(probe, answers), next = probe->turn;
    long most = 0;
    if (!scoring) return n && answers[0] < probe->draw ? -1 : 0;
    for (int i = 0; i < n && answers[i] < probe->draw; i++) {
        *reply = *probe;
        apply(reply, answers[i]);
        if (reply->error) { probe->error = 1; return 0; }
        long got = reply->scores[next] - probe->scores[next];
        if (got > most) most = got;
    }
    return points - most;
}

/* greedy(config, state, tables, ranks, scoring, seed, count, trace, defend) -> [(end, end_seat, hands, scores, trace)]
 * config, state, tables: as rollout's.  ranks: one int per tile of the set.  count: playouts from the same
 * position (1-64).  defend: a bit per seat whose points count less the next seat's best reply (see greedy_points).  Each result: how the hand ended (0 domino, 1 blocked, 2 the game reached its target
 * during the hand), by whom (or None), every hand and score at the end, and (trace) the actions taken with the
 * stock in the order that playout drew from, else None. */
static PyObject *greedy(PyObject *self, PyObject *args) {
    PyObject *config, *state, *tables, *ranks_obj;
    int scoring, count, want_trace;
    unsigned long long seed, defend;
    if (!PyArg_ParseTuple(args, "O!O!OOpKipK", &PyTuple_Type, &config, &PyTuple_Type, &state, &tables, &ranks_obj,
                          &scoring, &seed, &count, &want_trace, &defend)) return NULL;
    if (count < 1 || count > 64) { PyErr_SetString(PyExc_ValueError, "count: 1 to 64 playouts"); return NULL; }
    St start;
    if (load_state(&start, config, state, tables) < 0) return NULL;
    int ranks[MAXTILES];
    int nranks = int_list(ranks_obj, ranks, MAXTILES, "ranks");
    if (nranks != start.ntiles) {
        release_tables(&start);
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "ranks: %d items for a set of %d tiles", nranks, start.ntiles);
        return NULL;
    }
    uint64_t rng = seed;
    PyObject *out = PyList_New(count);
    if (!out) { release_tables(&start); return NULL; }
    int actions[MAXTILES * 2 + 2], best[MAXTILES * 2 + 2];
    St g, probe, reply;
    for (int k = 0; k < count; k++) {
        for (int i = start.stock_len - 1; k && i > start.stock_pos; i--) {
            int j = start.stock_pos + below(&rng, i - start.stock_pos + 1);
            int x = start.stock[i]; start.stock[i] = start.stock[j]; start.stock[j] = x;
        }
        g = start;
        g.in_hand = 1;
        PyObject *trace = NULL;
        if (want_trace && !(trace = PyList_New(0))) goto fail;
        while (g.in_hand && !g.error) {
            int n = legal(&g, actions), action = actions[0];
            if (n > 1) {
                long top = GREEDY_DRAW - 1;
                int ties = 0;
                for (int i = 0; i < n && !g.error; i++) {
                    int a = actions[i];
                    long key = GREEDY_DRAW;
                    if (a < g.draw) {
                        key = ranks[a / g.arms];
                        int defends = (int)(defend >> g.turn & 1);
                        if (scoring || defends) {
                            key += greedy_points(&g, a, scoring, defends, &probe, &reply) * GREEDY_POINT;
                            g.error = probe.error;
                        }
                    }
                    if (key > top) { top = key; ties = 0; }
                    if (key == top) best[ties++] = a;
                }
                if (g.error) break;
                action = ties > 1 ? best[below(&rng, ties)] : best[0];
            }
            if (trace) {
                PyObject *item = PyLong_FromLong(action);
                if (!item || PyList_Append(trace, item) < 0) { Py_XDECREF(item); Py_DECREF(trace); goto fail; }
                Py_DECREF(item);
            }
            apply(&g, action);
        }
        if (g.error) { Py_XDECREF(trace); goto fail; }
        PyObject *hands = PyList_New(g.players), *scores = PyList_New(g.players);
        if (!hands || !scores) { Py_XDECREF(hands); Py_XDECREF(scores); Py_XDECREF(trace); goto fail; }
        for (int s = 0; s < g.players; s++) {
            PyList_SET_ITEM(hands, s, PyLong_FromUnsignedLongLong(g.hands[s]));
            PyList_SET_ITEM(scores, s, PyLong_FromLong(g.scores[s]));
        }
        if (trace) {  /* the actions, and the stock in the order this playout drew from */
            PyObject *stock = PyList_New(g.stock_len);
            if (!stock) { Py_DECREF(hands); Py_DECREF(scores); Py_DECREF(trace); goto fail; }
            for (int i = 0; i < g.stock_len; i++) PyList_SET_ITEM(stock, i, PyLong_FromLong(g.stock[i]));
            PyObject *pair = Py_BuildValue("(NN)", trace, stock);
            if (!pair) { Py_DECREF(hands); Py_DECREF(scores); goto fail; }
            trace = pair;
        }
        PyObject *end_seat = g.end_seat < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(g.end_seat);
        PyObject *one = Py_BuildValue("(iNNNN)", g.end, end_seat, hands, scores, trace ? trace : Py_NewRef(Py_None));
        if (!one) goto fail;
        PyList_SET_ITEM(out, k, one);
    }
    release_tables(&start);
    return out;
fail:
    release_tables(&start);
    Py_DECREF(out);
    return NULL;
}

/* deal(pool, sizes, banned, seed) -> (masks, rest) or None
 * Shuffle the tiles of ``pool`` and deal sizes[i] of them to hand i, never a tile whose bit is set
 * in banned[i] (the most constrained hands choose first); the rest, in shuffled order, is the
 * stock.  None when 20 shuffles found no consistent deal. */
static PyObject *deal(PyObject *self, PyObject *args) {
    PyObject *pool_obj, *sizes_obj, *banned_obj;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOOK", &pool_obj, &sizes_obj, &banned_obj, &seed)) return NULL;
    int pool[MAXTILES], sizes[MAXP];
    uint64_t banned[MAXP];
    int n = int_list(pool_obj, pool, MAXTILES, "pool");
    if (n < 0) return NULL;
    int seats = int_list(sizes_obj, sizes, MAXP, "sizes");
    if (seats < 0) return NULL;
    PyObject *fast = PySequence_Fast(banned_obj, "banned");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != seats) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "banned: one mask per hand"); return NULL; }
    int order[MAXP], total = 0;
    for (int i = 0; i < seats; i++) {
        banned[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
        order[i] = i;
        total += sizes[i];
    }
    Py_DECREF(fast);
    for (int i = 0; i < n; i++) if (pool[i] < 0 || pool[i] >= MAXTILES) { PyErr_SetString(PyExc_ValueError, "pool: tile out of range"); return NULL; }
    if (total > n) { PyErr_SetString(PyExc_ValueError, "the hands need more tiles than the pool has"); return NULL; }
    for (int i = 1; i < seats; i++)  /* most constrained first */
        for (int j = i; j > 0 && __builtin_popcountll(banned[order[j]]) > __builtin_popcountll(banned[order[j - 1]]); j--) {
            int x = order[j]; order[j] = order[j - 1]; order[j - 1] = x;
        }
    uint64_t rng = seed;
    uint64_t masks[MAXP];
    int rest[MAXTILES], nrest = 0;
    for (int attempt = 0; attempt < 20; attempt++) {
        for (int i = n - 1; i > 0; i--) { int j = below(&rng, i + 1); int x = pool[i]; pool[i] = pool[j]; pool[j] = x; }
        int used[MAXTILES] = {0}, ok = 1;
        for (int k = 0; k < seats && ok; k++) {
            int h = order[k], need = sizes[h];
            masks[h] = 0;
            for (int i = 0; i < n && need; i++)
                if (!used[i] && !(banned[h] >> pool[i] & 1)) { used[i] = 1; masks[h] |= 1ULL << pool[i]; need--; }
            ok = need == 0;
        }
        if (!ok) continue;
        for (int i = 0; i < n; i++) if (!used[i]) rest[nrest++] = pool[i];
        PyObject *out_masks = PyList_New(seats), *out_rest = PyList_New(nrest);
        if (!out_masks || !out_rest) { Py_XDECREF(out_masks); Py_XDECREF(out_rest); return NULL; }
        for (int h = 0; h < seats; h++) PyList_SET_ITEM(out_masks, h, PyLong_FromUnsignedLongLong(masks[h]));
        for (int i = 0; i < nrest; i++) PyList_SET_ITEM(out_rest, i, PyLong_FromLong(rest[i]));
        return Py_BuildValue("(NN)", out_masks, out_rest);
    }
    Py_RETURN_NONE;
}

/* shuffle(items, top, words) -> the next top
 * Random.shuffle's swaps for positions top, top - 1, ... from 32-bit outputs of the Mersenne Twister
 * (``words``: bytes, four per output, little-endian, the first output first): position i swaps with
 * the top k bits of the next output (k the bit length of i + 1), an output not below i + 1 being
 * dropped for the next, exactly as Random._randbelow(i + 1) draws getrandbits(k).  Returns the
 * position still to swap when the outputs ran out (0: done).  boneyard.chance.shuffle drives it. */
static PyObject *shuffle(PyObject *self, PyObject *args) {
    PyObject *items;
    Py_ssize_t top;
    const unsigned char *words;
    Py_ssize_t nbytes;
    if (!PyArg_ParseTuple(args, "O!ny#", &PyList_Type, &items, &top, &words, &nbytes)) return NULL;
    if (top >= PyList_GET_SIZE(items) || top < 0) { PyErr_SetString(PyExc_ValueError, "top: not a position of items"); return NULL; }
    PyObject **item = PySequence_Fast_ITEMS(items);
    Py_ssize_t i = top, used = 0, count = nbytes / 4;
    while (i > 0 && used < count) {
        const unsigned char *w = words + 4 * used++;
        uint32_t r = (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
        int k = 64 - __builtin_clzll((unsigned long long)(i + 1));
        Py_ssize_t j = (Py_ssize_t)(r >> (32 - k));
        if (j > i) continue;
        PyObject *x = item[i]; item[i] = item[j]; item[j] = x;
        i--;
    }
    return PyLong_FromSsize_t(i);
}

/* ---------------------------------------------------------------- PIP
 * A round of boneyard.fast.pip.FastPip played to its end as the random player does.  The same
 * representation: a tile is its index (below 128, so a hand is two 64-bit words), the table is what
 * each placed tile k shows (shown[k]) and how many of its faces are free (free[k]), open[] the table
 * tiles with a free face, and the owed doubles a stack of (k, plays owed).  An action is
 * (2 * tile + which) * targets + k, then draw, passing and give_base + tile.
 *
 * Only the move mechanics are here (which tiles fit an end, what a placed tile shows, drawing, passing,
 * giving, the round ending when a hand is empty or every player passed in turn).  The rules' decisions
 * come from tables Python fills from the rule functions of boneyard.rules.pip (FastPip.pip_kernel_config):
 * the owed doubles after a play (settle_doubles) and what a directional tile does (directional_effect).
 * Hand values, the round winner and the end of the game are Python's, after the kernel returns.
 *
 * The random player's choice order for PIP is boneyard.fast.pip.listing_key's: by tile, then the table
 * tile joined, then the half (the second half of Tile.halves first); gives by tile.  The legal actions
 * are generated in that order. */
#define PIP_WORDS 2
#define PIP_SPAN 128
#define PIP_TARGETS 72
#define PIP_STOCK 72
#define PIP_ACTIONS (2 * 71 * 71 + 2)
#define PIP_SETTLE 64        /* settle table: (top owed 0-15, joins the top, owes) */
#define PIP_EFFECT (4 * MAXP * 2 * PIP_STOCK)
enum { PIP_DOMINO, PIP_BLOCKED };  /* boneyard.fast.engine's _ENDS */

typedef struct {
    int players, letters_open, forbid_nested, skip_after_forced, hub_faces, toe_plays, targets;
    int draw, passing, give_base, span, wild, max_pips, letters[4];
    int high[PIP_SPAN], low[PIP_SPAN], letter[PIP_SPAN];
    int settle[PIP_SETTLE], effect[PIP_EFFECT], effect_stock;
    uint64_t hands[MAXP][PIP_WORDS];
    int stock[PIP_STOCK], stock_len, stock_pos;
    int turn, direction, passes, drawn, placed, forced_draw, give_pending, hand_number, lead_tile;
    int shown[PIP_TARGETS], free[PIP_TARGETS];
    uint64_t open[PIP_WORDS];
    int pending_k[PIP_TARGETS], pending_owed[PIP_TARGETS], npending;
    int in_hand, end, end_seat;
    uint64_t streams[MAXP];
} Pip;

static inline int pip_has(const uint64_t *set, int i) { return (int)(set[i >> 6] >> (i & 63) & 1); }
static inline void pip_flip(uint64_t *set, int i) { set[i >> 6] ^= 1ULL << (i & 63); }
static inline int pip_empty(const uint64_t *set) { return !(set[0] | set[1]); }
static inline int pip_next(const Pip *g, int seat, int steps) {
    return ((seat + steps * g->direction) % g->players + g->players) % g->players;
}
static inline int pip_is_letter(const Pip *g, int half) {
    return half == g->letters[0] || half == g->letters[1] || half == g->letters[2] || half == g->letters[3];
}

/* the legal actions in the random player's choice order (FastPip.legal_actions, then listing_key) */
static int pip_legal(const Pip *g, int *out) {
    const uint64_t *hand = g->hands[g->turn];
    int n = 0;
    if (g->give_pending) {
        for (int t = 0; t < g->span; t++) if (pip_has(hand, t)) out[n++] = g->give_base + t;
        return n;
    }
    if (g->forced_draw) { out[0] = g->draw; return 1; }
    if (!g->placed) {
        if (g->lead_tile >= 0 && pip_has(hand, g->lead_tile)) out[n++] = (g->lead_tile << 1) * g->targets;
        return n;
    }
    int only = g->npending ? g->pending_k[g->npending - 1] : -1;
    for (int t = 0; t < g->span; t++) {
        if (!pip_has(hand, t) || (only >= 0 && g->forbid_nested && g->high[t] == g->low[t])) continue;
        int high = g->high[t], low = g->low[t];
        for (int k = only >= 0 ? only : 0; k < (only >= 0 ? only + 1 : g->targets); k++) {
            if (only < 0 && !pip_has(g->open, k)) continue;
            int v = g->shown[k], number = v <= g->max_pips;
            int base = (t << 1) * g->targets + k;
            if (high != low && (!number || low == v || low == g->wild)) out[n++] = base + g->targets;
            if (!pip_is_letter(g, high) && (!number || high == v || high == g->wild)) out[n++] = base;
        }
    }
    if (n) return n;
    out[0] = g->drawn == 0 && g->stock_pos < g->stock_len ? g->draw : g->passing;
    return 1;
}

static void pip_end(Pip *g, int end, int seat) { g->in_hand = 0; g->end = end; g->end_seat = seat; }

/* FastPip.apply's mechanics; the owed doubles and the directional effects by the tables */
static void pip_apply(Pip *g, int action) {
    int seat = g->turn;
    uint64_t *hand = g->hands[seat];
    if (action >= g->give_base) {
        int tile = action - g->give_base, receiver = pip_next(g, seat, 1);
        pip_flip(hand, tile);
        g->hands[receiver][tile >> 6] |= 1ULL << (tile & 63);
        g->give_pending = 0;
        g->passes = g->drawn = 0;
        g->turn = g->skip_after_forced ? pip_next(g, receiver, 1) : receiver;
        if (pip_empty(hand)) pip_end(g, PIP_DOMINO, seat);
        return;
    }
    if (action == g->draw) {
        int tile = g->stock[g->stock_pos++];
        hand[tile >> 6] |= 1ULL << (tile & 63);
        if (g->forced_draw) {
            g->forced_draw = 0;
            if (g->skip_after_forced) g->turn = pip_next(g, seat, 1);
        } else {
            g->drawn++;
        }
        g->passes = 0;
        return;
    }
    if (action == g->passing) {
        g->passes = g->drawn == 0 ? g->passes + 1 : 0;
        g->drawn = 0;
        if (g->passes >= g->players) pip_end(g, PIP_BLOCKED, -1);
        else g->turn = pip_next(g, seat, 1);
        return;
    }
    int pair = action / g->targets, k = action % g->targets, tile = pair >> 1, which = pair & 1;
    pip_flip(hand, tile);
    int placed = ++g->placed, high = g->high[tile], low = g->low[tile];
    if (placed == 1) {
        g->shown[1] = g->hand_number;
        g->free[1] = g->hub_faces;
        g->open[0] = g->open[1] = 0;
        pip_flip(g->open, 1);
    } else {
        if (!--g->free[k]) pip_flip(g->open, k);
        if (high == low) {
            int parent = g->shown[k];
            g->shown[placed] = high == g->wild && parent <= g->max_pips ? parent : high;
            g->free[placed] = g->toe_plays;
        } else {
            g->shown[placed] = which == 0 ? low : high;
            g->free[placed] = 1;
        }
        if (!pip_is_letter(g, g->shown[placed]) || g->letters_open) g->open[placed >> 6] |= 1ULL << (placed & 63);
    }
    g->passes = g->drawn = 0;
    if (pip_empty(hand)) { pip_end(g, PIP_DOMINO, seat); return; }
    if (placed > 1) {  /* settle_doubles, by its table */
        int top = g->npending ? g->npending - 1 : -1;
        int owed = top >= 0 ? g->pending_owed[top] : 0, on_top = top >= 0 && g->pending_k[top] == k;
        int out = g->settle[(owed * 2 + on_top) * 2 + (high == low)];
        if (top >= 0) {  /* the top entry: kept, with the plays it is still owed, or gone */
            if (out >> 4) g->pending_owed[top] = out >> 4;
            else g->npending--;
        }
        if (out & 15) { g->pending_k[g->npending] = placed; g->pending_owed[g->npending++] = out & 15; }
    }
    int letter = g->letter[tile];
    if (letter < 0) { g->turn = pip_next(g, seat, 1); return; }
    int left = g->stock_len - g->stock_pos;
    int effect = g->effect[((letter * g->players + seat) * 2 + (g->direction < 0)) * g->effect_stock + left];
    g->turn = effect >> 4;
    g->direction = (effect >> 2 & 3) - 1;
    g->forced_draw = effect >> 1 & 1;
    g->give_pending = effect & 1;
}

static PyObject *pip_ints(const int *values, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(values[i]));
    return list;
}

/* pip_rollout(config, state, streams, trace[, ranks]) -> (end, end_seat, scalars, hands, shown, free, open, pending,
 *                                                         moves, streams, trace)
 * ranks (one int per tile of the span): play as the expert's greedy playouts do instead (FastRoot._playout:
 * the tile with the highest rank placed or given, a draw or pass only when nothing else is legal, ties by the
 * seat's stream); None or left out: as the random player.
 * config (FastPip.pip_kernel_config): players, letters_open, forbid_nested, draw_tile_skips, hub faces, toe
 *   plays, targets, draw, passing, give_base, span, W, MAX_PIPS, stock span of the effect table, then the
 *   lists letters (S, R, A, D), high, low and letter index of each tile, the settle and effect tables;
 * state (FastPip.kernel_state): hands (two words per seat, low first), stock, then stock_pos, turn,
 *   direction, passes, drawn, placed, forced_draw, give_pending, hand_number, lead tile (-1: none), then
 *   shown, free, open (two words) and the owed doubles flat (k, owed, ...).  The scalars come back in
 *   the same order from turn on. */
static PyObject *pip_rollout(PyObject *self, PyObject *args) {
    PyObject *config, *state, *streams, *ranks_obj = Py_None;
    int want_trace;
    if (!PyArg_ParseTuple(args, "O!O!O!p|O", &PyTuple_Type, &config, &PyTuple_Type, &state, &PyList_Type, &streams,
                          &want_trace, &ranks_obj)) return NULL;
    int ranks[PIP_SPAN], greedy_play = ranks_obj != Py_None;
    Pip *g = PyMem_Calloc(1, sizeof(Pip));
    int *actions = PyMem_Malloc(sizeof(int) * PIP_ACTIONS);
    PyObject *trace = NULL, *result = NULL;
    if (!g || !actions) { PyErr_NoMemory(); goto done; }
    if (PyTuple_GET_SIZE(config) != 20 || PyTuple_GET_SIZE(state) != 17) {
        PyErr_SetString(PyExc_ValueError, "config needs 20 items and state 17");
        goto done;
    }
    int c[14];
    for (int i = 0; i < 14; i++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(config, i));
        if (x == -1 && PyErr_Occurred()) goto done;
        c[i] = (int)x;
    }
    g->players = c[0]; g->letters_open = c[1]; g->forbid_nested = c[2]; g->skip_after_forced = c[3];
    g->hub_faces = c[4]; g->toe_plays = c[5]; g->targets = c[6]; g->draw = c[7]; g->passing = c[8];
    g->give_base = c[9]; g->span = c[10]; g->wild = c[11]; g->max_pips = c[12]; g->effect_stock = c[13];
    if (g->players < 2 || g->players > MAXP || g->targets < 2 || g->targets > PIP_TARGETS || g->span < 1
        || g->span > PIP_SPAN || g->effect_stock < 1 || g->effect_stock > PIP_STOCK) {
        PyErr_SetString(PyExc_ValueError, "config: players, targets, span or stock out of the kernel's range");
        goto done;
    }
    if (int_list(PyTuple_GET_ITEM(config, 14), g->letters, 4, "letters") != 4
        || int_list(PyTuple_GET_ITEM(config, 15), g->high, PIP_SPAN, "high") != g->span
        || int_list(PyTuple_GET_ITEM(config, 16), g->low, PIP_SPAN, "low") != g->span
        || int_list(PyTuple_GET_ITEM(config, 17), g->letter, PIP_SPAN, "letter") != g->span
        || int_list(PyTuple_GET_ITEM(config, 18), g->settle, PIP_SETTLE, "settle") != PIP_SETTLE
        || int_list(PyTuple_GET_ITEM(config, 19), g->effect, PIP_EFFECT, "effect")
           != 4 * g->players * 2 * g->effect_stock) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "config: a list of the wrong length");
        goto done;
    }
    PyObject *hands = PyTuple_GET_ITEM(state, 0);
    if (!PyList_Check(hands) || PyList_GET_SIZE(hands) != 2 * g->players) {
        PyErr_SetString(PyExc_ValueError, "hands: two words per seat");
        goto done;
    }
    for (int s = 0; s < g->players; s++)
        for (int w = 0; w < PIP_WORDS; w++) {
            g->hands[s][w] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(hands, 2 * s + w));
            if (PyErr_Occurred()) goto done;
        }
    if ((g->stock_len = int_list(PyTuple_GET_ITEM(state, 1), g->stock, PIP_STOCK, "stock")) < 0) goto done;
    int sc[10];
    for (int i = 0; i < 10; i++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(state, 2 + i));
        if (x == -1 && PyErr_Occurred()) goto done;
        sc[i] = (int)x;
    }
    g->stock_pos = sc[0]; g->turn = sc[1]; g->direction = sc[2]; g->passes = sc[3]; g->drawn = sc[4];
    g->placed = sc[5]; g->forced_draw = sc[6]; g->give_pending = sc[7]; g->hand_number = sc[8]; g->lead_tile = sc[9];
    if (int_list(PyTuple_GET_ITEM(state, 12), g->shown, PIP_TARGETS, "shown") != g->targets
        || int_list(PyTuple_GET_ITEM(state, 13), g->free, PIP_TARGETS, "free") != g->targets) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "shown, free: one per target");
        goto done;
    }
    for (int w = 0; w < PIP_WORDS; w++) {
        g->open[w] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(state, 14 + w));
        if (PyErr_Occurred()) goto done;
    }
    int flat[2 * PIP_TARGETS];
    int nflat = int_list(PyTuple_GET_ITEM(state, 16), flat, 2 * PIP_TARGETS, "pending");
    if (nflat < 0) goto done;
    g->npending = nflat / 2;
    for (int i = 0; i < g->npending; i++) { g->pending_k[i] = flat[2 * i]; g->pending_owed[i] = flat[2 * i + 1]; }
    if (g->stock_pos < 0 || g->stock_pos > g->stock_len || g->turn < 0 || g->turn >= g->players
        || (g->direction != 1 && g->direction != -1) || g->placed < 0 || g->placed >= g->targets
        || g->lead_tile >= g->span) {
        PyErr_SetString(PyExc_ValueError, "inconsistent state");
        goto done;
    }
    for (int i = 0; i < g->npending; i++)
        if (g->pending_owed[i] < 1 || g->pending_owed[i] > 15) { PyErr_SetString(PyExc_ValueError, "pending: owed plays 1-15"); goto done; }
    for (int t = g->stock_pos; t < g->stock_len; t++)  /* (the tiles drawn already are never read) */
        if (g->stock[t] < 0 || g->stock[t] >= g->span) { PyErr_SetString(PyExc_ValueError, "stock: tile out of range"); goto done; }
    if (PyList_GET_SIZE(streams) != g->players) { PyErr_SetString(PyExc_ValueError, "streams: one per seat"); goto done; }
    for (int s = 0; s < g->players; s++) {
        g->streams[s] = PyLong_AsUnsignedLongLongMask(PyList_GET_ITEM(streams, s));
        if (PyErr_Occurred()) goto done;
    }
    if (greedy_play && int_list(ranks_obj, ranks, PIP_SPAN, "ranks") != g->span) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "ranks: one per tile of the span");
        goto done;
    }
    if (want_trace && !(trace = PyList_New(0))) goto done;
    g->in_hand = 1;
    g->end_seat = -1;
    long moves = 0;
    while (g->in_hand) {
        int n = pip_legal(g, actions);
        if (n == 0) { PyErr_SetString(PyExc_ValueError, "no legal action (the lead tile is not in hand)"); goto done; }
        int action = actions[0];
        if (n > 1 && !greedy_play) action = actions[below(&g->streams[g->turn], n)];
        else if (n > 1) {  /* the expert's greedy policy: the highest ranks[tile] placed or given, ties by the stream */
            int top = INT32_MIN, ties = 0;
            for (int i = 0; i < n; i++) {
                int a = actions[i];
                int key = a < g->draw ? ranks[a / (2 * g->targets)] : a >= g->give_base ? ranks[a - g->give_base]
                        : INT32_MIN + 1;
                if (key > top) { top = key; ties = 0; }
                if (key == top) actions[ties++] = a;  /* (the kept ones never pass the one read) */
            }
            action = ties > 1 ? actions[below(&g->streams[g->turn], ties)] : actions[0];
        }
        if (trace) {
            PyObject *pair = Py_BuildValue("(ii)", n, action);
            if (!pair || PyList_Append(trace, pair) < 0) { Py_XDECREF(pair); goto done; }
            Py_DECREF(pair);
        }
        if (action < g->draw && g->placed + 1 >= g->targets) { PyErr_SetString(PyExc_ValueError, "the table is full"); goto done; }
        if (action == g->draw && g->stock_pos >= g->stock_len) { PyErr_SetString(PyExc_ValueError, "draw from an empty stock"); goto done; }
        pip_apply(g, action);
        moves++;
    }
    {
        PyObject *out_hands = PyList_New(2 * g->players), *out_streams = PyList_New(g->players);
        int pend[2 * PIP_TARGETS];
        for (int i = 0; i < g->npending; i++) { pend[2 * i] = g->pending_k[i]; pend[2 * i + 1] = g->pending_owed[i]; }
        PyObject *out_shown = pip_ints(g->shown, g->targets), *out_free = pip_ints(g->free, g->targets);
        PyObject *out_pending = pip_ints(pend, 2 * g->npending);
        if (!out_hands || !out_streams || !out_shown || !out_free || !out_pending) {
            Py_XDECREF(out_hands); Py_XDECREF(out_streams); Py_XDECREF(out_shown); Py_XDECREF(out_free);
            Py_XDECREF(out_pending);
            goto done;
        }
        for (int s = 0; s < g->players; s++) {
            for (int w = 0; w < PIP_WORDS; w++)
                PyList_SET_ITEM(out_hands, 2 * s + w, PyLong_FromUnsignedLongLong(g->hands[s][w]));
            PyList_SET_ITEM(out_streams, s, PyLong_FromUnsignedLongLong(g->streams[s]));
        }
        PyObject *end_seat = g->end_seat < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(g->end_seat);
        result = Py_BuildValue("(iN(iiiiiiii)NNN(KK)NlNN)", g->end, end_seat, g->turn, g->direction, g->passes,
                               g->drawn, g->placed, g->stock_pos, g->forced_draw, g->give_pending, out_hands,
                               out_shown, out_free, (unsigned long long)g->open[0], (unsigned long long)g->open[1],
                               out_pending, moves, out_streams, trace ? trace : Py_NewRef(Py_None));
        trace = NULL;
    }
done:
    Py_XDECREF(trace);
    PyMem_Free(actions);
    PyMem_Free(g);
    return result;
}

static PyMethodDef methods[] = {
    {"shuffle", shuffle, METH_VARARGS, "Random.shuffle's swaps from given Mersenne Twister outputs (see chance.shuffle)."},
    {"deal", deal, METH_VARARGS, "Deal a pool of tiles into hands of given sizes avoiding banned tiles."},
    {"rollout", rollout, METH_VARARGS, "Play a hand to its end with random legal actions (see boneyard.fast.engine)."},
    {"greedy", greedy, METH_VARARGS, "Play a hand to its end several times with the expert's greedy playout policy."},
    {"pip_rollout", pip_rollout, METH_VARARGS, "Play a PIP round to its end as the random player (see boneyard.fast.pip)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "boneyard.fast._kernel",
                                    "Compiled random playouts for boneyard.fast (optional).", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
