/* kiln.hash_batch's core: many messages in one kiln_hash_batch call, read in place from one
 * buffer, the digests written into a caller's buffer (the NumPy array kiln/__init__.py makes). */
#include "common.h"

static PyObject *py_hash_batch(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"data", "offsets", "msg_len", "n", "algo", "out", "outlen", "device", NULL};
    Py_buffer data, out, offsets = {0};
    PyObject *offsets_obj;
    Py_ssize_t msg_len, n, outlen;
    const char *algo_name, *device;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*Onnsw*ns", kwlist, &data, &offsets_obj, &msg_len, &n,
                                     &algo_name, &out, &outlen, &device))
        return NULL;
    PyObject *ret = NULL;
    kiln_ctx *ctx = NULL;
    int algo = kiln_py_algo(algo_name);
    if (algo < 0)
        goto done;
    if (offsets_obj != Py_None && PyObject_GetBuffer(offsets_obj, &offsets, PyBUF_SIMPLE) < 0)
        goto done;
    if (n < 0 || outlen <= 0 || msg_len < 0) {
        PyErr_SetString(PyExc_ValueError, "n, msg_len and outlen must be non-negative (outlen > 0)");
        goto done;
    }
    const uint64_t *off = offsets.buf;
    if (off) {
        if ((size_t)offsets.len != ((size_t)n + 1) * sizeof(uint64_t)) {
            PyErr_SetString(PyExc_ValueError, "offsets must hold n + 1 uint64 values");
            goto done;
        }
        /* kiln.hash_batch checks these first, with the values in its messages */
        if (off[0] != 0) {
            PyErr_SetString(PyExc_ValueError, "offsets must start at 0");
            goto done;
        }
        if (off[n] != (uint64_t)data.len) {
            PyErr_SetString(PyExc_ValueError, "offsets must end at the data's length: every byte in one message");
            goto done;
        }
    } else if ((uint64_t)msg_len * (uint64_t)n > (uint64_t)data.len) {
        PyErr_SetString(PyExc_ValueError, "data is shorter than n * msg_len bytes");
        goto done;
    }
    if ((uint64_t)out.len < (uint64_t)n * (uint64_t)outlen) {
        PyErr_SetString(PyExc_ValueError, "out is shorter than n * outlen bytes");
        goto done;
    }
    uint64_t bytes = off ? off[n] : (uint64_t)msg_len * (uint64_t)n;
    if (!(ctx = kiln_py_ctx(device, KILN_KIND_HASH, bytes)))
        goto done;
    if (n == 0) {
        ret = Py_None;
        Py_INCREF(ret);
        goto done;
    }
    kiln_status st;
    Py_BEGIN_ALLOW_THREADS
    if (off)
        st = kiln_hash_batch(ctx, (kiln_hash_algo)algo, data.buf, off, (size_t)n, out.buf, (size_t)outlen);
    else
        st = kiln_hash_batch_fixed(ctx, (kiln_hash_algo)algo, data.buf, (size_t)msg_len, (size_t)n, out.buf,
                                   (size_t)outlen);
    Py_END_ALLOW_THREADS
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        goto done;
    }
    ret = Py_None;
    Py_INCREF(ret);
done:
    kiln_py_ctx_free(ctx);
    if (offsets.obj)
        PyBuffer_Release(&offsets);
    PyBuffer_Release(&data);
    PyBuffer_Release(&out);
    return ret;
}

PyMethodDef kiln_py_batch_methods[] = {
    {"_hash_batch", (PyCFunction)(void (*)(void))py_hash_batch, METH_VARARGS | METH_KEYWORDS,
     "_hash_batch(data, offsets, msg_len, n, algo, out, outlen, device)\n--\n\n"
     "Core of kiln.hash_batch: offsets (n + 1 uint64, native order) or None for n messages of\n"
     "msg_len bytes; digests of outlen bytes into the writable buffer out."},
    {NULL, NULL, 0, NULL},
};
