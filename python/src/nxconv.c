/* A NetworkX graph's adjacency (G._adj) into edge arrays for the NetworkX backend
 * (kiln/nx_backend.py). The dicts are walked here in C, so no Python bytecode runs per edge: per
 * edge one dict lookup of the neighbour's index and, for a weight, one of its attribute. The GIL
 * stays held throughout: every step reads Python objects. */
#include "common.h"

#include <stdint.h>

/* Directed edges in adj (an undirected edge u-v counts once from u and once from v, a self loop
 * once, as G.to_directed() has them); with multigraph each key is an edge of its own. */
static PyObject *py_nx_edge_count(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *adj;
    int multigraph;
    if (!PyArg_ParseTuple(args, "O!p", &PyDict_Type, &adj, &multigraph))
        return NULL;
    unsigned long long count = 0;
    Py_ssize_t pos = 0;
    PyObject *u, *nbrs;
    while (PyDict_Next(adj, &pos, &u, &nbrs)) {
        if (!PyDict_Check(nbrs)) {
            PyErr_SetString(PyExc_TypeError, "G._adj must map nodes to dicts");
            return NULL;
        }
        if (!multigraph) {
            count += (unsigned long long)PyDict_Size(nbrs);
            continue;
        }
        Py_ssize_t p2 = 0;
        PyObject *v, *keys;
        while (PyDict_Next(nbrs, &p2, &v, &keys)) {
            if (!PyDict_Check(keys)) {
                PyErr_SetString(PyExc_TypeError, "a multigraph's G._adj[u][v] must be a dict of edge keys");
                return NULL;
            }
            count += (unsigned long long)PyDict_Size(keys);
        }
    }
    return PyLong_FromUnsignedLongLong(count);
}

/* The index of node v: through table (int64 index by int id, -1: none) when v is an int it
 * covers, one array read instead of a dict probe; else through the index dict. */
static int node_index(PyObject *index, const int64_t *table, Py_ssize_t size, PyObject *v, uint64_t *ix)
{
    if (table && PyLong_CheckExact(v)) {
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (!overflow && x >= 0 && x < size && table[x] >= 0) {
            *ix = (uint64_t)table[x];
            return 0;
        }
        if (x == -1 && PyErr_Occurred())
            return -1;
    }
    PyObject *i = PyDict_GetItemWithError(index, v);
    if (!i) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_KeyError, "a node of G._adj is not in the node index");
        return -1;
    }
    *ix = PyLong_AsUnsignedLongLong(i);
    return (*ix == (uint64_t)-1 && PyErr_Occurred()) ? -1 : 0;
}

