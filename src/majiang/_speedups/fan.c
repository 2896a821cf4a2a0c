/* majiang._speedups.fan — the MCR fan calculator, compiled: the CPython glue.
 *
 * The calculator itself (plain C, no CPython) is fan_core.h, a function-by-function port of the
 * readable reference in majiang/mcr/scorer.py; this file reads WinningHand / Rules / hand-json
 * objects into its structs, builds the results, and holds configure().  The Python side of the glue
 * and the design notes are in majiang/mcr/fast.py.  Everything here answers "which fans, how many
 * times" for a hand; *why* (the sources of each fan, the chosen reading) is left to the reference,
 * which a result runs lazily when asked.
 *
 * Contract: every entry point either returns exactly what the reference returns, or returns None
 * ("not mine"), and the caller then runs the reference, which produces the result or the error
 * message.  So any input that is unusual in the least (a subclass, a non-canonical tile token, a
 * flag that is not a bool, a hand that is not a win, contradictory flags ...) is simply handed back.
 *
 * Data that has one source of truth in Python (fan numbers and names, points, report order, the
 * 不重复 exclusion table, the tie-break between equal readings, tile sets, knitted straights, the
 * reference tile order, the fields of Rules) is passed in by configure() from majiang.mcr.fast, not
 * copied here.  configure() refuses fan numbers or Rules fields this build does not know.
 *
 * Tables: a bit table over base-6 suit count vectors (6^9 bits = 1.26 MB) says whether one suit's
 * tiles split into sets plus (when their number is 2 mod 3) one pair; the wait test of a hand is 34
 * lookups.  Decompositions are enumerated in the reference's order with pruning.  C99, CPython API.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fan_core.h"
#include "fan_api.h"

/* ------------------------------------------------------------------------------------------ */
/* the Python side's objects (set by configure())                                               */

static int configured = 0;
static PyObject *fan_member[NFAN];
static PyObject *fan_en[NFAN], *fan_zh[NFAN], *fan_points_obj[NFAN];
static PyTypeObject *FanCountT, *ScoreResultT, *ExplT, *WinningHandT, *MeldT, *RulesT;
static PyObject *kind_obj[4]; /* MeldKind members by M_* */
static PyObject *profiles;
static PyObject *empty_tuple;
static Py_ssize_t off_fc_fan, off_fc_count, off_fc_expl;
static Py_ssize_t off_sr_total, off_sr_fans, off_sr_rules, off_sr_text, off_sr_expl;
static Py_ssize_t off_ex_hand, off_ex_rules;
static Py_ssize_t off_wh_melds, off_wh_hand, off_wh_win, off_wh_self, off_wh_fourth, off_wh_kong, off_wh_last,
    off_wh_seat, off_wh_prevalent, off_wh_flowers, off_wh_rules;
static Py_ssize_t off_m_kind, off_m_tile, off_m_concealed;
#define MAX_WH_FIELDS 32
static Py_ssize_t off_wh_all[MAX_WH_FIELDS], off_wh_extra; /* every WinningHand field, and `extra` */
static int n_wh_all = 0;

static PyObject *s_total, *s_fans, *s_valid, *s_below, *s_name, *s_zh, *s_points, *s_count;
static PyObject *k_melds, *k_hand, *k_win_tile, *k_self_drawn, *k_fourth_tile, *k_kong, *k_last_tile,
    *k_seat_wind, *k_prevalent_wind, *k_flowers, *k_rules, *k_kind, *k_tiles, *k_concealed, *k_claimed, *k_from,
    *k_switches;
static PyObject *wind_names[8]; /* E S W N 东 南 西 北 */
static PyObject *s_gb, *s_minfan, *s_switch[NSW];

/* ------------------------------------------------------------------------------------------ */
/* reading Python objects                                                                       */

#define SLOT(o, off) (*(PyObject **)((char *)(o) + (off)))

static inline void put_slot(PyObject *o, Py_ssize_t off, PyObject *v) {
    PyObject **p = (PyObject **)((char *)o + off);
    PyObject *old = *p;
    *p = v;
    Py_XDECREF(old);
}

