/* hashlib-compatible hash objects over kiln's streaming hash (kiln_hash_init/update/final).
 * As hashlib does, an object takes a lock of its own before it releases the GIL for a large
 * update, so two threads sharing one object stay consistent. */
#include "common.h"

#include "pythread.h"
#include <limits.h>
#include <string.h>

/* Updates of this many bytes or more run without the GIL (hashlib's threshold). */
#define GIL_MINSIZE 2048

typedef struct {
    PyObject_HEAD
    kiln_hash_stream s;
    PyThread_type_lock lock;
} HashObject;

static PyTypeObject Hash_Type;

static void lock_enter(HashObject *h)
{
    if (h->lock && !PyThread_acquire_lock(h->lock, 0)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(h->lock, 1);
        Py_END_ALLOW_THREADS
    }
}

static void lock_leave(HashObject *h)
{
    if (h->lock)
        PyThread_release_lock(h->lock);
}

/* hashlib's name where hashlib has the algorithm, else kiln's. */
static const char *py_name(kiln_hash_algo a)
{
    const char *h = kiln_hash_algo_hashlib_name(a);
    return h ? h : kiln_hash_algo_name(a);
}

static int update_buffer(HashObject *h, PyObject *obj)
{
    if (PyUnicode_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "Strings must be encoded before hashing");
        return -1;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0)
        return -1;
    if (view.len >= GIL_MINSIZE && !h->lock)
        h->lock = PyThread_allocate_lock();
    if (h->lock && view.len >= GIL_MINSIZE) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(h->lock, 1);
        kiln_hash_update(&h->s, view.buf, (size_t)view.len);
        PyThread_release_lock(h->lock);
        Py_END_ALLOW_THREADS
    } else {
        lock_enter(h);
        kiln_hash_update(&h->s, view.buf, (size_t)view.len);
        lock_leave(h);
    }
    PyBuffer_Release(&view);
    return 0;
}

static HashObject *hash_new(kiln_hash_algo algo)
{
    HashObject *h = PyObject_New(HashObject, &Hash_Type);
    if (!h)
        return NULL;
    h->lock = NULL;
    kiln_hash_init(&h->s, algo);
    return h;
}

static void Hash_dealloc(HashObject *h)
{
    if (h->lock)
        PyThread_free_lock(h->lock);
    PyObject_Free(h);
}

