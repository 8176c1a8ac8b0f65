/* CUDA arrays in, CuPy arrays out (docs/DEVICE_MEMORY.md): kiln.hash_batch_device,
 * kiln.merkle_device and kiln.scrypt_batch_device take any object with __cuda_array_interface__
 * (CuPy, PyTorch CUDA tensors, Numba), read in place through its device pointer, and return CuPy
 * arrays made on the same device (kiln.pagerank takes CUDA vectors the same way, through
 * _pagerank_device). kiln enqueues on CuPy's current stream; an input whose interface names another
 * stream (version 3's "stream") is waited for on the current one first,
 * as the interface asks of a consumer. DLPack-only objects convert without a copy through
 * cupy.from_dlpack. */
#include "common.h"

/* A C-contiguous CUDA array: its device pointer, element size and count, and the stream it was
 * made on (0 when the interface names none). */
typedef struct dev_array {
    void *ptr;
    size_t itemsize, count;
    unsigned long long stream;
} dev_array;

/* -1 with TypeError/ValueError set when o is not a C-contiguous CUDA array of `kind` ('u' unsigned,
 * 'f' floating point; any size when itemsize is 0). */
static int dev_array_of(PyObject *o, const char *what, char kind, size_t itemsize, dev_array *a)
{
    memset(a, 0, sizeof *a);
    PyObject *cai = PyObject_GetAttrString(o, "__cuda_array_interface__");
    if (!cai || !PyDict_Check(cai)) {
        Py_XDECREF(cai);
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: not a CUDA array (no __cuda_array_interface__; cupy.from_dlpack converts "
                                      "a DLPack tensor without a copy)", what);
        return -1;
    }
    int rc = -1;
    PyObject *shape = PyDict_GetItemString(cai, "shape"), *typestr = PyDict_GetItemString(cai, "typestr");
    PyObject *data = PyDict_GetItemString(cai, "data"), *strides = PyDict_GetItemString(cai, "strides");
    PyObject *stream = PyDict_GetItemString(cai, "stream");
    const char *ts = typestr && PyUnicode_Check(typestr) ? PyUnicode_AsUTF8(typestr) : NULL;
    if (!shape || !PyTuple_Check(shape) || !ts || strlen(ts) < 3 || !data || !PyTuple_Check(data) || PyTuple_Size(data) < 1) {
        PyErr_Format(PyExc_TypeError, "%s: a malformed __cuda_array_interface__", what);
        goto done;
    }
    a->itemsize = (size_t)strtoul(ts + 2, NULL, 10);
    if (ts[0] == '>' || ts[1] != kind || (itemsize && a->itemsize != itemsize) || a->itemsize == 0) {
        if (kind == 'f')
            PyErr_Format(PyExc_ValueError, "%s: element type %s, expected float64", what, ts);
        else
            PyErr_Format(PyExc_ValueError, "%s: element type %s, expected little-endian unsigned integers%s", what, ts,
                         itemsize == 8 ? " of 8 bytes (uint64)" : itemsize == 1 ? " of 1 byte (uint8)" : "");
        goto done;
    }
    a->count = 1;
    const Py_ssize_t nd = PyTuple_Size(shape);
    for (Py_ssize_t i = 0; i < nd; i++) a->count *= (size_t)PyLong_AsSize_t(PyTuple_GetItem(shape, i));
    if (PyErr_Occurred()) goto done;
    if (strides && strides != Py_None) { /* contiguous arrays may give their strides all the same */
        size_t want = a->itemsize;
        for (Py_ssize_t i = nd - 1; i >= 0; i--) {
            size_t dim = PyLong_AsSize_t(PyTuple_GetItem(shape, i));
            if (dim > 1 && PyLong_AsSsize_t(PyTuple_GetItem(strides, i)) != (Py_ssize_t)want) {
                PyErr_Format(PyExc_ValueError, "%s: not C-contiguous (make it so with cupy.ascontiguousarray)", what);
                goto done;
            }
            want *= dim;
        }
        if (PyErr_Occurred()) goto done;
    }
    a->ptr = PyLong_AsVoidPtr(PyTuple_GetItem(data, 0));
    if (PyErr_Occurred()) goto done;
    if (stream && stream != Py_None) a->stream = PyLong_AsUnsignedLongLong(stream);
    if (PyErr_Occurred()) goto done;
    rc = 0;
done:
    Py_DECREF(cai);
    return rc;
}

