/* majiang._speedups.core — the compiled hand core: the CPython glue of hand_core.h.
 *
 * The state machine (plain C) is hand_core.h, the twin of majiang/engine/hand.py for the MCR
 * rulesets; majiang/engine/compiled.py wraps this module's Hand into the engine's Hand interface
 * (CompiledHand) and says when it is used.  Types:
 *
 *   Rules(quarters, flowers, stacks, false_win_ends, fault, fault_offender, fault_other, fan_rules)
 *       a ruleset as the core plays it (built once per ruleset by its ``core()``; fan_rules is the
 *       majiang.mcr.rules.Rules whose switches the fan calculator reads)
 *   Random(state)   random.Random's generator (state: random.getstate()), for the core's rand bots;
 *                   getstate() gives it back
 *   Hand(rules, seed, dealer, prevalent, arrange)   one hand, dealt
 *
 * configure(actions) hands over the Action instances by code (hand_core.h's mj_act_t), so that
 * legal() returns the engine's shared Action objects.  The fan calculator is reached through its
 * capsule (fan_api.h): one configured calculator for the reference and the core.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "fan_api.h"
#include "hand_core.h"

static const fan_api_t *FAN;
static PyObject *ACTIONS; /* tuple of MJ_ACT_CODES: the Action of each code, or None */

/* interned strings */
static PyObject *k_type, *k_seat, *k_tile, *k_from, *k_tiles, *k_kind, *k_tail, *k_replacement, *k_reason, *k_deltas,
    *k_ends_hand, *k_points, *k_fans, *k_total, *k_self_drawn, *k_result, *k_parts, *k_seed, *k_dice, *k_break_seat,
    *k_break_stack, *k_hands;
static PyObject *EVENT_NAMES[E_HAND_END + 1];
static PyObject *KONG_KINDS[3], *PAY_REASONS[4], *FW_KINDS[2], *RESULTS[4];
static PyObject *SMALL[64]; /* ints 0..63 (tiles, seats): borrowed into lists and dicts */

static inline PyObject *small_int(int v) {
    if (v >= 0 && v < 64) return Py_NewRef(SMALL[v]);
    return PyLong_FromLong(v);
}

/* ---- Rules ------------------------------------------------------------------------------------ */
typedef struct {
    PyObject_HEAD
    mj_rules_t r;
    PyObject *fan_rules;
} RulesObject;

static void Rules_dealloc(RulesObject *self) {
    Py_XDECREF(self->fan_rules);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Rules_init(RulesObject *self, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"quarters", "flowers", "stacks", "false_win_ends", "fault", "fault_offender", "fault_other",
                         "fan_rules", NULL};
    mj_rules_t *r = &self->r;
    PyObject *fan_rules;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ppipiiiO", kw, &r->quarters, &r->flowers, &r->stacks,
                                     &r->false_win_ends, &r->fault, &r->fault_offender, &r->fault_other, &fan_rules))
        return -1;
    if (r->stacks < 1 || (r->quarters && r->flowers) || (!r->quarters && r->stacks * 8 != 136 + 8 * r->flowers)) {
        PyErr_SetString(PyExc_ValueError, "the core plays 136 tiles (in quarters) or 144 (18 stacks a side)");
        return -1;
    }
    if (!FAN->configured() || !FAN->rules(fan_rules, &r->fan)) {
        PyErr_SetString(PyExc_ValueError,
                        "the compiled fan calculator does not take these rules (not configured, or not a Rules)");
        return -1;
    }
    r->compute = FAN->compute;
    r->points = FAN->points;
    r->fan_points = FAN->fan_points;
    Py_XSETREF(self->fan_rules, Py_NewRef(fan_rules));
    return 0;
}

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "majiang._speedups.core.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_dealloc = (destructor)Rules_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A ruleset as the compiled core plays it.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rules_init,
};

/* ---- Random: random.Random's Mersenne Twister ----------------------------------------------------- */
typedef struct {
    PyObject_HEAD
    mt_t mt;
} RandomObject;

