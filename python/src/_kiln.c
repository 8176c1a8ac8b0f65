/* The _kiln extension module: the exceptions, error mapping and per-call contexts; the functions
 * live one concern a file (hash.c, batch.c, scrypt.c, pagerank.c, devices.c). */
#include "common.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

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

/* hashlib's name of an algorithm where hashlib has it, else kiln's ("sha256d", "keccak256"). */
static const char *algo_py_name(kiln_hash_algo a)
{
    const char *h = kiln_hash_algo_hashlib_name(a);
    return h ? h : kiln_hash_algo_name(a);
}

static int same_folded(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = (char)(*a >= 'A' && *a <= 'Z' ? *a - 'A' + 'a' : *a);
        if (x != *b) /* kiln's names are lowercase */
            return 0;
    }
    return *a == *b;
}

/* Names hashlib.new took, each with its algorithm (a dict, filled as names are asked for; at most
 * CACHE_MAX of them, so odd spellings cannot grow it without bound). */
#define CACHE_MAX 256
static PyObject *hashlib_names;

/* The algorithm that hashlib.new(given) makes on this Python, where kiln has it: -1 when hashlib
 * refuses the name (ValueError) or kiln lacks what it makes, *known set to whether hashlib took
 * it; -2 with an exception for any other failure. */
static int hashlib_algo(const char *given, int *known)
{
    *known = 0;
    PyObject *cached = hashlib_names ? PyDict_GetItemString(hashlib_names, given) : NULL;
    if (cached) {
        *known = 1;
        return (int)PyLong_AsLong(cached);
    }
    PyObject *mod = PyImport_ImportModule("hashlib");
    if (!mod)
        return -2;
    /* usedforsecurity=False: a FIPS build's refusal of md5 is about use, not the name */
    PyObject *fn = PyObject_GetAttrString(mod, "new");
    Py_DECREF(mod);
    PyObject *args = fn ? Py_BuildValue("(s)", given) : NULL;
    PyObject *kw = args ? Py_BuildValue("{s:O}", "usedforsecurity", Py_False) : NULL;
    PyObject *h = kw ? PyObject_Call(fn, args, kw) : NULL;
    Py_XDECREF(fn);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    if (!h) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError))
            return -2;
        PyErr_Clear();
        return -1;
    }
    PyObject *name = PyObject_GetAttrString(h, "name");
    Py_DECREF(h);
    const char *made = name ? PyUnicode_AsUTF8(name) : NULL;
    if (!made) {
        Py_XDECREF(name);
        return -2;
    }
    *known = 1;
    int algo = -1;
    for (size_t a = 0; a < kiln_hash_algo_count(); a++) {
        const char *hn = kiln_hash_algo_hashlib_name((kiln_hash_algo)a);
        if (hn && strcmp(made, hn) == 0)
            algo = (int)a;
    }
    /* an algorithm hashlib has no name of its own for (a newer OpenSSL's "keccak-256"): kiln's
     * tags for it ("KECCAK-256") name it */
    for (size_t a = 0; algo < 0 && a < kiln_hash_algo_count(); a++)
        for (int i = 0; i < 2; i++) {
            const char *tag = kiln_hash_algo_tag((kiln_hash_algo)a, i);
            if (tag && strcasecmp(made, tag) == 0 && !kiln_hash_algo_hashlib_name((kiln_hash_algo)a))
                algo = (int)a;
        }
    Py_DECREF(name);
    if (!hashlib_names)
        hashlib_names = PyDict_New();
    if (hashlib_names && PyDict_Size(hashlib_names) < CACHE_MAX) {
        PyObject *v = PyLong_FromLong(algo);
        if (!v || PyDict_SetItemString(hashlib_names, given, v) < 0)
            PyErr_Clear(); /* only a cache */
        Py_XDECREF(v);
    }
    return algo;
}

int kiln_py_algo(const char *given)
{
    /* hashlib's own name, as hashlib spells it ("sha3_256", "shake_128", "sha512_256") */
    for (size_t a = 0; a < kiln_hash_algo_count(); a++) {
        const char *h = kiln_hash_algo_hashlib_name((kiln_hash_algo)a);
        if (h && strcmp(given, h) == 0)
            return (int)a;
    }
    /* kiln's name in any case ("sha3-256", "SHA3-256", "shake128", "sha256d", "KECCAK256"); for the
     * algorithms hashlib has, OpenSSL takes these names too, as hashlib.new does */
    for (size_t a = 0; a < kiln_hash_algo_count(); a++)
        if (same_folded(given, kiln_hash_algo_name((kiln_hash_algo)a)))
            return (int)a;
    /* any other spelling is taken exactly when hashlib.new takes it on this Python ("SHA-256",
     * "sha-256", "SHA2-256", "SHA512_256", an OID: OpenSSL's names), and refused where hashlib
     * refuses it ("SHA3_256", "sha_256") */
    int known;
    int algo = hashlib_algo(given, &known);
    if (algo >= 0 || algo == -2)
        return algo;
    /* hashlib's message, and what kiln has */
    char list[512] = "";
    size_t used = 0;
    for (size_t a = 0; a < kiln_hash_algo_count() && used < sizeof list; a++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", a ? ", " : "",
                                 algo_py_name((kiln_hash_algo)a));
    PyErr_Format(PyExc_ValueError, "unsupported hash type %s%s (kiln has %s)", given,
                 known ? ": hashlib has it, kiln does not" : "", list);
    return -1;
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
    /* the most iterations one kiln_pagerank call takes (kiln.pagerank runs more as several) */
    if (PyModule_AddIntConstant(m, "PAGERANK_MAX_ITER_LIMIT", KILN_PAGERANK_MAX_ITER_LIMIT) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
