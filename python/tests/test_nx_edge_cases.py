"""The NetworkX backend gives NetworkX's answer or NetworkX's exception on the same input (issue
24.14): every case below runs through NetworkX itself (backend="networkx") and through kiln, and the
two must agree: the same exception type, or the same nodes with ranks within 1e-6 of each other
(kiln computes in float64 as NetworkX does, with the same convergence test)."""
import fractions
import math
import warnings

import numpy as np
import pytest

nx = pytest.importorskip("networkx")


def graphs():
    g = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 3)])
    und = nx.Graph([(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)])
    w = nx.DiGraph()
    w.add_weighted_edges_from([(0, 1, 2.0), (1, 2, 1.0), (2, 0, 0.5), (2, 3, 1.0)])
    return g, und, w


def weighted(pairs):
    G = nx.DiGraph()
    for u, v, d in pairs:
        G.add_edge(u, v, weight=d)
    return G


G, UND, W = graphs()
KARATE = nx.karate_club_graph()
GNP300 = nx.gnp_random_graph(300, 0.05, seed=1, directed=True)
BA2000 = nx.barabasi_albert_graph(2000, 3, seed=2)
CASES = [
    # (name, graph, kwargs)
    ("plain", G, {}),
    ("undirected", UND, {}),
    ("weighted", W, {}),
    ("tol=0", G, dict(tol=0)),
    ("tol<0", G, dict(tol=-1)),
    ("tol=nan", G, dict(tol=float("nan"))),
    ("alpha=1", G, dict(alpha=1)),
    ("alpha=1 undirected", UND, dict(alpha=1)),
    ("alpha=1.5", G, dict(alpha=1.5)),
    ("alpha<0", G, dict(alpha=-0.5)),
    ("alpha=0", G, dict(alpha=0)),
    ("alpha=nan", G, dict(alpha=float("nan"))),
    ("max_iter=2.5", G, dict(max_iter=2.5)),
    ("max_iter=0", G, dict(max_iter=0)),
    ("max_iter=-3", G, dict(max_iter=-3)),
    ("max_iter=1", G, dict(max_iter=1)),
    ("negative personalization", G, dict(personalization={0: -1, 1: 2})),
    ("negative personalization summing to 1", UND, dict(personalization={0: -0.5, 1: 1.5})),
    ("zero personalization", G, dict(personalization={0: 0})),
    ("infinite personalization", G, dict(personalization={0: math.inf})),
    ("personalization of other nodes", G, dict(personalization={99: 1})),
    ("negative nstart", G, dict(nstart={0: -1, 1: 2})),
    ("zero nstart", G, dict(nstart={0: 0})),
    ("nstart", G, dict(nstart={0: 1, 1: 3})),
    ("negative dangling", G, dict(dangling={3: -1, 0: 2})),
    ("zero dangling", G, dict(dangling={0: 0, 1: 0})),
    ("dangling", G, dict(dangling={1: 1})),
    ("negative weight", weighted([(0, 1, -1.0), (1, 2, 1.0), (2, 0, 1.0)]), {}),
    ("infinite weight", weighted([(0, 1, math.inf), (1, 2, 1.0), (2, 0, 1.0)]), {}),
    ("nan weight", weighted([(0, 1, math.nan), (1, 2, 1.0), (2, 0, 1.0)]), {}),
    ("string weights", weighted([(0, 1, "2"), (1, 2, "x"), (2, 0, "1")]), {}),
    ("zero weights", weighted([(0, 1, 0.0), (1, 2, 0.0), (2, 0, 0.0)]), {}),
    ("weight=None over string weights", weighted([(0, 1, "2"), (1, 2, "x"), (2, 0, "1")]), dict(weight=None)),
    ("empty graph", nx.DiGraph(), {}),
    ("one node", nx.path_graph(1, create_using=nx.DiGraph), {}),
    ("self loops only", nx.DiGraph([(0, 0), (1, 1)]), {}),
    # issue 36.6: tolerances at the rounding error of an iteration, where whether it is ever met
    # depends on NetworkX's rounding: NetworkX's answer, or its PowerIterationFailedConvergence
    ("tol=1e-17 karate", KARATE, dict(tol=1e-17, max_iter=5000)),
    ("tol=2e-17 karate", KARATE, dict(tol=2e-17, max_iter=5000)),
    ("tol=1e-15 karate", KARATE, dict(tol=1e-15, max_iter=5000)),
    ("tol=1e-20 300 nodes", GNP300, dict(tol=1e-20, max_iter=5000)),
    ("tol=1e-25 300 nodes", GNP300, dict(tol=1e-25, max_iter=5000)),
    ("tol=5e-324 300 nodes", GNP300, dict(tol=5e-324, max_iter=5000)),
    ("tol=1e-20 where NetworkX never gets there", BA2000, dict(tol=1e-20, max_iter=300)),
    ("tol=1e-17 star", nx.star_graph(500), dict(tol=1e-17, max_iter=2000)),
    # max_iter past a C int: NetworkX's range() takes it
    ("max_iter=2**31", G, dict(max_iter=2**31)),
    ("max_iter=2**63", G, dict(max_iter=2**63)),
    ("max_iter=2**64 karate", KARATE, dict(max_iter=2**64)),
    # no numbers: NetworkX's TypeError (float() would have read the string)
    ("alpha='0.85'", G, dict(alpha="0.85")),
    ("tol='1e-6'", G, dict(tol="1e-6")),
    ("alpha=None", G, dict(alpha=None)),
    ("alpha=Fraction", G, dict(alpha=fractions.Fraction(17, 20))),
    ("alpha=float32", G, dict(alpha=np.float32(0.85))),
    # out-weight sums NetworkX divides by its own way: past the largest double (1e308 + 1e308: a
    # dangling node to NetworkX), next to it, and too small for 1 / S
    ("out-weights summing past the largest double", weighted([(0, 1, 1e308), (0, 2, 1e308), (1, 0, 1.0),
                                                              (2, 0, 1.0), (2, 3, 1.0)]), {}),
    ("out-weights overflowing beside small ones", weighted([(0, 1, 1e308), (0, 2, 1e308), (0, 3, 1.0), (1, 0, 1.0),
                                                            (2, 3, 2.0), (3, 0, 1.0)]), {}),
    ("out-weights of the largest double", weighted([(0, 1, 1.7e308), (1, 0, 1.0), (1, 2, 1.0), (2, 0, 1.0)]), {}),
    ("subnormal out-weights", weighted([(0, 1, 1e-310), (1, 2, 1.0), (2, 0, 1.0), (2, 1, 1.0)]), {}),
    ("tiny out-weights", weighted([(0, 1, 1e-305), (0, 2, 3e-305), (1, 2, 1.0), (2, 0, 1.0)]), {}),
    ("undirected out-weights past the largest double",
     nx.Graph([(0, 1, {"weight": 1e308}), (0, 2, {"weight": 1e308}), (1, 2, {"weight": 1.0})]), {}),
    ("multigraph parallel edges past the largest double",
     nx.MultiDiGraph([(0, 1, {"weight": 1e308}), (0, 1, {"weight": 1e308}), (1, 0, {"weight": 1.0}),
                      (1, 2, {})]), {}),
]


