"""kiln.blake3's extendable output as the `blake3` package gives it: digest(length=32, *, seek=0) and
hexdigest(...), digest_size 32. Against the BLAKE3 team's official vectors (tests/data/blake3/
test_vectors.json: 131 bytes of output for inputs of 0 to 102400 bytes), always; and against the
`blake3` package itself where it is installed (pip install blake3)."""
import json
import random

import pytest

import kiln


@pytest.fixture(scope="module")
def vectors(data_dir):
    return json.loads((data_dir / "blake3" / "test_vectors.json").read_text())["cases"]


def _input(n):
    return bytes(i % 251 for i in range(n))


def test_official_vectors(vectors):
    assert len(vectors) > 30
    for case in vectors:
        h = kiln.blake3(_input(case["input_len"]))
        want = bytes.fromhex(case["hash"])
        assert h.digest() == want[:32], case["input_len"]
        assert h.hexdigest() == case["hash"][:64]
        assert h.digest(len(want)) == want
        assert h.hexdigest(length=len(want)) == case["hash"]
        assert h.digest(0) == b"" and h.hexdigest(0) == ""
        for seek in (1, 63, 64, 65, 100):
            assert h.digest(len(want) - seek, seek=seek) == want[seek:], (case["input_len"], seek)
            assert h.hexdigest(7, seek=seek) == want[seek:seek + 7].hex()


def test_shape():
    h = kiln.blake3(b"abc")
    assert (h.name, h.digest_size, h.block_size) == ("blake3", 32, 64)
    c = h.copy()
    h.update(b"d")
    assert c.digest(100)[:32] == kiln.blake3(b"abc").digest()
    assert h.digest(100)[:32] == kiln.blake3(b"abcd").digest()
    with pytest.raises(ValueError):
        h.digest(-1)
    with pytest.raises(ValueError):
        h.digest(8, seek=-1)
    with pytest.raises(TypeError):
        h.digest(8, 0)  # seek is keyword-only, as in the blake3 package
    # SHAKE keeps hashlib's digest(length): no default, no seek
    with pytest.raises(TypeError):
        kiln.shake_128(b"").digest()
    with pytest.raises(TypeError):
        kiln.shake_128(b"").digest(8, seek=1)
    assert kiln.shake_128().digest_size == 0


def test_hash_batch_length(vectors):
    cases = vectors[:12]
    out = kiln.hash_batch([_input(c["input_len"]) for c in cases], "blake3", device="cpu", length=131)
    for row, c in zip(out, cases):
        assert bytes(row) == bytes.fromhex(c["hash"])
    assert kiln.hash_batch([b"abc"], "blake3", device="cpu").shape == (1, 32)


def test_blake3_package():
    blake3 = pytest.importorskip("blake3")
    rng = random.Random(41)
    for n in (0, 1, 63, 64, 65, 1023, 1024, 1025, 4096, 100000):
        data = rng.randbytes(n)
        k, b = kiln.blake3(data), blake3.blake3(data)
        assert (k.digest(), k.hexdigest(), k.digest_size) == (b.digest(), b.hexdigest(), b.digest_size)
        for length in (1, 31, 33, 64, 200, 1000):
            seek = rng.randrange(0, 5000)
            assert k.digest(length) == b.digest(length)
            assert k.hexdigest(length=length, seek=seek) == b.hexdigest(length=length, seek=seek), (n, length, seek)