static int Random_setstate(RandomObject *self, PyObject *state) {
    /* random.Random.getstate(): (3, (624 words..., index), gauss_next) */
    PyObject *words;
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 3 || !PyTuple_Check(words = PyTuple_GET_ITEM(state, 1)) ||
        PyTuple_GET_SIZE(words) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "state must be random.Random().getstate()");
        return -1;
    }
    for (int i = 0; i <= MT_N; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
        if (v == (unsigned long)-1 && PyErr_Occurred()) return -1;
        if (i < MT_N) {
            self->mt.mt[i] = (uint32_t)v;
        } else if (v > MT_N) {
            PyErr_SetString(PyExc_ValueError, "state index out of range");
            return -1;
        } else {
            self->mt.index = (int)v;
        }
    }
    return 0;
}

static int Random_init(RandomObject *self, PyObject *args, PyObject *kwds) {
    PyObject *state;
    if (!PyArg_ParseTuple(args, "O", &state)) return -1;
    return Random_setstate(self, state);
}

static PyObject *Random_getstate(RandomObject *self, PyObject *unused) {
    PyObject *words = PyTuple_New(MT_N + 1);
    if (!words) return NULL;
    for (int i = 0; i < MT_N; i++) {
        PyObject *v = PyLong_FromUnsignedLong(self->mt.mt[i]);
        if (!v) {
            Py_DECREF(words);
            return NULL;
        }
        PyTuple_SET_ITEM(words, i, v);
    }
    PyTuple_SET_ITEM(words, MT_N, PyLong_FromLong(self->mt.index));
    return Py_BuildValue("(iNO)", 3, words, Py_None);
}

static PyMethodDef Random_methods[] = {
    {"getstate", (PyCFunction)Random_getstate, METH_NOARGS, "The state as random.Random.getstate() gives it."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RandomType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "majiang._speedups.core.Random",
    .tp_basicsize = sizeof(RandomObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "random.Random's generator, continued from random.Random.getstate() (the core's rand bots).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Random_init,
    .tp_methods = Random_methods,
};

/* ---- Hand --------------------------------------------------------------------------------------- */
typedef struct {
    PyObject_HEAD
    mj_hand_t h;
    RulesObject *rules;
} HandObject;

static void Hand_dealloc(HandObject *self) {
    mj_free(&self->h);
    Py_XDECREF(self->rules);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int check_mem(HandObject *self) {
    if (self->h.nomem) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int Hand_init(HandObject *self, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"rules", "seed", "dealer", "prevalent", "arrange", NULL};
    PyObject *rules, *arrange = NULL;
    Py_buffer seed;
    int dealer = 0, prevalent = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!y*|iiO", kw, &RulesType, &rules, &seed, &dealer, &prevalent,
                                     &arrange))
        return -1;
    int (*swaps)[2] = NULL, nswaps = 0, rc = -1;
    if (!ACTIONS) {
        PyErr_SetString(PyExc_RuntimeError, "majiang._speedups.core: configure() was not called");
        goto done;
    }
    if (seed.len < 1 || seed.len > 64) {
        PyErr_SetString(PyExc_ValueError, "a seed is 1 to 64 bytes");
        goto done;
    }
    if (dealer < 0 || dealer > 3 || prevalent < 0 || prevalent > 3) {
        PyErr_SetString(PyExc_ValueError, "dealer and prevalent are 0-3");
        goto done;
    }
    const mj_rules_t *r = &((RulesObject *)rules)->r;
    int ntiles = r->flowers ? 144 : 136;
    if (arrange && arrange != Py_None) {
        PyObject *seq = PySequence_Fast(arrange, "arrange: a sequence of (i, j) wall positions");
        if (!seq) goto done;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        swaps = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *swaps);
        if (!swaps) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            int a, b;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ii", &a, &b)) {
                Py_DECREF(seq);
                goto done;
            }
            if (a < 0 || a >= ntiles || b < 0 || b >= ntiles) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "arrange: a wall position out of range");
                goto done;
            }
            swaps[i][0] = a, swaps[i][1] = b;
        }
        nswaps = (int)n;
        Py_DECREF(seq);
    }
    Py_XSETREF(self->rules, (RulesObject *)Py_NewRef(rules));
    mj_start(&self->h, r, (const uint8_t *)seed.buf, (int)seed.len, dealer, prevalent, (const int(*)[2])swaps, nswaps);
    rc = check_mem(self);
