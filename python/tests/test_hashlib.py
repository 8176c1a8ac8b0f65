"""kiln's hash objects against hashlib (every algorithm hashlib has), the Keccak team's KAT files
(original Keccak) and real Bitcoin block headers (sha256d)."""
import hashlib
import json
import random
import threading
import time

import numpy as np
import pytest

import kiln

# kiln constructor name -> hashlib name
HASHLIB = {"sha256": "sha256", "sha3_224": "sha3_224", "sha3_256": "sha3_256", "sha3_384": "sha3_384",
           "sha3_512": "sha3_512", "shake_128": "shake_128", "shake_256": "shake_256"}
SIZES = [0, 1, 55, 56, 63, 64, 65, 71, 72, 135, 136, 137, 167, 168, 169, 1000, 4096, 100_000]


def chunked(rng, data):
    """data cut into random pieces, some empty."""
    i = 0
    while i < len(data):
        j = min(len(data), i + rng.choice([0, 1, 7, 64, 135, 1000, 3000]))
        yield data[i:j]
        i = j


@pytest.mark.parametrize("name", sorted(HASHLIB))
def test_equals_hashlib_random_inputs_and_chunkings(name):
    rng = random.Random(name)
    for size in SIZES:
        data = rng.randbytes(size)
        ref = hashlib.new(HASHLIB[name], data)
        h = getattr(kiln, name)()
        for piece in chunked(rng, data):
            h.update(piece)
        if name.startswith("shake"):
            for length in (0, 1, 32, 64, 200, 1000):
                assert h.digest(length) == ref.digest(length)
                assert h.hexdigest(length) == ref.hexdigest(length)
        else:
            assert h.digest() == ref.digest()
            assert h.hexdigest() == ref.hexdigest()
        assert kiln.new(name, data).hexdigest(*([77] if name.startswith("shake") else [])) == \
            ref.hexdigest(*([77] if name.startswith("shake") else []))


@pytest.mark.parametrize("name", sorted(HASHLIB))
def test_attributes_match_hashlib(name):
    h, ref = getattr(kiln, name)(), hashlib.new(HASHLIB[name])
    assert (h.name, h.digest_size, h.block_size) == (ref.name, ref.digest_size, ref.block_size)


@pytest.mark.parametrize("name", sorted(HASHLIB))
def test_copy_is_independent(name):
    h = kiln.new(name, b"abc")
    c = h.copy()
    c.update(b"def")
    args = [40] if name.startswith("shake") else []
    assert h.digest(*args) == hashlib.new(HASHLIB[name], b"abc").digest(*args)
    assert c.digest(*args) == hashlib.new(HASHLIB[name], b"abcdef").digest(*args)
    # digest() leaves the object usable, as in hashlib
    h.update(b"def")
    assert h.digest(*args) == c.digest(*args)


def test_any_buffer_is_read_in_place():
    data = np.arange(1000, dtype=np.uint32)
    ref = hashlib.sha3_256(data.tobytes()).digest()
    for obj in (data, memoryview(data), bytearray(data.tobytes()), data.tobytes()):
        assert kiln.sha3_256(obj).digest() == ref
    with pytest.raises(TypeError):
        kiln.sha256("text")
    with pytest.raises(BufferError if False else (TypeError, ValueError, BufferError)):
        kiln.sha256(data[::2])  # not contiguous


def test_hashlib_and_kiln_spellings():
    assert kiln.new("sha3-256", b"x").digest() == kiln.new("sha3_256", b"x").digest() == \
        hashlib.sha3_256(b"x").digest()
    assert kiln.new("shake128", b"x").digest(5) == hashlib.shake_128(b"x").digest(5)
    with pytest.raises(ValueError):
        kiln.new("md5")


def kat(path):
    """(message, digest) pairs of a Keccak KAT file, byte-aligned lengths only."""
    length = msg = None
    for line in path.read_text().splitlines():
        key, _, value = line.partition(" = ")
        if key == "Len":
            length = int(value)
        elif key == "Msg":
            msg = bytes.fromhex(value)
        elif key == "MD" and length % 8 == 0:
            yield msg[: length // 8], bytes.fromhex(value)


@pytest.mark.parametrize("bits", [224, 256, 384, 512])
def test_keccak_known_answers(data_dir, bits):
    pairs = list(kat(data_dir / "keccak" / f"ShortMsgKAT_{bits}.txt"))
    assert len(pairs) > 100
    for msg, md in pairs:
        h = getattr(kiln, f"keccak{bits}")()
        h.update(msg[:3])
        h.update(msg[3:])
        assert h.digest() == md
    h = kiln.keccak256()
    assert (h.name, h.digest_size, h.block_size) == ("keccak256", 32, 136)


def test_keccak256_empty():
    assert kiln.keccak256().hexdigest() == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"


def test_sha256d_real_block_headers(data_dir):
    headers = json.loads((data_dir / "headers.json").read_text())["headers"]
    assert headers
    for hd in headers:
        raw = bytes.fromhex(hd["header_hex"])
        assert kiln.sha256d(raw).digest()[::-1].hex() == hd["block_hash"]
        assert kiln.new("sha256d", raw).hexdigest() == hd["sha256d_internal_hex"]
    h = kiln.sha256d()
    assert (h.name, h.digest_size, h.block_size) == ("sha256d", 32, 64)


def test_large_update_runs_without_the_gil():
    """A hash of 64 MiB in one thread while this one keeps running Python: with the GIL held, this
    thread would stall for the whole update (one gap as long as the hash)."""
    data = np.tile(np.frombuffer(random.Random(1).randbytes(1 << 20), dtype=np.uint8), 64)
    h = kiln.sha3_512()
    t = threading.Thread(target=h.update, args=(data,))
    start = last = time.perf_counter()
    max_gap = 0.0
    t.start()
    while t.is_alive():
        now = time.perf_counter()
        max_gap = max(max_gap, now - last)
        last = now
    t.join()
    duration = time.perf_counter() - start
    assert h.digest() == hashlib.sha3_512(data).digest()
    assert duration > 0.05 and max_gap < duration / 4, (duration, max_gap)