/* an exact int in [lo, hi] */
static int small_int(PyObject *o, long lo, long hi, long *out) {
    if (!o || !PyLong_CheckExact(o)) return 0;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    if (v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

static int exact_bool(PyObject *o, int *out) {
    if (o == Py_True) *out = 1;
    else if (o == Py_False) *out = 0;
    else return 0;
    return 1;
}

/* a tile or meld sequence: tuple or list */
static int seq_items(PyObject *o, PyObject *const **items, Py_ssize_t *n) {
    if (PyTuple_CheckExact(o)) {
        *items = PySequence_Fast_ITEMS(o);
        *n = PyTuple_GET_SIZE(o);
        return 1;
    }
    if (PyList_CheckExact(o)) {
        *items = PySequence_Fast_ITEMS(o);
        *n = PyList_GET_SIZE(o);
        return 1;
    }
    return 0;
}

static int read_winning_hand(PyObject *o, hand_t *h, PyObject **rules_name) {
    if (Py_TYPE(o) != WinningHandT) return 0;
    PyObject *const *items;
    Py_ssize_t n;
    PyObject *melds = SLOT(o, off_wh_melds);
    if (!melds || !PyTuple_CheckExact(melds) || !seq_items(melds, &items, &n) || n > 4) return 0;
    h->nmelds = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *m = items[i];
        if (Py_TYPE(m) != MeldT) return 0;
        PyObject *kind = SLOT(m, off_m_kind);
        int k = kind == kind_obj[M_CHOW] ? M_CHOW : kind == kind_obj[M_PUNG] ? M_PUNG
              : kind == kind_obj[M_KONG] ? M_KONG : 0;
        long tile;
        int conc;
        if (!k || !small_int(SLOT(m, off_m_tile), 0, NK - 1, &tile) || !exact_bool(SLOT(m, off_m_concealed), &conc))
            return 0;
        if (k == M_CHOW && (tile >= 27 || tile % 9 > 6 || conc)) return 0;
        if (k == M_PUNG && conc) return 0;
        h->mkind[i] = (uint8_t)k;
        h->mtile[i] = (uint8_t)tile;
        h->mconc[i] = (uint8_t)conc;
    }
    PyObject *hand = SLOT(o, off_wh_hand);
    if (!hand || !PyTuple_CheckExact(hand) || !seq_items(hand, &items, &n) || n > 14) return 0;
    h->nhand = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        long tile;
        if (!small_int(items[i], 0, NK - 1, &tile)) return 0;
        h->hand[i] = (uint8_t)tile;
    }
    long win;
    if (!small_int(SLOT(o, off_wh_win), 0, NK - 1, &win)) return 0;
    h->win = (int)win;
    if (!exact_bool(SLOT(o, off_wh_self), &h->self_drawn) || !exact_bool(SLOT(o, off_wh_fourth), &h->fourth_tile) ||
        !exact_bool(SLOT(o, off_wh_kong), &h->kong) || !exact_bool(SLOT(o, off_wh_last), &h->wall_last))
        return 0;
    if (!small_int(SLOT(o, off_wh_seat), 0, 3, &h->seat) || !small_int(SLOT(o, off_wh_prevalent), 0, 3, &h->prevalent) ||
        !small_int(SLOT(o, off_wh_flowers), 0, 8, &h->flowers))
        return 0;
    PyObject *rn = SLOT(o, off_wh_rules);
    if (!rn || !PyUnicode_CheckExact(rn)) return 0;
    *rules_name = rn;
    return 1;
}

/* rule switches, cached by Rules object (they are frozen) */
#define RULES_CACHE 8
static PyObject *rules_cache_obj[RULES_CACHE];
static rules_t rules_cache_val[RULES_CACHE];
static int rules_cache_next = 0;

static int attr_true(PyObject *o, PyObject *name, int *out) {
    PyObject *v = PyObject_GetAttr(o, name);
    if (!v) return 0;
    int b = PyObject_IsTrue(v);
    Py_DECREF(v);
    if (b < 0) return 0;
    *out = b;
    return 1;
}

static int read_rules(PyObject *rules, rules_t *r) {
    for (int i = 0; i < RULES_CACHE; i++)
        if (rules_cache_obj[i] == rules) {
            *r = rules_cache_val[i];
            return 1;
        }
    rules_t v;
    for (int i = 0; i < NSW; i++)
        if (!attr_true(rules, s_switch[i], &v.sw[i])) {
            PyErr_Clear();
            return 0;
        }
    PyObject *mf = PyObject_GetAttr(rules, s_minfan);
    if (!mf) {
        PyErr_Clear();
        return 0;
    }
    v.min_fan_ok = small_int(mf, -1000000, 1000000, &v.min_fan);
    Py_DECREF(mf);
    int slot = rules_cache_next;
    rules_cache_next = (rules_cache_next + 1) % RULES_CACHE;
    Py_XSETREF(rules_cache_obj[slot], Py_NewRef(rules));
    rules_cache_val[slot] = v;
    *r = v;
    return 1;
}

/* rules.get_rules(rules if rules is not None else hand.rules): a borrowed Rules, or NULL */
static PyObject *resolve_rules(PyObject *rules, PyObject *name, rules_t *r) {
    PyObject *obj;
    if (rules == Py_None) rules = name;
    if (PyUnicode_CheckExact(rules)) {
        obj = PyDict_GetItemWithError(profiles, rules);
        if (!obj) {
            PyErr_Clear();
            return NULL;
        }
    } else {
        obj = rules;
    }
    if (Py_TYPE(obj) != RulesT) return NULL; /* a subclass may mean more than the fields read here */
    if (!read_rules(obj, r)) return NULL;
    return obj;
}

/* ------------------------------------------------------------------------------------------ */
/* building results                                                                             */

/* A bare instance of a result class, its slots filled by the caller.  Results cannot be part of a
 * reference cycle: a ScoreResult holds its FanCounts, both hold the _Explanation, which holds the
 * (frozen) Rules and its own copy of the hand — tuples of ints and frozen Melds, and a fresh empty
 * `extra` dict nobody else sees, never the caller's hand, whose `extra` could come to hold the
 * result — and, once asked, the reference's own result, which points at none of these.  So they are
 * untracked by the cycle collector: a list of many results then costs the collector nothing, like
 * the tuples of ints and strings other calculators return. */
static PyObject *new_instance(PyTypeObject *tp) {
    PyObject *o = tp->tp_alloc(tp, 0);
    if (o && PyObject_IS_GC(o)) PyObject_GC_UnTrack(o);
    return o;
}

