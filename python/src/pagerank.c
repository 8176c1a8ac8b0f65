/* kiln.pagerank's core: an edge list over node ids 0..n-1 (uint64 ids, float64 weights, prepared by
 * kiln/__init__.py) into a kiln graph of n nodes (kiln_graph_from_edges_n: ids no edge names are
 * isolated, dangling nodes, and ids are the graph's own indices), PageRank on it, the ranks
 * written into the caller's array. The graph build and the iterations run without the GIL. */
#include <string.h>

#include "common.h"

/* A float64 vector over node ids, or None, taken as a buffer of n values. */
static int get_vector(PyObject *obj, Py_buffer *view, Py_ssize_t n, const char *what)
{
    if (obj == Py_None)
        return 0;
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0)
        return -1;
    if (view->len != n * (Py_ssize_t)sizeof(double)) {
        PyErr_Format(PyExc_ValueError, "%s must hold n float64 values", what);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return 0;
}

static PyObject *py_pagerank(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"src", "dst", "weights", "n", "alpha", "personalization", "nstart", "dangling",
                             "tol", "max_iter", "device", "out", "precision", NULL};
    Py_buffer src, dst, out, weights = {0}, vec[3] = {{0}};
    PyObject *weights_obj, *vec_obj[3];
    Py_ssize_t n;
    double alpha, tol;
    int max_iter;
    const char *device, *precision = "float64";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*y*OndOOOdisw*|s", kwlist, &src, &dst, &weights_obj, &n, &alpha,
                                     &vec_obj[0], &vec_obj[1], &vec_obj[2], &tol, &max_iter, &device, &out,
                                     &precision))
        return NULL;
    static const char *vec_name[3] = {"personalization", "nstart", "dangling"};
    PyObject *ret = NULL;
    kiln_ctx *ctx = NULL;
    kiln_graph *g = NULL;
    size_t count = (size_t)src.len / sizeof(uint64_t);
    if (src.len != dst.len || src.len % (Py_ssize_t)sizeof(uint64_t) != 0) {
        PyErr_SetString(PyExc_ValueError, "src and dst must be uint64 arrays of one length");
        goto done;
    }
    if (weights_obj != Py_None) {
        if (PyObject_GetBuffer(weights_obj, &weights, PyBUF_SIMPLE) < 0)
            goto done;
        if ((size_t)weights.len != count * sizeof(double)) {
            PyErr_SetString(PyExc_ValueError, "weights must hold one float64 value per edge");
            goto done;
        }
    }
    if (out.len != n * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "out must hold n float64 values");
        goto done;
    }
    for (int k = 0; k < 3; k++)
        if (get_vector(vec_obj[k], &vec[k], n, vec_name[k]) < 0)
            goto done;
    if (!(ctx = kiln_py_ctx(device, KILN_KIND_GRAPH, count)))
        goto done;
    kiln_status st;
    Py_BEGIN_ALLOW_THREADS
    st = kiln_graph_from_edges_n(ctx, src.buf, dst.buf, weights.obj ? weights.buf : NULL, count, (uint64_t)n, 0, &g);
    Py_END_ALLOW_THREADS
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        goto done;
    }
    kiln_pagerank_options opt;
    kiln_pagerank_options_init(&opt);
    if (strcmp(precision, "float64") == 0) {
        opt.precision = KILN_PRECISION_FLOAT64;
    } else if (strcmp(precision, "float32") == 0) {
        opt.precision = KILN_PRECISION_FLOAT32;
    } else if (strcmp(precision, "auto") != 0) {
        PyErr_Format(PyExc_ValueError, "precision must be 'float64', 'float32' or 'auto', not '%s'", precision);
        goto done;
    }
    opt.damping = alpha;
    opt.tol = tol;
    opt.max_iter = max_iter;
    /* node ids are the graph's indices: the vectors and the ranks need no reordering */
    opt.personalization = vec[0].obj ? vec[0].buf : NULL;
    opt.nstart = vec[1].obj ? vec[1].buf : NULL;
    opt.dangling = vec[2].obj ? vec[2].buf : NULL;
    kiln_pagerank_result result;
    Py_BEGIN_ALLOW_THREADS
    st = kiln_pagerank(ctx, g, &opt, out.buf, &result);
    Py_END_ALLOW_THREADS
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        goto done;
    }
    ret = Py_BuildValue("{s:i,s:d}", "iterations", result.iterations, "residual", result.residual);
done:
    for (int k = 0; k < 3; k++)
        if (vec[k].obj)
            PyBuffer_Release(&vec[k]);
    if (g)
        kiln_graph_free(g);
    kiln_py_ctx_free(ctx);
    if (weights.obj)
        PyBuffer_Release(&weights);
    PyBuffer_Release(&src);
    PyBuffer_Release(&dst);
    PyBuffer_Release(&out);
    return ret;
}

PyMethodDef kiln_py_pagerank_methods[] = {
    {"_pagerank", (PyCFunction)(void (*)(void))py_pagerank, METH_VARARGS | METH_KEYWORDS,
     "_pagerank(src, dst, weights, n, alpha, personalization, nstart, dangling, tol, max_iter, device, out,\n"
     "          precision='float64')\n--\n\n"
     "Core of kiln.pagerank: uint64 src/dst, float64 weights or None, float64 vectors over node ids\n"
     "or None; the ranks over node ids into out (n float64). Returns {'iterations', 'residual'}."},
    {NULL, NULL, 0, NULL},
};
