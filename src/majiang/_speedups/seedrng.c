/* Test hooks for seedrng.h: this module exists so tests/test_seedrng_fast.py can prove the header's
 * SHAKE-256, SHA-256, SeedStream, wall shuffle and MT19937 equal to hashlib, majiang.seeded,
 * majiang.engine.wall and random.Random.  Nothing in the game imports it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "seedrng.h"

static PyObject *fast_seq(PyObject *seq, const char *what) { return PySequence_Fast(seq, what); }

/* an int in [lo, hi] */
static int get_u32(PyObject *v, uint32_t *out, uint32_t lo, uint32_t hi) {
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    if (x == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (x < lo || x > hi) {
        PyErr_SetString(PyExc_ValueError, "value out of range");
        return -1;
    }
    *out = (uint32_t)x;
    return 0;
}

static PyObject *list_of_u32(const uint32_t *v, Py_ssize_t n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyLong_FromUnsignedLong(v[i]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

/* draw(ctx, arg) for each arg of seq (each in [lo, hi]), the results in a list */
typedef uint32_t (*draw_fn)(void *ctx, uint32_t arg);

static PyObject *draw_each(PyObject *seq, void *ctx, draw_fn draw, uint32_t lo, uint32_t hi) {
    PyObject *fast = fast_seq(seq, "expected a sequence of ints");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    uint32_t *res = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(uint32_t));
    if (!res) {
        Py_DECREF(fast);
        return PyErr_NoMemory();
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t arg;
        if (get_u32(items[i], &arg, lo, hi) < 0) {
            PyMem_Free(res);
            Py_DECREF(fast);
            return NULL;
        }
        res[i] = draw(ctx, arg);
    }
    Py_DECREF(fast);
    PyObject *out = list_of_u32(res, n);
    PyMem_Free(res);
    return out;
}

static uint32_t draw_below(void *ctx, uint32_t n) { return seedstream_below((seedstream_t *)ctx, n); }
static uint32_t draw_randbelow(void *ctx, uint32_t n) { return mt_randbelow((mt_t *)ctx, n); }
static uint32_t draw_bits(void *ctx, uint32_t k) { return mt_getrandbits((mt_t *)ctx, (int)k); }

static int seed_mt(PyObject *seed, mt_t *g) {
    unsigned long long a = PyLong_AsUnsignedLongLong(seed); /* OverflowError outside [0, 2**64) */
    if (a == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    mt_seed_u64(g, (uint64_t)a);
    return 0;
}

static PyObject *py_shake256(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer data;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*n", &data, &n)) return NULL;
    if (n < 0) {
        PyBuffer_Release(&data);
        PyErr_SetString(PyExc_ValueError, "n must be >= 0");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, n);
    if (out) {
        shake_t s;
        shake256_init(&s, data.buf, (size_t)data.len);
        shake256_squeeze(&s, (uint8_t *)PyBytes_AS_STRING(out), (size_t)n);
    }
    PyBuffer_Release(&data);
    return out;
}

static PyObject *py_shake256_pieces(PyObject *Py_UNUSED(self), PyObject *args) {
    /* one stream, fed in the pieces of sizes absorb (list of ints, summing to at most len(data)), then
     * squeezed in the pieces of squeeze: the bytes, concatenated */
    Py_buffer data;
    PyObject *absorb, *squeeze;
    if (!PyArg_ParseTuple(args, "y*OO", &data, &absorb, &squeeze)) return NULL;
    PyObject *fa = fast_seq(absorb, "absorb must be a sequence of ints");
    PyObject *fs = fa ? fast_seq(squeeze, "squeeze must be a sequence of ints") : NULL;
    PyObject *out = NULL;
    shake_t s;
    shake256_reset(&s);
    if (!fs) goto done;
    Py_ssize_t at = 0, total = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fa); i++) {
        Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(fa, i));
        if (k == -1 && PyErr_Occurred()) goto done;
        if (k < 0 || k > data.len - at) {
            PyErr_SetString(PyExc_ValueError, "absorb pieces exceed the data");
            goto done;
        }
        shake256_absorb(&s, (const uint8_t *)data.buf + at, (size_t)k);
        at += k;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fs); i++) {
        Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(fs, i));
        if (k == -1 && PyErr_Occurred()) goto done;
        if (k < 0) {
            PyErr_SetString(PyExc_ValueError, "squeeze pieces must be >= 0");
            goto done;
        }
        total += k;
    }
    out = PyBytes_FromStringAndSize(NULL, total);
    if (!out) goto done;
    uint8_t *p = (uint8_t *)PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fs); i++) {
        Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(fs, i));
        shake256_squeeze(&s, p, (size_t)k);
        p += k;
    }
done:
    Py_XDECREF(fa);
    Py_XDECREF(fs);
    PyBuffer_Release(&data);
    return out;
}

static PyObject *py_sha256(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer data;
    if (!PyArg_ParseTuple(args, "y*", &data)) return NULL;
    uint8_t digest[32];
    sha256(data.buf, (size_t)data.len, digest);
    PyBuffer_Release(&data);
    return PyBytes_FromStringAndSize((const char *)digest, 32);
}

static PyObject *py_below(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer seed, label;
    PyObject *ns;
    if (!PyArg_ParseTuple(args, "y*y*O", &seed, &label, &ns)) return NULL;
    seedstream_t st;
    seedstream_init(&st, seed.buf, (size_t)seed.len, label.buf, (size_t)label.len);
    PyBuffer_Release(&seed);
    PyBuffer_Release(&label);
    return draw_each(ns, &st, draw_below, 1, 0xFFFFFFFFu);
}