def run(backend, graph, kw):
    graph = graph.copy()  # no conversion cache shared between the two runs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "ok", nx.pagerank(graph, backend=backend, **kw)
        except Exception as e:  # the type is what is compared
            return "raised", type(e)


@pytest.mark.parametrize("name,graph,kw", CASES, ids=[c[0] for c in CASES])
def test_same_answer_or_same_exception_as_networkx(name, graph, kw):
    want = run("networkx", graph, kw)
    got = run("kiln", graph, kw)
    if want[0] == "raised":
        assert got == want, f"{name}: NetworkX raised {want[1].__name__}, kiln gave {got}"
        return
    assert got[0] == "ok", f"{name}: NetworkX computed, kiln raised {got[1].__name__}"
    a, b = want[1], got[1]
    assert set(a) == set(b)
    for k in a:
        if math.isnan(a[k]):
            assert math.isnan(b[k]), (name, k)
        else:
            assert b[k] == pytest.approx(a[k], abs=1e-6), (name, k, a[k], b[k])


def _same(want, got, name):
    if want[0] == "raised":
        assert got == want, f"{name}: NetworkX raised {want[1].__name__}, kiln gave {got}"
        return
    assert got[0] == "ok", f"{name}: NetworkX computed, kiln raised {got[1].__name__}"
    assert list(want[1]) == list(got[1])
    for k in want[1]:
        assert got[1][k] == pytest.approx(want[1][k], abs=1e-12), (name, k)