/* CuPy's current stream (its handle), or -1 with ImportError set without CuPy. */
static int current_stream(PyObject **cupy, unsigned long long *handle)
{
    *cupy = PyImport_ImportModule("cupy");
    if (!*cupy) return -1;
    PyObject *cuda = PyObject_GetAttrString(*cupy, "cuda");
    PyObject *s = cuda ? PyObject_CallMethod(cuda, "get_current_stream", NULL) : NULL;
    PyObject *ptr = s ? PyObject_GetAttrString(s, "ptr") : NULL;
    Py_XDECREF(cuda);
    Py_XDECREF(s);
    if (!ptr) return -1;
    *handle = PyLong_AsUnsignedLongLong(ptr);
    Py_DECREF(ptr);
    return PyErr_Occurred() ? -1 : 0;
}

/* The current stream waits for the work of stream `producer` (interface version 3): an event
 * recorded there, waited for here. Nothing when they are the same or none is named. */
static int wait_for(PyObject *cupy, unsigned long long producer, unsigned long long current)
{
    if (producer == 0 || producer == current) return 0;
    PyObject *cuda = PyObject_GetAttrString(cupy, "cuda");
    PyObject *ext = cuda ? PyObject_CallMethod(cuda, "ExternalStream", "K", producer) : NULL;
    PyObject *ev = ext ? PyObject_CallMethod(ext, "record", NULL) : NULL;
    PyObject *cur = ev ? PyObject_CallMethod(cuda, "get_current_stream", NULL) : NULL;
    PyObject *r = cur ? PyObject_CallMethod(cur, "wait_event", "O", ev) : NULL;
    Py_XDECREF(cuda);
    Py_XDECREF(ext);
    Py_XDECREF(ev);
    Py_XDECREF(cur);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

/* cupy.empty(shape, uint8) and its device pointer; NULL with the exception set. */
static PyObject *cupy_empty(PyObject *cupy, PyObject *shape, void **ptr)
{
    PyObject *arr = PyObject_CallMethod(cupy, "empty", "Os", shape, "uint8");
    if (!arr) return NULL;
    dev_array a;
    if (dev_array_of(arr, "output", 'u', 1, &a) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    *ptr = a.ptr;
    return arr;
}

/* A GPU context for a device spec ("auto" means the first CUDA GPU here: the data is there). */
static kiln_ctx *gpu_ctx(const char *device, kiln_kind kind)
{
    return kiln_py_ctx(strcmp(device, "auto") == 0 ? "cuda" : device, kind, UINT64_MAX);
}

static PyObject *py_hash_batch_device(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"messages", "algo", "offsets", "length", "outlen", "device", NULL};
    PyObject *msgs_obj, *off_obj = Py_None, *cupy = NULL, *out = NULL;
    const char *algo_name, *device = "cuda";
    Py_ssize_t length = -1, outlen = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Os|$Onns", kwlist, &msgs_obj, &algo_name, &off_obj, &length, &outlen,
                                     &device))
        return NULL;
    dev_array m, o = {0};
    unsigned long long stream = 0;
    kiln_ctx *ctx = NULL;
    int algo = kiln_py_algo(algo_name);
    if (algo < 0 || dev_array_of(msgs_obj, "messages", 'u', 1, &m) < 0) goto fail;
    if (off_obj != Py_None && dev_array_of(off_obj, "offsets", 'u', 8, &o) < 0) goto fail;
    if ((off_obj == Py_None) == (length < 0)) {
        PyErr_SetString(PyExc_ValueError, "give offsets (n + 1 uint64 on the device) or length (bytes a message)");
        goto fail;
    }
    if (outlen <= 0) outlen = (Py_ssize_t)kiln_hash_digest_len((kiln_hash_algo)algo);
    size_t n;
    if (off_obj != Py_None) {
        if (o.count == 0) {
            PyErr_SetString(PyExc_ValueError, "offsets must hold n + 1 values");
            goto fail;
        }
        n = o.count - 1;
    } else {
        if ((length == 0 && m.count != 0) || (length > 0 && m.count % (size_t)length != 0)) {
            PyErr_SetString(PyExc_ValueError, "the messages' size is not a multiple of length");
            goto fail;
        }
        n = length ? m.count / (size_t)length : 0;
    }
    if (current_stream(&cupy, &stream) < 0 || wait_for(cupy, m.stream, stream) < 0 || wait_for(cupy, o.stream, stream) < 0)
        goto fail;
    void *dst;
    PyObject *shape = Py_BuildValue("(nn)", (Py_ssize_t)n, outlen);
    out = shape ? cupy_empty(cupy, shape, &dst) : NULL;
    Py_XDECREF(shape);
    if (!out || !(ctx = gpu_ctx(device, KILN_KIND_HASH))) goto fail;
    kiln_status st;
    Py_BEGIN_ALLOW_THREADS
    if (off_obj != Py_None)
        st = kiln_hash_batch_device(ctx, (kiln_hash_algo)algo, m.ptr, m.count, o.ptr, n, dst, (size_t)outlen, (void *)stream);
    else
        st = kiln_hash_batch_fixed_device(ctx, (kiln_hash_algo)algo, m.ptr, (size_t)length, n, dst, (size_t)outlen,
                                          (void *)stream);
    Py_END_ALLOW_THREADS
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        goto fail;
    }
    kiln_py_ctx_free(ctx);
    Py_DECREF(cupy);
    return out;
