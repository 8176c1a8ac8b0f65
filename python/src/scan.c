/* kiln.scan's core: a nonce search (kiln_scan) over a header without the GIL; the nonces the
 * library found and re-checked on the CPU come back as a list. Ctrl-C stops it at a launch
 * boundary (interrupt.c). */
#include "common.h"

#include <stdlib.h>
#include <string.h>

typedef struct found {
    uint32_t *nonces;
    size_t n, cap;
    int oom;
} found;

/* Runs without the GIL: only C here. */
static int on_found(void *user, uint32_t nonce, const uint8_t hash[32])
{
    (void)hash;
    found *f = user;
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        uint32_t *p = realloc(f->nonces, cap * sizeof *p);
        if (!p) {
            f->oom = 1;
            return 1;
        }
        f->nonces = p;
        f->cap = cap;
    }
    f->nonces[f->n++] = nonce;
    return 0;
}

static PyObject *py_scan(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"header", "target", "start", "count", "algo", "device", "find_all", NULL};
    Py_buffer header, target;
    unsigned long long start, count;
    const char *algo_name, *device;
    int find_all;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*y*KKssp", kwlist, &header, &target, &start, &count, &algo_name,
                                     &device, &find_all))
        return NULL;
    PyObject *ret = NULL;
    kiln_ctx *ctx = NULL;
    found f = {0};
    kiln_scan_job job = {0};
    if (header.len != KILN_HEADER_SIZE || target.len != 32) {
        PyErr_SetString(PyExc_ValueError, "the header must be 80 bytes and the target 32");
        goto done;
    }
    if (start > UINT32_MAX || count > (UINT64_C(1) << 32) - start) {
        PyErr_SetString(PyExc_ValueError, "start + count must not pass 2^32 (the nonce is 32 bits)");
        goto done;
    }
    if (!(ctx = kiln_ctx_new())) {
        PyErr_NoMemory();
        goto done;
    }
    kiln_algo algo;
    kiln_status st = kiln_algo_from_name(ctx, algo_name, &algo);
    kiln_ctx_free(ctx);
    ctx = NULL;
    if (st != KILN_OK) {
        PyErr_Format(PyExc_ValueError, "unknown search algorithm '%s' (sha256d or scrypt)", algo_name);
        goto done;
    }
    if (!(ctx = kiln_py_ctx(device, KILN_KIND_SEARCH, count)))
        goto done;
    job.algo = algo;
    memcpy(job.header, header.buf, KILN_HEADER_SIZE);
    memcpy(job.target, target.buf, 32);
    job.start = start;
    job.count = count;
    job.find_all = find_all;
    job.on_found = on_found;
    job.user = &f;
    kiln_scan_result res;
    if (count == 0) {
        ret = PyList_New(0);
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    st = kiln_scan(ctx, &job, &res);
    Py_END_ALLOW_THREADS
    if (f.oom) {
        PyErr_NoMemory();
        goto done;
    }
    if (st != KILN_OK && st != KILN_NOT_FOUND) {
        kiln_py_raise(ctx, st);
        goto done;
    }
    if (!(ret = PyList_New((Py_ssize_t)f.n)))
        goto done;
    for (size_t i = 0; i < f.n; i++) {
        PyObject *x = PyLong_FromUnsignedLong(f.nonces[i]);
        if (!x) {
            Py_CLEAR(ret);
            goto done;
        }
        PyList_SET_ITEM(ret, (Py_ssize_t)i, x);
    }
done:
    free(f.nonces);
    kiln_py_ctx_free(ctx);
    PyBuffer_Release(&header);
    PyBuffer_Release(&target);
    return ret;
}

PyMethodDef kiln_py_scan_methods[] = {
    {"_scan", (PyCFunction)(void (*)(void))py_scan, METH_VARARGS | METH_KEYWORDS,
     "_scan(header, target, start, count, algo, device, find_all)\n--\n\n"
     "Core of kiln.scan: header 80 bytes, target 32 bytes (little-endian number); the verified\n"
     "nonces in [start, start + count) as a list, ascending."},
    {NULL, NULL, 0, NULL},
};
