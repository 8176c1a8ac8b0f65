"""kiln: hashing, scrypt, Merkle trees, nonce search and PageRank on the CPU and CUDA GPUs (bindings
of libkiln).

Hash objects follow hashlib (``kiln.new``, ``kiln.sha3_256()``...), ``kiln.scrypt`` follows
``hashlib.scrypt``, ``kiln.hash_batch`` hashes many messages in one call and ``kiln.pagerank``
ranks an edge list as ``networkx.pagerank`` does. Long calls release the GIL; bytes-like
arguments are read in place.
"""
from __future__ import annotations

import collections.abc as _abc
import hashlib as _hashlib

import numpy as np

from . import _kiln
from ._kiln import DeviceError, Hash, NotConverged, devices, new, scrypt
from ._kiln import hash_batch_device, merkle_device, scrypt_batch_device  # CUDA arrays in (docs/DEVICE_MEMORY.md)
from .bitcoin import Block, merkle_proof, merkle_root, merkle_tree, merkle_verify, parse_block, scan
from .bitcoin import merkle_leaves_from_rows

__version__ = _kiln.version()

#: The algorithms of kiln.new, in hashlib's spelling where hashlib has the algorithm, as
#: hashlib.algorithms_available lists its own (kiln.new takes names as hashlib.new does: "SHA256",
#: "SHA-256", "sha3-256" and the other spellings hashlib.new takes on this Python, and kiln's in any
#: case: "sha256d", "KECCAK256"). The library's list of algorithms makes it.
_ALGORITHMS = [(name, pyname or name) for name, pyname in _kiln.hash_algorithms()]
algorithms_available = frozenset(pyname for _, pyname in _ALGORITHMS)
#: Those of hashlib.algorithms_guaranteed that kiln has.
algorithms_guaranteed = frozenset(algorithms_available & _hashlib.algorithms_guaranteed)


_EMPTY = b""


def _constructor(algo: str, pyname: str):
    limits = _kiln.hash_param_limits(algo)
    if limits is not None:
        return _param_constructor(algo, pyname, limits)

    def make(data=_EMPTY, *, usedforsecurity=True, string=None):
        if string is not None:
            if data is not _EMPTY:
                raise TypeError("'data' and 'string' are mutually exclusive")
            data = string
        return new(algo, data, usedforsecurity=usedforsecurity)
    make.__name__ = make.__qualname__ = pyname
    make.__doc__ = (f"A {algo} hash object fed `data` (any bytes-like object; `string` is hashlib's older name "
                    f"for it), as hashlib.{pyname}.")
    return make


def _param_constructor(algo: str, pyname: str, limits):
    """The constructor of an algorithm with a parameter block (BLAKE2), as hashlib.blake2b is: data
    positional only, hashlib's keywords, and its MAX_DIGEST_SIZE, MAX_KEY_SIZE, SALT_SIZE and
    PERSON_SIZE (asked of the library: _kiln.hash_param_limits)."""
    def make(data=_EMPTY, /, *, digest_size=None, key=b"", salt=b"", person=b"", fanout=1, depth=1, leaf_size=0,
             node_offset=0, node_depth=0, inner_size=0, last_node=False, usedforsecurity=True):
        params = dict(key=key, salt=salt, person=person, fanout=fanout, depth=depth, leaf_size=leaf_size,
                      node_offset=node_offset, node_depth=node_depth, inner_size=inner_size, last_node=last_node)
        if digest_size is not None:
            params["digest_size"] = digest_size
        return new(algo, data, usedforsecurity=usedforsecurity, **params)
    make.__name__ = make.__qualname__ = pyname
    make.MAX_DIGEST_SIZE, make.MAX_KEY_SIZE, make.SALT_SIZE, make.PERSON_SIZE = limits
    make.__doc__ = (f"A {algo} hash object fed `data` (any bytes-like object, positional), as hashlib.{pyname}, "
                    "with its keywords: digest_size, key, salt, person and the tree parameters fanout, depth, "
                    "leaf_size, node_offset, node_depth, inner_size and last_node.")
    return make