fail:
    kiln_py_ctx_free(ctx);
    Py_XDECREF(cupy);
    Py_XDECREF(out);
    return NULL;
}

static PyObject *py_merkle_device(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"leaves", "algo", "tree", "device", NULL};
    PyObject *leaves_obj, *cupy = NULL, *root = NULL, *tree = NULL;
    const char *algo_name = "sha256d", *device = "cuda";
    int want_tree = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|s$ps", kwlist, &leaves_obj, &algo_name, &want_tree, &device))
        return NULL;
    dev_array l;
    unsigned long long stream = 0;
    kiln_merkle_algo algo;
    kiln_ctx *ctx = NULL;
    if (dev_array_of(leaves_obj, "leaves", 'u', 0, &l) < 0) goto fail;
    const size_t bytes = l.count * l.itemsize, n = bytes / 32;
    if (bytes % 32 || n == 0) {
        PyErr_SetString(PyExc_ValueError, "leaves: a whole number (at least one) of 32-byte leaves");
        goto fail;
    }
    if (!(ctx = gpu_ctx(device, KILN_KIND_TREE))) goto fail;
    if (kiln_merkle_algo_from_name(ctx, algo_name, &algo) != KILN_OK) {
        kiln_py_raise(ctx, KILN_ERR_INPUT);
        goto fail;
    }
    if (current_stream(&cupy, &stream) < 0 || wait_for(cupy, l.stream, stream) < 0) goto fail;
    void *root_ptr, *tree_ptr = NULL;
    PyObject *shape = Py_BuildValue("(n)", (Py_ssize_t)32);
    root = shape ? cupy_empty(cupy, shape, &root_ptr) : NULL;
    Py_XDECREF(shape);
    if (!root) goto fail;
    if (want_tree) {
        shape = Py_BuildValue("(nn)", (Py_ssize_t)kiln_merkle_tree_size(n), (Py_ssize_t)32);
        tree = shape ? cupy_empty(cupy, shape, &tree_ptr) : NULL;
        Py_XDECREF(shape);
        if (!tree) goto fail;
    }
    kiln_status st;
    Py_BEGIN_ALLOW_THREADS
    st = kiln_merkle_build_device(ctx, algo, l.ptr, n, NULL, tree_ptr, root_ptr, NULL, (void *)stream);
    Py_END_ALLOW_THREADS
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        goto fail;
    }
    kiln_py_ctx_free(ctx);
    Py_DECREF(cupy);
    if (!want_tree) return root;
    PyObject *pair = PyTuple_Pack(2, root, tree);
    Py_DECREF(root);
    Py_DECREF(tree);
    return pair;
fail:
    kiln_py_ctx_free(ctx);
    Py_XDECREF(cupy);
    Py_XDECREF(root);
    Py_XDECREF(tree);
    return NULL;
}

