/* Compiled fast path of majiang.rl.incremental's HandEncoder (the observation planes).  The
 * readable reference is majiang.rl.features.encode; the tests hold the planes this module fills
 * equal to it at every decision of many hands of both rulesets.
 *
 * The Python side keeps the compact per-hand state (the four seat blocks as the others see them,
 * the tile counts) and calls:
 *   fill(obs, blocks, seat, counts, visible, hidden, faced, drawn, offer, prevalent, seat_wind,
 *        wall, hand_no, phase, discards, jing, current)
 *       obs: writable C-contiguous float32 buffer of ROWS x 34 (a batch row of the vector env);
 *       blocks: float32 buffer of 4 x BLOCK_ROWS x 34; counts, visible: 34 ints; hidden: the
 *       tiles of the seat's concealed kongs (a sequence, maybe empty); faced: all the seat's meld
 *       tiles, or None (read only when hidden is not empty); drawn, offer: a tile or -1;
 *       phase: the scalar column of the phase (2-5); jing: three tiles or -1; current: the block
 *       (0-3, from the seat) holding the current-seat mark, or -1.
 *   levels(out, tiles)  out (4 x 34 float32) = the count of each kind in tiles >= 1 ... >= 4.
 * LAYOUT is the tuple of the layout constants compiled in; the Python side uses this module only
 * when it equals majiang.rl.features' own.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define NK 34
#define OWN 0
#define DRAWN 4
#define OFFER 5
#define UNSEEN 6
#define PREVALENT 10
#define SEAT_WIND 11
#define SCALARS 12
#define JING 13
#define GLOBAL_ROWS 16
#define B_MELDS 0
#define B_INFO 8
#define MAX_DISCARDS 34
#define BLOCK_ROWS (9 + MAX_DISCARDS + 3 + 1)
#define ROWS (GLOBAL_ROWS + 4 * BLOCK_ROWS)
#define INFO_CURRENT 17
#define EAST 27

static int get_floats(PyObject *o, Py_buffer *b, Py_ssize_t n, const char *what) {
    if (PyObject_GetBuffer(o, b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (b->itemsize != 4 || b->format == NULL || strcmp(b->format, "f") != 0 || b->len != n * 4) {
        PyBuffer_Release(b);
        PyErr_Format(PyExc_ValueError, "%s: a C-contiguous float32 buffer of %zd values is needed", what, n);
        return -1;
    }
    return 0;
}

/* adds the count of each tile of seq to c; -1 on error */
static int tally(PyObject *seq, int *c) {
    PyObject *f = PySequence_Fast(seq, "tiles: a sequence of ints is needed");
    if (f == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    PyObject **items = PySequence_Fast_ITEMS(f);
    for (Py_ssize_t i = 0; i < n; i++) {
        long t = PyLong_AsLong(items[i]);
        if (t == -1 && PyErr_Occurred()) goto fail;
        if (t < 0 || t >= NK) {
            PyErr_SetString(PyExc_ValueError, "tiles: a tile kind 0-33 is needed");
            goto fail;
        }
        c[t]++;
    }
    Py_DECREF(f);
    return 0;
fail:
    Py_DECREF(f);
    return -1;
}

/* reads exactly 34 ints */
static int read34(PyObject *seq, int *c) {
    PyObject *f = PySequence_Fast(seq, "counts: a sequence of 34 ints is needed");
    if (f == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(f) != NK) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "counts: 34 values are needed");
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(f);
    for (int i = 0; i < NK; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
        c[i] = (int)v;
    }
    Py_DECREF(f);
    return 0;
}

static inline void put_levels(float *rows, const int *c) {
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < NK; i++) rows[k * NK + i] = c[i] >= k + 1 ? 1.0f : 0.0f;
}

static inline void one_hot(float *row, long t) {
    if (t >= 0 && t < NK) row[t] = 1.0f;
}

static PyObject *py_levels(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "levels(out, tiles)");
        return NULL;
    }
    Py_buffer out;
    if (get_floats(args[0], &out, 4 * NK, "out") < 0) return NULL;
    int c[NK] = {0};
    if (tally(args[1], c) < 0) {
        PyBuffer_Release(&out);
        return NULL;
    }
    put_levels((float *)out.buf, c);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

