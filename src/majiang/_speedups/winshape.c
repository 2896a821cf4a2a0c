/* Fast MCR winning-shape test: the C twin of majiang.mcr.shapes.is_win_shape
 * (tested equal to it in tests/mcr/test_winshape_fast.py).  counts: a sequence of 34 ints (concealed tiles incl. the winning one). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static const int ORPHANS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
static int KNITTED[6][9];

static int sets_only(int *c, int i) {
    while (i < 9 && c[i] == 0) i++;
    if (i == 9) return 1;
    if (c[i] >= 3) {
        c[i] -= 3;
        int ok = sets_only(c, i);
        c[i] += 3;
        if (ok) return 1;
    }
    if (i <= 6 && c[i + 1] && c[i + 2]) {
        c[i]--; c[i + 1]--; c[i + 2]--;
        int ok = sets_only(c, i);
        c[i]++; c[i + 1]++; c[i + 2]++;
        return ok;
    }
    return 0;
}

static int suit_splits(int *c) {
    int n = 0;
    for (int i = 0; i < 9; i++) n += c[i];
    if (n % 3 == 1) return 0;
    if (n % 3 == 0) return sets_only(c, 0);
    for (int i = 0; i < 9; i++) {
        if (c[i] >= 2) {
            c[i] -= 2;
            int ok = sets_only(c, 0);
            c[i] += 2;
            if (ok) return 1;
        }
    }
    return 0;
}

static int regular(int *c) {
    int pairs = 0;
    for (int base = 0; base < 27; base += 9) {
        int n = 0;
        for (int i = 0; i < 9; i++) n += c[base + i];
        if (n == 0) continue;
        if (n % 3 == 1 || !suit_splits(c + base)) return 0;
        if (n % 3 == 2) pairs++;
    }
    for (int t = 27; t < 34; t++) {
        if (c[t] == 2) pairs++;
        else if (c[t] == 1 || c[t] == 4) return 0;
    }
    return pairs == 1;
}

static int win_shape(int *c, int n_melds) {
    if (regular(c)) return 1;
    int kinds = 0;
    for (int t = 0; t < 34; t++) if (c[t]) kinds++;
    if (n_melds == 0) {
        int even = 1;
        for (int t = 0; t < 34; t++) if (c[t] & 1) { even = 0; break; }
        if (even) return 1;
        if (kinds == 13) {
            int ok = 1;
            for (int k = 0; k < 13; k++) if (!c[ORPHANS[k]]) { ok = 0; break; }
            if (ok) return 1;
        }
        if (kinds == 14) {
            int numbered = 0;
            for (int t = 0; t < 27; t++) if (c[t]) numbered++;
            if (numbered >= 7 && numbered <= 9) {
                for (int k = 0; k < 6; k++) {
                    int in = 0;
                    for (int j = 0; j < 9; j++) if (c[KNITTED[k][j]]) in++;
                    if (in == numbered) return 1;
                }
            }
        }
    }
    if (n_melds <= 1 && kinds >= 9) {
        for (int k = 0; k < 6; k++) {
            int all = 1;
            for (int j = 0; j < 9; j++) if (!c[KNITTED[k][j]]) { all = 0; break; }
            if (all) {
                int rest[34];
                memcpy(rest, c, sizeof(rest));
                for (int j = 0; j < 9; j++) rest[KNITTED[k][j]]--;
                return regular(rest);
            }
        }
    }
    return 0;
}

static int read_counts(PyObject *seq, int *c) {
    PyObject *fast = PySequence_Fast(seq, "counts must be a sequence of 34 ints");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 34) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "counts must have 34 entries");
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (int i = 0; i < 34; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (v < 0 || v > 8) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "count out of range"); return -1; }
        c[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *py_is_win_shape(PyObject *self, PyObject *args) {
    PyObject *seq;
    int n_melds;
    if (!PyArg_ParseTuple(args, "Oi", &seq, &n_melds)) return NULL;
    int c[34];
    if (read_counts(seq, c) < 0) return NULL;
    return PyBool_FromLong(win_shape(c, n_melds));
}

static PyObject *py_is_win_shape_with(PyObject *self, PyObject *args) {
    /* counts + one extra tile (a discard), without building a new list in Python */
    PyObject *seq;
    int n_melds, tile;
    if (!PyArg_ParseTuple(args, "Oii", &seq, &n_melds, &tile)) return NULL;
    int c[34];
    if (read_counts(seq, c) < 0) return NULL;
    if (tile < 0 || tile >= 34) { PyErr_SetString(PyExc_ValueError, "tile out of range"); return NULL; }
    c[tile]++;
    return PyBool_FromLong(win_shape(c, n_melds));
}

static PyObject *py_waits(PyObject *self, PyObject *args) {
    /* tiles that complete counts (3k+1 tiles) into a winning shape */
    PyObject *seq;
    int n_melds;
    if (!PyArg_ParseTuple(args, "Oi", &seq, &n_melds)) return NULL;
    int c[34];
    if (read_counts(seq, c) < 0) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int t = 0; t < 34; t++) {
        c[t]++;
        int ok = win_shape(c, n_melds);
        c[t]--;
        if (ok) {
            PyObject *v = PyLong_FromLong(t);
            if (!v || PyList_Append(out, v) < 0) { Py_XDECREF(v); Py_DECREF(out); return NULL; }
            Py_DECREF(v);
        }
    }
    return out;
}

static PyMethodDef methods[] = {
    {"is_win_shape", py_is_win_shape, METH_VARARGS, "is_win_shape(counts, n_melds) -> bool"},
    {"is_win_shape_with", py_is_win_shape_with, METH_VARARGS, "is_win_shape_with(counts, n_melds, tile) -> bool"},
    {"waits", py_waits, METH_VARARGS, "waits(counts, n_melds) -> list of tiles completing the hand"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "winshape", "Fast MCR winning-shape tests.", -1, methods};

PyMODINIT_FUNC PyInit_winshape(void) {
    /* the six knitted straights: 147/258/369 over m, p, s (tiles 0-8 m, 9-17 p, 18-26 s) */
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int k = 0; k < 6; k++) {
        int j = 0;
        for (int s = 0; s < 3; s++) {
            int offset = perms[k][s];
            for (int r = 0; r < 3; r++) KNITTED[k][j++] = s * 9 + offset + 3 * r;
        }
    }
    return PyModule_Create(&module);
}