static PyObject *py_scrypt_batch_device(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"passwords", "password_offsets", "salts", "salt_offsets", "n", "r", "p", "dklen", "device", NULL};
    PyObject *pw_obj, *pwo_obj, *salt_obj, *so_obj, *cupy = NULL, *out = NULL;
    unsigned long long N = 0;
    unsigned r = 0, p = 0;
    Py_ssize_t dklen = 64;
    const char *device = "cuda";
    /* n, r and p are keyword-only and required: PyArg takes keyword-only ones after '|' alone */
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|$KIIns", kwlist, &pw_obj, &pwo_obj, &salt_obj, &so_obj, &N, &r, &p,
                                     &dklen, &device))
        return NULL;
    if (!N || !r || !p) {
        PyErr_SetString(PyExc_TypeError, "scrypt_batch_device() needs n, r and p (keywords, each above 0)");
        return NULL;
    }
    dev_array pw, pwo, salt, so;
    unsigned long long stream = 0;
    kiln_ctx *ctx = NULL;
    if (dev_array_of(pw_obj, "passwords", 'u', 1, &pw) < 0 || dev_array_of(pwo_obj, "password_offsets", 'u', 8, &pwo) < 0 ||
        dev_array_of(salt_obj, "salts", 'u', 1, &salt) < 0 || dev_array_of(so_obj, "salt_offsets", 'u', 8, &so) < 0)
        goto fail;
    if (pwo.count == 0 || pwo.count != so.count || dklen <= 0) {
        PyErr_SetString(PyExc_ValueError, "password_offsets and salt_offsets must both hold count + 1 values; dklen > 0");
        goto fail;
    }
    const size_t count = pwo.count - 1;
    if (current_stream(&cupy, &stream) < 0) goto fail;
    const unsigned long long producers[] = {pw.stream, pwo.stream, salt.stream, so.stream};
    for (int i = 0; i < 4; i++)
        if (wait_for(cupy, producers[i], stream) < 0) goto fail;
    void *dst;
    PyObject *shape = Py_BuildValue("(nn)", (Py_ssize_t)count, dklen);
    out = shape ? cupy_empty(cupy, shape, &dst) : NULL;
    Py_XDECREF(shape);
    if (!out || !(ctx = gpu_ctx(device, KILN_KIND_KDF))) goto fail;
    kiln_scrypt_params sp = {N, r, p};
    kiln_status st;
    Py_BEGIN_ALLOW_THREADS
    st = kiln_scrypt_batch_device(ctx, pw.ptr, pw.count, pwo.ptr, salt.ptr, salt.count, so.ptr, count, sp, dst,
                                  (size_t)dklen, (void *)stream);
    Py_END_ALLOW_THREADS
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        goto fail;
    }
    kiln_py_ctx_free(ctx);
    Py_DECREF(cupy);
    return out;
fail:
    kiln_py_ctx_free(ctx);
    Py_XDECREF(cupy);
    Py_XDECREF(out);
    return NULL;
}

/* kiln.pagerank with CUDA vectors: the graph from host edges (as _pagerank builds it), laid out on
 * the GPU once (kiln_pagerank_plan_new), run on CuPy's current stream with the vectors read in
 * place (kiln_pagerank_device, which waits for its convergence state), the ranks a new CuPy array. */
static PyObject *py_pagerank_device(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"src", "dst", "weights", "n", "alpha", "personalization", "nstart", "dangling",
                             "tol", "max_iter", "device", "precision", NULL};
    Py_buffer src, dst, weights = {0};
    PyObject *weights_obj, *vec_obj[3], *cupy = NULL, *out = NULL;
    Py_ssize_t n;
    double alpha, tol;
    int max_iter;
    const char *device, *precision;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*y*OndOOOdiss", kwlist, &src, &dst, &weights_obj, &n, &alpha,
                                     &vec_obj[0], &vec_obj[1], &vec_obj[2], &tol, &max_iter, &device, &precision))
        return NULL;
    static const char *vec_name[3] = {"personalization", "nstart", "dangling"};
    kiln_ctx *ctx = NULL;
    kiln_graph *g = NULL;
    kiln_pagerank_plan *plan = NULL;
    const double *vec[3] = {NULL, NULL, NULL};
    unsigned long long stream = 0, producers[3] = {0, 0, 0};
    const size_t count = (size_t)src.len / sizeof(uint64_t);
    kiln_pagerank_options opt;
    kiln_pagerank_options_init(&opt);
    if (src.len != dst.len || src.len % (Py_ssize_t)sizeof(uint64_t) != 0 || n <= 0) {
        PyErr_SetString(PyExc_ValueError, "src and dst must be uint64 arrays of one length, n > 0");
        goto fail;
    }
    if (weights_obj != Py_None) {
        if (PyObject_GetBuffer(weights_obj, &weights, PyBUF_SIMPLE) < 0) goto fail;
        if ((size_t)weights.len != count * sizeof(double)) {
            PyErr_SetString(PyExc_ValueError, "weights must hold one float64 value per edge");
            goto fail;
        }
    }
    for (int k = 0; k < 3; k++) {
        if (vec_obj[k] == Py_None) continue;
        dev_array a;
        if (dev_array_of(vec_obj[k], vec_name[k], 'f', 8, &a) < 0) goto fail;
        if (a.count != (size_t)n) {
            PyErr_Format(PyExc_ValueError, "%s must hold n float64 values", vec_name[k]);
            goto fail;
        }
        vec[k] = a.ptr;
        producers[k] = a.stream;
    }
    if (strcmp(precision, "float64") == 0) {
        opt.precision = KILN_PRECISION_FLOAT64;
    } else if (strcmp(precision, "float32") == 0) {
        opt.precision = KILN_PRECISION_FLOAT32;
    } else if (strcmp(precision, "auto") != 0) {
        PyErr_Format(PyExc_ValueError, "precision must be 'float64', 'float32' or 'auto', not '%s'", precision);
        goto fail;
    }
    opt.damping = alpha;
    opt.tol = tol;
    opt.max_iter = max_iter;
    if (!(ctx = gpu_ctx(device, KILN_KIND_GRAPH))) goto fail;
    if (current_stream(&cupy, &stream) < 0) goto fail;
    for (int k = 0; k < 3; k++)
        if (wait_for(cupy, producers[k], stream) < 0) goto fail;
    out = PyObject_CallMethod(cupy, "empty", "ns", n, "float64");
    dev_array o;
    if (!out || dev_array_of(out, "output", 'f', 8, &o) < 0) goto fail;
    kiln_status st;
    Py_BEGIN_ALLOW_THREADS
    st = kiln_graph_from_edges_n(ctx, src.buf, dst.buf, weights.obj ? weights.buf : NULL, count, (uint64_t)n, 0, &g);
    if (st == KILN_OK) st = kiln_pagerank_plan_new(ctx, g, &opt, &plan);
    kiln_pagerank_result result;
    /* node ids are the graph's indices: the vectors and the ranks need no reordering */
    if (st == KILN_OK)
        st = kiln_pagerank_device(ctx, plan, &opt, vec[0], vec[2], vec[1], o.ptr, (void *)stream, &result);
    Py_END_ALLOW_THREADS
    if (st != KILN_OK) {
        kiln_py_raise(ctx, st);
        goto fail;
    }
    kiln_pagerank_plan_free(plan);
    kiln_graph_free(g);
    kiln_py_ctx_free(ctx);
    Py_DECREF(cupy);
    if (weights.obj) PyBuffer_Release(&weights);
    PyBuffer_Release(&src);
    PyBuffer_Release(&dst);
    return out;
