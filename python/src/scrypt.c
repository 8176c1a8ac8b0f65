/* kiln.scrypt: hashlib.scrypt's signature over kiln_scrypt (CPU threads), without the GIL. */
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
    if (r > UINT32_MAX || p > UINT32_MAX || maxmem < 0 || dklen < 1) {
        PyErr_SetString(PyExc_ValueError, "r, p, maxmem or dklen out of range");
        goto done;
    }
    if (!(ctx = kiln_py_ctx("cpu", KILN_KIND_KDF, 0)))
        goto done;
    kiln_scrypt_params prm = {.N = n, .r = (uint32_t)r, .p = (uint32_t)p};
    kiln_status st = KILN_OK;
    if (maxmem > 0)
        st = kiln_ctx_set_memory_limit(ctx, (uint64_t)maxmem);
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

PyMethodDef kiln_py_scrypt_methods[] = {
    {"scrypt", (PyCFunction)(void (*)(void))py_scrypt, METH_VARARGS | METH_KEYWORDS,
     "scrypt(password, *, salt, n, r, p, maxmem=0, dklen=64)\n--\n\n"
     "scrypt (RFC 7914) as hashlib.scrypt: the p lanes run on the CPU threads, without the GIL.\n"
     "maxmem > 0 caps the scratchpad memory (bytes); 0 keeps kiln's limit. ValueError names a\n"
     "parameter outside RFC 7914's limits or a memory need over the cap."},
    {NULL, NULL, 0, NULL},
};