static PyObject *Hash_update(HashObject *h, PyObject *obj)
{
    if (update_buffer(h, obj) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* An extendable-output function hashlib lacks (BLAKE3): its digest and hexdigest take the
 * `blake3` package's arguments, (length=digest_size, *, seek=0), and digest_size is its default
 * length; SHAKE keeps hashlib's (length) with digest_size 0. */
static int own_xof(kiln_hash_algo a) { return kiln_hash_is_xof(a) && !kiln_hash_algo_hashlib_name(a); }

/* The digest of what was absorbed so far, the object unchanged (final runs on a copy). BLAKE3's
 * output from byte `seek` on is the first seek + length bytes less the first seek (kiln's final
 * has no seek of its own), within the same bound. */
static PyObject *finish(HashObject *h, PyObject *args, PyObject *kw, int hex)
{
    static char *kwlist[] = {"length", "seek", NULL};
    Py_ssize_t length = -1, seek = 0;
    int xof = kiln_hash_is_xof(h->s.algo);
    if (xof) {
        if (own_xof(h->s.algo)) {
            length = (Py_ssize_t)kiln_hash_digest_len(h->s.algo);
            if (!PyArg_ParseTupleAndKeywords(args, kw, "|n$n", kwlist, &length, &seek))
                return NULL;
        } else {
            static char *shake_kwlist[] = {"length", NULL};
            if (!PyArg_ParseTupleAndKeywords(args, kw, "n", shake_kwlist, &length))
                return NULL;
        }
        if (length < 0 || seek < 0) {
            PyErr_SetString(PyExc_ValueError, length < 0 ? "length must be non-negative" : "seek must be non-negative");
            return NULL;
        }
        /* CPython's bound on a SHAKE digest */
        if (length >= ((Py_ssize_t)1 << 29) || seek >= ((Py_ssize_t)1 << 29) - length) {
            PyErr_SetString(PyExc_ValueError, length >= ((Py_ssize_t)1 << 29) ? "length is too large" : "seek is too large");
            return NULL;
        }
    } else {
        if (!PyArg_ParseTupleAndKeywords(args, kw, "", kwlist + 2)) /* no arguments */
            return NULL;
        length = (Py_ssize_t)h->s.out_len; /* the algorithm's, or the digest_size it was made with */
    }
    if (length == 0)
        return hex ? PyUnicode_FromString("") : PyBytes_FromStringAndSize(NULL, 0);
    uint8_t *whole = PyMem_Malloc((size_t)(seek + length));
    if (!whole)
        return PyErr_NoMemory();
    uint8_t *out = whole + seek;
    kiln_hash_stream copy;
    lock_enter(h);
    copy = h->s;
    lock_leave(h);
    kiln_hash_final(&copy, whole, (size_t)(seek + length));
    PyObject *r;
    if (hex) {
        char *text = PyMem_Malloc((size_t)length * 2 + 1);
        if (!text) {
            PyMem_Free(whole);
            return PyErr_NoMemory();
        }
        kiln_hex_encode(out, (size_t)length, 0, text);
        r = PyUnicode_FromStringAndSize(text, length * 2);
        PyMem_Free(text);
    } else {
        r = PyBytes_FromStringAndSize((const char *)out, length);
    }
    PyMem_Free(whole);
    return r;
}

static PyObject *Hash_digest(HashObject *h, PyObject *args, PyObject *kw)
{
    return finish(h, args, kw, 0);
}

static PyObject *Hash_hexdigest(HashObject *h, PyObject *args, PyObject *kw)
{
    return finish(h, args, kw, 1);
}

static PyObject *Hash_copy(HashObject *h, PyObject *unused)
{
    (void)unused;
    HashObject *c = PyObject_New(HashObject, &Hash_Type);
    if (!c)
        return NULL;
    c->lock = NULL;
    lock_enter(h);
    c->s = h->s;
    lock_leave(h);
    return (PyObject *)c;
}

static PyObject *Hash_get_name(HashObject *h, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(py_name(h->s.algo));
}

static PyObject *Hash_get_digest_size(HashObject *h, void *closure)
{
    (void)closure;
    /* hashlib's SHAKE objects have no fixed size: 0; BLAKE3's, the blake3 package's default length */
    return PyLong_FromSize_t(kiln_hash_is_xof(h->s.algo) && !own_xof(h->s.algo) ? 0 : h->s.out_len);
}

static PyObject *Hash_get_block_size(HashObject *h, void *closure)
{
    (void)closure;
    /* hashlib's block_size, which hmac pads the key to: 128 for the SHA-512 family */
    return PyLong_FromSize_t(kiln_hash_block_len(h->s.algo));
}

/* CPython's _sha3 objects' sponge parameters (its test_extra_sha3 reads them): the Keccak family's
 * only; any other algorithm has no such attribute. */
static PyObject *keccak_attr(HashObject *h, int what)
{
    const unsigned rate = kiln_hash_rate(h->s.algo);
    if (rate == 0) {
        PyErr_SetString(PyExc_AttributeError, what == 0 ? "_rate_bits" : what == 1 ? "_capacity_bits" : "_suffix");
        return NULL;
    }
    if (what == 2) {
        const char domain = (char)kiln_hash_domain(h->s.algo);
        return PyBytes_FromStringAndSize(&domain, 1);
    }
    return PyLong_FromUnsignedLong(what == 0 ? 8u * rate : 1600u - 8u * rate);
}

static PyObject *Hash_get_rate_bits(HashObject *h, void *closure) { return (void)closure, keccak_attr(h, 0); }
static PyObject *Hash_get_capacity_bits(HashObject *h, void *closure) { return (void)closure, keccak_attr(h, 1); }
static PyObject *Hash_get_suffix(HashObject *h, void *closure) { return (void)closure, keccak_attr(h, 2); }

static PyObject *Hash_repr(HashObject *h)
{
    return PyUnicode_FromFormat("<kiln %s object @ %p>", py_name(h->s.algo), (void *)h);
}

static PyMethodDef Hash_methods[] = {
    {"update", (PyCFunction)Hash_update, METH_O, "update(data, /)\n--\n\nAbsorb a bytes-like object."},
    {"digest", (PyCFunction)(void (*)(void))Hash_digest, METH_VARARGS | METH_KEYWORDS,
     "digest()\n--\n\nThe digest of the data absorbed so far, as bytes (SHAKE: digest(length); BLAKE3:\n"
     "digest(length=32, *, seek=0), as the blake3 package: length bytes of output from byte seek on)."},
    {"hexdigest", (PyCFunction)(void (*)(void))Hash_hexdigest, METH_VARARGS | METH_KEYWORDS,
     "hexdigest()\n--\n\nThe digest as lowercase hex (SHAKE: hexdigest(length); BLAKE3:\n"
     "hexdigest(length=32, *, seek=0))."},
    {"copy", (PyCFunction)Hash_copy, METH_NOARGS, "copy()\n--\n\nAn independent copy of this hash object."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Hash_getset[] = {
    {"_rate_bits", (getter)Hash_get_rate_bits, NULL, "The Keccak sponge's rate in bits (CPython's _sha3).", NULL},
    {"_capacity_bits", (getter)Hash_get_capacity_bits, NULL, "The Keccak sponge's capacity in bits (CPython's _sha3).", NULL},
    {"_suffix", (getter)Hash_get_suffix, NULL, "The Keccak padding's domain byte (CPython's _sha3).", NULL},
    {"name", (getter)Hash_get_name, NULL, "hashlib's name of the algorithm (kiln's where hashlib has none).", NULL},
    {"digest_size", (getter)Hash_get_digest_size, NULL, "Digest bytes (0 for SHAKE, as in hashlib).", NULL},
    {"block_size", (getter)Hash_get_block_size, NULL, "Bytes per block, as hashlib gives it (hmac pads its key to it): 64 for SHA-256, 128 for\nthe SHA-512 family, the sponge rate for Keccak.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject Hash_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kiln.Hash",
    .tp_basicsize = sizeof(HashObject),
    .tp_dealloc = (destructor)Hash_dealloc,
    .tp_repr = (reprfunc)Hash_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A hashlib-compatible hash object; make one with kiln.new(name, data).",
    .tp_methods = Hash_methods,
    .tp_getset = Hash_getset,
};

/* The keyword arguments of hashlib.blake2b/blake2s beyond data, as new() takes them: the integer
 * fields (NULL when not given) and the byte strings (buf NULL when not given). */
enum { P_DIGEST_SIZE, P_FANOUT, P_DEPTH, P_LEAF_SIZE, P_NODE_OFFSET, P_NODE_DEPTH, P_INNER_SIZE, P_INTS };
static const char *const int_names[P_INTS] = {"digest_size", "fanout",     "depth",     "leaf_size",
                                              "node_offset", "node_depth", "inner_size"};

typedef struct {
    PyObject *ints[P_INTS];
    Py_buffer key, salt, person;
    int last_node; /* -1: not given */
} py_params;

static void params_release(py_params *q)
{
    if (q->key.buf)
        PyBuffer_Release(&q->key);
    if (q->salt.buf)
        PyBuffer_Release(&q->salt);
    if (q->person.buf)
        PyBuffer_Release(&q->person);
}

static int params_given(const py_params *q)
{
    for (int i = 0; i < P_INTS; i++)
        if (q->ints[i])
            return 1;
    return q->key.buf || q->salt.buf || q->person.buf || q->last_node >= 0;
}

/* Field i of q as an unsigned value (0 when not given), with hashlib's exceptions: a negative one
 * is a ValueError; an OverflowError for leaf_size past 32 bits, node_offset past 64 and the others
 * past a C int (which CPython converts them to); -1 with the exception set. */
static int int_field(const py_params *q, int i, unsigned long long *v)
{
    *v = 0;
    PyObject *o = q->ints[i];
    if (!o)
        return 0;
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an integer", int_names[i]);
        return -1;
    }
    int neg = PyObject_RichCompareBool(o, Py_False, Py_LT); /* Py_False is 0 */
    if (neg < 0)
        return -1;
    if (neg) {
        PyErr_Format(PyExc_ValueError, "%s must not be negative", int_names[i]);
        return -1;
    }
    *v = PyLong_AsUnsignedLongLong(o);
    const unsigned long long most = i == P_LEAF_SIZE ? UINT32_MAX : i == P_NODE_OFFSET ? ULLONG_MAX : INT_MAX;
    if ((*v == (unsigned long long)-1 && PyErr_Occurred()) || *v > most) {
        PyErr_Clear();
        PyErr_Format(PyExc_OverflowError, "%s is too large", int_names[i]);
        return -1;
    }
    return 0;
}

static unsigned small(unsigned long long v) { return v > UINT_MAX ? UINT_MAX : (unsigned)v; }

/* Starts h->s with q's parameters through kiln_hash_init_params, which checks every range. A
 * refusal names the first field the library refuses on its own (hashlib's exception: an
 * OverflowError for node_offset, else a ValueError); an algorithm that takes no parameters is a
 * TypeError, as hashlib.new("sha256", digest_size=16) is. */
static int init_params(HashObject *h, kiln_hash_algo algo, const py_params *q)
{
    unsigned long long v[P_INTS];
    for (int i = 0; i < P_INTS; i++)
        if (int_field(q, i, &v[i]) < 0)
            return -1;
    kiln_hash_params p = {0}, one;
    p.digest_len = q->ints[P_DIGEST_SIZE] ? (v[P_DIGEST_SIZE] ? (size_t)v[P_DIGEST_SIZE] : SIZE_MAX) : 0;
    p.key = q->key.buf, p.key_len = q->key.buf ? (size_t)q->key.len : 0;
    p.salt = q->salt.buf, p.salt_len = q->salt.buf ? (size_t)q->salt.len : 0;
    p.person = q->person.buf, p.person_len = q->person.buf ? (size_t)q->person.len : 0;
    for (int i = P_FANOUT; i < P_INTS; i++)
        p.tree |= q->ints[i] != NULL;
    p.tree |= q->last_node >= 0;
    p.fanout = q->ints[P_FANOUT] ? small(v[P_FANOUT]) : 1;
    p.depth = q->ints[P_DEPTH] ? small(v[P_DEPTH]) : 1;
    p.leaf_size = (uint32_t)v[P_LEAF_SIZE];
    p.node_offset = v[P_NODE_OFFSET];
    p.node_depth = small(v[P_NODE_DEPTH]);
    p.inner_size = small(v[P_INNER_SIZE]);
    p.last_node = q->last_node > 0;
    if (kiln_hash_init_params(&h->s, algo, &p) == KILN_OK)
        return 0;
    kiln_hash_params none = {0};
    if (kiln_hash_init_params(&h->s, algo, &(kiln_hash_params){.digest_len = kiln_hash_digest_len(algo)}) !=
        KILN_OK) {
        PyErr_Format(PyExc_TypeError, "%s takes no parameters (digest_size, key, salt, person, ...)", py_name(algo));
        return -1;
    }
    /* which field: each alone, the others at their defaults */
    const char *field = NULL;
    one = none, one.digest_len = p.digest_len;
    if (p.digest_len && kiln_hash_init_params(&h->s, algo, &one) != KILN_OK)
        field = "digest_size";
    one = none, one.key = p.key, one.key_len = p.key_len;
    if (!field && kiln_hash_init_params(&h->s, algo, &one) != KILN_OK)
        field = "key";
    one = none, one.salt = p.salt, one.salt_len = p.salt_len;
    if (!field && kiln_hash_init_params(&h->s, algo, &one) != KILN_OK)
        field = "salt";
    one = none, one.person = p.person, one.person_len = p.person_len;
    if (!field && kiln_hash_init_params(&h->s, algo, &one) != KILN_OK)
        field = "person";
    for (int i = P_FANOUT; !field && i < P_INTS; i++) {
        one = none, one.tree = 1, one.fanout = 1, one.depth = 1;
        if (i == P_FANOUT) one.fanout = p.fanout;
        if (i == P_DEPTH) one.depth = p.depth;
        if (i == P_NODE_OFFSET) one.node_offset = p.node_offset;
        if (i == P_NODE_DEPTH) one.node_depth = p.node_depth;
        if (i == P_INNER_SIZE) one.inner_size = p.inner_size;
        if (kiln_hash_init_params(&h->s, algo, &one) != KILN_OK)
            field = int_names[i];
    }
    if (field && strcmp(field, "node_offset") == 0)
        PyErr_SetString(PyExc_OverflowError, "node_offset is too large");
    else if (field)
        PyErr_Format(PyExc_ValueError, "%s is out of range for %s", field, py_name(algo));
    else
        PyErr_Format(PyExc_ValueError, "parameters out of range for %s", py_name(algo));
    return -1;
}

static PyObject *py_new(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"name",        "data",        "usedforsecurity", "string",     "digest_size",
                             "key",         "salt",        "person",          "fanout",     "depth",
                             "leaf_size",   "node_offset", "node_depth",      "inner_size", "last_node",
                             NULL};
    const char *name;
    PyObject *data = NULL, *string = NULL;
    int usedforsecurity = 1;
    py_params q;
    memset(&q, 0, sizeof q);
    q.last_node = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|O$pOOy*y*y*OOOOOOp", kwlist, &name, &data, &usedforsecurity,
                                     &string, &q.ints[P_DIGEST_SIZE], &q.key, &q.salt, &q.person, &q.ints[P_FANOUT],
                                     &q.ints[P_DEPTH], &q.ints[P_LEAF_SIZE], &q.ints[P_NODE_OFFSET],
                                     &q.ints[P_NODE_DEPTH], &q.ints[P_INNER_SIZE], &q.last_node))
        return NULL;
    PyObject *result = NULL;
    HashObject *h = NULL;
    int algo;
    if (data && string) { /* hashlib's older name for data, as its constructors take it */
        PyErr_SetString(PyExc_TypeError, "'data' and 'string' are mutually exclusive");
        goto done;
    }
    if (string)
        data = string;
    if ((algo = kiln_py_algo(name)) < 0 || !(h = hash_new((kiln_hash_algo)algo)))
        goto done;
    if (params_given(&q) && init_params(h, (kiln_hash_algo)algo, &q) < 0)
        goto done;
    if (data && update_buffer(h, data) < 0)
        goto done;
    result = (PyObject *)h;
    h = NULL;
done:
    Py_XDECREF(h);
    params_release(&q);
    return result;
}

/* The largest digest_size, key, salt and person an algorithm takes, asked of the library
 * (kiln_hash_init_params), for its constructor's MAX_DIGEST_SIZE, MAX_KEY_SIZE, SALT_SIZE and
 * PERSON_SIZE as hashlib.blake2b has them; None for an algorithm that takes no parameters. */
static PyObject *py_hash_param_limits(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name)
        return NULL;
    int algo = kiln_py_algo(name);
    if (algo < 0)
        return NULL;
    static const uint8_t zeros[256];
    size_t most[4] = {0, 0, 0, 0};
    kiln_hash_stream s;
    for (size_t n = 1; n < sizeof zeros; n++) {
        kiln_hash_params p[4] = {{.digest_len = n}, {.key = zeros, .key_len = n}, {.salt = zeros, .salt_len = n},
                                 {.person = zeros, .person_len = n}};
        for (int i = 0; i < 4; i++)
            if (most[i] == n - 1 && kiln_hash_init_params(&s, (kiln_hash_algo)algo, &p[i]) == KILN_OK)
                most[i] = n;
    }
    if (most[0] == 0)
        Py_RETURN_NONE;
    return Py_BuildValue("(nnnn)", (Py_ssize_t)most[0], (Py_ssize_t)most[1], (Py_ssize_t)most[2], (Py_ssize_t)most[3]);
}

