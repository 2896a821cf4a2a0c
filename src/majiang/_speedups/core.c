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
#include "ev_core.h"
#include "hand_core.h"
#include "rl_core.h"
#include "search_core.h"

#include <time.h>

static const fan_api_t *FAN;
static PyObject *ACTIONS; /* tuple of MJ_ACT_CODES: the Action of each code, or None */

/* interned strings */
static PyObject *k_type, *k_seat, *k_tile, *k_from, *k_tiles, *k_kind, *k_tail, *k_replacement, *k_reason, *k_deltas,
    *k_ends_hand, *k_moqie, *k_points, *k_fans, *k_total, *k_self_drawn, *k_result, *k_parts, *k_seed, *k_dice, *k_break_seat,
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
    static char *kw[] = {"rules", "seed", "dealer", "prevalent", "arrange", "hand_no", "scores", NULL};
    PyObject *rules, *arrange = NULL;
    Py_buffer seed;
    int dealer = 0, prevalent = 0, hand_no = 0, scores[4] = {0, 0, 0, 0};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!y*|iiOi(iiii)", kw, &RulesType, &rules, &seed, &dealer, &prevalent,
                                     &arrange, &hand_no, &scores[0], &scores[1], &scores[2], &scores[3]))
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
    self->h.hand_no = hand_no;
    memcpy(self->h.scores_before, scores, sizeof scores);
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

/* bot_choice(seat, kind): what the core's bot `kind` (BOT_EFF, BOT_FAN, BOT_EV or BOT_EV3) chooses for `seat`'s
 * decision now, or None when the seat has nothing to decide; the hand is not changed */
static PyObject *Hand_bot_choice(HandObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int seat, n;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "bot_choice(seat, kind)");
    if (seat_arg(args[0], &seat) < 0) return NULL;
    long kind = PyLong_AsLong(args[1]);
    if (kind == -1 && PyErr_Occurred()) return NULL;
    if (kind != BOT_EFF && kind != BOT_FAN && kind != BOT_EV && kind != BOT_EV3)
        return PyErr_Format(PyExc_ValueError, "bot kind: BOT_EFF, BOT_FAN, BOT_EV or BOT_EV3, not %ld", kind);
    const mj_act_t *legal = mj_legal(&self->h, seat, &n);
    if (!n) Py_RETURN_NONE;
    return Py_NewRef(PyTuple_GET_ITEM(ACTIONS, legal[mj_bot_choose(&self->h, seat, (int)kind, NULL, legal, n)]));
}

/* play(kinds, rngs, callback): play the hand to its end as majiang.sim.play_hand does — the seats asked
 * in turn, each deciding by its kind (BOT_RAND with rngs[s], BOT_EFF, BOT_FAN, BOT_EV, BOT_EV3, or BOT_PYTHON: callback(seat),
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
        if (k < BOT_PYTHON || k > BOT_EV3) return PyErr_Format(PyExc_ValueError, "unknown bot kind %ld", k);
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

/* ---- look-ahead (search_core.h) ----------------------------------------------------------------- */
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* rollouts(seat, codes, samples, seed, seconds[, policy]) -> (done, values): for each of up to `samples`
 * determinisations of what `seat` cannot see (the same ones for every candidate), each candidate
 * action in `codes` applied and the hand played out by the core's bot `policy` (BOT_EFF, the default,
 * or BOT_FAN) at every seat; values[k]
 * lists seat's score change from now for code k, sample by sample.  Stops early (after one sample at
 * least) once `seconds` of wall time have passed.  The hand itself is not changed. */
