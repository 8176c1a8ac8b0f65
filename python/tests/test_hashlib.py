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
        kiln.new("md4")


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


# Spellings hashlib.new takes or refuses (which depends on its OpenSSL: each is compared with what
# hashlib.new does with it here)
SPELLINGS = ["sha256", "SHA256", "Sha256", "SHA-256", "sha-256", "Sha-256", "SHA2-256", "sha2-256", "sha_256",
             "SHA_256", "sha3_256", "SHA3_256", "Sha3_256", "SHA3-256", "sha3-256", "shake_128", "SHAKE_128",
             "shake128", "SHAKE128", "SHAKE-128", "shake-256", "sha512_256", "SHA512_256", "Sha512_256",
             "sha512-256", "SHA512-256", "SHA-512/256", "sha512/256", "SHA2-512/256", "SHA512t256", "sha384",
             "SHA-384", "SHA2-384", "sha512", "SHA-512", "sha-512", "2.16.840.1.101.3.4.2.1", "sha256 ", " sha256",
             "", "md5", "MD5", "blake2b", "sha1", "SHA-1", "keccak256", "KECCAK256", "Keccak-256", "sha256d",
             "SHA256D", "sha3-224", "SHA3-512"]
KILN_NAMES = {name for name, _ in kiln._ALGORITHMS}  # kiln's own spellings ("sha3-256", "sha256d")


@pytest.mark.parametrize("name", SPELLINGS)
def test_names_as_hashlib_new_takes_them(name):
    """Issue 36.5: kiln.new takes a name exactly when hashlib.new takes it ("SHA-256", "sha-256",
    OpenSSL's names; not "SHA3_256", which hashlib refuses), for the same algorithm; kiln's own
    names ("sha256d", "keccak256", "sha3-256") in any case besides. A name for an algorithm kiln
    lacks is a ValueError."""
    try:
        ref = hashlib.new(name, usedforsecurity=False)
    except ValueError:
        ref = None
    if name.lower() in KILN_NAMES:
        h = kiln.new(name, b"abc")
        assert h.name == kiln.new(name.lower()).name
        if ref is not None:  # hashlib's name; a newer OpenSSL's Keccak is "keccak-256"
            assert h.name == (ref.name.replace("-", "") if ref.name.startswith("keccak") else ref.name)
        return
    if ref is None or (ref.name not in kiln.algorithms_available and not ref.name.startswith("keccak")):
        with pytest.raises(ValueError):
            kiln.new(name)
        with pytest.raises(ValueError):
            kiln.hash_batch([b"abc"], name)
        return
    # what hashlib makes of the name, kiln makes of it (a newer OpenSSL's "KECCAK-256" too)
    h = kiln.new(name, b"abc")
    ref.update(b"abc")
    args = [16] if ref.name.startswith("shake") else []
    assert h.name == (ref.name.replace("-", "") if ref.name.startswith("keccak") else ref.name)
    assert h.digest(*args) == ref.digest(*args)
    assert bytes(kiln.hash_batch([b"abc"], name, length=(args or [None])[0])[0]) == ref.digest(*args)


def test_names_fold_case_as_hashlib():
    """Issue 24.13: hashlib.new folds case ("SHA256"); kiln.new too, and takes kiln's own names in
    any case."""
    for name in ("SHA256", "SHA3-512", "KECCAK256", "Shake128"):
        ref = kiln.new(name.lower(), b"abc")
        assert kiln.new(name, b"abc").name == ref.name
        assert kiln.new(name, b"abc").hexdigest(*([16] if "hake" in name else [])) == \
            ref.hexdigest(*([16] if "hake" in name else []))
    assert kiln.new("SHA256", b"abc").digest() == hashlib.new("SHA256", b"abc").digest()


# every algorithm kiln and hashlib both have, in hashlib's spelling
BOTH = sorted(kiln.algorithms_available & hashlib.algorithms_available)


@pytest.mark.parametrize("name", BOTH)
def test_hmac_equals_hmac_of_hashlib(name):
    """Issue 36.1: hmac pads the key to the hash object's block_size, and kiln.sha512's was 64, not
    hashlib's 128: hmac.new(key, msg, kiln.sha512) was silently wrong (sha384, sha512_256 too). For
    every algorithm: block_size and digest_size are hashlib's, and HMAC with kiln's constructor
    equals HMAC with hashlib's, for keys shorter than, as long as and longer than a block."""
    import functools
    import hmac

    ours, ref = getattr(kiln, name), hashlib.new(name)
    assert (ours().block_size, ours().digest_size, ours().name) == (ref.block_size, ref.digest_size, ref.name)
    assert (kiln.new(name).block_size, kiln.new(name).digest_size) == (ref.block_size, ref.digest_size)
    if name.startswith("shake"):  # no HMAC of an XOF: hmac refuses it with hashlib's too
        with pytest.raises((TypeError, ValueError)):
            hmac.new(b"key", b"msg", ours).digest()
        return
    theirs = functools.partial(hashlib.new, name)  # hashlib has no hashlib.sha512_256
    rng = random.Random(name)
    block = ref.block_size
    for klen in (0, 1, 20, block - 1, block, block + 1, 2 * block + 7):
        key, msg = rng.randbytes(klen), rng.randbytes(rng.choice([0, 1, block, 1000]))
        want = hmac.new(key, msg, name).digest()  # hashlib's HMAC by name (OpenSSL's own)
        assert hmac.new(key, msg, theirs).digest() == want
        assert hmac.new(key, msg, ours).digest() == want, (name, klen)
        assert hmac.new(key, msg, lambda d=b"": kiln.new(name, d)).hexdigest() == want.hex()
        assert hmac.digest(key, msg, ours) == want, (name, klen)
        m = hmac.new(key, digestmod=ours)
        m.update(msg[:3])
        m.copy().update(b"not this")
        m.update(msg[3:])
        assert (m.digest(), m.digest_size, m.block_size) == (want, ref.digest_size, ref.block_size)