def file_digest(fileobj, digest, /, *, _bufsize=2**18):
    """The hash object of a file object's bytes, as hashlib.file_digest: `digest` is a name for
    kiln.new or a callable returning a hash object; `fileobj` a binary file (or an object with
    getbuffer(), such as io.BytesIO, hashed in place), read from its current position to its end.
    A name kiln lacks ("md4", "ripemd160") is hashlib's: hashlib.file_digest computes it (its hash
    object, or its ValueError for a name it lacks too)."""
    if isinstance(digest, str):
        try:
            digestobj = new(digest)
        except ValueError:
            if hasattr(_hashlib, "file_digest"):
                return _hashlib.file_digest(fileobj, digest)
            digestobj = _hashlib.new(digest)  # Python < 3.11: hashlib's object, read as below
    else:
        digestobj = digest()
    if hasattr(fileobj, "getbuffer"):
        digestobj.update(fileobj.getbuffer())
        return digestobj
    if not (hasattr(fileobj, "readinto") and hasattr(fileobj, "readable") and fileobj.readable()):
        raise ValueError(f"'{fileobj!r}' is not a file-like object in binary reading mode.")
    buf = bytearray(_bufsize)
    view = memoryview(buf)
    while True:
        size = fileobj.readinto(buf)
        if size is None:
            raise BlockingIOError("I/O operation would block.")
        if size == 0:
            break
        digestobj.update(view[:size])
    return digestobj


# one constructor per algorithm, named as hashlib names it (kiln.sha3_256, kiln.shake_128, ...)
for _name, _pyname in _ALGORITHMS:
    globals()[_pyname] = _constructor(_name, _pyname)
del _name, _pyname


def pbkdf2_hmac(hash_name: str, password, salt, iterations: int, dklen: int | None = None) -> bytes:
    """PBKDF2 with HMAC over any of kiln's hashes (RFC 8018), as hashlib.pbkdf2_hmac: `hash_name` a
    name for kiln.new, `password` and `salt` bytes-like, dklen the digest size when None."""
    if not isinstance(hash_name, str):
        raise TypeError(f"pbkdf2_hmac() argument 'hash_name' must be str, not {type(hash_name).__name__}")
    password, salt = bytes(memoryview(password)), bytes(memoryview(salt))
    try:
        inner, outer = new(hash_name), new(hash_name)
    except ValueError:
        raise ValueError(f"unsupported hash type {hash_name}") from None
    if inner.digest_size == 0:
        raise ValueError(f"unsupported hash type {hash_name}: an extendable-output function")
    if iterations < 1:
        raise ValueError("iteration value must be greater than 0.")
    dklen = inner.digest_size if dklen is None else dklen
    if dklen < 1:
        raise ValueError("key length must be greater than 0.")
    if len(password) > inner.block_size:
        password = new(hash_name, password).digest()
    password = password.ljust(inner.block_size, b"\0")
    inner.update(bytes(b ^ 0x36 for b in password))
    outer.update(bytes(b ^ 0x5C for b in password))

    def prf(msg):
        icpy, ocpy = inner.copy(), outer.copy()
        icpy.update(msg)
        ocpy.update(icpy.digest())
        return ocpy.digest()

    dkey, block = b"", 1
    while len(dkey) < dklen:
        prev = prf(salt + block.to_bytes(4, "big"))
        acc = int.from_bytes(prev, "big")
        for _ in range(iterations - 1):
            prev = prf(prev)
            acc ^= int.from_bytes(prev, "big")
        dkey += acc.to_bytes(inner.digest_size, "big")
        block += 1
    return dkey[:dklen]


