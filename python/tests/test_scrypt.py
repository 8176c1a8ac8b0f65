"""kiln.scrypt against RFC 7914's vectors and hashlib.scrypt."""
import hashlib
import json
import random

import numpy as np
import pytest
from conftest import run_beside_python

import kiln


def test_rfc7914_vectors(data_dir):
    vectors = json.loads((data_dir / "rfc7914.json").read_text())["scrypt"]
    assert len(vectors) >= 3
    for v in vectors:
        if v["N"] * v["r"] * 128 > 64 << 20:
            continue  # the 1 GiB vector: hashlib-checked below at smaller sizes
        out = kiln.scrypt(bytes.fromhex(v["password_hex"]), salt=bytes.fromhex(v["salt_hex"]), n=v["N"], r=v["r"],
                          p=v["p"], dklen=v["dkLen"], maxmem=1 << 27)
        assert out.hex() == v["output"], v["section"]


def test_equals_hashlib_scrypt():
    rng = random.Random(7914)
    for n, r, p, dklen in [(2, 1, 1, 1), (16, 1, 1, 64), (1024, 8, 1, 32), (256, 2, 3, 100), (4096, 1, 2, 16)]:
        password, salt = rng.randbytes(rng.randrange(40)), rng.randbytes(rng.randrange(40))
        assert kiln.scrypt(password, salt=salt, n=n, r=r, p=p, dklen=dklen) == \
            hashlib.scrypt(password, salt=salt, n=n, r=r, p=p, dklen=dklen)


def test_buffers_and_default_dklen():
    ref = hashlib.scrypt(b"pw", salt=b"salt", n=16, r=1, p=1)
    assert len(ref) == 64
    assert kiln.scrypt(bytearray(b"pw"), salt=memoryview(b"salt"), n=16, r=1, p=1) == ref


@pytest.mark.parametrize("kw", [dict(n=15, r=1, p=1), dict(n=1, r=1, p=1), dict(n=16, r=0, p=1),
                                dict(n=16, r=1, p=0), dict(n=16, r=1, p=1, dklen=0),
                                dict(n=1 << 20, r=8, p=1, maxmem=1 << 20)])
def test_bad_parameters_raise_valueerror(kw):
    with pytest.raises(ValueError):
        kiln.scrypt(b"pw", salt=b"s", **kw)


def test_signature_is_hashlibs():
    with pytest.raises(TypeError):
        kiln.scrypt(b"pw", b"salt", 16, 1, 1)  # keyword-only, as hashlib.scrypt
    with pytest.raises(TypeError):
        kiln.scrypt(b"pw", n=16, r=1, p=1)


def test_runs_without_the_gil():
    key, duration, max_gap = run_beside_python(lambda: kiln.scrypt(b"pw", salt=b"s", n=1 << 16, r=8, p=1,
                                                                   maxmem=1 << 27))
    assert key == hashlib.scrypt(b"pw", salt=b"s", n=1 << 16, r=8, p=1, maxmem=1 << 27)
    assert duration > 0.05 and max_gap < duration / 4, (duration, max_gap)


def test_batch_equals_hashlib():
    rng = random.Random(11)
    pws = [rng.randbytes(rng.randrange(0, 40)) for _ in range(9)]
    salts = [rng.randbytes(rng.randrange(0, 20)) for _ in range(9)]
    got = kiln.scrypt_batch(pws, salts, n=64, r=2, p=3, dklen=40, device="cpu")
    assert got.shape == (9, 40) and got.dtype == np.uint8
    for i in range(9):
        assert got[i].tobytes() == hashlib.scrypt(pws[i], salt=salts[i], n=64, r=2, p=3, dklen=40)
    one = kiln.scrypt_batch([bytearray(b"pw"), memoryview(b"x")], b"NaCl", n=16, r=1, p=1, dklen=16)
    assert one[1].tobytes() == hashlib.scrypt(b"x", salt=b"NaCl", n=16, r=1, p=1, dklen=16)
    with pytest.raises(ValueError):
        kiln.scrypt_batch([b"a"], [b"s", b"t"], n=16, r=1, p=1)
    with pytest.raises(ValueError):
        kiln.scrypt_batch([b"a"], b"s", n=15, r=1, p=1)


@pytest.mark.parametrize("kw", [dict(n=1 << 15, r=8, p=1),                 # 32 MiB + 2 KiB: over the default
                                dict(n=1 << 14, r=8, p=20000),             # 16 MiB of V and 20 MB of B
                                dict(n=1 << 10, r=8, p=1, maxmem=1 << 20),  # over a maxmem given
                                dict(n=16, r=1, p=1, maxmem=-1), dict(n=16, r=1, p=1, dklen=1 << 31)])
def test_maxmem_and_dklen_as_hashlib(kw):
    """Issue 24.13: kiln.scrypt follows hashlib.scrypt's maxmem (default 32 MiB: 128 r p + 128 r
    (n + 2) bytes must fit) and dklen bounds: the same ValueError where hashlib raises one."""
    with pytest.raises(ValueError):
        hashlib.scrypt(b"pw", salt=b"s", **kw)
    with pytest.raises(ValueError):
        kiln.scrypt(b"pw", salt=b"s", **kw)