fail:
    kiln_pagerank_plan_free(plan);
    if (g) kiln_graph_free(g);
    kiln_py_ctx_free(ctx);
    Py_XDECREF(cupy);
    Py_XDECREF(out);
    if (weights.obj) PyBuffer_Release(&weights);
    PyBuffer_Release(&src);
    PyBuffer_Release(&dst);
    return NULL;
}

PyMethodDef kiln_py_devarray_methods[] = {
    {"hash_batch_device", (PyCFunction)(void (*)(void))py_hash_batch_device, METH_VARARGS | METH_KEYWORDS,
     "hash_batch_device(messages, algo, *, offsets=None, length=None, outlen=0, device='cuda')\n--\n\n"
     "Digests of messages already on the GPU: messages is a CUDA array of bytes (CuPy, PyTorch, ...),\n"
     "offsets a CUDA array of n + 1 uint64 (message i is messages[offsets[i]:offsets[i+1]]) or length\n"
     "the bytes of every message. Returns a CuPy array of shape (n, outlen) on CuPy's current stream;\n"
     "no host copy is made."},
    {"merkle_device", (PyCFunction)(void (*)(void))py_merkle_device, METH_VARARGS | METH_KEYWORDS,
     "merkle_device(leaves, algo='sha256d', *, tree=False, device='cuda')\n--\n\n"
     "The Merkle root of leaves already on the GPU (a CUDA array of n * 32 bytes), as a CuPy array of\n"
     "32 bytes; with tree=True (root, tree), the whole tree as a CuPy array of shape (nodes, 32)."},
    {"scrypt_batch_device", (PyCFunction)(void (*)(void))py_scrypt_batch_device, METH_VARARGS | METH_KEYWORDS,
     "scrypt_batch_device(passwords, password_offsets, salts, salt_offsets, *, n, r, p, dklen=64, device='cuda')\n--\n\n"
     "scrypt keys of passwords and salts already on the GPU (bytes and n + 1 uint64 offsets each, CUDA\n"
     "arrays); a CuPy array of shape (count, dklen)."},
    {"_pagerank_device", (PyCFunction)(void (*)(void))py_pagerank_device, METH_VARARGS | METH_KEYWORDS,
     "_pagerank_device(src, dst, weights, n, alpha, personalization, nstart, dangling, tol, max_iter, device,\n"
     "                 precision)\n--\n\n"
     "Core of kiln.pagerank for CUDA vectors: uint64 src/dst and float64 weights (or None) in host memory,\n"
     "the vectors CUDA arrays of n float64 over node ids (or None), read in place; the ranks as a new\n"
     "CuPy array, made on CuPy's current stream."},
    {NULL, NULL, 0, NULL},
};