static PyObject *make_score_result(const hand_t *h, const fantab_t *t, PyObject *hand, PyObject *rules) {
    (void)h;
    PyObject *expl = new_instance(ExplT);
    if (!expl) return NULL;
    PyObject *copy = new_instance(WinningHandT), *extra = PyDict_New();
    if (!copy || !extra) {
        Py_XDECREF(copy);
        Py_XDECREF(extra);
        Py_DECREF(expl);
        return NULL;
    }
    for (int i = 0; i < n_wh_all; i++)
        if (off_wh_all[i] != off_wh_extra) put_slot(copy, off_wh_all[i], Py_XNewRef(SLOT(hand, off_wh_all[i])));
    put_slot(copy, off_wh_extra, extra);
    put_slot(expl, off_ex_hand, copy);
    put_slot(expl, off_ex_rules, Py_NewRef(rules));
    int n = 0;
    long total = 0;
    for (int i = 0; i < n_report; i++)
        if (t->c[REPORT[i]]) n++;
    PyObject *fans = PyTuple_New(n);
    if (!fans) goto fail;
    PyObject_GC_UnTrack(fans);
    n = 0;
    for (int i = 0; i < n_report; i++) {
        int f = REPORT[i], cnt = t->c[f];
        if (!cnt) continue;
        total += (long)POINTS[f] * cnt;
        PyObject *fc = new_instance(FanCountT);
        if (!fc) goto fail;
        PyTuple_SET_ITEM(fans, n++, fc);
        PyObject *count = PyLong_FromLong(cnt);
        if (!count) goto fail;
        put_slot(fc, off_fc_fan, Py_NewRef(fan_member[f]));
        put_slot(fc, off_fc_count, count);
        put_slot(fc, off_fc_expl, Py_NewRef(expl));
    }
    PyObject *res = new_instance(ScoreResultT);
    if (!res) goto fail;
    PyObject *tot = PyLong_FromLong(total);
    if (!tot) {
        Py_DECREF(res);
        goto fail;
    }
    put_slot(res, off_sr_total, tot);
    put_slot(res, off_sr_fans, fans);
    put_slot(res, off_sr_rules, Py_NewRef(rules));
    put_slot(res, off_sr_text, Py_NewRef(empty_tuple));
    put_slot(res, off_sr_expl, expl);
    return res;
fail:
    Py_XDECREF(fans);
    Py_DECREF(expl);
    return NULL;
}

static int dict_set_steal(PyObject *d, PyObject *k, PyObject *v) {
    if (!v) return -1;
    int rc = PyDict_SetItem(d, k, v);
    Py_DECREF(v);
    return rc;
}

