"""CUDA arrays in, CuPy arrays out (docs/DEVICE_MEMORY.md): kiln.hash_batch_device,
kiln.merkle_device and kiln.scrypt_batch_device read CuPy (and PyTorch) arrays in place and return
CuPy arrays, byte-identical to the host-memory functions on the CPU; kiln.pagerank takes CuPy
vectors and returns CuPy ranks. Skipped without CuPy and a CUDA GPU."""
import hashlib

import numpy as np
import pytest

import kiln

cp = pytest.importorskip("cupy")
try:
    _GPUS = cp.cuda.runtime.getDeviceCount()
except Exception:  # no driver
    _GPUS = 0
pytestmark = pytest.mark.skipif(_GPUS == 0 or "cuda" not in [d["kind"] for d in kiln.devices()],
                                reason="no CUDA GPU for CuPy and kiln")


def _messages(rng, n, most):
    lens = rng.integers(0, most, size=n)
    offsets = np.zeros(n + 1, dtype=np.uint64)
    offsets[1:] = np.cumsum(lens)
    data = rng.integers(0, 256, size=int(offsets[-1]), dtype=np.uint8)
    return data, offsets


@pytest.mark.parametrize("algo", ["sha256", "sha3_256", "keccak256", "sha512"])
def test_hash_batch_offsets(algo):
    rng = np.random.default_rng(38)
    data, offsets = _messages(rng, 2001, 300)
    want = kiln.hash_batch(data.tobytes(), algo, "cpu", offsets=offsets)
    got = kiln.hash_batch_device(cp.asarray(data), algo, offsets=cp.asarray(offsets))
    assert isinstance(got, cp.ndarray) and got.shape == want.shape
    assert np.array_equal(cp.asnumpy(got), want)
    i = 17  # and hashlib (kiln's CPU object for Ethereum's Keccak, which hashlib has not), for one message
    new = kiln.new if algo == "keccak256" else hashlib.new
    assert bytes(cp.asnumpy(got[i])) == new(algo, data[offsets[i]:offsets[i + 1]].tobytes()).digest()


@pytest.mark.parametrize("length", [32, 64, 80])
def test_hash_batch_fixed(length):
    rng = np.random.default_rng(length)
    msgs = rng.integers(0, 256, size=(1000, length), dtype=np.uint8)
    want = kiln.hash_batch(msgs, "sha3_256", "cpu")
    got = kiln.hash_batch_device(cp.asarray(msgs).ravel(), "sha3_256", length=length)
    assert np.array_equal(cp.asnumpy(got), want)


def test_hash_batch_other_stream():
    """Work on a stream of the caller's: kiln enqueues on it (CuPy's current stream)."""
    rng = np.random.default_rng(1)
    msgs = rng.integers(0, 256, size=(4096, 64), dtype=np.uint8)
    want = kiln.hash_batch(msgs, "sha256", "cpu")
    with cp.cuda.Stream(non_blocking=True) as s:
        d = cp.asarray(msgs).ravel()
        got = kiln.hash_batch_device(d, "sha256", length=64)
        s.synchronize()
    assert np.array_equal(cp.asnumpy(got), want)


@pytest.mark.parametrize("algo", ["sha256d", "sha3-256", "rp64_256"])
@pytest.mark.parametrize("n", [1, 2, 1000, 65537])
def test_merkle(algo, n):
    rng = np.random.default_rng(n)
    leaves = rng.integers(0, 2**64 - 2**32 + 1, size=(n, 4), dtype=np.uint64)  # canonical for rp64_256 too
    host = leaves.view(np.uint8).reshape(n, 32)
    want_root = kiln.merkle_root(host, algo, "cpu")
    want_tree = kiln.merkle_tree(host, algo, "cpu")
    root = kiln.merkle_device(cp.asarray(leaves), algo)
    assert isinstance(root, cp.ndarray) and bytes(cp.asnumpy(root)) == want_root
    root, tree = kiln.merkle_device(cp.asarray(host), algo, tree=True)
    assert bytes(cp.asnumpy(root)) == want_root
    assert np.array_equal(cp.asnumpy(tree), want_tree)


def test_scrypt():
    rng = np.random.default_rng(7)
    pw, pw_off = _messages(rng, 21, 40)
    salt, salt_off = _messages(rng, 21, 20)
    passwords = [pw[pw_off[i]:pw_off[i + 1]].tobytes() for i in range(21)]
    salts = [salt[salt_off[i]:salt_off[i + 1]].tobytes() for i in range(21)]
    want = kiln.scrypt_batch(passwords, salts, n=1024, r=8, p=1, dklen=64, device="cpu")
    got = kiln.scrypt_batch_device(cp.asarray(pw), cp.asarray(pw_off), cp.asarray(salt), cp.asarray(salt_off),
                                   n=1024, r=8, p=1, dklen=64)
    assert np.array_equal(cp.asnumpy(got), want)
    assert bytes(cp.asnumpy(got[3])) == hashlib.scrypt(passwords[3], salt=salts[3], n=1024, r=8, p=1, dklen=64)


def test_torch_tensor():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    msgs = torch.randint(0, 256, (512, 64), dtype=torch.uint8, device="cuda")
    want = kiln.hash_batch(msgs.cpu().numpy(), "sha3_256", "cpu")
    torch.cuda.synchronize()
    got = kiln.hash_batch_device(msgs.reshape(-1), "sha3_256", length=64)
    assert np.array_equal(cp.asnumpy(got), want)


def test_refuses_host_and_strided():
    with pytest.raises(TypeError):
        kiln.hash_batch_device(np.zeros(64, dtype=np.uint8), "sha256", length=64)
    d = cp.zeros((64, 2), dtype=cp.uint8)[:, 0]
    with pytest.raises(ValueError):
        kiln.hash_batch_device(d, "sha256", length=64)


def test_pagerank_cuda_vectors():
    # personalization (with zeros), nstart and dangling as CuPy arrays: the ranks a CuPy array, those
    # of the same vectors from host memory on the GPU (the same kernels) and of the CPU (float64)
    rng = np.random.default_rng(38)
    n = 3000
    src = rng.integers(0, n, size=20000)
    dst = rng.integers(0, n, size=20000)
    p = rng.random(n)
    p[::7] = 0
    x0, q = rng.random(n), rng.random(n)
    want = kiln.pagerank(src, dst, n=n, personalization=p, nstart=x0, dangling=q, tol=1e-10, max_iter=500,
                         device="cpu")
    host = kiln.pagerank(src, dst, n=n, personalization=p, nstart=x0, dangling=q, tol=1e-10, max_iter=500,
                         device="cuda")
    got = kiln.pagerank(src, dst, n=n, personalization=cp.asarray(p), nstart=cp.asarray(x0), dangling=cp.asarray(q),
                        tol=1e-10, max_iter=500, device="cuda")
    assert isinstance(got, cp.ndarray) and got.dtype == cp.float64 and got.shape == (n,)
    got = cp.asnumpy(got)
    assert np.abs(got - host).sum() < 1e-12
    assert np.abs(got - want).sum() < 2 * n * 1e-10 + 1e-9  # the CPU may stop one iteration apart
    with pytest.raises(ValueError):  # host and CUDA vectors mixed
        kiln.pagerank(src, dst, n=n, personalization=cp.asarray(p), nstart=x0, device="cuda")
    with pytest.raises(ValueError):  # a negative value, named as kiln.pagerank names it
        bad = p.copy()
        bad[3] = -1
        kiln.pagerank(src, dst, n=n, personalization=cp.asarray(bad), device="cuda")
