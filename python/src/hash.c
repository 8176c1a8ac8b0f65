/* hashlib-compatible hash objects over kiln's streaming hash (kiln_hash_init/update/final).
 * As hashlib does, an object takes a lock of its own before it releases the GIL for a large
 * update, so two threads sharing one object stay consistent. */
#include "common.h"

#include "pythread.h"
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

/* The digest of what was absorbed so far, the object unchanged (final runs on a copy). */
static PyObject *finish(HashObject *h, PyObject *args, PyObject *kw, int hex)
{
    static char *kwlist[] = {"length", NULL};
    Py_ssize_t length = -1;
    int xof = kiln_hash_is_xof(h->s.algo);
    if (xof) {
        if (!PyArg_ParseTupleAndKeywords(args, kw, "n", kwlist, &length))
            return NULL;
        if (length < 0) {
            PyErr_SetString(PyExc_ValueError, "length must be non-negative");
            return NULL;
        }
        if (length >= ((Py_ssize_t)1 << 29)) { /* CPython's bound on a SHAKE digest */
            PyErr_SetString(PyExc_ValueError, "length is too large");
            return NULL;
        }
    } else {
        if (!PyArg_ParseTupleAndKeywords(args, kw, "", kwlist + 1))
            return NULL;
        length = (Py_ssize_t)kiln_hash_digest_len(h->s.algo);
    }
    if (length == 0)
        return hex ? PyUnicode_FromString("") : PyBytes_FromStringAndSize(NULL, 0);
    uint8_t *out = PyMem_Malloc((size_t)length);
    if (!out)
        return PyErr_NoMemory();
    kiln_hash_stream copy;
    lock_enter(h);
    copy = h->s;
    lock_leave(h);
    kiln_hash_final(&copy, out, (size_t)length);
    PyObject *r;
    if (hex) {
        char *text = PyMem_Malloc((size_t)length * 2 + 1);
        if (!text) {
            PyMem_Free(out);
            return PyErr_NoMemory();
        }
        kiln_hex_encode(out, (size_t)length, 0, text);
        r = PyUnicode_FromStringAndSize(text, length * 2);
        PyMem_Free(text);
    } else {
        r = PyBytes_FromStringAndSize((const char *)out, length);
    }
    PyMem_Free(out);
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
    /* hashlib's SHAKE objects have no fixed size: 0 */
    return PyLong_FromSize_t(kiln_hash_is_xof(h->s.algo) ? 0 : kiln_hash_digest_len(h->s.algo));
}

static PyObject *Hash_get_block_size(HashObject *h, void *closure)
{
    (void)closure;
    /* hashlib's block_size, which hmac pads the key to: 128 for the SHA-512 family */
    return PyLong_FromSize_t(kiln_hash_block_len(h->s.algo));
}

static PyObject *Hash_repr(HashObject *h)
{
    return PyUnicode_FromFormat("<kiln %s object @ %p>", py_name(h->s.algo), (void *)h);
}

static PyMethodDef Hash_methods[] = {
    {"update", (PyCFunction)Hash_update, METH_O, "update(data, /)\n--\n\nAbsorb a bytes-like object."},
    {"digest", (PyCFunction)(void (*)(void))Hash_digest, METH_VARARGS | METH_KEYWORDS,
     "digest()\n--\n\nThe digest of the data absorbed so far, as bytes (SHAKE: digest(length))."},
    {"hexdigest", (PyCFunction)(void (*)(void))Hash_hexdigest, METH_VARARGS | METH_KEYWORDS,
     "hexdigest()\n--\n\nThe digest as lowercase hex (SHAKE: hexdigest(length))."},
    {"copy", (PyCFunction)Hash_copy, METH_NOARGS, "copy()\n--\n\nAn independent copy of this hash object."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Hash_getset[] = {
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

static PyObject *py_new(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"name", "data", "usedforsecurity", "string", NULL};
    const char *name;
    PyObject *data = NULL, *string = NULL;
    int usedforsecurity = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|O$pO", kwlist, &name, &data, &usedforsecurity, &string))
        return NULL;
    if (data && string) { /* hashlib's older name for data, as its constructors take it */
        PyErr_SetString(PyExc_TypeError, "'data' and 'string' are mutually exclusive");
        return NULL;
    }
    if (string)
        data = string;
    int algo = kiln_py_algo(name);
    if (algo < 0)
        return NULL;
    HashObject *h = hash_new((kiln_hash_algo)algo);
    if (!h)
        return NULL;
    if (data && update_buffer(h, data) < 0) {
        Py_DECREF(h);
        return NULL;
    }
    return (PyObject *)h;
}

PyMethodDef kiln_py_hash_methods[] = {
    {"new", (PyCFunction)(void (*)(void))py_new, METH_VARARGS | METH_KEYWORDS,
     "new(name, data=b'', *, usedforsecurity=True, string=None)\n--\n\n"
     "A hash object for algorithm `name`, fed `data` (or `string`, hashlib's older name; any\n"
     "bytes-like object, read in place). `name` as hashlib.new takes it on this Python ('sha3_256',\n"
     "'SHA256', 'SHA-256', 'sha-256': its OpenSSL's names too; not 'SHA3_256', which hashlib\n"
     "refuses), or kiln's own name in any case ('sha3-256', 'sha256d', 'KECCAK256')."},
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