/* ScoreResult.to_dict(explain=False) */
static PyObject *make_result_dict(const hand_t *h, const fantab_t *t) {
    int n = 0;
    long total = 0;
    for (int i = 0; i < n_report; i++)
        if (t->c[REPORT[i]]) n++;
    PyObject *fans = PyList_New(n);
    if (!fans) return NULL;
    n = 0;
    for (int i = 0; i < n_report; i++) {
        int f = REPORT[i], cnt = t->c[f];
        if (!cnt) continue;
        total += (long)POINTS[f] * cnt;
        PyObject *fd = PyDict_New();
        if (!fd) goto fail;
        PyList_SET_ITEM(fans, n++, fd);
        if (PyDict_SetItem(fd, s_name, fan_en[f]) < 0 || PyDict_SetItem(fd, s_zh, fan_zh[f]) < 0 ||
            PyDict_SetItem(fd, s_points, fan_points_obj[f]) < 0 || dict_set_steal(fd, s_count, PyLong_FromLong(cnt)) < 0)
            goto fail;
    }
    long fan_points = total - (long)POINTS[F_FLOWER_TILES] * t->c[F_FLOWER_TILES];
    int below = fan_points < h->r.min_fan;
    PyObject *d = PyDict_New();
    if (!d) goto fail;
    if (dict_set_steal(d, s_total, PyLong_FromLong(total)) < 0 || PyDict_SetItem(d, s_fans, fans) < 0 ||
        PyDict_SetItem(d, s_valid, below ? Py_False : Py_True) < 0 ||
        PyDict_SetItem(d, s_below, below ? Py_True : Py_False) < 0) {
        Py_DECREF(d);
        goto fail;
    }
    Py_DECREF(fans);
    return d;
fail:
    Py_DECREF(fans);
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* hand-json (WinningHand.from_dict), canonical spellings only                                  */

/* tiles.parse_tile for the plain spellings: 1m–9s, E S W N C F P, 1z–7z, f1–f8; -1 otherwise */
static int parse_token(PyObject *s) {
    if (!PyUnicode_Check(s) || PyUnicode_KIND(s) != PyUnicode_1BYTE_KIND) return -1;
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    const Py_UCS1 *d = PyUnicode_1BYTE_DATA(s);
    if (n == 1) {
        switch (d[0]) {
        case 'E': return 27;
        case 'S': return 28;
        case 'W': return 29;
        case 'N': return 30;
        case 'C': return 31;
        case 'F': return 32;
        case 'P': return 33;
        default: return -1;
        }
    }
    if (n != 2) return -1;
    int a = d[0], b = d[1];
    if (a >= '1' && a <= '9') {
        int r = a - '1';
        if (b == 'm') return r;
        if (b == 'p') return 9 + r;
        if (b == 's') return 18 + r;
        if (b == 'z' && r < 7) {
            static const int riichi[7] = {27, 28, 29, 30, 33, 32, 31}; /* 1z–7z = E S W N P F C */
            return riichi[r];
        }
        return -1;
    }
    if (a == 'f' && b >= '1' && b <= '8') return NK + (b - '1');
    return -1;
}

/* d.get(key) as a borrowed reference; NULL when absent (or on error, cleared) */
static PyObject *dget(PyObject *d, PyObject *key) {
    PyObject *v = PyDict_GetItemWithError(d, key);
    if (!v && PyErr_Occurred()) PyErr_Clear();
    return v;
}

static int opt_bool(PyObject *d, PyObject *key, int *out) {
    PyObject *v = dget(d, key);
    if (!v) {
        *out = 0;
        return 1;
    }
    return exact_bool(v, out);
}

static int opt_wind(PyObject *d, PyObject *key, long *out) {
    PyObject *v = dget(d, key);
    if (!v) {
        *out = 0;
        return 1;
    }
    if (PyLong_CheckExact(v)) return small_int(v, 0, 3, out);
    if (!PyUnicode_Check(v)) return 0;
    for (int i = 0; i < 8; i++)
        if (PyUnicode_Compare(v, wind_names[i]) == 0) {
            *out = i % 4;
            return 1;
        }
    PyErr_Clear();
    return 0;
}

static int read_meld_dict(PyObject *md, hand_t *h, int i) {
    if (!PyDict_CheckExact(md)) return 0;
    PyObject *kind = dget(md, k_kind);
    if (!kind || !PyUnicode_Check(kind)) return 0;
    int k;
    if (PyUnicode_CompareWithASCIIString(kind, "chow") == 0) k = M_CHOW;
    else if (PyUnicode_CompareWithASCIIString(kind, "pung") == 0) k = M_PUNG;
    else if (PyUnicode_CompareWithASCIIString(kind, "kong") == 0) k = M_KONG;
    else return 0;
    PyObject *tiles = dget(md, k_tiles);
    PyObject *const *items;
    Py_ssize_t n;
    if (!tiles || !seq_items(tiles, &items, &n) || n < 3 || n > 4) return 0;
    int ts[4];
    for (Py_ssize_t j = 0; j < n; j++) {
        int t = parse_token(items[j]);
        if (t < 0 || t >= NK) return 0;
        ts[j] = t;
    }
    for (int a = 1; a < n; a++) /* sort */
        for (int b = a; b > 0 && ts[b - 1] > ts[b]; b--) {
            int x = ts[b];
            ts[b] = ts[b - 1];
            ts[b - 1] = x;
        }
    int found;
    if (n == 4 && ts[0] == ts[3]) found = M_KONG;
    else if (n == 3 && ts[0] == ts[2]) found = M_PUNG;
    else if (n == 3 && ts[0] < 27 && ts[1] == ts[0] + 1 && ts[2] == ts[0] + 2 && ts[0] % 9 <= 6) found = M_CHOW;
    else return 0;
    if (found != k) return 0;
    int conc;
    if (!opt_bool(md, k_concealed, &conc)) return 0;
    if (conc && k != M_KONG) return 0;
    PyObject *claimed = dget(md, k_claimed), *source = dget(md, k_from);
    long v;
    if (claimed && claimed != Py_None) {
        if (!PyLong_CheckExact(claimed)) return 0;
        if (k == M_CHOW && !small_int(claimed, 0, 2, &v)) return 0;
    }
    if (source && source != Py_None) {
        if (!PyLong_CheckExact(source)) return 0;
        if (k != M_CHOW && !conc && !small_int(source, 1, 3, &v)) return 0;
    }
    h->mkind[i] = (uint8_t)k;
    h->mtile[i] = (uint8_t)ts[0];
    h->mconc[i] = (uint8_t)conc;
    return 1;
}

static int read_hand_dict(PyObject *d, hand_t *h, PyObject **rules_name) {
    if (!PyDict_CheckExact(d)) return 0;
    if (dget(d, k_switches)) return 0; /* a line's own switches: the reference reads them */
    PyObject *const *items;
    Py_ssize_t n;
    PyObject *melds = dget(d, k_melds);
    if (!melds) {
        h->nmelds = 0;
    } else {
        if (!PyList_CheckExact(melds)) return 0;
        if (!seq_items(melds, &items, &n) || n > 4) return 0;
        h->nmelds = (int)n;
        for (Py_ssize_t i = 0; i < n; i++)
            if (!read_meld_dict(items[i], h, (int)i)) return 0;
    }
    PyObject *hand = dget(d, k_hand);
    if (!hand || !PyList_CheckExact(hand) || !seq_items(hand, &items, &n) || n > 14) return 0;
    h->nhand = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        int t = parse_token(items[i]);
        if (t < 0 || t >= NK) return 0;
        h->hand[i] = (uint8_t)t;
    }
    PyObject *win = dget(d, k_win_tile);
    if (!win) return 0;
    int w = parse_token(win);
    if (w < 0 || w >= NK) return 0;
    h->win = w;
    PyObject *fl = dget(d, k_flowers);
    if (!fl) {
        h->flowers = 0;
    } else if (PyList_CheckExact(fl)) {
        if (!seq_items(fl, &items, &n)) return 0;
        for (Py_ssize_t i = 0; i < n; i++)
            if (parse_token(items[i]) < 0) return 0;
        h->flowers = (long)n;
    } else if (!small_int(fl, 0, 8, &h->flowers)) {
        return 0;
    }
    PyObject *rn = dget(d, k_rules);
    if (!rn) rn = s_gb;
    if (!PyUnicode_CheckExact(rn)) return 0;
    *rules_name = rn;
    if (!opt_bool(d, k_self_drawn, &h->self_drawn) || !opt_bool(d, k_fourth_tile, &h->fourth_tile) ||
        !opt_bool(d, k_kong, &h->kong) || !opt_bool(d, k_last_tile, &h->wall_last))
        return 0;
    if (!opt_wind(d, k_seat_wind, &h->seat) || !opt_wind(d, k_prevalent_wind, &h->prevalent)) return 0;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* module functions                                                                             */

static int check_configured(void) {
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "majiang._speedups.fan: configure() was not called");
        return 0;
    }
    return 1;
}