done:
    PyMem_Free(swaps);
    PyBuffer_Release(&seed);
    return rc;
}

static PyObject *int_list(const int *v, int n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = small_int(v[i]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

static PyObject *byte_list(const uint8_t *v, int n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, Py_NewRef(SMALL[v[i]]));
    return out;
}

static PyObject *bool_list(const uint8_t *v, int n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, Py_NewRef(v[i] ? Py_True : Py_False));
    return out;
}

static PyObject *action_list(const mj_act_t *opts, int n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, Py_NewRef(PyTuple_GET_ITEM(ACTIONS, opts[i])));
    return out;
}

static int seat_arg(PyObject *arg, int *seat) {
    long s = PyLong_AsLong(arg);
    if (s == -1 && PyErr_Occurred()) return -1;
    *seat = (s < 0 || s > 3) ? -1 : (int)s;
    return 0;
}

static PyObject *Hand_prompted(HandObject *self, PyObject *unused) {
    int p[4], n = mj_prompted(&self->h, p);
    return int_list(p, n);
}

static PyObject *Hand_legal(HandObject *self, PyObject *arg) {
    int seat, n;
    if (seat_arg(arg, &seat) < 0) return NULL;
    const mj_act_t *opts = mj_legal(&self->h, seat, &n);
    return action_list(opts, n);
}

/* act(seat, code, type, tile) -> bool: code -1 = not a canonical action; False = refused, nothing changed */
static PyObject *Hand_act(HandObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) return PyErr_Format(PyExc_TypeError, "act(seat, code, type, tile)");
    long v[4];
    for (int i = 0; i < 4; i++)
        if ((v[i] = PyLong_AsLong(args[i])) == -1 && PyErr_Occurred()) return NULL;
    if (v[1] < 0 || v[1] >= MJ_ACT_CODES || PyTuple_GET_ITEM(ACTIONS, v[1]) == Py_None) v[1] = -1;
    if (v[3] < -1000 || v[3] > 1000) v[3] = -1000;
    int rc = mj_act(&self->h, (int)v[0], (int)v[1], (int)v[2], (int)v[3]);
    if (check_mem(self) < 0) return NULL;
    return PyBool_FromLong(rc == MJ_OK);
}

static PyObject *Hand_fault(HandObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "fault(seat, kind_index)");
    long seat = PyLong_AsLong(args[0]), kind = PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    if (kind < 0 || kind > 1000) return PyErr_Format(PyExc_ValueError, "kind index out of range");
    int rc = mj_fault(&self->h, (int)seat, (int)kind);
    if (check_mem(self) < 0) return NULL;
    return PyBool_FromLong(rc == MJ_OK);
}

static PyObject *Hand_default_action(HandObject *self, PyObject *arg) {
    int seat, n;
    if (seat_arg(arg, &seat) < 0) return NULL;
    mj_legal(&self->h, seat, &n);
    if (!n) Py_RETURN_NONE;
    return Py_NewRef(PyTuple_GET_ITEM(ACTIONS, mj_default_action(&self->h, seat)));
}

/* play(kinds, rngs, callback): play the hand to its end as majiang.sim.play_hand does — the seats asked
 * in turn, each deciding by its kind (BOT_RAND with rngs[s], BOT_EFF, or BOT_PYTHON: callback(seat),
 * which must decide and act for the seat itself) */