static PyObject *Hand_rollouts(HandObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5 && nargs != 6) return PyErr_Format(PyExc_TypeError, "rollouts(seat, codes, samples, seed, seconds[, policy])");
    long seat = PyLong_AsLong(args[0]), samples = PyLong_AsLong(args[2]), policy = nargs == 6 ? PyLong_AsLong(args[5]) : BOT_EFF;
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(args[3]);
    double seconds = PyFloat_AsDouble(args[4]);
    if (PyErr_Occurred()) return NULL;
    mj_hand_t *h = &self->h;
    if (seat < 0 || seat > 3 || h->phase == PH_OVER) return PyErr_Format(PyExc_ValueError, "no decision of seat %ld", seat);
    if (policy != BOT_EFF && policy != BOT_FAN) return PyErr_Format(PyExc_ValueError, "play-out policy: BOT_EFF or BOT_FAN, not %ld", policy);
    PyObject *seq = PySequence_Fast(args[1], "codes: a sequence of action codes");
    if (!seq) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k < 1 || k > MJ_MAX_OPTS || samples < 1) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "1 to %d codes and at least one sample", MJ_MAX_OPTS);
    }
    int codes[MJ_MAX_OPTS], n;
    const mj_act_t *legal = mj_legal(h, (int)seat, &n);
    for (Py_ssize_t i = 0; i < k; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        int ok = 0;
        for (int j = 0; j < n; j++) ok |= legal[j] == c;
        if (!ok) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "code %ld is not a legal choice of seat %ld", c, seat);
            return NULL;
        }
        codes[i] = (int)c;
    }
    Py_DECREF(seq);
    int *values = PyMem_Malloc((size_t)samples * (size_t)k * sizeof *values);
    mj_hand_t *world = PyMem_Malloc(sizeof *world), *play = PyMem_Malloc(sizeof *play);
    if (!values || !world || !play) {
        PyMem_Free(values), PyMem_Free(world), PyMem_Free(play);
        return PyErr_NoMemory();
    }
    mt_t rng;
    mt_seed_u64(&rng, seed);
    mj_scratch_t scratch = {0};
    double deadline = now_s() + seconds;
    long done = 0;
    int failed = 0;
    for (; done < samples && !failed; done++) {
        if (done > 0 && now_s() > deadline) break;
        mj_copy(world, h, &scratch);
        mj_determinise(world, (int)seat, &rng);
        if (world->phase == PH_CLAIM) /* the other seats' options and answers were their old tiles' */
            mj_open_claims(world, world->pend_seat, world->pend_tile);
        for (Py_ssize_t i = 0; i < k && !failed; i++) {
            mj_copy(play, world, &scratch);
            int c = codes[i];
            if (mj_act(play, (int)seat, c, MJ_ACT_TYPE(c), MJ_ACT_TILE(c)) != MJ_OK || mj_playout(play, (int)policy) < 0) failed = 1;
            values[done * k + i] = play->deltas[seat] - h->deltas[seat];
            mj_release(play, &scratch);
        }
    }
    mj_scratch_free(&scratch);
    PyMem_Free(world);
    PyMem_Free(play);
    if (failed) {
        PyMem_Free(values);
        return PyErr_Format(PyExc_RuntimeError, "rollouts: a play-out could not go on (sample %ld)", done);
    }
    PyObject *out = PyList_New(k);
    for (Py_ssize_t i = 0; out && i < k; i++) {
        PyObject *row = PyList_New(done);
        if (!row) {
            Py_CLEAR(out);
            break;
        }
        for (long d = 0; d < done; d++) PyList_SET_ITEM(row, d, PyLong_FromLong(values[d * k + i]));
        PyList_SET_ITEM(out, i, row);
    }
    PyMem_Free(values);
    if (!out) return NULL;
    return Py_BuildValue("(lN)", done, out);
}

/* ---- reading the state -------------------------------------------------------------------------- */
static PyObject *meld_tuple(const mj_meld_t *m) {
    /* (kind 1-3, lowest tile, concealed, claimed or None, source or None, added) */
    return Py_BuildValue("(iiOOOO)", m->kind, m->tile, m->concealed ? Py_True : Py_False,
                         m->claimed < 0 ? Py_None : SMALL[m->claimed], m->source < 0 ? Py_None : SMALL[m->source],
                         m->added ? Py_True : Py_False);
}