/* the fast result, a new reference; Py_None (new ref) for "not mine"; NULL on a Python error */
static PyObject *score_one(PyObject *hand, PyObject *rules) {
    hand_t h;
    PyObject *name;
    fantab_t t;
    if (!read_winning_hand(hand, &h, &name)) Py_RETURN_NONE;
    PyObject *robj = resolve_rules(rules, name, &h.r);
    if (!robj || !compute(&h, &t)) Py_RETURN_NONE;
    return make_score_result(&h, &t, hand, robj);
}

PyDoc_STRVAR(score_doc, "score(hand, rules, /) -> ScoreResult | None\n\n"
                        "The fans of a WinningHand (rules: None, a profile name or Rules); None when the\n"
                        "reference implementation must answer (an error, or an input this path does not take).");

static PyObject *fan_score(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "score(hand, rules) takes 2 arguments");
        return NULL;
    }
    if (!check_configured()) return NULL;
    return score_one(args[0], args[1]);
}

PyDoc_STRVAR(score_many_doc, "score_many(hands, rules, reference, /) -> list[ScoreResult]\n\n"
                             "score() over an iterable; reference(hand, rules) answers what score() hands back.");

static PyObject *fan_score_many(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "score_many(hands, rules, reference) takes 3 arguments");
        return NULL;
    }
    if (!check_configured()) return NULL;
    PyObject *rules = args[1], *reference = args[2];
    PyObject *it = PyObject_GetIter(args[0]);
    if (!it) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) {
        Py_DECREF(it);
        return NULL;
    }
    PyObject *item;
    while ((item = PyIter_Next(it))) {
        PyObject *r = score_one(item, rules);
        if (r == Py_None) {
            Py_DECREF(r);
            PyObject *cargs[2] = {item, rules};
            r = PyObject_Vectorcall(reference, cargs, 2, NULL);
        }
        Py_DECREF(item);
        if (!r || PyList_Append(out, r) < 0) {
            Py_XDECREF(r);
            Py_DECREF(it);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(r);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

PyDoc_STRVAR(score_dict_doc, "score_dict(d, /) -> dict | None\n\n"
                             "score_dict(d, explain=False) for a hand-json dict; None when the reference must answer.");

static PyObject *fan_score_dict(PyObject *mod, PyObject *d) {
    (void)mod;
    if (!check_configured()) return NULL;
    hand_t h;
    PyObject *name;
    fantab_t t;
    if (!read_hand_dict(d, &h, &name)) Py_RETURN_NONE;
    if (!resolve_rules(name, name, &h.r) || !h.r.min_fan_ok || !compute(&h, &t)) Py_RETURN_NONE;
    return make_result_dict(&h, &t);
}

/* configure(dict): see majiang.mcr.fast.bind */

static PyObject *cfg_get(PyObject *cfg, const char *key) {
    PyObject *v = PyDict_GetItemString(cfg, key);
    if (!v) PyErr_Format(PyExc_KeyError, "configure: missing %s", key);
    return v;
}

static Py_ssize_t slot_offset(PyObject *tp, const char *name) {
    PyObject *d = PyObject_GetAttrString(tp, name);
    if (!d) return -1;
    if (Py_TYPE(d) != &PyMemberDescr_Type) {
        PyErr_Format(PyExc_TypeError, "configure: %R.%s is not a slot", tp, name);
        Py_DECREF(d);
        return -1;
    }
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    Py_ssize_t off = m->offset;
    int ok = m->type == T_OBJECT_EX && !(m->flags & READONLY);
    Py_DECREF(d);
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "configure: %R.%s is not a writable object slot", tp, name);
        return -1;
    }
    return off;
}

static int int_list(PyObject *cfg, const char *key, int *out, int maxn, int lo, int hi) {
    PyObject *seq = cfg_get(cfg, key);
    if (!seq) return -1;
    PyObject *fast = PySequence_Fast(seq, key);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > maxn) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "configure: %s is too long", key);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < lo || v > hi) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "configure: %s holds %ld", key, v);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static int tile_mask(PyObject *cfg, const char *key, uint64_t *mask) {
    int tiles[NK];
    int n = int_list(cfg, key, tiles, NK, 0, NK - 1);
    if (n < 0) return 0;
    *mask = 0;
    for (int i = 0; i < n; i++) *mask |= 1ULL << tiles[i];
    return 1;
}

static int type_arg(PyObject *cfg, const char *key, PyTypeObject **out) {
    PyObject *v = cfg_get(cfg, key);
    if (!v) return 0;
    if (!PyType_Check(v)) {
        PyErr_Format(PyExc_TypeError, "configure: %s must be a class", key);
        return 0;
    }
    *out = (PyTypeObject *)v;
    return 1;
}

#define OFFSET(var, tp, name)                                  \
    do {                                                       \
        if ((var = slot_offset((PyObject *)(tp), name)) < 0) \
            return NULL;                                       \
    } while (0)

PyDoc_STRVAR(configure_doc, "configure(config: dict, /) -> None\n\n"
                            "Hand over the fan data and the result classes (majiang.mcr.fast.bind does this).");

