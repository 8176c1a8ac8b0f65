/* kiln.scrypt: hashlib.scrypt's signature over kiln_scrypt (CPU threads), without the GIL. */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "common.h"

/* n, r or p as hashlib.scrypt reads them: an int (TypeError naming its type otherwise, as
 * hashlib's argument parsing words it), within an unsigned long (TypeError otherwise: negative or
 * too large). 0 with the exception set on failure. */
static int unsigned_arg(PyObject *obj, const char *what, unsigned long *out)
{
    if (!obj) {
        PyErr_Format(PyExc_TypeError, "%s is required and must be an unsigned int", what);
        return 0;
    }
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "scrypt() argument '%s' must be int, not %.50s", what,
                     obj == Py_None ? "None" : Py_TYPE(obj)->tp_name);
        return 0;
    }
    *out = PyLong_AsUnsignedLong(obj);
    if (*out == (unsigned long)-1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "%s is required and must be an unsigned int", what);
        return 0;
    }
    return 1;
}

/* OpenSSL's default maxmem, which hashlib's maxmem=0 means */
#define SCRYPT_DEFAULT_MAXMEM ((uint64_t)32 << 20)

static PyObject *py_scrypt(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"password", "salt", "n", "r", "p", "maxmem", "dklen", NULL};
    Py_buffer password, salt = {0};
    unsigned long n = 0, r = 0, p = 0;
    long long maxmem = 0;
    Py_ssize_t dklen = 64;
    PyObject *n_obj = NULL, *r_obj = NULL, *p_obj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*|$y*OOOLn", kwlist, &password, &salt, &n_obj, &r_obj, &p_obj,
                                     &maxmem, &dklen))
        return NULL;
    PyObject *ret = NULL;
    kiln_ctx *ctx = NULL;
    /* hashlib.scrypt's checks, in its order and with its exception types: salt, then n (an
     * unsigned int, a power of 2), r, p, maxmem, dklen */
    if (!salt.obj) {
        PyErr_SetString(PyExc_TypeError, "salt is required");
        goto done;
    }
    if (!unsigned_arg(n_obj, "n", &n))
        goto done;
    if (n < 2 || (n & (n - 1)) != 0) {
        PyErr_SetString(PyExc_ValueError, "n must be a power of 2.");
        goto done;
    }
    if (!unsigned_arg(r_obj, "r", &r) || !unsigned_arg(p_obj, "p", &p))
        goto done;
    /* maxmem: bytes, a 64-bit count (hashlib stops below 2 GiB, an OpenSSL 1.1.0 limit; kiln takes
     * more); 0 means OpenSSL's default of 32 MiB, as in hashlib */
    if (maxmem < 0) {
        PyErr_SetString(PyExc_ValueError, "maxmem must not be negative (0: the default of 32 MiB)");
        goto done;
    }
    if (dklen < 1 || dklen > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "dklen must be greater than 0 and smaller than %d", INT_MAX);
        goto done;
    }
    if (r == 0 || p == 0 || r > UINT32_MAX || p > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "Invalid parameter combination for n, r, p, maxmem: r and p must be "
                                          "1 .. 2**32 - 1");
        goto done;
    }
    /* OpenSSL's memory rule: 128 r p (B) + 128 r (n + 2) (V and the working blocks) bytes within
     * maxmem; computed in long double, exact to far past any memory (64-bit mantissa on x86) */
    const uint64_t limit = maxmem ? (uint64_t)maxmem : SCRYPT_DEFAULT_MAXMEM;
    const long double block = 128.0L * r * p, need = block + 128.0L * r * ((long double)n + 2);
    if (need > (long double)limit) {
        char cap[96];
        if (maxmem)
            snprintf(cap, sizeof cap, "maxmem = %llu bytes", (unsigned long long)maxmem);
        else
            snprintf(cap, sizeof cap, "the default maxmem of %llu bytes (32 MiB, which maxmem=0 means)",
                     (unsigned long long)SCRYPT_DEFAULT_MAXMEM);
        char msg[320]; /* PyErr_Format has no floating-point conversions */
        snprintf(msg, sizeof msg,
                 "Invalid parameter combination for n, r, p, maxmem: n = %lu, r = %lu, p = %lu need "
                 "128 r p + 128 r (n + 2) = %.0Lf bytes, over %s; pass a larger maxmem",
                 n, r, p, need, cap);
        PyErr_SetString(PyExc_ValueError, msg);
        goto done;
    }
    if (!(ctx = kiln_py_ctx("cpu", KILN_KIND_KDF, 0)))
        goto done;
    kiln_scrypt_params prm = {.N = n, .r = (uint32_t)r, .p = (uint32_t)p};
    kiln_status st = KILN_OK;
    /* the p lanes run on as many threads as scratchpads of 128 r n bytes fit in maxmem beside B (at
     * least one) */
    const long double pad = 128.0L * r * n, fit = ((long double)limit - block) / pad;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (fit < (long double)p && fit < (long double)(cores > 0 ? cores : 1))
        st = kiln_ctx_set_threads(ctx, fit < 1 ? 1 : (int)fit);
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
     "maxmem caps the memory in bytes as in hashlib: 128 r p + 128 r (n + 2) must fit in it; 0\n"
     "(the default) means OpenSSL's default of 32 MiB, as in hashlib. Unlike hashlib, maxmem may\n"
     "be 2 GiB or more (up to 2**63 - 1; the memory kiln may use still bounds it). The same\n"
     "exceptions as hashlib.scrypt for the same arguments (TypeError for an n, r or p that is no\n"
     "int, negative or 2**64 or more; ValueError for bad values, its message naming the memory\n"
     "needed and the cap)."},
    {NULL, NULL, 0, NULL},
};