/* seat(s) -> (counts, melds, flowers, pond, claimed, drawn or None, barred, passed_win, moqie) */
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
    return Py_BuildValue("(NNNNNOOON)", byte_list(st->counts, MJ_KINDS), melds, byte_list(st->flowers, st->nflowers),
                         byte_list(st->pond, st->npond), bool_list(st->claimed, st->npond),
                         st->drawn < 0 ? Py_None : SMALL[st->drawn], st->barred ? Py_True : Py_False,
                         st->passed_win ? Py_True : Py_False, bool_list(st->moqie, st->npond));
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
        rc = put(d, k_seat, small_int(e->seat)) || put(d, k_tile, small_int(e->tile)) ||
             put(d, k_moqie, PyBool_FromLong(e->a));
        break;
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

/* ---- RL: the observation planes, the mask, the 109 action codes (rl_core.h) ---------------------- */
static int writable(PyObject *o, Py_buffer *b, Py_ssize_t n, const char *format, const char *what) {
    if (PyObject_GetBuffer(o, b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (b->format == NULL || strcmp(b->format, format) != 0 || b->len != n * b->itemsize) {
        PyBuffer_Release(b);
        PyErr_Format(PyExc_ValueError, "%s: a C-contiguous writable buffer of %zd values of type '%s' is needed", what,
                     n, format);
        return -1;
    }
    return 0;
}

/* ev_look(seat, rows): the ev bot's look-ahead rows for `seat` into rows (float32, 3 x 34, ev_core.h's
 * mj_ev_look) and its choice now, or None (nothing to decide; rows untouched) */
static PyObject *Hand_ev_look(HandObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int seat, n;
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "ev_look(seat, rows)");
    if (seat_arg(args[0], &seat) < 0) return NULL;
    if (seat < 0) return PyErr_Format(PyExc_ValueError, "seats are 0-3");
    Py_buffer rows;
    if (writable(args[1], &rows, EV_LOOK_ROWS * MJ_KINDS, "f", "rows") < 0) return NULL;
    const mj_act_t *legal = mj_legal(&self->h, seat, &n);
    PyObject *out = Py_None;
    if (n) {
        memset(rows.buf, 0, EV_LOOK_ROWS * MJ_KINDS * sizeof(float));
        out = PyTuple_GET_ITEM(ACTIONS, legal[mj_ev_look(&self->h, seat, legal, n, (float *)rows.buf)]);
    }
    PyBuffer_Release(&rows);
    return Py_NewRef(out);
}

/* observe(seat, obs, mask): the seat's planes into obs (float32, 204 x 34) and its mask into mask (int8, 109) */
static PyObject *Hand_observe(HandObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) return PyErr_Format(PyExc_TypeError, "observe(seat, obs, mask)");
    int seat;
    if (seat_arg(args[0], &seat) < 0) return NULL;
    if (seat < 0) return PyErr_Format(PyExc_ValueError, "seats are 0-3");
    Py_buffer obs, mask;
    if (writable(args[1], &obs, RL_OBS, "f", "obs") < 0) return NULL;
    if (writable(args[2], &mask, RL_ACTIONS, "b", "mask") < 0) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    mj_rl_encode(&self->h, seat, self->h.hand_no, self->h.scores_before, (float *)obs.buf);
    mj_rl_mask(&self->h, seat, (int8_t *)mask.buf);
    PyBuffer_Release(&obs);
    PyBuffer_Release(&mask);
    Py_RETURN_NONE;
}