static PyObject *fan_configure(PyObject *mod, PyObject *cfg) {
    (void)mod;
    if (!PyDict_Check(cfg)) {
        PyErr_SetString(PyExc_TypeError, "configure: a dict");
        return NULL;
    }
    /* fan numbers must be majiang.mcr.fans.Fan's */
    PyObject *numbers = cfg_get(cfg, "fan_numbers");
    if (!numbers) return NULL;
    if (!PyDict_Check(numbers) || PyDict_Size(numbers) != N_FAN_NAMES) {
        PyErr_SetString(PyExc_ValueError, "configure: fan_numbers does not match this build");
        return NULL;
    }
    for (int i = 0; i < N_FAN_NAMES; i++) {
        PyObject *v = PyDict_GetItemString(numbers, FAN_NAMES[i].name);
        if (!v || PyLong_AsLong(v) != FAN_NAMES[i].value) {
            PyErr_Format(PyExc_ValueError, "configure: fan %s does not match this build", FAN_NAMES[i].name);
            return NULL;
        }
    }
    PyObject *members = cfg_get(cfg, "fan_members"), *en = cfg_get(cfg, "names_en"), *zh = cfg_get(cfg, "names_zh");
    if (!members || !en || !zh) return NULL;
    if (!PyList_Check(members) || !PyList_Check(en) || !PyList_Check(zh) || PyList_GET_SIZE(members) != NFAN ||
        PyList_GET_SIZE(en) != NFAN || PyList_GET_SIZE(zh) != NFAN) {
        PyErr_SetString(PyExc_ValueError, "configure: fan_members / names_en / names_zh: lists of NFAN");
        return NULL;
    }
    int pts[NFAN];
    if (int_list(cfg, "points", pts, NFAN, 0, 1000) != NFAN) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "configure: points");
        return NULL;
    }
    int order[NFAN];
    int nord = int_list(cfg, "report_order", order, NFAN, 1, NFAN - 1);
    if (nord < 0) return NULL;
    int ded[NFAN];
    int nded = int_list(cfg, "pungs_already_deducted", ded, NFAN, 1, NFAN - 1);
    if (nded < 0) return NULL;
    int tie[NFAN];
    int ntie = int_list(cfg, "tie_break_fans", tie, NFAN, 1, NFAN - 1);
    if (ntie < 0) return NULL;
    int ref[NK];
    if (int_list(cfg, "ref_order", ref, NK, 0, NK - 1) != NK) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "configure: ref_order");
        return NULL;
    }
    uint64_t green, reversible, t13;
    if (!tile_mask(cfg, "green", &green) || !tile_mask(cfg, "reversible", &reversible) ||
        !tile_mask(cfg, "thirteen_orphans", &t13))
        return NULL;
    PyObject *ks = cfg_get(cfg, "knitted_straights");
    if (!ks) return NULL;
    PyObject *ksf = PySequence_Fast(ks, "knitted_straights");
    if (!ksf) return NULL;
    Py_ssize_t nks = PySequence_Fast_GET_SIZE(ksf);
    if (nks > 6) {
        Py_DECREF(ksf);
        PyErr_SetString(PyExc_ValueError, "configure: knitted_straights");
        return NULL;
    }
    uint64_t ksm[6];
    for (Py_ssize_t i = 0; i < nks; i++) {
        PyObject *one = PyDict_New();
        if (!one || PyDict_SetItemString(one, "k", PySequence_Fast_GET_ITEM(ksf, i)) < 0 ||
            !tile_mask(one, "k", &ksm[i])) {
            Py_XDECREF(one);
            Py_DECREF(ksf);
            return NULL;
        }
        Py_DECREF(one);
    }
    Py_DECREF(ksf);
    /* the switch contract: Rules' fields are exactly SWITCH_NAMES + NON_SWITCH_FIELDS */
    PyObject *rf = cfg_get(cfg, "rules_fields");
    if (!rf) return NULL;
    if (!PyTuple_Check(rf)) {
        PyErr_SetString(PyExc_TypeError, "configure: rules_fields: a tuple of field names");
        return NULL;
    }
    int seen[NSW] = {0};
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(rf); i++) {
        const char *name = PyUnicode_Check(PyTuple_GET_ITEM(rf, i)) ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(rf, i)) : NULL;
        if (!name) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "configure: rules_fields: a tuple of field names");
            return NULL;
        }
        int known = 0;
        for (int k = 0; k < NSW; k++)
            if (strcmp(name, SWITCH_NAMES[k]) == 0) known = 1, seen[k] = 1;
        for (int k = 0; k < N_NON_SWITCH; k++)
            if (strcmp(name, NON_SWITCH_FIELDS[k]) == 0) known = 1;
        if (!known) {
            PyErr_Format(PyExc_ValueError, "configure: unknown rule switch %R: this build of the fan port does "
                         "not implement it", PyTuple_GET_ITEM(rf, i));
            return NULL;
        }
    }
    for (int k = 0; k < NSW; k++)
        if (!seen[k]) {
            PyErr_Format(PyExc_ValueError, "configure: rule switch %s is not a field of Rules", SWITCH_NAMES[k]);
            return NULL;
        }
    /* 不重复 table: a list of (fan, [fans], switch name or None), sorted by fan */
    PyObject *excl = cfg_get(cfg, "exclusions");
    if (!excl) return NULL;
    PyObject *exf = PySequence_Fast(excl, "exclusions");
    if (!exf) return NULL;
    Py_ssize_t nex = PySequence_Fast_GET_SIZE(exf);
    if (nex > MAX_EXCL) {
        Py_DECREF(exf);
        PyErr_SetString(PyExc_ValueError, "configure: exclusions");
        return NULL;
    }
    configured = 0;
    long prev = 0;
    for (Py_ssize_t i = 0; i < nex; i++) {
        PyObject *entry = PySequence_Fast_GET_ITEM(exf, i);
        PyObject *one = PyDict_New();
        long f = -1;
        int to[NFAN], nto = -1, sw = -2;
        if (one && PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) == 3) {
            f = PyLong_AsLong(PyTuple_GET_ITEM(entry, 0));
            if (PyDict_SetItemString(one, "to", PyTuple_GET_ITEM(entry, 1)) == 0)
                nto = int_list(one, "to", to, NFAN, (int)f + 1, NFAN - 1);
            PyObject *swn = PyTuple_GET_ITEM(entry, 2);
            if (swn == Py_None) sw = -1;
            else if (PyUnicode_Check(swn))
                for (int k = 0; k < NSW; k++)
                    if (PyUnicode_CompareWithASCIIString(swn, SWITCH_NAMES[k]) == 0) sw = k;
        }
        Py_XDECREF(one);
        if (f < prev || f >= NFAN || nto < 0 || sw < -1) {
            Py_DECREF(exf);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "configure: exclusions entry (sorted by fan, excluding later "
                                "fans only, under a known switch or None)");
            return NULL;
        }
        prev = f;
        excl_src[i] = (uint8_t)f;
        excl_sw[i] = (int8_t)sw;
        excl_n[i] = (uint8_t)nto;
        for (int j = 0; j < nto; j++) excl_to[i][j] = (uint8_t)to[j];
    }
    Py_DECREF(exf);
    n_excl = (int)nex;

    /* configure() may run again (a reloaded majiang.mcr.scorer brings new classes): scoring is
     * off until everything below is in place */
    configured = 0;
    PyTypeObject *fct, *srt, *ext, *wht, *mt, *rt;
    if (!type_arg(cfg, "fan_count", &fct) || !type_arg(cfg, "score_result", &srt) ||
        !type_arg(cfg, "explanation", &ext) || !type_arg(cfg, "winning_hand", &wht) ||
        !type_arg(cfg, "meld", &mt) || !type_arg(cfg, "rules_type", &rt))
        return NULL;
    Py_XSETREF(FanCountT, (PyTypeObject *)Py_NewRef(fct));
    Py_XSETREF(ScoreResultT, (PyTypeObject *)Py_NewRef(srt));
    Py_XSETREF(ExplT, (PyTypeObject *)Py_NewRef(ext));
    Py_XSETREF(WinningHandT, (PyTypeObject *)Py_NewRef(wht));
    Py_XSETREF(MeldT, (PyTypeObject *)Py_NewRef(mt));
    Py_XSETREF(RulesT, (PyTypeObject *)Py_NewRef(rt));
    OFFSET(off_fc_fan, FanCountT, "fan");
    OFFSET(off_fc_count, FanCountT, "count");
    OFFSET(off_fc_expl, FanCountT, "_explanation");
    OFFSET(off_sr_total, ScoreResultT, "total");
    OFFSET(off_sr_fans, ScoreResultT, "fans");
    OFFSET(off_sr_rules, ScoreResultT, "rules");
    OFFSET(off_sr_text, ScoreResultT, "explain_text");
    OFFSET(off_sr_expl, ScoreResultT, "_explanation");
    OFFSET(off_ex_hand, ExplT, "hand");
    OFFSET(off_ex_rules, ExplT, "rules");
    OFFSET(off_wh_melds, WinningHandT, "melds");
    OFFSET(off_wh_hand, WinningHandT, "hand");
    OFFSET(off_wh_win, WinningHandT, "win_tile");
    OFFSET(off_wh_self, WinningHandT, "self_drawn");
    OFFSET(off_wh_fourth, WinningHandT, "fourth_tile");
    OFFSET(off_wh_kong, WinningHandT, "kong");
    OFFSET(off_wh_last, WinningHandT, "last_tile");
    OFFSET(off_wh_seat, WinningHandT, "seat_wind");
    OFFSET(off_wh_prevalent, WinningHandT, "prevalent_wind");
    OFFSET(off_wh_flowers, WinningHandT, "flowers");
    OFFSET(off_wh_rules, WinningHandT, "rules");
    PyObject *whf = cfg_get(cfg, "winning_hand_fields");
    if (!whf) return NULL;
    if (!PyTuple_Check(whf) || PyTuple_GET_SIZE(whf) > MAX_WH_FIELDS) {
        PyErr_SetString(PyExc_ValueError, "configure: winning_hand_fields: a tuple of field names");
        return NULL;
    }
    n_wh_all = 0;
    off_wh_extra = -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(whf); i++) {
        const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(whf, i));
        if (!name) return NULL;
        Py_ssize_t off = slot_offset((PyObject *)WinningHandT, name);
        if (off < 0) return NULL;
        if (strcmp(name, "extra") == 0) off_wh_extra = off;
        off_wh_all[n_wh_all++] = off;
    }
    if (off_wh_extra < 0) {
        PyErr_SetString(PyExc_ValueError, "configure: WinningHand has no `extra` field");
        return NULL;
    }
    OFFSET(off_m_kind, MeldT, "kind");
    OFFSET(off_m_tile, MeldT, "tile");
    OFFSET(off_m_concealed, MeldT, "concealed");
    PyObject *kinds = cfg_get(cfg, "meld_kinds");
    if (!kinds) return NULL;
    if (!PyTuple_Check(kinds) || PyTuple_GET_SIZE(kinds) != 3) {
        PyErr_SetString(PyExc_ValueError, "configure: meld_kinds = (chow, pung, kong)");
        return NULL;
    }
    PyObject *prof = cfg_get(cfg, "profiles");
    if (!prof) return NULL;
    if (!PyDict_Check(prof)) {
        PyErr_SetString(PyExc_TypeError, "configure: profiles must be a dict");
        return NULL;
    }
    for (int i = 0; i < 3; i++) Py_XSETREF(kind_obj[i + 1], Py_NewRef(PyTuple_GET_ITEM(kinds, i)));
    Py_XSETREF(profiles, Py_NewRef(prof));
    for (int i = 0; i < RULES_CACHE; i++) Py_CLEAR(rules_cache_obj[i]);

    for (int f = 0; f < NFAN; f++) {
        PyObject *p = PyLong_FromLong(pts[f]);
        if (!p) return NULL;
        Py_XSETREF(fan_points_obj[f], p);
        Py_XSETREF(fan_member[f], Py_NewRef(PyList_GET_ITEM(members, f)));
        Py_XSETREF(fan_en[f], Py_NewRef(PyList_GET_ITEM(en, f)));
        Py_XSETREF(fan_zh[f], Py_NewRef(PyList_GET_ITEM(zh, f)));
        POINTS[f] = pts[f];
    }
    for (int i = 0; i < nord; i++) REPORT[i] = (uint8_t)order[i];
    n_report = nord;
    for (int i = 0; i < nded; i++) deducted[i] = (uint8_t)ded[i];
    n_deducted = nded;
    for (int i = 0; i < ntie; i++) tie_break[i] = (uint8_t)tie[i];
    n_tie_break = ntie;
    for (int i = 0; i < NK; i++) REF[i] = (uint8_t)ref[i];
    GREEN_M = green;
    REVERSIBLE_M = reversible;
    T13_M = t13;
    for (Py_ssize_t i = 0; i < nks; i++) KS_M[i] = ksm[i];
    n_ks = (int)nks;
    configured = 1;
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------------ */
/* the C API for other compiled modules (fan_api.h)                                             */