def test_maxmem_raised_computes_as_hashlib():
    for kw in (dict(n=1 << 14, r=8, p=1), dict(n=1 << 15, r=8, p=1, maxmem=1 << 26),
               dict(n=1 << 12, r=8, p=16, maxmem=5 << 20)):
        assert kiln.scrypt(b"pw", salt=b"s", dklen=32, **kw) == hashlib.scrypt(b"pw", salt=b"s", dklen=32, **kw)


BAD_ARGS = [dict(n=-1, r=1, p=1), dict(n=2**64, r=1, p=1), dict(n=2**64 + 16, r=1, p=1), dict(n=2**63, r=1, p=1),
            dict(n=16, r=-1, p=1), dict(n=16, r=2**64, p=1), dict(n=16, r=2**32, p=1), dict(n=16, r=2**31, p=1),
            dict(n=16, r=1, p=-1), dict(n=16, r=1, p=2**64), dict(n=16, r=1, p=2**32), dict(n=16, r=0, p=1),
            dict(n=16.0, r=1, p=1), dict(n=16, r=1.0, p=1), dict(n=16, r=1, p="1"), dict(n=None, r=1, p=1),
            dict(n=np.int64(16), r=1, p=1), dict(r=1, p=1), dict(n=16, p=1), dict(n=16, r=1),
            dict(n=15, r=-1, p=1), dict(n=-1, r=-1, p=-1), dict(n=0, r=1, p=1), dict(n=True, r=1, p=1),
            dict(n=16, r=1, p=1, maxmem=-1), dict(n=16, r=1, p=1, maxmem=2**63), dict(n=16, r=1, p=1, maxmem=-2**63 - 1),
            dict(n=16, r=1, p=1, maxmem=1.0), dict(n=16, r=1, p=1, maxmem=None), dict(n=16, r=1, p=1, dklen=2**63),
            dict(n=16, r=1, p=1, dklen=0), dict(n=16, r=1, p=1, dklen=1.5), dict(n=2**33, r=1, p=1),
            dict(n=2**20, r=8, p=1), dict(n=16, r=1, p=-1, maxmem=-1)]


@pytest.mark.parametrize("kw", BAD_ARGS, ids=[repr(kw) for kw in BAD_ARGS])
def test_bad_arguments_raise_what_hashlib_raises(kw):
    """Issue 36.5: n=-1 was a ValueError where hashlib.scrypt raises TypeError (r, p, and 2**64 or
    more alike). For each argument set, kiln.scrypt raises the exception hashlib.scrypt raises (its
    type; the parameter checks in hashlib's order)."""
    with pytest.raises(Exception) as want:
        hashlib.scrypt(b"pw", salt=b"s", **kw)
    with pytest.raises(Exception) as got:
        kiln.scrypt(b"pw", salt=b"s", **kw)
    assert got.type is want.type, (kw, got.value, want.value)


def test_maxmem_as_hashlib_means_it_and_past_2_gib():
    """Issue 36.14: maxmem=0 is OpenSSL's default of 32 MiB, as in hashlib (the docstring said it
    kept kiln's limit); a ValueError names the memory needed and the cap; maxmem may be 2 GiB or
    more (it was capped at INT_MAX, as hashlib caps it)."""
    doc = kiln.scrypt.__doc__
    assert "kiln's limit" not in doc and "32 MiB" in doc and "2 GiB" in doc
    need = 128 * 8 * 1 + 128 * 8 * ((1 << 15) + 2)  # n = 2**15, r = 8, p = 1: 32 MiB + 3 KiB
    for maxmem in (0, 32 << 20):
        with pytest.raises(ValueError) as e:
            kiln.scrypt(b"pw", salt=b"s", n=1 << 15, r=8, p=1, maxmem=maxmem)
        assert str(need) in str(e.value) and str(32 << 20) in str(e.value), str(e.value)
    assert kiln.scrypt(b"pw", salt=b"s", n=1 << 15, r=8, p=1, maxmem=need, dklen=16) == \
        hashlib.scrypt(b"pw", salt=b"s", n=1 << 15, r=8, p=1, maxmem=need, dklen=16)
    with pytest.raises(ValueError):
        kiln.scrypt(b"pw", salt=b"s", n=1 << 15, r=8, p=1, maxmem=need - 1, dklen=16)
    # 2 GiB and more: taken (hashlib refuses such a maxmem; the key is the same as under its default)
    want = hashlib.scrypt(b"pw", salt=b"s", n=1024, r=8, p=2, dklen=32)
    for maxmem in (1 << 31, (1 << 31) + 1, 1 << 40, 2**63 - 1):
        assert kiln.scrypt(b"pw", salt=b"s", n=1024, r=8, p=2, dklen=32, maxmem=maxmem) == want
    # a need past 2 GiB is measured against a cap past 2 GiB, both named
    big = 128 * 8 + 128 * 8 * ((1 << 21) + 2)  # n = 2**21, r = 8: 2 GiB + 3 KiB
    with pytest.raises(ValueError) as e:
        kiln.scrypt(b"pw", salt=b"s", n=1 << 21, r=8, p=1, maxmem=1 << 31)
    assert str(big) in str(e.value) and str(1 << 31) in str(e.value), str(e.value)
