/* Merkle trees: the cores of kiln.merkle_root / merkle_tree / merkle_proof / merkle_verify. Leaves
 * are one buffer of n 32-byte nodes (kiln/merkle.py joins lists); trees and proofs are written
 * into the caller's buffers (NumPy arrays). Builds run without the GIL. */
#include "common.h"

static int merkle_algo(const char *name, kiln_merkle_algo *algo)
{
    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx) {
        PyErr_NoMemory();
        return -1;
    }
    kiln_status st = kiln_merkle_algo_from_name(ctx, name, algo);
    if (st != KILN_OK)
        kiln_py_raise(ctx, st);
    kiln_ctx_free(ctx);
    return st == KILN_OK ? 0 : -1;
}

/* The leaves as n nodes: a buffer of a nonzero multiple of 32 bytes. */
static int leaf_count(const Py_buffer *leaves, uint64_t *n)
{
    if (leaves->len == 0 || leaves->len % KILN_MERKLE_NODE_SIZE != 0) {
        PyErr_SetString(PyExc_ValueError, "leaves must be n >= 1 nodes of 32 bytes");
        return -1;
    }
    *n = (uint64_t)leaves->len / KILN_MERKLE_NODE_SIZE;
    return 0;
}

/* _merkle_build(leaves, algo, device, root, tree): the root into root (32 bytes), the whole tree
 * into tree (tree_size * 32 bytes) unless it is None. */
static PyObject *py_merkle_build(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer leaves, root, tree = {0};
    const char *algo_name, *device;
    PyObject *tree_obj;
    if (!PyArg_ParseTuple(args, "y*ssw*O", &leaves, &algo_name, &device, &root, &tree_obj))
        return NULL;
    PyObject *ret = NULL;
    kiln_ctx *ctx = NULL;
    kiln_merkle_algo algo;
    uint64_t n;
    if (merkle_algo(algo_name, &algo) < 0 || leaf_count(&leaves, &n) < 0)
        goto done;
    if (root.len != KILN_MERKLE_NODE_SIZE) {
        PyErr_SetString(PyExc_ValueError, "root must be 32 bytes");
        goto done;
    }
    if (tree_obj != Py_None) {
        if (PyObject_GetBuffer(tree_obj, &tree, PyBUF_WRITABLE) < 0)
            goto done;
        if ((uint64_t)tree.len != kiln_merkle_tree_size(n) * KILN_MERKLE_NODE_SIZE) {
            PyErr_SetString(PyExc_ValueError, "tree must hold kiln_merkle_tree_size(n) nodes");
            goto done;
        }
    }
    if (!(ctx = kiln_py_ctx(device, KILN_KIND_TREE, n)))
        goto done;
    kiln_status st;
    Py_BEGIN_ALLOW_THREADS
    st = kiln_merkle_build(ctx, algo, leaves.buf, n, NULL, root.buf, tree.obj ? tree.buf : NULL);
    Py_END_ALLOW_THREADS
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        goto done;
    }
    ret = Py_None;
    Py_INCREF(ret);
done:
    kiln_py_ctx_free(ctx);
    if (tree.obj)
        PyBuffer_Release(&tree);
    PyBuffer_Release(&leaves);
    PyBuffer_Release(&root);
    return ret;
}

/* _merkle_proof(tree, n, index) -> bytes: the siblings, leaf level first, 32 bytes each. */
static PyObject *py_merkle_proof(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer tree;
    unsigned long long n, index;
    if (!PyArg_ParseTuple(args, "y*KK", &tree, &n, &index))
        return NULL;
    PyObject *ret = NULL;
    kiln_ctx *ctx = NULL;
    uint8_t siblings[64 * KILN_MERKLE_NODE_SIZE];
    int count = 0;
    if (n == 0 || (uint64_t)tree.len != kiln_merkle_tree_size(n) * KILN_MERKLE_NODE_SIZE) {
        PyErr_SetString(PyExc_ValueError, "tree must be the whole tree of n >= 1 leaves");
        goto done;
    }
    if (!(ctx = kiln_ctx_new())) {
        PyErr_NoMemory();
        goto done;
    }
    kiln_status st = kiln_merkle_proof(ctx, tree.buf, n, index, siblings, &count);
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        goto done;
    }
    ret = PyBytes_FromStringAndSize((const char *)siblings, (Py_ssize_t)count * KILN_MERKLE_NODE_SIZE);
done:
    if (ctx)
        kiln_ctx_free(ctx);
    PyBuffer_Release(&tree);
    return ret;
}

