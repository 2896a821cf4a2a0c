/* majiang._speedups.winshape — the MCR winning-shape test, compiled: the CPython glue of
 * winshape_core.h (the C twin of majiang.mcr.shapes.is_win_shape, tested equal to it in
 * tests/mcr/test_winshape_fast.py).  counts: a sequence of 34 ints (concealed tiles incl. the winning one). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "winshape_core.h"

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

PyMODINIT_FUNC PyInit_winshape(void) { return PyModule_Create(&module); }