def _offsets(offsets, size: int) -> np.ndarray:
    """hash_batch's offsets as a uint64 array: n + 1 integers, from 0 to `size` (the data's bytes),
    nondecreasing; TypeError for what is not integers, ValueError naming the fault otherwise."""
    raw = offsets if isinstance(offsets, np.ndarray) else np.asarray(offsets)
    if raw.ndim != 1 or raw.size == 0:
        raise ValueError(f"offsets must be a 1-D sequence of n + 1 integers from 0 to len(data) = {size} "
                         f"(message i is data[offsets[i]:offsets[i + 1]]), not "
                         + ("an empty one" if raw.size == 0 else f"an array of shape {raw.shape}"))
    if raw.dtype.kind not in "iu":
        # NumPy makes float64 or object of a list of ints past int64 ([0, 2**63]): those are ints
        if isinstance(offsets, np.ndarray):
            raise TypeError(f"offsets must be integers, not {raw.dtype}")
        items = list(offsets)
        for x in items:
            if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
                raise TypeError(f"offsets must be integers, not {type(x).__name__}")
        raw = np.array([int(x) for x in items], dtype=object)
    first, last = int(raw[0]), int(raw[-1])
    if first != 0:
        raise ValueError(f"offsets must start at 0 (message 0 is data[offsets[0]:offsets[1]]), not at {first}")
    steps = np.diff(raw)
    if raw.size > 1 and (steps < 0).any():
        i = int(np.argmax(steps < 0)) + 1
        raise ValueError(f"offsets must be nondecreasing: offsets[{i}] = {int(raw[i])} is below "
                         f"offsets[{i - 1}] = {int(raw[i - 1])}")
    if last > size:
        raise ValueError(f"offsets end at {last}, past the end of the data ({size} bytes)")
    if last != size:
        raise ValueError(f"offsets end at {last}, not at the end of the data ({size} bytes): the last "
                         f"message is data[offsets[-2]:offsets[-1]], and bytes {last}..{size} would be left "
                         f"out; end the offsets with len(data)")
    return np.ascontiguousarray(raw, dtype=np.uint64)


def hash_batch(messages, algo: str, device: str = "auto", *, offsets=None, length: int | None = None) -> np.ndarray:
    """Digests of many messages in one call, as an (n, digest_size) uint8 array.

    `messages` is a sequence of bytes-like objects (a list or a tuple, each item a message: joined
    once into one buffer; a dict or a set is refused, having no message order), or a 2-D
    C-contiguous uint8 array of n messages of equal length (read in place). With the keyword
    `offsets`, `messages` is one bytes-like buffer cut at the offsets: n + 1 nondecreasing integers
    from 0 to len(buffer), message i being buffer[offsets[i]:offsets[i+1]], so that every byte is in
    one message (an integer array or a sequence of ints; floats and bools are refused, and offsets
    that do not start at 0 or end at len(buffer) are a ValueError). `algo` as kiln.new takes it;
    `length` is the output length of SHAKE or BLAKE3 (default: its digest length, 32 or 64 bytes for
    SHAKE, 32 for BLAKE3). `device`:
    "auto", "cpu", "cuda", "cuda:N" or "opencl:N"; GPU results are spot-checked on the CPU.
    """
    h = new(algo)
    outlen = length if length is not None else (h.digest_size or (32 if h.name == "shake_128" else 64))
    if length is not None and h.digest_size and length != h.digest_size and not _kiln.hash_is_xof(algo):
        raise ValueError(f"{h.name} has a fixed digest length of {h.digest_size} bytes")
    msg_len = 0
    if offsets is not None:
        data = messages if isinstance(messages, np.ndarray) else memoryview(messages)
        offsets = _offsets(offsets, data.nbytes)
        n = offsets.size - 1
    elif isinstance(messages, np.ndarray):
        if messages.ndim != 2 or messages.dtype != np.uint8:
            raise ValueError("an array of messages must be 2-D uint8 (one message a row)")
        data = np.ascontiguousarray(messages)
        n, msg_len = data.shape
    else:
        if isinstance(messages, (bytes, bytearray, memoryview, str)):
            raise TypeError("messages is one buffer: pass a list of messages, or the buffer with offsets=")
        if isinstance(messages, (_abc.Mapping, _abc.Set)):
            raise TypeError(f"messages must be a list or a tuple of messages, not a {type(messages).__name__} "
                            "(it has no order of messages, and a dict's keys are not messages)")
        messages = list(messages)
        n = len(messages)
        views = [memoryview(m) for m in messages]  # every buffer hashlib's constructors take
        lens = np.fromiter((v.nbytes for v in views), dtype=np.uint64, count=n)
        data = b"".join(v if v.contiguous else v.tobytes() for v in views)
        offsets = np.zeros(n + 1, dtype=np.uint64)
        np.cumsum(lens, out=offsets[1:])
    if outlen < 0 or outlen >= 1 << 29:
        raise ValueError("length must be non-negative" if outlen < 0 else "length is too large")
    out = np.empty((n, outlen), dtype=np.uint8)
    if outlen:  # SHAKE of length 0: the empty digest of every message, as hashlib gives it
        _kiln._hash_batch(data, offsets, msg_len, n, algo, out, outlen, device)
    return out