/* _merkle_verify(algo, leaf, index, n, siblings, root) -> bool. */
static PyObject *py_merkle_verify(PyObject *self, PyObject *args)
{
    (void)self;
    const char *algo_name;
    Py_buffer leaf, siblings, root;
    unsigned long long index, n;
    if (!PyArg_ParseTuple(args, "sy*KKy*y*", &algo_name, &leaf, &index, &n, &siblings, &root))
        return NULL;
    PyObject *ret = NULL;
    kiln_ctx *ctx = NULL;
    kiln_merkle_algo algo;
    if (merkle_algo(algo_name, &algo) < 0)
        goto done;
    if (leaf.len != KILN_MERKLE_NODE_SIZE || root.len != KILN_MERKLE_NODE_SIZE ||
        siblings.len % KILN_MERKLE_NODE_SIZE != 0 || siblings.len / KILN_MERKLE_NODE_SIZE > 64) {
        PyErr_SetString(PyExc_ValueError, "leaf and root must be 32 bytes, the proof up to 64 nodes of 32 bytes");
        goto done;
    }
    if (!(ctx = kiln_ctx_new())) {
        PyErr_NoMemory();
        goto done;
    }
    kiln_status st = kiln_merkle_verify(ctx, algo, leaf.buf, index, n, siblings.buf,
                                        (int)(siblings.len / KILN_MERKLE_NODE_SIZE), root.buf);
    if (st == KILN_OK || st == KILN_NOT_FOUND)
        ret = PyBool_FromLong(st == KILN_OK);
    else
        kiln_py_raise(ctx, st);
done:
    if (ctx)
        kiln_ctx_free(ctx);
    PyBuffer_Release(&leaf);
    PyBuffer_Release(&siblings);
    PyBuffer_Release(&root);
    return ret;
}

static PyObject *py_merkle_tree_size(PyObject *self, PyObject *arg)
{
    (void)self;
    unsigned long long n = PyLong_AsUnsignedLongLong(arg);
    if (n == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    return PyLong_FromUnsignedLongLong(kiln_merkle_tree_size(n));
}

static PyObject *py_merkle_row_element_bytes(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *name = PyUnicode_AsUTF8(arg);
    kiln_merkle_algo algo;
    if (!name || merkle_algo(name, &algo) < 0)
        return NULL;
    return PyLong_FromSize_t(kiln_merkle_row_element_bytes(algo));
}

/* _merkle_leaves_from_rows(rows, n, row_elems, algo, leaf_hash, device, leaves): n rows of
 * row_elems field elements (a C-contiguous buffer of 4- or 8-byte little-endian elements, as
 * kiln.merkle_leaves_from_rows checks) hashed into leaves (n * 32 bytes), without the GIL. */
static PyObject *py_merkle_leaves_from_rows(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer rows, leaves;
    unsigned long long n, row_elems;
    const char *algo_name, *leaf_name, *device;
    if (!PyArg_ParseTuple(args, "y*KKsssw*", &rows, &n, &row_elems, &algo_name, &leaf_name, &device, &leaves))
        return NULL;
    PyObject *ret = NULL;
    kiln_ctx *ctx = NULL;
    kiln_merkle_algo algo;
    kiln_merkle_leaf_hash leaf;
    if (merkle_algo(algo_name, &algo) < 0)
        goto done;
    if ((uint64_t)leaves.len / KILN_MERKLE_NODE_SIZE != n || (uint64_t)leaves.len % KILN_MERKLE_NODE_SIZE) {
        PyErr_SetString(PyExc_ValueError, "leaves must hold n nodes of 32 bytes");
        goto done;
    }
    if (!(ctx = kiln_py_ctx(device, KILN_KIND_TREE, n)))
        goto done;
    /* 0 for a merge without leaves from rows, which the library refuses, naming why */
    const uint64_t size = kiln_merkle_row_element_bytes(algo);
    if (size && row_elems && (n > UINT64_MAX / 8 / row_elems || (uint64_t)rows.len < n * row_elems * size)) {
        PyErr_SetString(PyExc_ValueError, "rows hold fewer than n * row_elems elements");
        goto done;
    }
    kiln_status st = kiln_merkle_leaf_hash_from_name(ctx, leaf_name, &leaf);
    if (st == KILN_OK) {
        Py_BEGIN_ALLOW_THREADS
        st = kiln_merkle_leaves_from_rows_with(ctx, algo, leaf, rows.buf, n, (size_t)row_elems, leaves.buf);
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
    PyBuffer_Release(&rows);
    PyBuffer_Release(&leaves);
    return ret;
}

PyMethodDef kiln_py_merkle_methods[] = {
    {"_merkle_build", py_merkle_build, METH_VARARGS,
     "_merkle_build(leaves, algo, device, root, tree)\n--\n\n"
     "Core of kiln.merkle_root/merkle_tree: the root into root (32 bytes), the whole tree into tree\n"
     "(or None)."},
    {"_merkle_proof", py_merkle_proof, METH_VARARGS,
     "_merkle_proof(tree, n, index)\n--\n\nCore of kiln.merkle_proof: the siblings as bytes."},
    {"_merkle_verify", py_merkle_verify, METH_VARARGS,
     "_merkle_verify(algo, leaf, index, n, siblings, root)\n--\n\nCore of kiln.merkle_verify."},
    {"_merkle_tree_size", py_merkle_tree_size, METH_O,
     "_merkle_tree_size(n)\n--\n\nNodes in the whole tree of n leaves (kiln_merkle_tree_size)."},
    {"_merkle_row_element_bytes", py_merkle_row_element_bytes, METH_O,
     "_merkle_row_element_bytes(algo)\n--\n\nBytes a row element takes for the merge's leaves from rows, 0 for none\n"
     "(kiln_merkle_row_element_bytes)."},
    {"_merkle_leaves_from_rows", py_merkle_leaves_from_rows, METH_VARARGS,
     "_merkle_leaves_from_rows(rows, n, row_elems, algo, leaf_hash, device, leaves)\n--\n\n"
     "Core of kiln.merkle_leaves_from_rows."},
    {NULL, NULL, 0, NULL},
};