def test_file_digest_of_names_kiln_lacks_is_hashlibs(tmp_path):
    """Issue 36.5: kiln.file_digest(f, "md5") refused the names kiln lacks; it defers to hashlib
    (hashlib.file_digest), whose result or ValueError it gives."""
    import io

    data = random.Random(36).randbytes(100_000)
    (tmp_path / "f").write_bytes(data)
    for name in ("md5", "sha1", "blake2b", "sha224", "SHA-1"):
        with open(tmp_path / "f", "rb") as f:
            got = kiln.file_digest(f, name)
        assert got.digest() == hashlib.new(name, data).digest(), name
        assert kiln.file_digest(io.BytesIO(data), name).hexdigest() == hashlib.new(name, data).hexdigest()
    with open(tmp_path / "f", "rb") as f:
        assert kiln.file_digest(f, "SHA-256").digest() == hashlib.sha256(data).digest()
    with pytest.raises(ValueError):
        kiln.file_digest(io.BytesIO(data), "no-such-hash")


def test_algorithm_sets_in_hashlibs_spelling():
    assert kiln.algorithms_guaranteed <= hashlib.algorithms_guaranteed
    assert kiln.algorithms_guaranteed <= kiln.algorithms_available
    for name in kiln.algorithms_available:
        h = kiln.new(name)
        assert h.name == name or name in ("sha256d",) or name.startswith("keccak"), (name, h.name)
        if name in hashlib.algorithms_available:
            assert getattr(kiln, name)(b"x").digest(*([8] if name.startswith("shake") else [])) == \
                hashlib.new(name, b"x").digest(*([8] if name.startswith("shake") else []))


def test_string_keyword():
    for name in HASHLIB:
        assert getattr(kiln, name)(string=b"abc").name == getattr(kiln, name)(b"abc").name
    assert kiln.sha256(string=b"abc").digest() == hashlib.sha256(string=b"abc").digest()
    assert kiln.new("sha256", string=b"abc").digest() == hashlib.sha256(b"abc").digest()
    with pytest.raises(TypeError):
        kiln.sha256(b"a", string=b"b")
    with pytest.raises(TypeError):
        kiln.new("sha256", b"a", string=b"b")


def test_file_digest(tmp_path):
    import io
    data = random.Random(3).randbytes(300_000)
    (tmp_path / "f").write_bytes(data)
    for digest in ("sha256", "sha3_256", kiln.sha3_512):
        with open(tmp_path / "f", "rb") as f:
            got = kiln.file_digest(f, digest)
        want_name = digest if isinstance(digest, str) else "sha3_512"
        assert got.digest() == hashlib.new(want_name, data).digest()
        assert kiln.file_digest(io.BytesIO(data), digest).digest() == got.digest()
    if hasattr(hashlib, "file_digest"):
        with open(tmp_path / "f", "rb") as f:
            assert kiln.file_digest(f, "sha256").hexdigest() == hashlib.sha256(data).hexdigest()
    with pytest.raises(ValueError):
        kiln.file_digest(io.StringIO("text"), "sha256")


def test_shake_lengths_as_cpython():
    """A SHAKE digest of 2**29 bytes or more is refused as CPython refuses it (ValueError); length 0
    is the empty digest, in hash_batch too."""
    for h in (kiln.shake_128(b"a"), kiln.shake_256(b"a")):
        with pytest.raises(ValueError):
            h.digest(1 << 29)
        with pytest.raises(ValueError):
            h.hexdigest(1 << 30)
        assert h.digest(0) == b""
    out = kiln.hash_batch([b"a", b"bc"], "shake_128", length=0)
    assert out.shape == (2, 0)
    with pytest.raises(ValueError):
        kiln.hash_batch([b"a"], "shake_256", length=1 << 29)


# BLAKE2's parameter block, as hashlib.blake2b/blake2s take it (kiln_hash_init_params below)
BLAKE2 = {"blake2b": (64, 16, 64), "blake2s": (32, 8, 48)}  # max digest/key bytes, salt/person bytes, node_offset bits


