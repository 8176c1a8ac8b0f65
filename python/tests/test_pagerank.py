"""kiln.pagerank against NetworkX's PageRank (nx.pagerank when SciPy is there, else NetworkX's own
pure-Python implementation of the same iteration) on small graphs and SNAP ego-Facebook."""
import random

import networkx as nx
import numpy as np
import pytest
from conftest import run_beside_python

import kiln

try:
    import scipy  # noqa: F401
    nx_pagerank = nx.pagerank
except ImportError:
    from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python as nx_pagerank


def reference(n, edges, weights=None, **kw):
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    if weights is None:
        G.add_edges_from(edges)
        r = nx_pagerank(G, weight=None, **kw)
    else:
        G.add_weighted_edges_from((u, v, w) for (u, v), w in zip(edges, weights))
        r = nx_pagerank(G, **kw)
    return np.array([r[i] for i in range(n)])


def random_graph(seed, n=60, m=300):
    """Self loops, duplicates (unweighted), dangling and isolated nodes, ids spread over 0..n-1."""
    rng = random.Random(seed)
    edges = [(rng.randrange(n - 5), rng.randrange(n - 5)) for _ in range(m)]  # n-5..n-1: isolated
    edges += [(3, 3), (1, 2), (1, 2)]
    return n, edges


def unique(edges):
    return list(dict.fromkeys(edges))


def vec(rng, n, zeros=0.3):
    return {i: (0.0 if rng.random() < zeros else rng.random()) for i in range(n)}


@pytest.mark.parametrize("seed", range(4))
def test_unweighted_equals_networkx(seed):
    n, edges = random_graph(seed)
    src, dst = np.array(edges).T
    for tol in (1e-6, 1e-12):
        got = kiln.pagerank(src, dst, n=n, tol=tol, max_iter=500, device="cpu")
        want = reference(n, edges, tol=tol, max_iter=500)
        assert np.abs(got - want).sum() < 1e-9
        assert got.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("seed", range(4))
def test_weighted_with_vectors_equals_networkx(seed):
    rng = random.Random(100 + seed)
    n, edges = random_graph(seed)
    edges = unique(edges)
    weights = [rng.choice([0.0, 0.5, 1.0, 2.5, rng.random()]) for _ in edges]
    p, s, d = vec(rng, n), vec(rng, n, 0.0), vec(rng, n)
    alpha = rng.choice([0.5, 0.85, 0.9])
    src, dst = np.array(edges).T
    got = kiln.pagerank(src, dst, n=n, weights=weights, alpha=alpha, personalization=p, nstart=s, dangling=d,
                        tol=1e-10, max_iter=1000, device="cpu")
    want = reference(n, edges, weights, alpha=alpha, personalization=p, nstart=s, dangling=d, tol=1e-10,
                     max_iter=1000)
    assert np.abs(got - want).sum() < 1e-9
    # arrays over node ids are the same as dicts
    arr = lambda v: np.array([v[i] for i in range(n)])  # noqa: E731
    again = kiln.pagerank(src, dst, n=n, weights=weights, alpha=alpha, personalization=arr(p), nstart=arr(s),
                          dangling=arr(d), tol=1e-10, max_iter=1000, device="cpu")
    assert np.array_equal(got, again)


def test_n_defaults_to_largest_id_plus_one():
    got = kiln.pagerank([0, 1, 2, 5], [1, 2, 0, 0], device="cpu")
    assert got.shape == (6,)
    want = reference(6, [(0, 1), (1, 2), (2, 0), (5, 0)])
    assert np.abs(got - want).sum() < 1e-9


@pytest.fixture(scope="module")
def facebook(data_dir):
    src, dst = np.loadtxt(data_dir / "facebook_combined.txt", dtype=np.uint64, unpack=True)
    assert src.size == 88234
    return np.concatenate([src, dst]), np.concatenate([dst, src])


def test_facebook_equals_networkx(facebook):
    src, dst = facebook
    n = 4039
    got = kiln.pagerank(src, dst, device="cpu")
    want = reference(n, list(zip(src.tolist(), dst.tolist())))
    assert got.shape == (n,)
    assert np.abs(got - want).sum() < 1e-9


