/* Shared by the compiled parts of boneyard.fast (_kernel.c, _solve.c): a Python sequence of ints into a C array. */
#ifndef BONEYARD_INTS_H
#define BONEYARD_INTS_H

#include <Python.h>

/* Copies the ints of ``seq`` into ``out`` (at most ``max``); returns how many, or -1 with an exception set. */
static int int_list(PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) { Py_DECREF(fast); PyErr_Format(PyExc_ValueError, "%s: %zd items, at most %d", what, n, max); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (x == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)x;
    }
    Py_DECREF(fast);
    return (int)n;
}

#endif