/* rl_action(seat, code) -> the legal Action with that RL code, or None */
static PyObject *Hand_rl_action(HandObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "rl_action(seat, code)");
    int seat;
    if (seat_arg(args[0], &seat) < 0) return NULL;
    long code = PyLong_AsLong(args[1]);
    if (code == -1 && PyErr_Occurred()) return NULL;
    int a = seat < 0 || code < 0 || code >= RL_ACTIONS ? -1 : mj_rl_decode(&self->h, seat, (int)code);
    if (a < 0) Py_RETURN_NONE;
    return Py_NewRef(PyTuple_GET_ITEM(ACTIONS, a));
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
    {"observe", (PyCFunction)(void (*)(void))Hand_observe, METH_FASTCALL,
     "observe(seat, obs, mask): the RL planes (float32 204x34) and mask (int8 109) of the seat"},
    {"rl_action", (PyCFunction)(void (*)(void))Hand_rl_action, METH_FASTCALL,
     "rl_action(seat, code) -> the legal Action with that RL code, or None"},
    {"prompted", (PyCFunction)Hand_prompted, METH_NOARGS, "Hand.prompted()"},
    {"legal", (PyCFunction)Hand_legal, METH_O, "Hand.legal(seat): the shared Action objects"},
    {"act", (PyCFunction)(void (*)(void))Hand_act, METH_FASTCALL, "act(seat, code, type, tile) -> applied"},
    {"fault", (PyCFunction)(void (*)(void))Hand_fault, METH_FASTCALL, "fault(seat, kind_index) -> applied"},
    {"default_action", (PyCFunction)Hand_default_action, METH_O, "Hand.default_action(seat), or None"},
    {"play", (PyCFunction)(void (*)(void))Hand_play, METH_FASTCALL, "play(kinds, rngs, callback)"},
    {"bot_choice", (PyCFunction)(void (*)(void))Hand_bot_choice, METH_FASTCALL,
     "bot_choice(seat, kind): the core's bot's choice now, or None"},
    {"ev_look", (PyCFunction)(void (*)(void))Hand_ev_look, METH_FASTCALL,
     "ev_look(seat, rows): the ev bot's look-ahead rows (3 x 34 float32) and its choice now, or None"},
    {"rollouts", (PyCFunction)(void (*)(void))Hand_rollouts, METH_FASTCALL,
     "rollouts(seat, codes, samples, seed, seconds) -> (done, values): determinised play-outs (search_core.h)"},
    {"seat", (PyCFunction)Hand_seat, METH_O,
     "seat(s) -> (counts, melds, flowers, pond, claimed, drawn, barred, passed_win, moqie)"},
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


/* ---- Batch: many hands stepped in one call (the vector environment's core) ------------------------ */
/* Each hand waits at the decision of a seat its caller plays (kind BOT_PYTHON); the seats of kind
 * BOT_RAND / BOT_EFF / BOT_FAN / BOT_EV / BOT_EV3 play inside the core until such a decision comes (as Hand.play does, in the
 * order the engine asks).  step() applies one RL action code per hand, plays on, and writes each
 * hand's next decision (seat, planes, mask), its score changes and whether it ended. */
typedef struct {
    PyObject_HEAD
    RulesObject *rules;
    int n;
    mj_hand_t *h;
    int *seat;        /* the deciding seat per hand, -1 when the hand is over */
    int (*last)[4];   /* the deltas when the rewards were last taken */
    int kinds[4];
    mt_t *rng;        /* 4 per hand: the rand seats' generators */
    int (*loop)[4];   /* the seats asked at the last look, per hand, and the next of them */
    int *nloop, *pos;
} BatchObject;