/* Whether an algorithm's output length is the caller's (SHAKE, BLAKE3): hash_batch's `length`. */
static PyObject *py_hash_is_xof(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name)
        return NULL;
    int algo = kiln_py_algo(name);
    if (algo < 0)
        return NULL;
    return PyBool_FromLong(kiln_hash_is_xof((kiln_hash_algo)algo));
}

PyMethodDef kiln_py_hash_methods[] = {
    {"new", (PyCFunction)(void (*)(void))py_new, METH_VARARGS | METH_KEYWORDS,
     "new(name, data=b'', *, usedforsecurity=True, string=None, **blake2_params)\n--\n\n"
     "A hash object for algorithm `name`, fed `data` (or `string`, hashlib's older name; any\n"
     "bytes-like object, read in place). `name` as hashlib.new takes it on this Python ('sha3_256',\n"
     "'SHA256', 'SHA-256', 'sha-256': its OpenSSL's names too; not 'SHA3_256', which hashlib\n"
     "refuses), or kiln's own name in any case ('sha3-256', 'sha256d', 'KECCAK256').\n"
     "BLAKE2 takes hashlib.blake2b's keywords: digest_size, key, salt, person, fanout, depth,\n"
     "leaf_size, node_offset, node_depth, inner_size, last_node."},
    {"hash_param_limits", (PyCFunction)py_hash_param_limits, METH_O,
     "hash_param_limits(name, /)\n--\n\n(max digest_size, max key, salt and person bytes) of an algorithm that takes\n"
     "parameters (BLAKE2), else None."},
    {"hash_is_xof", (PyCFunction)py_hash_is_xof, METH_O,
     "hash_is_xof(name, /)\n--\n\nWhether the algorithm's output length is the caller's (SHAKE, BLAKE3)."},
    {NULL, NULL, 0, NULL},
};

int kiln_py_hash_init(PyObject *module)
{
    if (PyType_Ready(&Hash_Type) < 0)
        return -1;
    Py_INCREF(&Hash_Type);
    if (PyModule_AddObject(module, "Hash", (PyObject *)&Hash_Type) < 0) {
        Py_DECREF(&Hash_Type);
        return -1;
    }
    return 0;
}