static PyObject *py_shuffle(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *tiles;
    Py_buffer seed;
    if (!PyArg_ParseTuple(args, "Oy*", &tiles, &seed)) return NULL;
    PyObject *fast = fast_seq(tiles, "tiles must be a sequence of ints");
    PyObject *out = NULL;
    uint8_t *t = NULL;
    if (!fast) goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "too many tiles");
        goto done;
    }
    t = PyMem_Malloc((size_t)(n ? n : 1));
    if (!t) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) goto done;
        if (v < 0 || v > 255) {
            PyErr_SetString(PyExc_ValueError, "tiles must be in [0, 256)");
            goto done;
        }
        t[i] = (uint8_t)v;
    }
    seeded_shuffle(seed.buf, (size_t)seed.len, t, (int)n);
    out = PyList_New(n);
    if (!out) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(t[i]);
        if (!x) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, x);
    }
done:
    PyMem_Free(t);
    Py_XDECREF(fast);
    PyBuffer_Release(&seed);
    return out;
}

static PyObject *py_choices(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *seed, *sizes;
    if (!PyArg_ParseTuple(args, "OO", &seed, &sizes)) return NULL;
    mt_t g;
    if (seed_mt(seed, &g) < 0) return NULL;
    return draw_each(sizes, &g, draw_randbelow, 1, 0xFFFFFFFFu);
}

static PyObject *py_getrandbits(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *seed, *ks;
    if (!PyArg_ParseTuple(args, "OO", &seed, &ks)) return NULL;
    mt_t g;
    if (seed_mt(seed, &g) < 0) return NULL;
    return draw_each(ks, &g, draw_bits, 1, 32);
}

static PyObject *state_tuple(const mt_t *g) {
    PyObject *inner = PyTuple_New(MT_N + 1);
    if (!inner) return NULL;
    for (int i = 0; i < MT_N; i++) {
        PyObject *x = PyLong_FromUnsignedLong(g->mt[i]);
        if (!x) {
            Py_DECREF(inner);
            return NULL;
        }
        PyTuple_SET_ITEM(inner, i, x);
    }
    PyObject *x = PyLong_FromLong(g->index);
    if (!x) {
        Py_DECREF(inner);
        return NULL;
    }
    PyTuple_SET_ITEM(inner, MT_N, x);
    return Py_BuildValue("(iNO)", 3, inner, Py_None);
}

/* load a random.Random.getstate() tuple (3, (624 words, index), gauss_next); gauss_next is ignored */
static int load_state(PyObject *state, mt_t *g) {
    PyObject *inner;
    int version;
    PyObject *gauss;
    if (!PyArg_ParseTuple(state, "iO!O;state must be (3, tuple of 625 ints, gauss_next)", &version, &PyTuple_Type,
                          &inner, &gauss))
        return -1;
    if (version != 3 || PyTuple_GET_SIZE(inner) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "state must be (3, tuple of 625 ints, gauss_next)");
        return -1;
    }
    for (int i = 0; i < MT_N; i++)
        if (get_u32(PyTuple_GET_ITEM(inner, i), &g->mt[i], 0, 0xFFFFFFFFu) < 0) return -1;
    long index = PyLong_AsLong(PyTuple_GET_ITEM(inner, MT_N));
    if (index == -1 && PyErr_Occurred()) return -1;
    if (index < 0 || index > MT_N) {
        PyErr_SetString(PyExc_ValueError, "invalid state: index out of range");
        return -1;
    }
    g->index = (int)index;
    return 0;
}

static PyObject *py_state(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *seed;
    Py_ssize_t draws;
    if (!PyArg_ParseTuple(args, "On", &seed, &draws)) return NULL;
    mt_t g;
    if (seed_mt(seed, &g) < 0) return NULL;
    for (Py_ssize_t i = 0; i < draws; i++) mt_u32(&g);
    return state_tuple(&g);
}

static PyObject *py_choices_from_state(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *state, *sizes;
    if (!PyArg_ParseTuple(args, "OO", &state, &sizes)) return NULL;
    mt_t g;
    if (load_state(state, &g) < 0) return NULL;
    return draw_each(sizes, &g, draw_randbelow, 1, 0xFFFFFFFFu);
}

static PyMethodDef methods[] = {
    {"shake256", py_shake256, METH_VARARGS, "shake256(data, n) -> hashlib.shake_256(data).digest(n)"},
    {"shake256_pieces", py_shake256_pieces, METH_VARARGS,
     "shake256_pieces(data, absorb_sizes, squeeze_sizes) -> the squeezed bytes, absorbing and squeezing in pieces"},
    {"sha256", py_sha256, METH_VARARGS, "sha256(data) -> hashlib.sha256(data).digest()"},
    {"below", py_below, METH_VARARGS, "below(seed, label, ns) -> [SeedStream(seed, label).below(n) for n in ns]"},
    {"shuffle", py_shuffle, METH_VARARGS, "shuffle(tiles, seed) -> majiang.engine.wall.shuffle(tiles, seed)"},
    {"choices", py_choices, METH_VARARGS, "choices(seed, sizes) -> [Random(seed)._randbelow(n) for n in sizes]"},
    {"getrandbits", py_getrandbits, METH_VARARGS, "getrandbits(seed, ks) -> [Random(seed).getrandbits(k) for k in ks]"},
    {"state", py_state, METH_VARARGS, "state(seed, draws) -> Random(seed).getstate() after draws 32-bit words"},
    {"choices_from_state", py_choices_from_state, METH_VARARGS,
     "choices_from_state(state, sizes) -> like choices, from a random.Random.getstate() tuple"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "seedrng",
    "Test hooks proving seedrng.h (SHAKE-256, SHA-256, SeedStream, the wall shuffle, MT19937) equal to Python.",
    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_seedrng(void) { return PyModule_Create(&module); }