static void Batch_dealloc(BatchObject *self) {
    if (self->h)
        for (int i = 0; i < self->n; i++) mj_free(&self->h[i]);
    PyMem_Free(self->h);
    PyMem_Free(self->seat);
    PyMem_Free(self->last);
    PyMem_Free(self->rng);
    PyMem_Free(self->loop);
    PyMem_Free(self->nloop);
    PyMem_Free(self->pos);
    Py_XDECREF(self->rules);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Batch_init(BatchObject *self, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"rules", "n", "kinds", NULL};
    PyObject *rules;
    int n, *k = self->kinds;
    k[0] = k[1] = k[2] = k[3] = BOT_PYTHON;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!i|(iiii)", kw, &RulesType, &rules, &n, &k[0], &k[1], &k[2], &k[3]))
        return -1;
    if (!ACTIONS) {
        PyErr_SetString(PyExc_RuntimeError, "majiang._speedups.core: configure() was not called");
        return -1;
    }
    if (n < 1 || n > 1 << 20) {
        PyErr_SetString(PyExc_ValueError, "a batch holds 1 to 2**20 hands");
        return -1;
    }
    int python = 0;
    for (int s = 0; s < 4; s++) {
        if (k[s] < BOT_PYTHON || k[s] > BOT_EV3) {
            PyErr_Format(PyExc_ValueError, "unknown bot kind %d", k[s]);
            return -1;
        }
        python += k[s] == BOT_PYTHON;
    }
    if (!python) {
        PyErr_SetString(PyExc_ValueError, "a batch needs a seat its caller plays (BOT_PYTHON)");
        return -1;
    }
    if (self->h) {
        PyErr_SetString(PyExc_RuntimeError, "a Batch is made once");
        return -1;
    }
    self->n = n;
    self->h = PyMem_Calloc((size_t)n, sizeof *self->h);
    self->seat = PyMem_Calloc((size_t)n, sizeof *self->seat);
    self->last = PyMem_Calloc((size_t)n, sizeof *self->last);
    self->rng = PyMem_Calloc((size_t)n * 4, sizeof *self->rng);
    self->loop = PyMem_Calloc((size_t)n, sizeof *self->loop);
    self->nloop = PyMem_Calloc((size_t)n, sizeof *self->nloop);
    self->pos = PyMem_Calloc((size_t)n, sizeof *self->pos);
    if (!self->h || !self->seat || !self->last || !self->rng || !self->loop || !self->nloop || !self->pos) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < n; i++) self->seat[i] = -1;
    Py_XSETREF(self->rules, (RulesObject *)Py_NewRef(rules));
    return 0;
}

/* play hand i on until a seat of the caller's is asked (seat[i]) or the hand ends (seat[i] = -1) */
static void batch_advance(BatchObject *self, int i) {
    mj_hand_t *h = &self->h[i];
    int *loop = self->loop[i];
    while (h->phase != PH_OVER) {
        if (self->pos[i] >= self->nloop[i]) {
            self->nloop[i] = mj_prompted(h, loop);
            self->pos[i] = 0;
        }
        int s = loop[self->pos[i]], n;
        const mj_act_t *legal = mj_legal(h, s, &n);
        if (!n) {
            self->pos[i]++;
            continue;
        }
        if (self->kinds[s] == BOT_PYTHON) {
            self->seat[i] = s;
            return;
        }
        mj_act_t a = legal[mj_bot_choose(h, s, self->kinds[s], &self->rng[4 * i + s], legal, n)];
        mj_act(h, s, a, MJ_ACT_TYPE(a), MJ_ACT_TILE(a));
        self->pos[i]++;
    }
    self->seat[i] = -1;
}

/* deal(i, seed, dealer, prevalent, hand_no, scores, rng_seed): a new hand at i, played on to its first
 * decision of the caller's seats (its rand seats' generators: random.Random(rng_seed + seat)) */
static PyObject *Batch_deal(BatchObject *self, PyObject *args) {
    int i, dealer, prevalent, hand_no, scores[4];
    unsigned long long rng_seed;
    Py_buffer seed;
    if (!PyArg_ParseTuple(args, "iy*iii(iiii)K", &i, &seed, &dealer, &prevalent, &hand_no, &scores[0], &scores[1],
                          &scores[2], &scores[3], &rng_seed))
        return NULL;
    PyObject *rc = NULL;
    if (i < 0 || i >= self->n || seed.len < 1 || seed.len > 64 || dealer < 0 || dealer > 3 || prevalent < 0 ||
        prevalent > 3) {
        PyErr_SetString(PyExc_ValueError, "deal: hand index, seed (1-64 bytes), dealer and prevalent (0-3)");
        goto done;
    }
    mj_hand_t *h = &self->h[i];
    mj_start(h, &self->rules->r, (const uint8_t *)seed.buf, (int)seed.len, dealer, prevalent, NULL, 0);
    h->hand_no = hand_no;
    memcpy(h->scores_before, scores, sizeof scores);
    memset(self->last[i], 0, sizeof self->last[i]);
    for (int s = 0; s < 4; s++)
        if (self->kinds[s] == BOT_RAND) mt_seed_u64(&self->rng[4 * i + s], rng_seed + (unsigned long long)s);
    self->nloop[i] = self->pos[i] = 0;
    batch_advance(self, i);
    if (h->nomem) {
        PyErr_NoMemory();
        goto done;
    }
    rc = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&seed);
    return rc;
}

