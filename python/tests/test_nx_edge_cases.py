"""The NetworkX backend gives NetworkX's answer or NetworkX's exception on the same input (issue
24.14): every case below runs through NetworkX itself (backend="networkx") and through kiln, and the
two must agree: the same exception type, or the same nodes with ranks within 1e-6 of each other
(kiln computes in float64 as NetworkX does, with the same convergence test)."""
import math
import warnings

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