/* The weight of one edge: attribute `attr` of its data dict, `dflt` when absent. */
static int edge_weight(PyObject *data, PyObject *attr, double dflt, double *w)
{
    if (!PyDict_Check(data)) {
        PyErr_SetString(PyExc_TypeError, "edge data must be a dict");
        return -1;
    }
    PyObject *x = PyDict_GetItemWithError(data, attr);
    if (!x) {
        if (PyErr_Occurred())
            return -1;
        *w = dflt;
        return 0;
    }
    *w = PyFloat_AsDouble(x);
    return (*w == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static PyObject *py_nx_edges(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"adj",     "index", "attr",       "default", "multigraph", "src", "dst",
                             "weights", "table", "undirected", NULL};
    PyObject *adj, *index, *attr, *weights_obj, *table_obj = Py_None;
    double dflt;
    int multigraph, undirected = 0;
    Py_buffer src, dst, weights = {0}, table = {0};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O!Odpw*w*O|Op", kwlist, &PyDict_Type, &adj, &PyDict_Type, &index,
                                     &attr, &dflt, &multigraph, &src, &dst, &weights_obj, &table_obj, &undirected))
        return NULL;
    PyObject *ret = NULL;
    /* undirected: the nodes whose adjacency was walked (G.edges' "seen"), by index */
    uint8_t *seen = NULL;
    Py_ssize_t nodes = PyDict_Size(index);
    if (undirected && !(seen = PyMem_Calloc((size_t)nodes + 1, 1))) {
        PyErr_NoMemory();
        goto done;
    }
    if (table_obj != Py_None) {
        if (PyObject_GetBuffer(table_obj, &table, PyBUF_SIMPLE) < 0)
            goto done;
        if (table.len % (Py_ssize_t)sizeof(int64_t) != 0) {
            PyErr_SetString(PyExc_ValueError, "table must be an int64 array");
            goto done;
        }
    }
    const int64_t *tab = table.obj ? table.buf : NULL;
    Py_ssize_t tab_size = table.len / (Py_ssize_t)sizeof(int64_t);
    size_t cap = (size_t)src.len / sizeof(uint64_t), k = 0;
    if (dst.len != src.len) {
        PyErr_SetString(PyExc_ValueError, "src and dst must be uint64 arrays of one length");
        goto done;
    }
    if (weights_obj != Py_None) {
        if (PyObject_GetBuffer(weights_obj, &weights, PyBUF_WRITABLE) < 0)
            goto done;
        if ((size_t)weights.len != cap * sizeof(double)) {
            PyErr_SetString(PyExc_ValueError, "weights must hold one float64 per edge");
            goto done;
        }
    } else if (attr != Py_None) {
        PyErr_SetString(PyExc_ValueError, "an attribute needs a weights array");
        goto done;
    }
    uint64_t *s = src.buf, *d = dst.buf;
    double *w = weights.buf;
    Py_ssize_t pos = 0;
    PyObject *u, *nbrs;
    while (PyDict_Next(adj, &pos, &u, &nbrs)) {
        uint64_t uix, vix;
        if (node_index(index, tab, tab_size, u, &uix) < 0)
            goto done;
        if (!PyDict_Check(nbrs)) {
            PyErr_SetString(PyExc_TypeError, "G._adj must map nodes to dicts");
            goto done;
        }
        if (seen && uix >= (uint64_t)nodes) {
            PyErr_SetString(PyExc_ValueError, "a node index is not below the number of nodes");
            goto done;
        }
        Py_ssize_t p2 = 0;
        PyObject *v, *data;
        while (PyDict_Next(nbrs, &p2, &v, &data)) {
            if (node_index(index, tab, tab_size, v, &vix) < 0)
                goto done;
            if (seen && (vix >= (uint64_t)nodes || seen[vix]))
                continue; /* an undirected edge is read once, from the side G.edges reads first */
            /* A multigraph's data is {key: attributes}: one edge per key. */
            Py_ssize_t p3 = 0;
            PyObject *key, *attrs = data;
            while (multigraph ? PyDict_Next(data, &p3, &key, &attrs) : p3++ == 0) {
                if (k == cap) {
                    PyErr_SetString(PyExc_RuntimeError, "the graph changed size during conversion");
                    goto done;
                }
                s[k] = uix;
                d[k] = vix;
                if (w && attr == Py_None)
                    w[k] = 1.0;
                else if (w && edge_weight(attrs, attr, dflt, &w[k]) < 0)
                    goto done;
                k++;
            }
        }
        if (seen)
            seen[uix] = 1;
    }
    if (seen ? k > cap : k != cap) {
        PyErr_SetString(PyExc_RuntimeError, "the graph changed size during conversion");
        goto done;
    }
    ret = PyLong_FromSize_t(k);
done:
    PyMem_Free(seen);
    if (table.obj)
        PyBuffer_Release(&table);
    if (weights.obj)
        PyBuffer_Release(&weights);
    PyBuffer_Release(&src);
    PyBuffer_Release(&dst);
    return ret;
}

PyMethodDef kiln_py_nxconv_methods[] = {
    {"_nx_edge_count", py_nx_edge_count, METH_VARARGS,
     "_nx_edge_count(adj, multigraph)\n--\n\n"
     "Directed edges of a NetworkX adjacency dict (G._adj), one per key for a multigraph."},
    {"_nx_edges", (PyCFunction)(void (*)(void))py_nx_edges, METH_VARARGS | METH_KEYWORDS,
     "_nx_edges(adj, index, attr, default, multigraph, src, dst, weights, table=None, undirected=False)\n--\n\n"
     "Writes the edges of G._adj as node indices (index: {node: i}) into the uint64 arrays src and\n"
     "dst, and when weights (float64) is given, each edge's attribute attr (default when absent;\n"
     "attr None: 1.0). The arrays hold _nx_edge_count(adj, multigraph) values. table (int64, or\n"
     "None): the index of each int node id, -1 for none, read before the dict. undirected: each\n"
     "edge once, as G.edges() gives it (from the node whose adjacency comes first, with that side's\n"
     "data), not once from each side. Returns the edges written."},
    {NULL, NULL, 0, NULL},
};
