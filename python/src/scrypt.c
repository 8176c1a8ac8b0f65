/* kiln.scrypt: hashlib.scrypt's signature over kiln_scrypt (CPU threads), without the GIL. */
#include <limits.h>
#include <unistd.h>

#include "common.h"

static PyObject *py_scrypt(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"password", "salt", "n", "r", "p", "maxmem", "dklen", NULL};
    Py_buffer password, salt = {0};
    unsigned long long n = 0;
    unsigned long r = 0, p = 0;
    long long maxmem = 0;
    Py_ssize_t dklen = 64;
    PyObject *n_obj = NULL, *r_obj = NULL, *p_obj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*|$y*OOOLn", kwlist, &password, &salt, &n_obj, &r_obj, &p_obj,
                                     &maxmem, &dklen))
        return NULL;
    PyObject *ret = NULL;
    kiln_ctx *ctx = NULL;
    if (!salt.obj || !n_obj || !r_obj || !p_obj) {
        PyErr_SetString(PyExc_TypeError, "salt, n, r and p are required");
        goto done;
    }
    n = PyLong_AsUnsignedLongLong(n_obj);
    r = PyLong_AsUnsignedLong(r_obj);
    p = PyLong_AsUnsignedLong(p_obj);
    if (PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "n, r and p must be positive integers within scrypt's limits");
        }
        goto done;
    }
    /* hashlib.scrypt's bounds and messages (OpenSSL's memory rule): maxmem 0 means its default of
     * 32 MiB, and 128 r p + 128 r (n + 2) bytes must fit; the caller raises maxmem for more */
    if (maxmem < 0 || maxmem > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "maxmem must be positive and smaller than %d", INT_MAX);
        goto done;
    }
    if (dklen < 1 || dklen > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "dklen must be greater than 0 and smaller than %d", INT_MAX);
        goto done;
    }
    if (r > UINT32_MAX || p > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "r or p out of range");
        goto done;
    }
    const double limit = maxmem ? (double)maxmem : 32.0 * 1024 * 1024;
    const double pad = 128.0 * (double)r * (double)n, block = 128.0 * (double)r * (double)p;
    if (n >= 2 && r && p && block + 128.0 * (double)r * ((double)n + 2) > limit) {
        PyErr_SetString(PyExc_ValueError, "Invalid parameter combination for n, r, p, maxmem.");
        goto done;
    }
    if (!(ctx = kiln_py_ctx("cpu", KILN_KIND_KDF, 0)))
        goto done;
    kiln_scrypt_params prm = {.N = n, .r = (uint32_t)r, .p = (uint32_t)p};
    kiln_status st = KILN_OK;
    /* the p lanes run on as many threads as scratchpads fit in maxmem together (at least one) */
    if (pad > 0 && r && p) {
        double fit = (limit - block) / pad;
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        if (fit < (double)p && fit < (double)(cores > 0 ? cores : 1))
            st = kiln_ctx_set_threads(ctx, fit < 1 ? 1 : (int)fit);
    }
    if (st == KILN_OK)
        st = kiln_scrypt_check(ctx, prm, (size_t)dklen);
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        goto done;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, dklen);
    if (!out)
        goto done;
    Py_BEGIN_ALLOW_THREADS
    st = kiln_scrypt(ctx, password.buf, (size_t)password.len, salt.buf, (size_t)salt.len, prm,
                     (uint8_t *)PyBytes_AS_STRING(out), (size_t)dklen);
    Py_END_ALLOW_THREADS
    if (st != KILN_OK) {
        Py_DECREF(out);
        kiln_py_raise(ctx, st);
        goto done;
    }
    ret = out;
done:
    kiln_py_ctx_free(ctx);
    if (salt.obj)
        PyBuffer_Release(&salt);
    PyBuffer_Release(&password);
    return ret;
}

/* _scrypt_batch(passwords, salts, n, r, p, dklen, device, out): passwords and salts are lists of
 * bytes-like objects of one length; item i's key into out[i * dklen ..]. One kiln_scrypt_batch
 * call on the device, without the GIL. */
static PyObject *py_scrypt_batch(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *pw_list, *salt_list;
    unsigned long long n;
    unsigned long r, p;
    Py_ssize_t dklen;
    const char *device;
    Py_buffer out;
    if (!PyArg_ParseTuple(args, "O!O!Kkknsw*", &PyList_Type, &pw_list, &PyList_Type, &salt_list, &n, &r, &p, &dklen,
                          &device, &out))
        return NULL;
    PyObject *ret = NULL;
    kiln_ctx *ctx = NULL;
    Py_ssize_t count = PyList_GET_SIZE(pw_list), got = 0;
    Py_buffer *views = NULL;
    kiln_scrypt_input *inputs = NULL;
    if (PyList_GET_SIZE(salt_list) != count || dklen < 1 || r > UINT32_MAX || p > UINT32_MAX ||
        out.len != count * dklen) {
        PyErr_SetString(PyExc_ValueError, "one salt per password, dklen >= 1, out of count * dklen bytes");
        goto done;
    }
    views = PyMem_Calloc((size_t)(2 * count + 1), sizeof *views);
    inputs = PyMem_Calloc((size_t)(count + 1), sizeof *inputs);
    if (!views || !inputs) {
        PyErr_NoMemory();
        goto done;
    }
    /* The lists are held (and their items referenced by the views) while the GIL is released. */
    for (; got < 2 * count; got++) {
        PyObject *item = PyList_GET_ITEM(got < count ? pw_list : salt_list, got % count);
        if (PyObject_GetBuffer(item, &views[got], PyBUF_SIMPLE) < 0)
            goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        inputs[i] = (kiln_scrypt_input){views[i].buf, (size_t)views[i].len, views[count + i].buf,
                                        (size_t)views[count + i].len};
    if (!(ctx = kiln_py_ctx(device, KILN_KIND_KDF, (uint64_t)count)))
        goto done;
    kiln_scrypt_params prm = {.N = n, .r = (uint32_t)r, .p = (uint32_t)p};
    kiln_status st = kiln_scrypt_check(ctx, prm, (size_t)dklen);
    if (st == KILN_OK && count > 0) {
        Py_BEGIN_ALLOW_THREADS
        st = kiln_scrypt_batch(ctx, inputs, (size_t)count, prm, out.buf, (size_t)dklen);
        Py_END_ALLOW_THREADS
    }
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        goto done;
    }
    ret = Py_None;
    Py_INCREF(ret);
done:
    kiln_py_ctx_free(ctx);
    for (Py_ssize_t i = 0; views && i < got; i++)
        PyBuffer_Release(&views[i]);
    PyMem_Free(views);
    PyMem_Free(inputs);
    PyBuffer_Release(&out);
    return ret;
}

PyMethodDef kiln_py_scrypt_methods[] = {
    {"_scrypt_batch", py_scrypt_batch, METH_VARARGS,
     "_scrypt_batch(passwords, salts, n, r, p, dklen, device, out)\n--\n\nCore of kiln.scrypt_batch."},
    {"scrypt", (PyCFunction)(void (*)(void))py_scrypt, METH_VARARGS | METH_KEYWORDS,
     "scrypt(password, *, salt, n, r, p, maxmem=0, dklen=64)\n--\n\n"
     "scrypt (RFC 7914) as hashlib.scrypt: the p lanes run on the CPU threads, without the GIL.\n"
     "maxmem > 0 caps the scratchpad memory (bytes); 0 keeps kiln's limit. ValueError names a\n"
     "parameter outside RFC 7914's limits or a memory need over the cap."},
    {NULL, NULL, 0, NULL},
};