def scrypt_batch(passwords, salts, *, n: int, r: int, p: int, dklen: int = 64, device: str = "auto") -> np.ndarray:
    """scrypt of many passwords under one (n, r, p) in one call, as an (count, dklen) uint8 array:
    row i is hashlib.scrypt(passwords[i], salt=salts[i], n=n, r=r, p=p, dklen=dklen). `salts` is a
    list of one salt per password, or one bytes-like salt for all. On a GPU ("auto" picks one when
    there is one) results are spot-checked on the CPU."""
    passwords = list(passwords)
    if isinstance(salts, (bytes, bytearray, memoryview)):
        salts = [salts] * len(passwords)
    salts = list(salts)
    if len(salts) != len(passwords):
        raise ValueError("one salt per password (or one salt for all)")
    if dklen < 1:
        raise ValueError("dklen must be >= 1")
    out = np.empty((len(passwords), dklen), dtype=np.uint8)
    _kiln._scrypt_batch(passwords, salts, n, r, p, dklen, device, out)
    return out


def _vector(v, n: int, what: str):
    """A float64 array over node ids 0..n-1 from None, a dict {id: value} or an array of n values."""
    if v is None:
        return None
    if isinstance(v, dict):
        a = np.zeros(n, dtype=np.float64)
        for k, x in v.items():
            k = int(k)
            if not 0 <= k < n:
                raise ValueError(f"{what}: node {k} is not in 0..{n - 1}")
            a[k] = x
        return a
    a = np.ascontiguousarray(v, dtype=np.float64)
    if a.shape != (n,):
        raise ValueError(f"{what} must hold n = {n} values, one per node id")
    return a