static PyObject *Hand_play(HandObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) return PyErr_Format(PyExc_TypeError, "play(kinds, rngs, callback)");
    int kinds[4];
    mt_t *rngs[4] = {NULL, NULL, NULL, NULL};
    PyObject *kseq = args[0], *rseq = args[1], *callback = args[2];
    if (!PyTuple_Check(kseq) || PyTuple_GET_SIZE(kseq) != 4 || !PyTuple_Check(rseq) || PyTuple_GET_SIZE(rseq) != 4)
        return PyErr_Format(PyExc_TypeError, "kinds and rngs: tuples of four");
    for (int s = 0; s < 4; s++) {
        long k = PyLong_AsLong(PyTuple_GET_ITEM(kseq, s));
        if (k == -1 && PyErr_Occurred()) return NULL;
        if (k < BOT_PYTHON || k > BOT_EFF) return PyErr_Format(PyExc_ValueError, "unknown bot kind %ld", k);
        kinds[s] = (int)k;
        PyObject *r = PyTuple_GET_ITEM(rseq, s);
        if (k == BOT_RAND) {
            if (!PyObject_TypeCheck(r, &RandomType)) return PyErr_Format(PyExc_TypeError, "a rand seat needs a Random");
            rngs[s] = &((RandomObject *)r)->mt;
        }
    }
    mj_hand_t *h = &self->h;
    PyObject *ref = Py_NewRef((PyObject *)self); /* the callback may drop other references to the hand */
    int stuck = 0;
    while (h->phase != PH_OVER) {
        int p[4], np = mj_prompted(h, p), before = h->nev + h->nresp;
        for (int i = 0; i < np; i++) {
            int s = p[i], n;
            const mj_act_t *legal = mj_legal(h, s, &n);
            if (!n) continue; /* no longer asked (the claim window closed) */
            if (kinds[s] == BOT_PYTHON) {
                PyObject *seat = small_int(s), *res = PyObject_CallOneArg(callback, seat);
                Py_DECREF(seat);
                if (!res) goto fail;
                Py_DECREF(res);
            } else {
                mj_act_t a = legal[mj_bot_choose(h, s, kinds[s], rngs[s], legal, n)];
                mj_act(h, s, a, MJ_ACT_TYPE(a), MJ_ACT_TILE(a));
            }
            if (check_mem(self) < 0) goto fail;
            if (h->phase == PH_OVER) break;
        }
        stuck = h->nev + h->nresp == before ? stuck + 1 : 0;
        if (stuck > 2) {
            PyErr_SetString(PyExc_RuntimeError, "play: a Python seat was asked and did not act");
            goto fail;
        }
    }
    Py_DECREF(ref);
    Py_RETURN_NONE;
fail:
    Py_DECREF(ref);
    return NULL;
}

/* ---- reading the state -------------------------------------------------------------------------- */
static PyObject *meld_tuple(const mj_meld_t *m) {
    /* (kind 1-3, lowest tile, concealed, claimed or None, source or None, added) */
    return Py_BuildValue("(iiOOOO)", m->kind, m->tile, m->concealed ? Py_True : Py_False,
                         m->claimed < 0 ? Py_None : SMALL[m->claimed], m->source < 0 ? Py_None : SMALL[m->source],
                         m->added ? Py_True : Py_False);
}

/* seat(s) -> (counts, melds, flowers, pond, claimed, drawn or None, barred, passed_win) */
static PyObject *Hand_seat(HandObject *self, PyObject *arg) {
    int s;
    if (seat_arg(arg, &s) < 0) return NULL;
    if (s < 0) return PyErr_Format(PyExc_ValueError, "seats are 0-3");
    const mj_seat_t *st = &self->h.seats[s];
    PyObject *melds = PyTuple_New(st->nmelds);
    if (!melds) return NULL;
    for (int i = 0; i < st->nmelds; i++) {
        PyObject *m = meld_tuple(&st->melds[i]);
        if (!m) {
            Py_DECREF(melds);
            return NULL;
        }
        PyTuple_SET_ITEM(melds, i, m);
    }
    return Py_BuildValue("(NNNNNOOO)", byte_list(st->counts, MJ_KINDS), melds, byte_list(st->flowers, st->nflowers),
                         byte_list(st->pond, st->npond), bool_list(st->claimed, st->npond),
                         st->drawn < 0 ? Py_None : SMALL[st->drawn], st->barred ? Py_True : Py_False,
                         st->passed_win ? Py_True : Py_False);
}

