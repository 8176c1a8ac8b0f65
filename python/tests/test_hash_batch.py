"""kiln.hash_batch against hashlib, message by message."""
import hashlib
import random

import numpy as np
import pytest
from conftest import run_beside_python

import kiln

ALGOS = {"sha256": lambda m: hashlib.sha256(m).digest(),
         "sha256d": lambda m: hashlib.sha256(hashlib.sha256(m).digest()).digest(),
         "sha3-224": lambda m: hashlib.sha3_224(m).digest(), "sha3_256": lambda m: hashlib.sha3_256(m).digest(),
         "sha3-384": lambda m: hashlib.sha3_384(m).digest(), "sha3-512": lambda m: hashlib.sha3_512(m).digest(),
         "shake128": lambda m: hashlib.shake_128(m).digest(32), "shake_256": lambda m: hashlib.shake_256(m).digest(64)}


@pytest.mark.parametrize("algo", sorted(ALGOS))
def test_list_of_bytes(algo):
    rng = random.Random(algo)
    msgs = [rng.randbytes(rng.choice([0, 1, 31, 32, 55, 64, 135, 136, 500])) for _ in range(300)]
    out = kiln.hash_batch(msgs, algo, device="cpu")
    assert out.dtype == np.uint8 and out.shape == (300, len(ALGOS[algo](b"")))
    assert [bytes(row) for row in out] == [ALGOS[algo](m) for m in msgs]


@pytest.mark.parametrize("algo", sorted(ALGOS))
def test_2d_array(algo):
    msgs = np.random.default_rng(1).integers(0, 256, (257, 32), dtype=np.uint8)
    out = kiln.hash_batch(msgs, algo)
    assert [bytes(row) for row in out] == [ALGOS[algo](row.tobytes()) for row in msgs]


def test_buffer_and_offsets_and_mixed_buffers():
    data = bytes(range(256)) * 4
    offsets = [0, 0, 10, 100, 1024]
    out = kiln.hash_batch(data, "keccak256", offsets=offsets)
    want = [kiln.keccak256(data[a:b]).digest() for a, b in zip(offsets, offsets[1:])]
    assert [bytes(r) for r in out] == want
    assert want[0].hex() == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    mixed = [b"ab", bytearray(b"cd"), memoryview(b"ef"), np.frombuffer(b"gh", dtype=np.uint8)]
    assert [bytes(r) for r in kiln.hash_batch(mixed, "sha256")] == [hashlib.sha256(m).digest() for m in
                                                                   (b"ab", b"cd", b"ef", b"gh")]


def test_shake_length_and_empty_batch():
    out = kiln.hash_batch([b"a", b"b"], "shake_128", length=100)
    assert bytes(out[1]) == hashlib.shake_128(b"b").digest(100)
    assert kiln.hash_batch([], "sha256").shape == (0, 32)


def test_bad_input():
    with pytest.raises(ValueError):
        kiln.hash_batch([b"a"], "md4")
    with pytest.raises(ValueError):
        kiln.hash_batch(np.zeros((2, 3, 4), dtype=np.uint8), "sha256")
    with pytest.raises(ValueError):
        kiln.hash_batch(b"abc", "sha256", offsets=[0, 5])
    with pytest.raises(ValueError):
        kiln.hash_batch([b"a"], "sha256", length=16)
    with pytest.raises(ValueError):
        kiln.hash_batch([b"a"], "sha256", device="tpu")


def test_absent_gpu_is_a_device_error():
    gpus = sum(d["kind"] == "cuda" for d in kiln.devices())
    with pytest.raises(kiln.DeviceError):
        kiln.hash_batch([b"a"], "sha256", device=f"cuda:{gpus + 7}")


def test_runs_without_the_gil():
    # large enough to take well over 0.05 s on a 16-core machine too
    msgs = np.random.default_rng(2).integers(0, 256, (1 << 21, 64), dtype=np.uint8)
    out, duration, max_gap = run_beside_python(lambda: kiln.hash_batch(msgs, "sha3-512", device="cpu"))
    assert bytes(out[-1]) == hashlib.sha3_512(msgs[-1].tobytes()).digest()
    assert duration > 0.05 and max_gap < duration / 4, (duration, max_gap)


def test_a_tuple_is_messages_and_offsets_a_keyword():
    """Issue 24.12: a tuple of two messages was read as (buffer, offsets): with NumPy arrays the
    result was silently the digests of other messages. A tuple is messages, like a list."""
    a = np.frombuffer(b"first message", dtype=np.uint8)
    b = np.array([0, 3, 7], dtype=np.uint8)  # would pass as offsets
    out = kiln.hash_batch((a, b), "sha256")
    assert [bytes(r) for r in out] == [hashlib.sha256(a).digest(), hashlib.sha256(b).digest()]
    out = kiln.hash_batch((b"ab", b"cd"), "sha3_256")
    assert [bytes(r) for r in out] == [hashlib.sha3_256(b"ab").digest(), hashlib.sha3_256(b"cd").digest()]
    # the packed form is asked for by name
    out = kiln.hash_batch(b"abcdef", "sha256", offsets=np.array([0, 2, 6]))
    assert [bytes(r) for r in out] == [hashlib.sha256(b"ab").digest(), hashlib.sha256(b"cdef").digest()]


