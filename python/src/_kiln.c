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
    if (st == KILN_OK && kiln_ctx_device_auto(ctx) && kiln_ctx_backend(ctx) == KILN_BACKEND_CUDA &&
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
    static const struct { const char *hashlib, *kiln; } alias[] = {
        {"sha3_224", "sha3-224"}, {"sha3_256", "sha3-256"}, {"sha3_384", "sha3-384"},
        {"sha3_512", "sha3-512"}, {"shake_128", "shake128"}, {"shake_256", "shake256"},
    };
    const char *lookup = name;
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
        if (strcmp(name, alias[i].hashlib) == 0)
            lookup = alias[i].kiln;
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

static PyObject *py_build_info(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(kiln_build_info());
}

static PyMethodDef module_methods[] = {
    {"version", py_version, METH_NOARGS, "The library's version (kiln_version)."},
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
                             kiln_py_merkle_methods, kiln_py_scan_methods,   kiln_py_block_methods};
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