/* state() -> (phase, current, pending or None, turn_drawn, after_kong, first_turn, live, remaining) */
static PyObject *Hand_state(HandObject *self, PyObject *unused) {
    const mj_hand_t *h = &self->h;
    PyObject *pending = h->pend_seat < 0 ? Py_NewRef(Py_None) : Py_BuildValue("(ii)", h->pend_seat, h->pend_tile);
    if (!pending) return NULL;
    return Py_BuildValue("(iiNOOOii)", h->phase, h->current, pending, h->turn_drawn ? Py_True : Py_False,
                         h->after_kong ? Py_True : Py_False, h->first_turn ? Py_True : Py_False, h->wall.live,
                         h->wall.remaining);
}

static PyObject *Hand_get_deltas(HandObject *self, void *c) { return int_list(self->h.deltas, 4); }

static PyObject *Hand_get_visible(HandObject *self, void *c) {
    return byte_list(self->h.visible, MJ_KINDS);
}

static PyObject *Hand_get_phase(HandObject *self, void *c) { return small_int(self->h.phase); }
static PyObject *Hand_get_nevents(HandObject *self, void *c) { return PyLong_FromLong(self->h.nev); }

static PyObject *Hand_left(HandObject *self, PyObject *arg) {
    int s;
    if (seat_arg(arg, &s) < 0) return NULL;
    if (s < 0) return PyErr_Format(PyExc_ValueError, "seats are 0-3");
    return PyLong_FromLong(mj_left(&self->h, s));
}

/* wall() -> (tiles, taken): the wall in draw order (Wall) / the parts in order (SeatWalls) */
static PyObject *Hand_wall(HandObject *self, PyObject *unused) {
    const mj_wall_t *w = &self->h.wall;
    return Py_BuildValue("(NN)", byte_list(w->tiles, w->n), bool_list(w->taken, w->n));
}

/* win() -> None or (seat, tile, from or None, points, kong, last, fourth_tile) */
static PyObject *Hand_win(HandObject *self, PyObject *unused) {
    const mj_hand_t *h = &self->h;
    if (!h->won) Py_RETURN_NONE;
    return Py_BuildValue("(iiOiOOO)", h->win_seat, h->win_tile, h->win_from < 0 ? Py_None : SMALL[h->win_from],
                         h->win_points, h->win_kong ? Py_True : Py_False, h->win_last ? Py_True : Py_False,
                         h->win_fourth ? Py_True : Py_False);
}

/* ---- the log as the reference's event dicts ------------------------------------------------------ */
static int put(PyObject *d, PyObject *k, PyObject *v) {
    if (!v) return -1;
    int rc = PyDict_SetItem(d, k, v);
    Py_DECREF(v);
    return rc;
}

