"""The NetworkX backend (kiln.nx_backend): nx.pagerank(G, backend="kiln") and kiln made the default
give NetworkX's own answers on real and hostile graphs; NetworkX's own PageRank tests pass on it."""
import os
import random
import re
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest

import kiln
from kiln import nx_backend

pytest.importorskip("scipy")  # NetworkX's own nx.pagerank, the reference
pytestmark = pytest.mark.filterwarnings("ignore:Note. conversions to backend graphs:UserWarning")


def l1(a, b):
    assert set(a) == set(b)
    return sum(abs(a[k] - b[k]) for k in a)


@pytest.fixture(scope="module")
def facebook(data_dir):
    G = nx.read_edgelist(data_dir / "facebook_combined.txt", nodetype=int)
    assert G.number_of_edges() == 88234
    rng = random.Random(7)
    for u, v, d in G.edges(data=True):
        d["w"] = rng.choice([0.5, 1.0, 2.0, 3.5])
    return G


def test_entry_points_register_the_backend():
    assert "kiln" in nx.utils.backends.backends
    assert nx.utils.backends.backend_info["kiln"]["backend_name"] == "kiln"
    assert nx.config.backends.kiln.device == "auto"


def test_backend_equals_networkx_on_ego_facebook(facebook):
    rng = random.Random(1)
    nodes = list(facebook)
    pers = {n: rng.random() for n in rng.sample(nodes, 500)}
    dang = {n: rng.random() for n in rng.sample(nodes, 50)}
    nstart = {n: rng.random() for n in nodes}
    for kw in ({}, dict(weight="w"), dict(weight="w", personalization=pers, dangling=dang, nstart=nstart, alpha=0.7),
               dict(weight=None, personalization=pers, tol=1e-10, max_iter=300)):
        want = nx.pagerank(facebook, **kw)
        got = nx.pagerank(facebook, backend="kiln", device="cpu", **kw)
        assert l1(got, want) < 1e-9, kw
        assert all(type(x) is float for x in got.values())


def test_hostile_graphs_equal_networkx():
    """String and tuple nodes, isolated and dangling nodes, self loops, missing and zero weights,
    parallel edges of a multigraph (their weights sum), undirected graphs (both ways)."""
    rng = random.Random(3)
    for cls in (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph):
        G = cls()
        G.add_nodes_from(["isolated", (1, 2), 3.5])
        for _ in range(200):
            u, v = rng.randrange(30), rng.randrange(30)
            attrs = {} if rng.random() < 0.2 else {"weight": rng.choice([0.0, 1.0, 2.5, rng.random()])}
            G.add_edge(u, f"n{v}" if v % 3 else v, **attrs)
        G.add_edge(5, 5, weight=2.0)
        for weight in ("weight", None):
            want = nx.pagerank(G, weight=weight, tol=1e-10, max_iter=500)
            got = nx.pagerank(G, weight=weight, tol=1e-10, max_iter=500, backend="kiln")
            assert list(got) == list(G) and l1(got, want) < 1e-9, (cls, weight)


def test_nonconvergence_raises_networkx_exception():
    G = nx.gnp_random_graph(50, 0.1, seed=1, directed=True)
    for max_iter in (0, 2):
        with pytest.raises(nx.PowerIterationFailedConvergence):
            nx.pagerank(G, max_iter=max_iter, backend="kiln")
    with pytest.raises(ZeroDivisionError):
        nx.pagerank(G, personalization={0: 0}, backend="kiln")
    assert nx.pagerank(nx.DiGraph(), backend="kiln") == {}


def test_config_device_is_used():
    G = nx.path_graph(5)
    with nx.config.backends.kiln(device="cuda:99"):
        with pytest.raises(kiln.DeviceError):
            nx.pagerank(G, backend="kiln")
    with pytest.raises(ValueError):
        nx.pagerank(G, backend="kiln", device="tpu")


def test_backend_priority_config_makes_kiln_the_default():
    G = nx.path_graph(5)
    with nx.config(backend_priority=["kiln"]), nx.config.backends.kiln(device="cuda:99"):
        with pytest.raises(kiln.DeviceError):  # it ran in kiln
            nx.pagerank(G)
        assert nx.hits(G)  # what kiln lacks still runs in NetworkX


def test_environment_makes_kiln_the_default():
    code = ("import networkx as nx, kiln\n"
            "nx.config.backends.kiln.device = 'cuda:99'\n"
            "try:\n    nx.pagerank(nx.path_graph(4))\nexcept kiln.DeviceError:\n    print('ran in kiln')\n")
    env = dict(os.environ, NETWORKX_BACKEND_PRIORITY="kiln")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ran in kiln", out.stderr


def test_conversion_round_trip_and_cache():
    G = nx.MultiGraph([(1, 2), (1, 2), (2, 3), ("a", "a")])
    G.add_node("lone")
    K = nx_backend.convert_from_nx(G, edge_attrs={"weight": 1})
    H = nx_backend.convert_to_nx(K)
    assert type(H) is nx.MultiGraph and set(H) == set(G)
    assert sorted(map(repr, H.edges())) == sorted(map(repr, G.edges()))
    assert nx_backend.convert_to_nx({1: 0.5}) == {1: 0.5}
    # a backend graph goes straight to kiln
    assert l1(nx.pagerank(K), nx.pagerank(G)) < 1e-9


def test_networkx_own_pagerank_tests_pass_on_kiln():
    """NetworkX's test runner in backend mode: every dispatchable call goes to kiln, NetworkX's own
    implementation runs only what kiln lacks (graph generators, google_matrix)."""
    env = dict(os.environ, NETWORKX_TEST_BACKEND="kiln", NETWORKX_FALLBACK_TO_NX="True")
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA",
                          "-o", "log_level=DEBUG", "--pyargs", "networkx.algorithms.link_analysis.tests"],
                         env=env, capture_output=True, text=True, cwd="/")
    tail = out.stdout.strip().splitlines()[-1]
    assert out.returncode == 0, out.stdout[-3000:]
    # no failure, skip or xfail (warnings from NetworkX's own code are allowed)
    assert re.fullmatch(r"=* ?\d+ passed(, \d+ warnings?)? in [\d.]+s ?=*", tail), tail
    assert out.stdout.count("Using backend 'kiln' for call to 'pagerank'") >= 20


@pytest.mark.parametrize("labels", ["compact", "sparse", "negative"])
def test_integer_labels_take_either_conversion_path(labels):
    """Compact non-negative int labels go through an id -> index array, others through the dict."""
    G0 = nx.gnm_random_graph(300, 2000, seed=4, directed=True)
    f = {"compact": lambda x: (x * 7) % 300 + 5, "sparse": lambda x: x * 10**12, "negative": lambda x: x - 150}[labels]
    G = nx.relabel_nodes(G0, f)
    assert (nx_backend._int_table(list(G)) is not None) == (labels == "compact")
    assert l1(nx.pagerank(G, backend="kiln"), nx.pagerank(G)) < 1e-9


def test_graph_views():
    G = nx.gnm_random_graph(200, 1500, seed=8, directed=True)
    for H in (G.subgraph(range(0, 200, 2)), G.reverse(copy=False), nx.restricted_view(G, [3, 5], [(0, 1)]),
              G.to_undirected(as_view=True)):
        assert l1(nx.pagerank(H, backend="kiln"), nx.pagerank(H)) < 1e-9