typedef struct {
    Py_buffer obs, masks, seats, rewards, dones, illegal;
} batch_bufs;

static void release_bufs(batch_bufs *b) {
    Py_buffer *all[6] = {&b->obs, &b->masks, &b->seats, &b->rewards, &b->dones, &b->illegal};
    for (int k = 0; k < 6; k++)
        if (all[k]->obj) PyBuffer_Release(all[k]);
}

static int int64_buffer(PyObject *o, Py_buffer *b, Py_ssize_t n, const char *what, int write) {
    if (PyObject_GetBuffer(o, b, (write ? PyBUF_WRITABLE : 0) | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (b->itemsize != 8 || !b->format || (strcmp(b->format, "l") && strcmp(b->format, "q")) || b->len != n * 8) {
        PyBuffer_Release(b);
        PyErr_Format(PyExc_ValueError, "%s: a C-contiguous int64 buffer of %zd values is needed", what, n);
        return -1;
    }
    return 0;
}

/* the writable output buffers (obs, masks, seats[, rewards, dones, illegal]) from args[k...] */
static int get_bufs(BatchObject *self, PyObject *const *args, int with_step, batch_bufs *b) {
    memset(b, 0, sizeof *b);
    Py_ssize_t n = self->n;
    if (writable(args[0], &b->obs, n * RL_OBS, "f", "obs") < 0 || writable(args[1], &b->masks, n * RL_ACTIONS, "b", "masks") < 0 ||
        int64_buffer(args[2], &b->seats, n, "seats", 1) < 0)
        goto fail;
    if (with_step && (writable(args[3], &b->rewards, n * 4, "f", "rewards") < 0 ||
                      writable(args[4], &b->dones, n, "?", "dones") < 0 || writable(args[5], &b->illegal, n, "?", "illegal") < 0))
        goto fail;
    return 0;
fail:
    release_bufs(b);
    return -1;
}

static void batch_fill(BatchObject *self, int i, batch_bufs *b) {
    int s = self->seat[i];
    mj_hand_t *h = &self->h[i];
    ((int64_t *)b->seats.buf)[i] = s;
    if (s < 0) s = 0; /* an ended hand (never asked of: the caller deals it again) */
    mj_rl_encode(h, s, h->hand_no, h->scores_before, (float *)b->obs.buf + (size_t)i * RL_OBS);
    mj_rl_mask(h, s, (int8_t *)b->masks.buf + (size_t)i * RL_ACTIONS);
}

/* fill(indices, obs, masks, seats): the decisions of the hands at `indices` (after deal) */
static PyObject *Batch_fill(BatchObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) return PyErr_Format(PyExc_TypeError, "fill(indices, obs, masks, seats)");
    batch_bufs b;
    if (get_bufs(self, args + 1, 0, &b) < 0) return NULL;
    PyObject *seq = PySequence_Fast(args[0], "indices: a sequence of ints");
    if (!seq) {
        release_bufs(&b);
        return NULL;
    }
    PyObject *rc = Py_None;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        long i = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (i == -1 && PyErr_Occurred()) {
            rc = NULL;
            break;
        }
        if (i < 0 || i >= self->n) {
            PyErr_SetString(PyExc_IndexError, "hand index out of range");
            rc = NULL;
            break;
        }
        batch_fill(self, (int)i, &b);
    }
    Py_DECREF(seq);
    release_bufs(&b);
    return Py_XNewRef(rc);
}

/* moqie(out): the 摸切 rows (float32, n x 4 x 34) of each hand's deciding seat (zeros where it is over) */
static PyObject *Batch_moqie(BatchObject *self, PyObject *out) {
    Py_buffer b;
    if (writable(out, &b, (Py_ssize_t)self->n * 4 * MJ_KINDS, "f", "out") < 0) return NULL;
    float *rows = b.buf;
    for (int i = 0; i < self->n; i++, rows += 4 * MJ_KINDS) {
        if (self->seat[i] >= 0) mj_rl_moqie(&self->h[i], self->seat[i], rows);
        else memset(rows, 0, 4 * MJ_KINDS * sizeof *rows);
    }
    PyBuffer_Release(&b);
    Py_RETURN_NONE;
}