def blake2_cases(name, rng):
    out, salt, bits = BLAKE2[name]
    yield {}
    yield from ({"digest_size": n} for n in (1, 20, out - 1, out))
    yield from ({"key": rng.randbytes(n)} for n in (1, out // 2, out))
    yield from ({"salt": rng.randbytes(n)} for n in (1, salt))
    yield from ({"person": rng.randbytes(n)} for n in (1, salt))
    yield from ({"fanout": n} for n in (0, 2, 255))
    yield from ({"depth": n} for n in (2, 255))
    yield from ({"leaf_size": n} for n in (1, 2**32 - 1))
    yield from ({"node_offset": n} for n in (1, 2**bits - 1))
    yield from ({"node_depth": n} for n in (1, 255))
    yield from ({"inner_size": n} for n in (1, out))
    yield {"last_node": True}
    for _ in range(40):
        yield dict(digest_size=rng.randint(1, out), key=rng.randbytes(rng.randint(0, out)),
                   salt=rng.randbytes(rng.randint(0, salt)), person=rng.randbytes(rng.randint(0, salt)),
                   fanout=rng.randint(0, 255), depth=rng.randint(1, 255), leaf_size=rng.getrandbits(32),
                   node_offset=rng.getrandbits(bits), node_depth=rng.randint(0, 255), inner_size=rng.randint(0, out),
                   last_node=rng.random() < 0.5)


@pytest.mark.parametrize("name", sorted(BLAKE2))
def test_blake2_parameters_equal_hashlib(name):
    """Every field of the parameter block, alone and together, through the constructor and
    kiln.new, streamed in pieces; the object's attributes and copies as hashlib's."""
    rng = random.Random(7693)
    for kw in blake2_cases(name, rng):
        data = rng.randbytes(rng.choice([0, 3, 64, 65, 128, 129, 1000]))
        ref = getattr(hashlib, name)(data, **kw)
        h = getattr(kiln, name)(**kw)
        for piece in chunked(rng, data):
            h.update(piece)
        assert h.hexdigest() == ref.hexdigest(), kw
        assert (h.name, h.digest_size, h.block_size) == (ref.name, ref.digest_size, ref.block_size)
        assert kiln.new(name, data, **kw).digest() == hashlib.new(name, data, **kw).digest(), kw
        c = h.copy()
        c.update(b"x")
        ref.update(b"x")
        assert c.digest() == ref.digest() and c.digest_size == ref.digest_size


@pytest.mark.parametrize("name", sorted(BLAKE2))
def test_blake2_constructor_limits_as_hashlib(name):
    k, ref = getattr(kiln, name), getattr(hashlib, name)
    assert (k.MAX_DIGEST_SIZE, k.MAX_KEY_SIZE, k.SALT_SIZE, k.PERSON_SIZE) == \
        (ref.MAX_DIGEST_SIZE, ref.MAX_KEY_SIZE, ref.SALT_SIZE, ref.PERSON_SIZE)


@pytest.mark.parametrize("name", sorted(BLAKE2))
def test_blake2_refusals_as_hashlib(name):
    """What hashlib refuses kiln refuses, with the same exception type."""
    out, salt, bits = BLAKE2[name]
    bad = [{"digest_size": 0}, {"digest_size": -1}, {"digest_size": out + 1}, {"digest_size": 2**70},
           {"key": bytes(out + 1)}, {"salt": bytes(salt + 1)}, {"person": bytes(salt + 1)},
           {"fanout": -1}, {"fanout": 256}, {"depth": 0}, {"depth": 256}, {"node_depth": 256},
           {"inner_size": out + 1}, {"inner_size": -1}, {"leaf_size": -1}, {"leaf_size": 2**32},
           {"node_offset": -1}, {"node_offset": 2**bits}, {"key": "text"}]
    for kw in bad:
        with pytest.raises(Exception) as want:
            getattr(hashlib, name)(**kw)
        with pytest.raises(want.type):
            getattr(kiln, name)(**kw)
        with pytest.raises(want.type):
            kiln.new(name, **kw)
    with pytest.raises(TypeError):
        getattr(kiln, name)(data=b"")  # positional only, and no string=, as hashlib's blake2 (3.11)
    with pytest.raises(TypeError):
        getattr(kiln, name)(string=b"")
    with pytest.raises(TypeError):
        kiln.new(name, foo=1)


def test_parameters_of_other_algorithms_are_refused():
    """hashlib.new("sha256", digest_size=16) is a TypeError; so is kiln's."""
    with pytest.raises(TypeError):
        hashlib.new("sha256", digest_size=16)
    for kw in ({"digest_size": 16}, {"key": b"k"}, {"last_node": False}):
        with pytest.raises(TypeError):
            kiln.new("sha256", **kw)
    assert kiln.blake2b.__name__ == "blake2b" and not hasattr(kiln.sha256, "MAX_KEY_SIZE")
