/* majiang._speedups.shanten — the compiled fast path of majiang.shanten (向听数): the CPython glue.
 *
 * The computation is shanten_core.h (plain C, shared with the compiled hand core); the readable
 * definitions are in src/majiang/shanten/forms.py and the pure-Python table-driven path in
 * _tables.py; this module computes exactly the same numbers (the tests check it on every test hand).
 *
 * Functions (positional arguments, counts = 34 copies-per-tile of the concealed hand, 0..4):
 *   shanten(counts, melds)          lowest shanten over the forms
 *   forms(counts, melds)            per-form tuple (None where a form does not apply)
 *   useful(counts, melds, form)     bit mask of useful tiles (form -1 = overall), 13-tile hands
 *   discards(counts, melds)         [(tile, shanten after, useful mask)] for 14-tile hands
 *   best_discards(counts, melds, unseen)  the bots' discard choice in one call
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "shanten_core.h"

/* ---- Python glue ------------------------------------------------------------------------------- */

static int ensure_tables(void) {
    if (shanten_tables() < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Read (counts, melds[, ...]) into c; returns the hand size counting a meld as three, or -1. */
static int read_hand(PyObject *const *args, Py_ssize_t nargs, unsigned char *c, int *melds) {
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "expected the 34 tile counts");
        return -1;
    }
    *melds = 0;
    if (nargs >= 2) {
        long m = PyLong_AsLong(args[1]);
        if (m == -1 && PyErr_Occurred()) return -1;
        if (m < 0 || m > 4) {
            PyErr_Format(PyExc_ValueError, "melds must be 0-4, got %ld", m);
            return -1;
        }
        *melds = (int)m;
    }
    PyObject *seq = PySequence_Fast(args[0], "tile counts must be a sequence of 34 integers");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != NK) {
        PyErr_Format(PyExc_ValueError, "expected 34 tile counts, got %zd", PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    int total = 0;
    for (int t = 0; t < NK; t++) {
        long n = PyLong_AsLong(items[t]);
        if (n == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (n < 0 || n > 4) {
            PyErr_Format(PyExc_ValueError, "tile %d: %ld copies (0-4 allowed)", t, n);
            Py_DECREF(seq);
            return -1;
        }
        c[t] = (unsigned char)n;
        total += (int)n;
    }
    Py_DECREF(seq);
    return total + 3 * *melds;
}

static int check_size(int size, int melds, int want13, int want14) {
    if ((size == 13 && want13) || (size == 14 && want14)) return 0;
    PyErr_Format(PyExc_ValueError,
                 "not a hand: %d concealed tiles with %d melds (need %s in all, kongs as three)",
                 size - 3 * melds, melds, want13 && want14 ? "13 or 14" : want13 ? "13" : "14");
    return -1;
}

static PyObject *py_shanten(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    unsigned char c[NK];
    int melds, size;
    if (nargs > 2) return PyErr_Format(PyExc_TypeError, "shanten() takes at most 2 arguments");
    if ((size = read_hand(args, nargs, c, &melds)) < 0 || check_size(size, melds, 1, 1)) return NULL;
    if (ensure_tables()) return NULL;
    return PyLong_FromLong(overall(c, melds));
}

static PyObject *py_forms(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    unsigned char c[NK];
    int melds, size;
    if (nargs > 2) return PyErr_Format(PyExc_TypeError, "forms() takes at most 2 arguments");
    if ((size = read_hand(args, nargs, c, &melds)) < 0 || check_size(size, melds, 1, 1)) return NULL;
    if (ensure_tables()) return NULL;
    PyObject *out = PyTuple_New(5);
    if (!out) return NULL;
    for (int f = 0; f < 5; f++) {
        int v = form_value(c, melds, f);
        PyObject *item;
        if (v == NA) {
            item = Py_None;
            Py_INCREF(item);
        } else if (!(item = PyLong_FromLong(v))) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, f, item);
    }
    return out;
}

static PyObject *py_useful(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    unsigned char c[NK];
    int melds, size;
    long form = -1;
    if (nargs > 3) return PyErr_Format(PyExc_TypeError, "useful() takes at most 3 arguments");
    if ((size = read_hand(args, nargs, c, &melds)) < 0 || check_size(size, melds, 1, 0)) return NULL;
    if (nargs == 3 && args[2] != Py_None) {
        form = PyLong_AsLong(args[2]);
        if (form == -1 && PyErr_Occurred()) return NULL;
        if (form < -1 || form > 4) return PyErr_Format(PyExc_ValueError, "form must be -1 (all) or 0-4, got %ld", form);
    }
    if (ensure_tables()) return NULL;
    return PyLong_FromUnsignedLongLong(useful_mask(c, melds, (int)form));
}

static PyObject *py_discards(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    unsigned char c[NK];
    int melds, size;
    if (nargs > 2) return PyErr_Format(PyExc_TypeError, "discards() takes at most 2 arguments");
    if ((size = read_hand(args, nargs, c, &melds)) < 0 || check_size(size, melds, 0, 1)) return NULL;
    if (ensure_tables()) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int t = 0; t < NK; t++) {
        if (!c[t]) continue;
        c[t]--;
        int s = overall(c, melds);
        unsigned long long mask = useful_mask(c, melds, -1);
        c[t]++;
        PyObject *row = Py_BuildValue("(iiK)", t, s, mask);
        if (!row || PyList_Append(out, row) < 0) {
            Py_XDECREF(row);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(row);
    }
    return out;
}

/* The bots' discard choice in one call: for a 14-tile hand, the discards that keep the lowest shanten,
 * each with how many copies of its useful tiles are unseen (unseen[t] per tile).
 * Returns [(shanten, unseen useful copies, tile)] in tile order. */
static PyObject *py_best_discards(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    unsigned char c[NK];
    int melds, size;
    long unseen[NK];
    if (nargs != 3) return PyErr_Format(PyExc_TypeError, "best_discards() takes counts, melds, unseen");
    if ((size = read_hand(args, 2, c, &melds)) < 0 || check_size(size, melds, 0, 1)) return NULL;
    PyObject *seq = PySequence_Fast(args[2], "unseen must be a sequence of 34 ints");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != NK) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "unseen must have %d entries", NK);
    }
    for (int t = 0; t < NK; t++) {
        unseen[t] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, t));
        if (unseen[t] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    if (ensure_tables()) return NULL;
    long rows[NK][3];
    int n = best_discard_rows(c, melds, unseen, rows);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *row = Py_BuildValue("(lll)", rows[i][0], rows[i][1], rows[i][2]);
        if (!row) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, row);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"best_discards", (PyCFunction)(void (*)(void))py_best_discards, METH_FASTCALL,
     "best_discards($module, counts, melds, unseen, /)\n--\n\n[(shanten, unseen useful, tile)] for the best discards."},
    {"shanten", (PyCFunction)(void (*)(void))py_shanten, METH_FASTCALL,
     "shanten($module, counts, melds=0, /)\n--\n\nThe lowest shanten over all forms."},
    {"forms", (PyCFunction)(void (*)(void))py_forms, METH_FASTCALL,
     "forms($module, counts, melds=0, /)\n--\n\nShanten per form (None where a form does not apply)."},
    {"useful", (PyCFunction)(void (*)(void))py_useful, METH_FASTCALL,
     "useful($module, counts, melds=0, form=-1, /)\n--\n\nBit mask of the useful tiles of a 13-tile hand."},
    {"discards", (PyCFunction)(void (*)(void))py_discards, METH_FASTCALL,
     "discards($module, counts, melds=0, /)\n--\n\n[(tile, shanten after, useful mask)] for a 14-tile hand."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "majiang._speedups.shanten",
    "Compiled fast path of majiang.shanten (see src/majiang/shanten/_tables.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_shanten(void) { return PyModule_Create(&module); }