def views():
    """Views made fresh for each run (a copy would not be the view): an undirected view of a
    DiGraph whose two directions carry different weights (and attributes only one side has), the
    same of a MultiDiGraph, views of views, and a reverse view."""
    D = nx.DiGraph()
    D.add_weighted_edges_from([(0, 1, 1.0), (1, 0, 5.0), (1, 2, 2.0), (2, 1, 0.5), (2, 0, 3.0), (3, 0, 7.0),
                               (0, 3, 0.25), (3, 3, 4.0)])
    D.add_edge(2, 3)  # no weight one way: the default
    D.add_edge(3, 2, weight=9.0)
    M = nx.MultiDiGraph()
    M.add_weighted_edges_from([(0, 1, 1.0), (1, 0, 5.0), (0, 1, 2.0), (1, 2, 2.0), (2, 0, 3.0), (0, 2, 8.0)])
    R = nx.DiGraph()  # the nodes in another order than D's
    R.add_nodes_from([3, 2, 1, 0])
    R.add_edges_from(D.edges(data=True))
    return [("undirected view of a DiGraph", lambda: D.to_undirected(as_view=True)),
            ("undirected view of a MultiDiGraph", lambda: M.to_undirected(as_view=True)),
            ("subgraph of an undirected view", lambda: D.to_undirected(as_view=True).subgraph([0, 1, 2])),
            ("undirected view, other node order", lambda: R.to_undirected(as_view=True)),
            ("reverse view", lambda: D.reverse(copy=False)),
            ("undirected copy", lambda: D.to_undirected())]


@pytest.mark.parametrize("weight", ["weight", None])
@pytest.mark.parametrize("name,make", views(), ids=[v[0] for v in views()])
def test_views_rank_as_networkx_reads_them(name, make, weight):
    """Issue 36.6: an undirected view whose two directions carry different weights was ranked with
    a copy's weights (the side copied last); NetworkX ranks what the view gives, an edge's weight
    being the one G.edges() reads (from the node that comes first)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = nx.pagerank(make(), weight=weight, tol=1e-12, max_iter=1000, backend="networkx")
        got = nx.pagerank(make(), weight=weight, tol=1e-12, max_iter=1000, backend="kiln")
    _same(("ok", want), ("ok", got), name)


@pytest.mark.parametrize("thing", [{0: {1: {}}, 1: {0: {}}}, {0: [1], 1: [0]}, [(0, 1), (1, 0)], None, 5])
def test_no_graph_raises_what_networkx_raises(thing):
    """Issue 36.6: a dict instead of a graph is NetworkX's AttributeError, not kiln's TypeError (and
    any other non-graph NetworkX's exception)."""
    want = run_as_is("networkx", thing)
    assert want[0] == "raised"
    assert run_as_is("kiln", thing) == want


def run_as_is(backend, thing):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "ok", nx.pagerank(thing, backend=backend)
        except Exception as e:
            return "raised", type(e)


def test_kiln_pagerank_takes_any_max_iter():
    """Issue 36.6: max_iter past the library's limit of iterations a call (2**63, as NetworkX's
    range() takes it) runs; and runs on from where each call stopped."""
    import kiln

    src, dst = np.array([0, 1, 2, 2]), np.array([1, 2, 0, 3])
    want = kiln.pagerank(src, dst)
    for max_iter in (2**31, 2**63, 2**64 + 1):
        assert np.allclose(kiln.pagerank(src, dst, max_iter=max_iter), want, atol=1e-15)
    with pytest.raises(ValueError):
        kiln.pagerank(src, dst, max_iter=0)