def test_offsets_must_be_integers():
    for bad in ([0.0, 2.0], np.array([0, 2.5]), [False, True], ["0", "2"]):
        with pytest.raises(TypeError):
            kiln.hash_batch(b"ab", "sha256", offsets=bad)
    with pytest.raises(ValueError):
        kiln.hash_batch(b"ab", "sha256", offsets=[0, -1])
    with pytest.raises(TypeError):  # one buffer without offsets= is not a list of messages
        kiln.hash_batch(b"abc", "sha256")


def test_the_buffers_hashlib_takes():
    """Every message a hashlib constructor takes, hash_batch takes: memoryview slices (strided
    ones too), arrays of any item type, bytearrays."""
    import array
    raw = bytes(range(64))
    msgs = [memoryview(raw)[3:17], memoryview(raw)[::3], array.array("I", [1, 2, 3]), bytearray(b"xyz"),
            np.arange(10, dtype=np.int32), np.arange(12, dtype=np.uint8).reshape(3, 4)]
    want = [hashlib.sha256(bytes(memoryview(m).tobytes())).digest() for m in msgs]
    assert [bytes(r) for r in kiln.hash_batch(msgs, "sha256")] == want


def test_offsets_cover_the_data():
    """Issue 36.15: offsets are the n + 1 boundaries of the messages, from 0 to len(data), as the
    docstring and the README say: hash_batch(b"abcdef", "sha256", offsets=[0, 3]) hashed b"abc" and
    silently dropped b"def"; offsets that leave bytes out, or do not start at 0, are a ValueError
    saying so."""
    data = b"abcdef"
    out = kiln.hash_batch(data, "sha256", offsets=[0, 3, 6])
    assert [bytes(r) for r in out] == [hashlib.sha256(b"abc").digest(), hashlib.sha256(b"def").digest()]
    for bad, words in (([0, 3], "end at 3, not at the end of the data (6 bytes)"), ([0], "end at 0"),
                       ([1, 3, 6], "must start at 0"), ([2, 6], "must start at 0"),
                       ([0, 7], "past the end of the data (6 bytes)"), ([0, 4, 2, 6], "nondecreasing"),
                       ([0, -1, 6], "nondecreasing"), ([], "not an empty one"),
                       (np.array([], dtype=np.int64), "not an empty one"),
                       ([0, 2**63], "end at 9223372036854775808, past the end"),
                       ([0, 2**64 + 5], "past the end"), ([0, 2**63, 6], "nondecreasing"),
                       (np.array([0, 2**63], dtype=np.uint64), "past the end"),
                       (np.zeros((2, 2), dtype=np.int64), "1-D")):
        with pytest.raises(ValueError) as e:
            kiln.hash_batch(data, "sha256", offsets=bad)
        assert words in str(e.value), (bad, str(e.value))
        assert "float64" not in str(e.value)
    # the same rules for an array given as the buffer
    arr = np.frombuffer(data, dtype=np.uint8)
    assert bytes(kiln.hash_batch(arr, "sha256", offsets=[0, 6])[0]) == hashlib.sha256(data).digest()
    with pytest.raises(ValueError):
        kiln.hash_batch(arr, "sha256", offsets=[0, 5])
    assert kiln.hash_batch(b"", "sha256", offsets=[0]).shape == (0, 32)
    assert kiln.hash_batch(b"", "sha256", offsets=[0, 0]).shape == (1, 32)
    # integers of any NumPy type or Python ints, in a list, a tuple, a range or an array
    for offs in ((0, 3, 6), range(0, 7, 3), [0, np.int64(3), np.uint8(6)], np.array([0, 3, 6], dtype=np.uint32)):
        assert [bytes(r) for r in kiln.hash_batch(data, "sha256", offsets=offs)] == [bytes(r) for r in out]
    for bad in ([0, 3.0, 6], [False, True], [0, "3", 6], [0, None], np.array([0.0, 6.0])):
        with pytest.raises(TypeError):
            kiln.hash_batch(data, "sha256", offsets=bad)


def test_a_dict_or_a_set_is_no_list_of_messages():
    """Issue 36.15: a dict given as the messages was hashed by its keys (list(d)); a dict or a set
    has no order of messages: TypeError. Other iterables of messages are taken in order."""
    for bad in ({b"a": b"b", b"c": b"d"}, {b"a", b"b"}, frozenset([b"a"])):
        with pytest.raises(TypeError):
            kiln.hash_batch(bad, "sha256")
    d = {b"k1": b"first", b"k2": b"second"}
    assert [bytes(r) for r in kiln.hash_batch(d.values(), "sha256")] == \
        [hashlib.sha256(b"first").digest(), hashlib.sha256(b"second").digest()]
    assert [bytes(r) for r in kiln.hash_batch(iter([b"x", b"y"]), "sha256")] == \
        [hashlib.sha256(b"x").digest(), hashlib.sha256(b"y").digest()]