/* look(out): the ev bot's look-ahead rows (float32, n x 3 x 34; mj_ev_look) of each hand's deciding seat
 * (zeros where it is over) */
static PyObject *Batch_look(BatchObject *self, PyObject *out) {
    Py_buffer b;
    if (writable(out, &b, (Py_ssize_t)self->n * EV_LOOK_ROWS * MJ_KINDS, "f", "out") < 0) return NULL;
    float *rows = b.buf;
    for (int i = 0; i < self->n; i++, rows += EV_LOOK_ROWS * MJ_KINDS) {
        int n = 0;
        const mj_act_t *legal = self->seat[i] >= 0 ? mj_legal(&self->h[i], self->seat[i], &n) : NULL;
        memset(rows, 0, EV_LOOK_ROWS * MJ_KINDS * sizeof *rows);
        if (n) mj_ev_look(&self->h[i], self->seat[i], legal, n, rows);
    }
    PyBuffer_Release(&b);
    Py_RETURN_NONE;
}

/* step(actions, obs, masks, seats, rewards, dones, illegal, penalty, illegal_reward) -> the indices of the
 * hands that ended (their obs, masks and seats are left for the caller to deal and fill).  An action that
 * is not legal is replaced by the 托管 default and flagged (penalty), or raises ValueError (at that hand;
 * the hands before it have stepped). */
static PyObject *Batch_step(BatchObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) return PyErr_Format(PyExc_TypeError, "step(actions, obs, masks, seats, rewards, dones, illegal, penalty, illegal_reward)");
    int penalty = PyObject_IsTrue(args[7]);
    double illegal_reward = PyFloat_AsDouble(args[8]);
    if (penalty < 0 || (illegal_reward == -1.0 && PyErr_Occurred())) return NULL;
    Py_buffer acts;
    if (int64_buffer(args[0], &acts, self->n, "actions", 0) < 0) return NULL;
    batch_bufs b;
    if (get_bufs(self, args + 1, 1, &b) < 0) {
        PyBuffer_Release(&acts);
        return NULL;
    }
    PyObject *ended = PyList_New(0);
    const int64_t *action = acts.buf;
    float *rewards = b.rewards.buf;
    char *dones = b.dones.buf, *illegal = b.illegal.buf;
    for (int i = 0; ended && i < self->n; i++) {
        mj_hand_t *h = &self->h[i];
        int s = self->seat[i];
        if (s < 0) {
            PyErr_Format(PyExc_RuntimeError, "hand %d is over: deal it again before stepping", i);
            Py_CLEAR(ended);
            break;
        }
        int64_t code = action[i];
        int a = code >= 0 && code < RL_ACTIONS ? mj_rl_decode(h, s, (int)code) : -1;
        illegal[i] = a < 0;
        if (a < 0) {
            if (!penalty) {
                PyErr_Format(PyExc_ValueError,
                             "action %lld is not legal for seat %d of hand %d now (mask it with 'action_mask')",
                             (long long)code, s, i);
                Py_CLEAR(ended);
                break;
            }
            a = mj_default_action(h, s);
        }
        mj_act(h, s, (mj_act_t)a, MJ_ACT_TYPE(a), MJ_ACT_TILE(a));
        self->pos[i]++;
        batch_advance(self, i);
        if (h->nomem) {
            PyErr_NoMemory();
            Py_CLEAR(ended);
            break;
        }
        for (int x = 0; x < 4; x++) {
            rewards[4 * i + x] = (float)(h->deltas[x] - self->last[i][x]);
            self->last[i][x] = h->deltas[x];
        }
        if (illegal[i]) rewards[4 * i + s] += (float)illegal_reward;
        dones[i] = h->phase == PH_OVER;
        if (dones[i]) {
            PyObject *x = PyLong_FromLong(i);
            if (!x || PyList_Append(ended, x) < 0) {
                Py_XDECREF(x);
                Py_CLEAR(ended);
                break;
            }
            Py_DECREF(x);
        } else {
            batch_fill(self, i, &b);
        }
    }
    PyBuffer_Release(&acts);
    release_bufs(&b);
    return ended;
}