static PyObject *py_fill(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 17) {
        PyErr_SetString(PyExc_TypeError,
                        "fill(obs, blocks, seat, counts, visible, hidden, faced, drawn, offer, prevalent, "
                        "seat_wind, wall, hand_no, phase, discards, jing, current)");
        return NULL;
    }
    long v[17];
    for (int i = 7; i < 15; i++) {
        v[i] = PyLong_AsLong(args[i]);
        if (v[i] == -1 && PyErr_Occurred()) return NULL;
    }
    long seat = PyLong_AsLong(args[2]);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    long current = PyLong_AsLong(args[16]);
    if (current == -1 && PyErr_Occurred()) return NULL;
    if (seat < 0 || seat > 3 || current < -1 || current > 3 || v[13] < 2 || v[13] > 5) {
        PyErr_SetString(PyExc_ValueError, "seat, current or phase out of range");
        return NULL;
    }
    long jing[3];
    PyObject *jf = PySequence_Fast(args[15], "jing: three ints are needed");
    if (jf == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(jf) != 3) {
        Py_DECREF(jf);
        PyErr_SetString(PyExc_ValueError, "jing: three ints are needed");
        return NULL;
    }
    for (int r = 0; r < 3; r++) {
        jing[r] = PyLong_AsLong(PySequence_Fast_GET_ITEM(jf, r));
        if (jing[r] == -1 && PyErr_Occurred()) {
            Py_DECREF(jf);
            return NULL;
        }
    }
    Py_DECREF(jf);
    int counts[NK], visible[NK], hidden[NK] = {0}, faced[NK] = {0};
    if (read34(args[3], counts) < 0 || read34(args[4], visible) < 0 || tally(args[5], hidden) < 0) return NULL;
    int any_hidden = 0;
    for (int i = 0; i < NK; i++) any_hidden |= hidden[i];
    if (any_hidden && args[6] != Py_None && tally(args[6], faced) < 0) return NULL;

    Py_buffer ob, bb;
    if (get_floats(args[0], &ob, ROWS * NK, "obs") < 0) return NULL;
    if (get_floats(args[1], &bb, 4 * BLOCK_ROWS * NK, "blocks") < 0) {
        PyBuffer_Release(&ob);
        return NULL;
    }
    float *obs = (float *)ob.buf;
    const float *blocks = (const float *)bb.buf;
    for (int k = 0; k < 4; k++)
        memcpy(obs + (GLOBAL_ROWS + k * BLOCK_ROWS) * NK, blocks + ((seat + k) % 4) * BLOCK_ROWS * NK,
               sizeof(float) * BLOCK_ROWS * NK);
    memset(obs, 0, sizeof(float) * GLOBAL_ROWS * NK);
    put_levels(obs + OWN * NK, counts);
    one_hot(obs + DRAWN * NK, v[7]);
    one_hot(obs + OFFER * NK, v[8]);
    int unseen[NK];
    for (int i = 0; i < NK; i++) unseen[i] = 4 - (counts[i] + visible[i] + hidden[i]);
    if (any_hidden) put_levels(obs + (GLOBAL_ROWS + B_MELDS) * NK, faced);
    put_levels(obs + UNSEEN * NK, unseen);
    one_hot(obs + PREVALENT * NK, EAST + v[9]);
    one_hot(obs + SEAT_WIND * NK, EAST + v[10]);
    float *sc = obs + SCALARS * NK;
    sc[0] = (float)((double)(v[11] < 144 ? v[11] : 144) / 144.0);
    sc[1] = (float)((double)(v[12] < 15 ? v[12] : 15) / 15.0);
    sc[v[13]] = 1.0f;
    sc[6] = (float)((double)(v[14] < 128 ? v[14] : 128) / 128.0);
    for (int r = 0; r < 3; r++) one_hot(obs + (JING + r) * NK, jing[r]);
    if (current >= 0) obs[(GLOBAL_ROWS + current * BLOCK_ROWS + B_INFO) * NK + INFO_CURRENT] = 1.0f;
    PyBuffer_Release(&bb);
    PyBuffer_Release(&ob);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"fill", (PyCFunction)(void (*)(void))py_fill, METH_FASTCALL,
     "fill($module, obs, blocks, seat, counts, visible, hidden, faced, drawn, offer, prevalent, seat_wind, "
     "wall, hand_no, phase, discards, jing, current, /)\n--\n\nOne seat's observation into obs."},
    {"levels", (PyCFunction)(void (*)(void))py_levels, METH_FASTCALL,
     "levels($module, out, tiles, /)\n--\n\nout (4 x 34) = count of each kind in tiles >= 1 ... >= 4."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "majiang._speedups.obsenc",
    "Compiled fast path of majiang.rl.incremental (the observation planes).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_obsenc(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    PyObject *layout = Py_BuildValue("(iiiiiiiiiiiiiiii)", OWN, DRAWN, OFFER, UNSEEN, PREVALENT, SEAT_WIND,
                                     SCALARS, JING, GLOBAL_ROWS, B_MELDS, B_INFO, BLOCK_ROWS, ROWS, INFO_CURRENT,
                                     EAST, NK);
    if (layout == NULL || PyModule_AddObject(m, "LAYOUT", layout) < 0) {
        Py_XDECREF(layout);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
