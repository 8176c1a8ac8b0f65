/* The _kiln extension module: the exceptions, error mapping and per-call contexts; the functions
 * live one concern a file (hash.c, batch.c, scrypt.c, pagerank.c, devices.c). */
#include "common.h"

#include <string.h>

PyObject *kiln_py_DeviceError;
PyObject *kiln_py_NotConverged;

PyObject *kiln_py_raise(kiln_ctx *ctx, kiln_status st)
{
    const char *msg = ctx ? kiln_last_error(ctx) : NULL;
    if (!msg || !*msg)
        msg = "kiln: failure";
    switch (st) {
    case KILN_ERR_INPUT:
        PyErr_SetString(PyExc_ValueError, msg);
        break;
    case KILN_NOT_FOUND:
        PyErr_SetString(kiln_py_NotConverged, msg);
        break;
    case KILN_STOPPED:
        kiln_py_raise_stopped();
        break;
    default:
        PyErr_SetString(kiln_py_DeviceError, msg);
        break;
    }
    return NULL;
}

kiln_ctx *kiln_py_ctx(const char *device, kiln_kind kind, uint64_t work)
{
    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx) {
        PyErr_NoMemory();
        return NULL;
    }
    kiln_status st = kiln_ctx_set_device(ctx, device ? device : "auto");
    /* kiln_ctx_pick leaves the work to the CPU below the size where the GPU pays; the calls made
     * here then run on the CPU context. */
    if (st == KILN_OK && kiln_ctx_device_auto(ctx) && kiln_ctx_backend(ctx) != KILN_BACKEND_CPU &&
        kiln_ctx_pick(ctx, kind, work) == KILN_BACKEND_CPU)
        st = kiln_ctx_set_device(ctx, "cpu");
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        kiln_ctx_free(ctx);
        return NULL;
    }
    kiln_py_interrupt_begin(ctx);
    return ctx;
}

void kiln_py_ctx_free(kiln_ctx *ctx)
{
    if (!ctx)
        return;
    kiln_py_interrupt_end();
    kiln_ctx_free(ctx);
}

int kiln_py_algo(const char *given)
{
    /* hashlib folds case ("SHA256", "SHA3_256"): so does kiln */
    char name[64];
    size_t len = strlen(given);
    if (len >= sizeof name) {
        PyErr_Format(PyExc_ValueError, "unsupported hash type %.64s...", given);
        return -1;
    }
    for (size_t i = 0; i <= len; i++)
        name[i] = (char)(given[i] >= 'A' && given[i] <= 'Z' ? given[i] - 'A' + 'a' : given[i]);
    /* hashlib's spelling ("sha3_256", "shake_128") is taken beside kiln's, from each algorithm's
     * descriptor */
    const char *lookup = name;
    for (size_t a = 0; a < kiln_hash_algo_count(); a++) {
        const char *h = kiln_hash_algo_hashlib_name((kiln_hash_algo)a);
        if (h && strcmp(name, h) == 0) lookup = kiln_hash_algo_name((kiln_hash_algo)a);
    }
    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx) {
        PyErr_NoMemory();
        return -1;
    }
    kiln_hash_algo algo;
    kiln_status st = kiln_hash_algo_from_name(ctx, lookup, &algo);
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        kiln_ctx_free(ctx);
        return -1;
    }
    kiln_ctx_free(ctx);
    return (int)algo;
}

static PyObject *py_version(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(kiln_version());
}

/* Every hash algorithm as (kiln's name, hashlib's name or None), in id order: the module's
 * constructors and algorithms_available are made from it. */
static PyObject *py_hash_algorithms(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *list = PyList_New(0);
    for (size_t a = 0; list && a < kiln_hash_algo_count(); a++) {
        const char *h = kiln_hash_algo_hashlib_name((kiln_hash_algo)a);
        PyObject *t = h ? Py_BuildValue("(ss)", kiln_hash_algo_name((kiln_hash_algo)a), h)
                        : Py_BuildValue("(sO)", kiln_hash_algo_name((kiln_hash_algo)a), Py_None);
        if (!t || PyList_Append(list, t) < 0) {
            Py_XDECREF(t);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(t);
    }
    return list;
}

static PyObject *py_build_info(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(kiln_build_info());
}

static PyMethodDef module_methods[] = {
    {"version", py_version, METH_NOARGS, "The library's version (kiln_version)."},
    {"hash_algorithms", py_hash_algorithms, METH_NOARGS,
     "Every hash algorithm as (kiln's name, hashlib's name or None), in the library's order."},
    {"build_info", py_build_info, METH_NOARGS, "How the library was built (kiln_build_info)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_kiln", "C extension of the kiln package (see kiln's docstrings).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kiln(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    PyMethodDef *tables[] = {kiln_py_hash_methods,   kiln_py_batch_methods,  kiln_py_scrypt_methods,
                             kiln_py_pagerank_methods, kiln_py_device_methods, kiln_py_nxconv_methods,
                             kiln_py_merkle_methods, kiln_py_scan_methods,   kiln_py_block_methods,
                             kiln_py_devarray_methods};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (PyModule_AddFunctions(m, tables[i]) < 0)
            goto fail;
    kiln_py_DeviceError = PyErr_NewExceptionWithDoc(
        "kiln.DeviceError", "A device failed: no such GPU, a GPU error, out of memory or a system error.",
        PyExc_RuntimeError, NULL);
    kiln_py_NotConverged = PyErr_NewExceptionWithDoc(
        "kiln.NotConverged", "PageRank did not reach the tolerance within max_iter iterations.",
        PyExc_RuntimeError, NULL);
    if (!kiln_py_DeviceError || !kiln_py_NotConverged)
        goto fail;
    Py_INCREF(kiln_py_DeviceError);
    Py_INCREF(kiln_py_NotConverged);
    if (PyModule_AddObject(m, "DeviceError", kiln_py_DeviceError) < 0 ||
        PyModule_AddObject(m, "NotConverged", kiln_py_NotConverged) < 0)
        goto fail;
    if (kiln_py_hash_init(m) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