/* deltas(i) -> the score changes of hand i so far; phase(i) */
static PyObject *Batch_deltas(BatchObject *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= self->n) return PyErr_Format(PyExc_IndexError, "hand index out of range");
    return int_list(self->h[i].deltas, 4);
}

static PyMethodDef Batch_methods[] = {
    {"deal", (PyCFunction)Batch_deal, METH_VARARGS,
     "deal(i, seed, dealer, prevalent, hand_no, scores, rng_seed): a new hand at i, played to its first decision"},
    {"fill", (PyCFunction)(void (*)(void))Batch_fill, METH_FASTCALL, "fill(indices, obs, masks, seats)"},
    {"step", (PyCFunction)(void (*)(void))Batch_step, METH_FASTCALL,
     "step(actions, obs, masks, seats, rewards, dones, illegal, penalty, illegal_reward) -> ended hands"},
    {"deltas", (PyCFunction)Batch_deltas, METH_O, "deltas(i): hand i's score changes so far"},
    {"moqie", (PyCFunction)Batch_moqie, METH_O, "moqie(out): the 摸切 rows (n x 4 x 34) of each hand's deciding seat"},
    {"look", (PyCFunction)Batch_look, METH_O, "look(out): the ev bot's look-ahead rows (n x 3 x 34) of each hand's deciding seat"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "majiang._speedups.core.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Many hands stepped in one call: Batch(rules, n, kinds=(0, 0, 0, 0)).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_methods = Batch_methods,
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
    INTERN(k_moqie, "moqie");
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
    if (PyType_Ready(&RulesType) < 0 || PyType_Ready(&RandomType) < 0 || PyType_Ready(&HandType) < 0 ||
        PyType_Ready(&BatchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Rules", (PyObject *)&RulesType) < 0 ||
        PyModule_AddObjectRef(m, "Random", (PyObject *)&RandomType) < 0 ||
        PyModule_AddObjectRef(m, "Hand", (PyObject *)&HandType) < 0 ||
        PyModule_AddObjectRef(m, "Batch", (PyObject *)&BatchType) < 0 ||
        PyModule_AddIntConstant(m, "CODES", MJ_ACT_CODES) < 0 || PyModule_AddIntConstant(m, "BOT_PYTHON", BOT_PYTHON) < 0 ||
        PyModule_AddIntConstant(m, "BOT_RAND", BOT_RAND) < 0 || PyModule_AddIntConstant(m, "BOT_EFF", BOT_EFF) < 0 ||
        PyModule_AddIntConstant(m, "BOT_FAN", BOT_FAN) < 0 || PyModule_AddIntConstant(m, "BOT_EV", BOT_EV) < 0 ||
        PyModule_AddIntConstant(m, "BOT_EV3", BOT_EV3) < 0 ||
        PyModule_AddObject(m, "RL_LAYOUT", Py_BuildValue("(iiiiiiiiiiiiiiiiiiiiiiiii)", RL_OWN, RL_DRAWN, RL_OFFER,
                                                         RL_UNSEEN, RL_PREVALENT, RL_SEAT_WIND, RL_SCALARS, RL_JING,
                                                         RL_GLOBAL_ROWS, RL_B_MELDS, RL_B_POND, RL_B_INFO, RL_B_ORDER,
                                                         RL_B_CLAIMED, RL_B_SEQ, RL_BLOCK_ROWS, RL_ROWS,
                                                         RL_INFO_CONCEALED, RL_INFO_SCORE, RL_INFO_WIND, RL_INFO_DEALER,
                                                         RL_INFO_CURRENT, RL_INFO_DISCARDS, RL_MAX_DISCARDS,
                                                         RL_ACTIONS)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