static PyObject *event_dict(const mj_hand_t *h, const mj_ev_t *e, PyObject *fans, PyObject *fault_kinds,
                            PyObject *seed_hex) {
    PyObject *d = PyDict_New();
    if (!d || PyDict_SetItem(d, k_type, EVENT_NAMES[e->type]) < 0) goto fail;
    int rc = 0;
    switch (e->type) {
    case E_DICE: {
        int dice[4] = {h->wall.dice[0], h->wall.dice[1], h->wall.dice[2], h->wall.dice[3]};
        rc = put(d, k_dice, int_list(dice, 4)) || put(d, k_break_seat, small_int((h->dealer + h->wall.break_seat) & 3)) ||
             put(d, k_break_stack, small_int(h->wall.break_stack));
        break;
    }
    case E_DEAL: {
        PyObject *hands = PyList_New(4);
        if (!hands) goto fail;
        for (int s = 0; s < 4; s++) {
            PyObject *l = byte_list(h->dealt[s], h->ndealt[s]);
            if (!l) {
                Py_DECREF(hands);
                goto fail;
            }
            PyList_SET_ITEM(hands, s, l);
        }
        rc = put(d, k_hands, hands);
        break;
    }
    case E_FLOWER:
        rc = put(d, k_seat, small_int(e->seat)) || put(d, k_tile, small_int(e->tile)) ||
             put(d, k_replacement, e->a < 0 ? Py_NewRef(Py_None) : small_int(e->a));
        break;
    case E_DRAW:
        rc = put(d, k_seat, small_int(e->seat)) || put(d, k_tile, small_int(e->tile)) ||
             put(d, k_tail, PyBool_FromLong(e->a));
        break;
    case E_DISCARD:
    case E_ADD_KONG_DECLARED:
        rc = put(d, k_seat, small_int(e->seat)) || put(d, k_tile, small_int(e->tile));
        break;
    case E_CHOW: {
        int tiles[3] = {e->b, e->b + 1, e->b + 2};
        rc = put(d, k_seat, small_int(e->seat)) || put(d, k_from, small_int(e->a)) ||
             put(d, k_tile, small_int(e->tile)) || put(d, k_tiles, int_list(tiles, 3));
        break;
    }
    case E_PUNG:
    case E_ROBBED:
        rc = put(d, k_seat, small_int(e->seat)) || put(d, k_from, small_int(e->a)) || put(d, k_tile, small_int(e->tile));
        break;
    case E_KONG:
        rc = put(d, k_seat, small_int(e->seat)) || put(d, k_tile, small_int(e->tile)) ||
             put(d, k_kind, Py_NewRef(KONG_KINDS[e->a]));
        break;
    case E_PAYMENT:
        rc = put(d, k_reason, Py_NewRef(PAY_REASONS[e->a])) || put(d, k_deltas, int_list(h->pay[e->x], 4));
        break;
    case E_FALSE_WIN:
        rc = put(d, k_seat, small_int(e->seat)) || put(d, k_tile, small_int(e->tile)) ||
             put(d, k_kind, Py_NewRef(FW_KINDS[e->a])) || put(d, k_ends_hand, PyBool_FromLong(e->b));
        break;
    case E_FAULT: {
        PyObject *kind = PySequence_GetItem(fault_kinds, e->x);
        rc = put(d, k_seat, small_int(e->seat)) || put(d, k_kind, kind) || put(d, k_ends_hand, PyBool_FromLong(e->b));
        break;
    }
    case E_WIN:
        rc = put(d, k_seat, small_int(e->seat)) || put(d, k_tile, small_int(e->tile)) ||
             put(d, k_from, e->a < 0 ? Py_NewRef(Py_None) : small_int(e->a)) ||
             put(d, k_points, PyLong_FromLong(h->win_points)) || put(d, k_fans, Py_NewRef(fans)) ||
             put(d, k_total, PyLong_FromLong(h->win_points)) || put(d, k_self_drawn, PyBool_FromLong(e->a < 0));
        break;
    case E_EXHAUSTED:
        break;
    case E_HAND_END:
        rc = put(d, k_result, Py_NewRef(RESULTS[e->a]));
        if (!rc && (e->a == R_WIN || e->a == R_DRAW)) rc = put(d, k_parts, PyDict_New());
        if (!rc && (e->a == R_FALSE_WIN || e->a == R_FAULT)) rc = put(d, k_seat, small_int(e->seat));
        if (!rc) rc = put(d, k_deltas, int_list(h->deltas, 4)) || PyDict_SetItem(d, k_seed, seed_hex);
        break;
    }
    if (rc) goto fail;
    return d;
fail:
    Py_XDECREF(d);
    return NULL;
}

/* events(start, fans, fault_kinds, seed_hex) -> the events from `start` on as dicts; `fans` is the
 * win's fan list (None before a win), fault_kinds the fault names by index */
static PyObject *Hand_events(HandObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) return PyErr_Format(PyExc_TypeError, "events(start, fans, fault_kinds, seed_hex)");
    Py_ssize_t start = PyLong_AsSsize_t(args[0]);
    if (start == -1 && PyErr_Occurred()) return NULL;
    const mj_hand_t *h = &self->h;
    if (start < 0) start = 0;
    Py_ssize_t n = h->nev > start ? h->nev - start : 0;
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *d = event_dict(h, &h->ev[start + i], args[1], args[2], args[3]);
        if (!d) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, d);
    }
    return out;
}

