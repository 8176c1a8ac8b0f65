"""The GPU paths of the package on every GPU backend this machine has: batch hashing against
hashlib, scrypt against hashlib.scrypt, Merkle roots and PageRank against the CPU and NetworkX, and
NetworkX's backend. CUDA: one GPU and a set of two logical devices of GPU 0 ("cuda:0,0"); OpenCL: the
device KILN_TEST_OPENCL_DEVICE names (default opencl:0; PoCL's CPU device in CI), alone and as a set
of two. A backend without a device is skipped; with KILN_REQUIRE_OPENCL set (CI installs PoCL) a
missing OpenCL device fails instead."""
import hashlib
import os
import random

import networkx as nx
import numpy as np
import pytest

import kiln

_KINDS = [d["kind"] for d in kiln.devices()]
_OCL = os.environ.get("KILN_TEST_OPENCL_DEVICE", "opencl:0")
DEVICES = [
    pytest.param(d, marks=pytest.mark.skipif("cuda" not in _KINDS, reason="no CUDA GPU")) for d in ("cuda", "cuda:0,0")
] + [
    pytest.param(d, marks=pytest.mark.skipif("opencl" not in _KINDS and not os.environ.get("KILN_REQUIRE_OPENCL"),
                                             reason="no OpenCL device"))
    for d in (_OCL, "%s,%s" % (_OCL, _OCL.split(":")[1]))
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("algo", ["sha256", "sha3_256", "keccak_256"])
def test_hash_batch(device, algo):
    rng = random.Random(4)
    msgs = [rng.randbytes(rng.randrange(0, 400)) for _ in range(5000)]
    got = kiln.hash_batch(msgs, algo.replace("_", "-").replace("keccak-", "keccak"), device=device)
    if algo == "keccak_256":
        want = [kiln.new("keccak256", m).digest() for m in msgs[:50]]  # bit-exact with the CPU object
        assert [bytes(r) for r in got[:50]] == want
    else:
        assert [bytes(r) for r in got] == [hashlib.new(algo, m).digest() for m in msgs]


@pytest.mark.parametrize("device", DEVICES[::2])
def test_scrypt_batch(device):
    pw = [b"pw%d" % i for i in range(64)]
    salts = [b"salt"] * 64
    got = kiln.scrypt_batch(pw, salts, n=1024, r=8, p=1, dklen=32, device=device)
    assert [bytes(r) for r in got] == [hashlib.scrypt(p, salt=b"salt", n=1024, r=8, p=1, dklen=32) for p in pw]


@pytest.mark.parametrize("device", DEVICES)
def test_merkle_root(device):
    rng = random.Random(7)
    leaves = [rng.randbytes(32) for _ in range(10007)]
    assert kiln.merkle_root(leaves, "sha256d", device=device) == kiln.merkle_root(leaves, "sha256d", device="cpu")


@pytest.mark.parametrize("device", DEVICES)
def test_pagerank(device):
    rng = random.Random(11)
    n = 3000
    src = np.array([rng.randrange(n) for _ in range(30000)], dtype=np.int64)
    dst = np.array([rng.randrange(n) for _ in range(30000)], dtype=np.int64)
    w = np.array([rng.random() + 0.1 for _ in range(30000)])
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    for s, d, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        if G.has_edge(s, d):
            G[s][d]["weight"] += x
        else:
            G.add_edge(s, d, weight=x)
    ref = nx.pagerank(G, tol=1e-12, max_iter=1000)
    want = np.array([ref[i] for i in range(n)])
    got = kiln.pagerank(src, dst, n=n, weights=w, tol=1e-12, max_iter=1000, device=device)
    assert np.abs(got - want).sum() < 1e-9  # float64 by default, on every device
    fast = kiln.pagerank(src, dst, n=n, weights=w, tol=0, max_iter=200, device=device, precision="float32")
    assert np.abs(fast - want).sum() < 1e-5


@pytest.mark.parametrize("device", DEVICES[::2])
def test_networkx_backend_on_gpu(device):
    if "kiln" not in nx.config.backends:  # a kiln imported from a build tree, not installed: no entry point
        pytest.skip("kiln is not installed as a NetworkX backend")
    G = nx.karate_club_graph()
    with nx.config.backends.kiln(device=device):
        got = nx.pagerank(G, backend="kiln", tol=1e-12)
    want = nx.pagerank(G, tol=1e-12)
    assert sum(abs(got[k] - want[k]) for k in G) < 1e-9
