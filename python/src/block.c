/* Bitcoin data: the core of kiln.parse_block (kiln_block_parse: header, transactions, txids) and
 * nBits -> target under the consensus rules, for kiln.scan and the proof-of-work check. */
#include "common.h"

/* _parse_block(raw) -> (header, txids, n_segwit): txids n_tx * 32 bytes, raw byte order. The
 * parse and the hashing run without the GIL. */
static PyObject *py_parse_block(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_buffer raw;
    if (PyObject_GetBuffer(arg, &raw, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *ret = NULL;
    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx) {
        PyErr_NoMemory();
        goto done;
    }
    kiln_block block;
    kiln_status st;
    Py_BEGIN_ALLOW_THREADS
    st = kiln_block_parse(ctx, raw.buf, (size_t)raw.len, &block);
    Py_END_ALLOW_THREADS
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        goto done;
    }
    ret = Py_BuildValue("(y#y#K)", (const char *)block.header, (Py_ssize_t)KILN_HEADER_SIZE,
                        (const char *)block.txids, (Py_ssize_t)(block.n_tx * 32), (unsigned long long)block.n_segwit);
    kiln_block_free(&block);
done:
    if (ctx)
        kiln_ctx_free(ctx);
    PyBuffer_Release(&raw);
    return ret;
}

/* _target_from_bits(bits) -> 32 bytes, a little-endian number; ValueError as the library has it. */
static PyObject *py_target_from_bits(PyObject *self, PyObject *arg)
{
    (void)self;
    unsigned long bits = PyLong_AsUnsignedLong(arg);
    if (bits == (unsigned long)-1 && PyErr_Occurred())
        return NULL;
    if (bits > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "nBits is a 32-bit value");
        return NULL;
    }
    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx)
        return PyErr_NoMemory();
    uint8_t target[32];
    kiln_status st = kiln_target_from_bits(ctx, (uint32_t)bits, target);
    PyObject *ret = st == KILN_OK ? PyBytes_FromStringAndSize((const char *)target, 32) : kiln_py_raise(ctx, st);
    kiln_ctx_free(ctx);
    return ret;
}

PyMethodDef kiln_py_block_methods[] = {
    {"_parse_block", py_parse_block, METH_O,
     "_parse_block(raw)\n--\n\nCore of kiln.parse_block: (header, txids, n_segwit), txids n * 32 bytes."},
    {"_target_from_bits", py_target_from_bits, METH_O,
     "_target_from_bits(bits)\n--\n\nThe 256-bit target of compact nBits, 32 bytes little-endian."},
    {NULL, NULL, 0, NULL},
};