def test_facebook_published_ranks(data_dir, facebook):
    """Against the NetworkX 2.8.8 ranks stored with the data set (tol 1e-10)."""
    rows = [line.split() for line in (data_dir / "facebook_combined.pagerank.txt").read_text().splitlines()
            if line and not line.startswith("#")]
    want = np.zeros(4039)
    for node, rank, *_ in rows:
        want[int(node)] = float(rank)
    got = kiln.pagerank(*facebook, tol=1e-10, max_iter=1000, device="cpu")
    assert np.abs(got - want).sum() < 1e-9


def test_not_converged(facebook):
    with pytest.raises(kiln.NotConverged):
        kiln.pagerank(*facebook, max_iter=2, device="cpu")


@pytest.mark.parametrize("kw", [dict(alpha=1.5), dict(weights=[1.0, -1.0]), dict(weights=[1.0, float("nan")]),
                                dict(personalization={0: 0.0}), dict(nstart=[1.0, 2.0]), dict(n=1),
                                dict(device="tpu")])
def test_bad_input_raises_valueerror(kw):
    with pytest.raises(ValueError):
        kiln.pagerank([0, 1], [1, 2], **kw)


def test_bad_ids_raise_valueerror():
    with pytest.raises(ValueError):
        kiln.pagerank([0, -1], [1, 2])
    with pytest.raises(ValueError):
        kiln.pagerank([0.5], [1])


def test_library_message_reaches_python():
    with pytest.raises(ValueError, match="personalization"):
        kiln.pagerank([0, 1], [1, 2], personalization=[0.0, 0.0, 0.0])


def test_runs_without_the_gil(facebook):
    ranks, duration, max_gap = run_beside_python(
        lambda: kiln.pagerank(*facebook, tol=0, max_iter=300, device="cpu"))
    assert ranks.sum() == pytest.approx(1.0)
    assert duration > 0.05 and max_gap < duration / 4, (duration, max_gap)


def test_isolated_nodes_need_no_edges():
    """kiln_graph_from_edges_n: nodes that no edge names, even every node, are isolated and
    dangling, as NetworkX has them."""
    assert np.array_equal(kiln.pagerank([], [], n=4, device="cpu"), np.full(4, 0.25))
    got = kiln.pagerank([0, 9], [1, 1], n=12, device="cpu")
    assert np.abs(got - reference(12, [(0, 1), (9, 1)])).sum() < 1e-9
    with pytest.raises(ValueError, match="edge 1"):
        kiln._kiln._pagerank(np.array([0, 5], np.uint64), np.array([1, 1], np.uint64), None, 4, 0.85, None, None,
                             None, 1e-6, 100, "cpu", np.empty(4))


def test_scipy_sparse_matrix_equals_networkx(facebook):
    sp = pytest.importorskip("scipy.sparse")
    src, dst = facebook
    rng = np.random.default_rng(3)
    w = rng.random(src.size)
    n = int(src.max()) + 1
    A = sp.coo_array((w, (src.astype(np.int64), dst.astype(np.int64))), shape=(n, n)).tocsr()
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(zip(src.tolist(), dst.tolist(), w.tolist()))
    want = nx_pagerank(G, tol=1e-10, max_iter=300)
    got = kiln.pagerank(A, tol=1e-10, max_iter=300, device="cpu")
    assert np.abs(got - np.array([want[i] for i in range(n)])).sum() < 1e-9
    assert np.array_equal(kiln.pagerank(sp.csr_matrix(A), tol=1e-10, max_iter=300, device="cpu"), got)
    with pytest.raises(ValueError):
        kiln.pagerank(sp.csr_array((3, 4)))


def test_precision():
    n, edges = random_graph(5)
    src, dst = np.array([e[0] for e in edges]), np.array([e[1] for e in edges])
    want = reference(n, unique(edges), tol=1e-12, max_iter=1000)
    got = kiln.pagerank(src, dst, n=n, tol=0, max_iter=300, device="cpu", precision="float32")
    assert np.abs(got - want).sum() < 1e-6
    with pytest.raises(ValueError, match="precision"):
        kiln.pagerank(src, dst, n=n, precision="half")