static int api_configured(void) { return configured; }

static int api_rules(PyObject *rules, rules_t *r) {
    if (!configured || rules == Py_None) return 0;
    return resolve_rules(rules, rules, r) != NULL && r->min_fan_ok;
}

static int api_fan_points(const fantab_t *t) { return points_of(t) - POINTS[F_FLOWER_TILES] * t->c[F_FLOWER_TILES]; }

static fan_api_t fan_api = {FAN_API_VERSION, api_configured, api_rules, compute, points_of, api_fan_points};

static PyMethodDef fan_methods[] = {
    {"configure", (PyCFunction)fan_configure, METH_O, configure_doc},
    {"score", (PyCFunction)(void (*)(void))fan_score, METH_FASTCALL, score_doc},
    {"score_many", (PyCFunction)(void (*)(void))fan_score_many, METH_FASTCALL, score_many_doc},
    {"score_dict", (PyCFunction)fan_score_dict, METH_O, score_dict_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef fan_module = {
    PyModuleDef_HEAD_INIT, "majiang._speedups.fan",
    "The MCR fan calculator, compiled (see majiang.mcr.fast; reference: majiang.mcr.scorer).", -1, fan_methods,
    NULL, NULL, NULL, NULL,
};

#define INTERN(var, text)                                        \
    do {                                                         \
        if (!(var = PyUnicode_InternFromString(text))) return NULL; \
    } while (0)

PyMODINIT_FUNC PyInit_fan(void) {
    suit_ok = (uint8_t *)calloc(POW6[9] / 8 + 1, 1);
    if (!suit_ok) return PyErr_NoMemory();
    uint8_t cnt[9] = {0};
    build_suit_table(cnt, 0, 4);
    empty_tuple = PyTuple_New(0);
    if (!empty_tuple) return NULL;
    INTERN(s_total, "total");
    INTERN(s_fans, "fans");
    INTERN(s_valid, "valid");
    INTERN(s_below, "below_minimum");
    INTERN(s_name, "name");
    INTERN(s_zh, "zh");
    INTERN(s_points, "points");
    INTERN(s_count, "count");
    INTERN(k_melds, "melds");
    INTERN(k_hand, "hand");
    INTERN(k_win_tile, "win_tile");
    INTERN(k_self_drawn, "self_drawn");
    INTERN(k_fourth_tile, "fourth_tile");
    INTERN(k_kong, "kong");
    INTERN(k_last_tile, "last_tile");
    INTERN(k_seat_wind, "seat_wind");
    INTERN(k_prevalent_wind, "prevalent_wind");
    INTERN(k_flowers, "flowers");
    INTERN(k_rules, "rules");
    INTERN(k_switches, "switches");
    INTERN(k_kind, "kind");
    INTERN(k_tiles, "tiles");
    INTERN(k_concealed, "concealed");
    INTERN(k_claimed, "claimed");
    INTERN(k_from, "from");
    INTERN(s_gb, "gb");
    for (int i = 0; i < NSW; i++) INTERN(s_switch[i], SWITCH_NAMES[i]);
    INTERN(s_minfan, "min_fan");
    static const char *const winds_utf8[8] = {"E", "S", "W", "N", "\xe4\xb8\x9c", "\xe5\x8d\x97", "\xe8\xa5\xbf",
                                             "\xe5\x8c\x97"};
    for (int i = 0; i < 8; i++) INTERN(wind_names[i], winds_utf8[i]);
    PyObject *m = PyModule_Create(&fan_module);
    if (m && PyModule_AddIntConstant(m, "TABLE_BYTES", (long)(POW6[9] / 8 + 1)) < 0) Py_CLEAR(m);
    if (m) {
        PyObject *api = PyCapsule_New(&fan_api, FAN_API_CAPSULE, NULL);
        if (!api || PyModule_AddObject(m, "_C_API", api) < 0) {
            Py_XDECREF(api);
            Py_CLEAR(m);
        }
    }
    return m;
}