static PyObject *Hand_count(HandObject *self, PyObject *arg) {
    long type = PyLong_AsLong(arg);
    if (type == -1 && PyErr_Occurred()) return NULL;
    int n = 0;
    for (int i = 0; i < self->h.nev; i++) n += self->h.ev[i].type == type;
    return PyLong_FromLong(n);
}

static PyMethodDef Hand_methods[] = {
    {"count", (PyCFunction)Hand_count, METH_O, "count(event_type_number): events of that type so far"},
    {"prompted", (PyCFunction)Hand_prompted, METH_NOARGS, "Hand.prompted()"},
    {"legal", (PyCFunction)Hand_legal, METH_O, "Hand.legal(seat): the shared Action objects"},
    {"act", (PyCFunction)(void (*)(void))Hand_act, METH_FASTCALL, "act(seat, code, type, tile) -> applied"},
    {"fault", (PyCFunction)(void (*)(void))Hand_fault, METH_FASTCALL, "fault(seat, kind_index) -> applied"},
    {"default_action", (PyCFunction)Hand_default_action, METH_O, "Hand.default_action(seat), or None"},
    {"play", (PyCFunction)(void (*)(void))Hand_play, METH_FASTCALL, "play(kinds, rngs, callback)"},
    {"seat", (PyCFunction)Hand_seat, METH_O,
     "seat(s) -> (counts, melds, flowers, pond, claimed, drawn, barred, passed_win)"},
    {"state", (PyCFunction)Hand_state, METH_NOARGS,
     "state() -> (phase, current, pending, turn_drawn, after_kong, first_turn, live, remaining)"},
    {"left", (PyCFunction)Hand_left, METH_O, "left(seat): tiles the seat may still draw"},
    {"wall", (PyCFunction)Hand_wall, METH_NOARGS, "wall() -> (tiles, taken)"},
    {"win", (PyCFunction)Hand_win, METH_NOARGS, "win() -> None or (seat, tile, from, points, kong, last, fourth)"},
    {"events", (PyCFunction)(void (*)(void))Hand_events, METH_FASTCALL,
     "events(start, fans, fault_kinds, seed_hex) -> event dicts"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Hand_getset[] = {
    {"deltas", (getter)Hand_get_deltas, NULL, "score changes so far", NULL},
    {"visible", (getter)Hand_get_visible, NULL, "copies in ponds and exposed melds", NULL},
    {"phase", (getter)Hand_get_phase, NULL, "0 turn, 1 claim, 2 rob, 3 over", NULL},
    {"nevents", (getter)Hand_get_nevents, NULL, "events so far (the header not counted)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject HandType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "majiang._speedups.core.Hand",
    .tp_basicsize = sizeof(HandObject),
    .tp_dealloc = (destructor)Hand_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One MCR hand on the compiled core (see majiang.engine.compiled).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Hand_init,
    .tp_methods = Hand_methods,
    .tp_getset = Hand_getset,
};

/* ---- the module --------------------------------------------------------------------------------- */
static PyObject *core_configure(PyObject *mod, PyObject *actions) {
    if (!PyTuple_Check(actions) || PyTuple_GET_SIZE(actions) != MJ_ACT_CODES)
        return PyErr_Format(PyExc_ValueError, "configure: a tuple of %d actions (or None) by code", MJ_ACT_CODES);
    Py_XSETREF(ACTIONS, Py_NewRef(actions));
    Py_RETURN_NONE;
}

static PyObject *core_code(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    /* code(type, tile, chow_position): the action code (for the glue's table) */
    if (nargs != 3) return PyErr_Format(PyExc_TypeError, "code(type, tile, position)");
    long t = PyLong_AsLong(args[0]), tile = PyLong_AsLong(args[1]), pos = PyLong_AsLong(args[2]);
    if (PyErr_Occurred()) return NULL;
    if (t < 0 || t > 7 || tile < -1 || tile > 62 || pos < 0 || pos > 2) return PyErr_Format(PyExc_ValueError, "no such code");
    return PyLong_FromLong(MJ_ACT((int)t, (int)tile, (int)pos));
}

static PyMethodDef core_methods[] = {
    {"configure", (PyCFunction)core_configure, METH_O, "configure(actions): the Action of each code"},
    {"code", (PyCFunction)(void (*)(void))core_code, METH_FASTCALL, "code(type, tile, chow_position) -> int"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "majiang._speedups.core",
    "The compiled hand core (see majiang.engine.compiled; reference: majiang.engine.hand).", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

#define INTERN(var, text)                                           \
    do {                                                            \
        if (!(var = PyUnicode_InternFromString(text))) return NULL; \
    } while (0)

PyMODINIT_FUNC PyInit_core(void) {
    FAN = (const fan_api_t *)PyCapsule_Import(FAN_API_CAPSULE, 0);
    if (!FAN) return NULL;
    if (FAN->version != FAN_API_VERSION) {
        PyErr_SetString(PyExc_ImportError, "majiang._speedups.fan is of another build");
        return NULL;
    }
    if (shanten_tables() < 0) return PyErr_NoMemory();
    for (int i = 0; i < 64; i++)
        if (!(SMALL[i] = PyLong_FromLong(i))) return NULL;
    INTERN(k_type, "type");
    INTERN(k_seat, "seat");
    INTERN(k_tile, "tile");
    INTERN(k_from, "from");
    INTERN(k_tiles, "tiles");
    INTERN(k_kind, "kind");
    INTERN(k_tail, "tail");
    INTERN(k_replacement, "replacement");
    INTERN(k_reason, "reason");
    INTERN(k_deltas, "deltas");
    INTERN(k_ends_hand, "ends_hand");
    INTERN(k_points, "points");
    INTERN(k_fans, "fans");
    INTERN(k_total, "total");
    INTERN(k_self_drawn, "self_drawn");
    INTERN(k_result, "result");
    INTERN(k_parts, "parts");
    INTERN(k_seed, "seed");
    INTERN(k_dice, "dice");
    INTERN(k_break_seat, "break_seat");
    INTERN(k_break_stack, "break_stack");
    INTERN(k_hands, "hands");
    static const char *const names[] = {"dice",    "deal",  "flower",    "draw",      "discard", "chow",
                                        "pung",    "add_kong_declared", "kong", "robbed",    "payment", "false_win",
                                        "fault",   "win",   "exhausted", "hand_end"};
    for (int i = 0; i <= E_HAND_END; i++) INTERN(EVENT_NAMES[i], names[i]);
    INTERN(KONG_KINDS[KONG_CONCEALED], "concealed");
    INTERN(KONG_KINDS[KONG_ADDED], "added");
    INTERN(KONG_KINDS[KONG_EXPOSED], "exposed");
    INTERN(PAY_REASONS[PAY_KONG], "kong");
    INTERN(PAY_REASONS[PAY_FALSE_WIN], "false_win");
    INTERN(PAY_REASONS[PAY_FAULT], "fault");
    INTERN(PAY_REASONS[PAY_SETTLEMENT], "settlement");
    INTERN(FW_KINDS[FW_WRONG], "wrong");
    INTERN(FW_KINDS[FW_SHORT], "short");
    INTERN(RESULTS[R_WIN], "win");
    INTERN(RESULTS[R_DRAW], "draw");
    INTERN(RESULTS[R_FALSE_WIN], "false_win");
    INTERN(RESULTS[R_FAULT], "fault");
    if (PyType_Ready(&RulesType) < 0 || PyType_Ready(&RandomType) < 0 || PyType_Ready(&HandType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Rules", (PyObject *)&RulesType) < 0 ||
        PyModule_AddObjectRef(m, "Random", (PyObject *)&RandomType) < 0 ||
        PyModule_AddObjectRef(m, "Hand", (PyObject *)&HandType) < 0 ||
        PyModule_AddIntConstant(m, "CODES", MJ_ACT_CODES) < 0 || PyModule_AddIntConstant(m, "BOT_PYTHON", BOT_PYTHON) < 0 ||
        PyModule_AddIntConstant(m, "BOT_RAND", BOT_RAND) < 0 || PyModule_AddIntConstant(m, "BOT_EFF", BOT_EFF) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