def pagerank(src, dst=None, n: int | None = None, weights=None, alpha: float = 0.85, personalization=None,
             nstart=None, dangling=None, tol: float = 1e-6, max_iter: int = 100,
             device: str = "auto", precision: str = "float64") -> np.ndarray:
    """PageRank of the directed graph of edges src[i] -> dst[i], as networkx.pagerank computes it.

    Node ids are the integers 0..n-1 (n defaults to the largest id + 1; an id that no edge names
    is an isolated, dangling node). Duplicate edges are merged (their weights summed) and self
    loops kept, as in a NetworkX DiGraph. `weights` (one per edge, finite and >= 0) weigh the
    edges; `personalization`, `nstart` and `dangling` are arrays of n values over node ids or dicts
    {id: value} (missing ids 0), normalized to sum 1. Returns the n ranks (float64, sum 1).
    Vectors that are CUDA arrays (CuPy, PyTorch; float64, all given vectors alike) are read in place
    on the GPU, and the ranks come back as a CuPy array made on CuPy's current stream (one CUDA GPU;
    docs/DEVICE_MEMORY.md).

    `src` alone may be a SciPy sparse matrix or array A (n x n): entry A[u, v] is the weight of the
    edge u -> v (as networkx.to_scipy_sparse_array writes a graph; explicit zeros are edges of
    weight 0, duplicate COO entries sum).

    Raises kiln.NotConverged when max_iter iterations do not reach the tolerance (the total change
    of an iteration below n * tol), ValueError for bad input (the library's message) and
    kiln.DeviceError when the device fails. `device`: "auto", "cpu", "cuda", "cuda:N" or a set of
    GPUs ("cuda:all", "cuda:0,1": the rows split over them). `precision`: "float64" (the default:
    NetworkX's accuracy on every device), "float32" (the rank vector stored in float32 with float64
    sums: faster on a GPU, about 1e-7 from float64) or "auto" (float32 on a GPU, float64 on the CPU).
    """
    if dst is None:
        if not hasattr(src, "tocoo") or len(getattr(src, "shape", ())) != 2:
            raise ValueError("give src and dst, or a SciPy sparse matrix alone")
        if src.shape[0] != src.shape[1] or (n is not None and n != src.shape[0]) or weights is not None:
            raise ValueError("a sparse matrix must be square (n x n) and carries the weights itself")
        coo = src.tocoo()
        n = src.shape[0]
        src, dst, weights = coo.row, coo.col, np.asarray(coo.data, dtype=np.float64)
    src = np.ascontiguousarray(src)
    dst = np.ascontiguousarray(dst)
    if src.ndim != 1 or src.shape != dst.shape:
        raise ValueError("src and dst must be 1-D arrays of one length")
    for a, what in ((src, "src"), (dst, "dst")):
        if a.size and (a.dtype.kind not in "iu" or a.min() < 0):
            raise ValueError(f"{what} must hold non-negative integer node ids")
    src = src.astype(np.uint64, copy=False)
    dst = dst.astype(np.uint64, copy=False)
    top = int(max(src.max(), dst.max())) + 1 if src.size else 0
    if n is None:
        n = top
    elif n < top:
        raise ValueError(f"node id {top - 1} is not below n = {n}")
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    if weights is not None:
        weights = np.ascontiguousarray(weights, dtype=np.float64)
        if weights.shape != src.shape:
            raise ValueError("weights must hold one value per edge")
    vectors = (personalization, nstart, dangling)
    if any(hasattr(v, "__cuda_array_interface__") for v in vectors):
        # CUDA vectors (CuPy, PyTorch): read in place on the GPU, the ranks a CuPy array
        # (kiln_pagerank_device, docs/DEVICE_MEMORY.md); every given vector must be one
        for v, what in zip(vectors, ("personalization", "nstart", "dangling")):
            if v is not None and not hasattr(v, "__cuda_array_interface__"):
                raise ValueError(f"{what}: give every vector as a CUDA array, or none")
        if int(max_iter) > _kiln.PAGERANK_MAX_ITER_LIMIT:
            raise ValueError(f"max_iter above {_kiln.PAGERANK_MAX_ITER_LIMIT} with CUDA vectors")
        return _kiln._pagerank_device(src, dst, weights, n, float(alpha), personalization, nstart, dangling,
                                      float(tol), int(max_iter), device, precision)
    out = np.empty(n, dtype=np.float64)
    p, x0, q = (_vector(v, n, what) for v, what in ((personalization, "personalization"), (nstart, "nstart"),
                                                    (dangling, "dangling")))
    # the library takes up to PAGERANK_MAX_ITER_LIMIT iterations a call: more (max_iter=2**63, as
    # NetworkX takes it) run as calls of that many, each from where the last stopped
    left = int(max_iter)
    while True:
        run = min(left, _kiln.PAGERANK_MAX_ITER_LIMIT) if left > 0 else 0  # 0: the library's ValueError
        try:
            _kiln._pagerank(src, dst, weights, n, float(alpha), p, x0, q, float(tol), run, device, out, precision)
            done = float(tol) != 0  # tol 0: every one of the max_iter iterations runs
        except NotConverged:
            if left <= run:
                if run == int(max_iter):
                    raise
                raise NotConverged(f"PageRank did not converge in {max_iter} iterations") from None
            done = False
        left -= run
        if done or left <= 0:
            return out
        x0 = out.copy()


__all__ = sorted(["Block", "DeviceError", "Hash", "NotConverged", "__version__", "algorithms_available", "pbkdf2_hmac",
                  "algorithms_guaranteed", "file_digest", "devices", "hash_batch", "merkle_proof", "merkle_root",
                  "merkle_tree", "merkle_verify", "new", "pagerank", "parse_block", "scan", "scrypt", "scrypt_batch",
                  "merkle_leaves_from_rows"]
                 + [pyname for _, pyname in _ALGORITHMS])
