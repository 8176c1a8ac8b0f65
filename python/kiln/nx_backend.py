"""kiln as a NetworkX backend: ``nx.pagerank(G, backend="kiln")``, or kiln made the default with
``NETWORKX_BACKEND_PRIORITY=kiln`` / ``nx.config.backend_priority = ["kiln"]``.

NetworkX finds this module through the ``networkx.backends`` entry point and ``backend_info``
through ``networkx.backend_info`` (python/pyproject.toml). A NetworkX graph is converted once
into a :class:`KilnGraph` (edge arrays over node indices, in G's node order), which NetworkX
caches on the graph; ``pagerank`` then runs on it on the device of
``nx.config.backends.kiln.device`` ("auto", "cpu", "cuda" or "cuda:N"; the ``device`` argument
overrides it for one call).
"""
from __future__ import annotations

import numpy as np

from . import NotConverged, _kiln
from . import pagerank as _kiln_pagerank

__all__ = ["KilnGraph", "backend_info", "convert_from_nx", "convert_to_nx", "pagerank"]


def backend_info():
    """What NetworkX shows of the backend (its ``networkx.backend_info`` entry point)."""
    return {
        "backend_name": "kiln",
        "project": "kiln",
        "package": "kiln",
        "short_summary": "PageRank on the CPU threads or a CUDA GPU (libkiln).",
        "default_config": {"device": "auto"},
        "functions": {
            "pagerank": {
                "additional_docs": "Runs on nx.config.backends.kiln.device: auto, cpu, cuda or cuda:N.",
                "additional_parameters": {
                    "device : str, optional": "The device of this call, overriding the config.",
                },
            },
        },
    }


class KilnGraph:
    """A NetworkX graph as kiln ranks it: its nodes (G's order; node i is nodes[i]) and its directed
    edges src[i] -> dst[i] as node indices (an undirected edge both ways, a self loop once, a
    multigraph's parallel edges each), with the weights of one edge attribute (None: unweighted)."""

    __networkx_backend__ = "kiln"

    def __init__(self, nodes, src, dst, weights=None, weight_attr=None, *, directed=True, multigraph=False,
                 graph=None, original=None):
        self.nodes = nodes
        # the NetworkX graph itself when its weights are not numbers kiln can read (strings):
        # pagerank hands it to NetworkX, which gives its own answer or exception
        self.original = original
        self.src = src
        self.dst = dst
        self.weights = weights
        self.weight_attr = weight_attr
        self.directed = directed
        self.multigraph = multigraph
        self.graph = graph if graph is not None else {}
        self.__networkx_cache__ = {}
        self._stats = {}  # _stats(): per weighting, computed once

    def __len__(self):
        return len(self.nodes)

    def is_directed(self):
        return self.directed

    def is_multigraph(self):
        return self.multigraph


_EMPTY = np.zeros(0, dtype=np.uint64)
_EPS = float(np.finfo(np.float64).eps)
#: Out-weight sums S that NetworkX divides by otherwise than kiln: from half the largest double up
#: (S may overflow, 1 / S is subnormal or 0: 1e308 + 1e308 makes the node dangling to NetworkX) and
#: positive ones below 2**-1000 (1 / S loses precision or overflows; kiln refuses a subnormal S).
#: NetworkX's result is then its own arithmetic's, and NetworkX computes it.
_ROW_SUM_LOW, _ROW_SUM_HIGH = 2.0**-1000, float(np.finfo(np.float64).max) / 2
#: Tolerances within this many machine epsilons (times the largest in-degree plus the dangling
#: nodes, the terms each rank and the dangling sum add up) of the rounding error of one iteration:
#: whether the iteration ever gets there depends on how each library rounds, not on the ranks.
_ROUNDING_MARGIN = 2.0**16


def _int_table(nodes):
    """For nodes that are all ints of a compact range (ids read from edge lists, generators), an
    int64 array id -> index (-1: no such node), which the C walk reads instead of probing the
    index dict: about half the conversion time. None otherwise."""
    if not nodes or not all(type(x) is int for x in nodes):
        return None
    lo, hi = min(nodes), max(nodes)
    if lo < 0 or hi >= 4 * len(nodes) + 1024:
        return None
    table = np.full(hi + 1, -1, dtype=np.int64)
    table[np.fromiter(nodes, dtype=np.int64, count=len(nodes))] = np.arange(len(nodes))
    return table


def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False, preserve_node_attrs=False,
                    preserve_graph_attrs=False, name=None, graph_name=None):
    """G as a KilnGraph. Per edge, no Python bytecode runs: the adjacency dicts are walked in C.
    Only one edge attribute (the weight of ``edge_attrs``) is kept: asked to preserve every edge
    attribute, this raises NotImplementedError, which makes NetworkX use another backend."""
    import networkx as nx

    if isinstance(G, KilnGraph):
        return G
    if not isinstance(G, nx.Graph):
        # not a graph (a dict...): NetworkX's pagerank gets it and gives its own answer or exception
        return KilnGraph([], _EMPTY, _EMPTY, original=G)
    if preserve_edge_attrs:
        raise NotImplementedError("kiln keeps one edge attribute (the weight), not all of them")
    attr, default = None, 1.0
    if edge_attrs:
        if len(edge_attrs) != 1:
            raise NotImplementedError("kiln keeps one edge attribute (the weight)")
        (attr, default), = edge_attrs.items()
        default = 1.0 if default is None else float(default)
    multigraph = G.is_multigraph()
    adj = G._adj
    if type(adj) is not dict:
        # A view (G.subgraph, nx.restricted_view, G.to_undirected(as_view=True)...) filters its
        # adjacency through Python objects that the C walk does not read: its adjacency is taken
        # into dicts first, each side of an edge with the data the view gives it (an undirected
        # view of a DiGraph may give u -> v and v -> u different weights; a copy of the view would
        # keep one of them, NetworkX reads the view).
        if multigraph:
            adj = {u: {v: dict(keys) for v, keys in nbrs.items()} for u, nbrs in adj.items()}
        else:
            adj = {u: dict(nbrs) for u, nbrs in adj.items()}
    nodes = list(G)
    index = dict(zip(nodes, range(len(nodes))))
    count = _kiln._nx_edge_count(adj, multigraph)
    src = np.empty(count, dtype=np.uint64)
    dst = np.empty(count, dtype=np.uint64)
    # A multigraph is always weighted: its parallel edges sum (as NetworkX's matrix of it does),
    # where an unweighted kiln graph would merge them into one.
    weights = np.empty(count, dtype=np.float64) if attr is not None or multigraph else None
    directed = G.is_directed()
    try:
        # Undirected: each edge is read once, as G.edges() gives it (the side whose node comes
        # first in the adjacency, with that side's data), and goes both ways with that weight, as
        # in NetworkX's matrix of the graph (nx.to_scipy_sparse_array).
        k = _kiln._nx_edges(adj, index, attr, default, multigraph, src, dst, weights, _int_table(nodes),
                            undirected=not directed)
    except (TypeError, ValueError):
        if attr is None:
            raise
        # a weight that is no number: NetworkX decides what it means (tests/test_nx_edge_cases.py)
        return KilnGraph(nodes, src[:0], dst[:0], weights[:0], attr, directed=directed,
                         multigraph=multigraph, original=G)
    if not directed:
        src, dst = src[:k], dst[:k]
        back = src != dst  # a self loop is one edge
        src, dst = np.concatenate((src, dst[back])), np.concatenate((dst, src[back]))
        if weights is not None:
            weights = np.concatenate((weights[:k], weights[:k][back]))
    return KilnGraph(nodes, src, dst, weights, attr, directed=directed, multigraph=multigraph,
                     graph=dict(G.graph) if preserve_graph_attrs else None)


def convert_to_nx(obj, *, name=None):
    """A KilnGraph back as a NetworkX graph of the same kind; anything else (results) as is."""
    if not isinstance(obj, KilnGraph):
        return obj
    import networkx as nx

    cls = {(False, False): nx.Graph, (True, False): nx.DiGraph, (False, True): nx.MultiGraph,
           (True, True): nx.MultiDiGraph}[(obj.directed, obj.multigraph)]
    G = cls(**obj.graph)
    G.add_nodes_from(obj.nodes)
    keep = slice(None) if obj.directed else obj.src <= obj.dst  # an undirected edge was held both ways
    u = [obj.nodes[i] for i in obj.src[keep].tolist()]
    v = [obj.nodes[i] for i in obj.dst[keep].tolist()]
    if obj.weight_attr is None:
        G.add_edges_from(zip(u, v))
    else:
        G.add_weighted_edges_from(zip(u, v, obj.weights[keep].tolist()), weight=obj.weight_attr)
    return G


def _vector(G, v, what):
    """A dict {node: value} as an array over G's node indices (nodes it lacks: 0)."""
    if v is None:
        return None
    if not isinstance(v, dict):
        raise TypeError(f"{what} must be a dict keyed by node")
    return np.fromiter((v.get(n, 0) for n in G.nodes), dtype=np.float64, count=len(G.nodes))


def _finite_nonnegative(a):
    return bool(np.all(np.isfinite(a)) and np.all(a >= 0))


def _outside_kiln(G, alpha, personalization, max_iter, tol, nstart, weight, dangling):
    """Whether the arguments are ones kiln's PageRank does not take but NetworkX's does something
    with (computes, or raises its own exception): no graph, damping outside [0, 1) or no number
    (alpha="0.85": NetworkX's TypeError), a tolerance not above 0 or no number, a max_iter that is
    no int, vectors with negative, infinite or non-numeric values or (nstart, dangling) summing to
    0, weights that are negative, infinite or no numbers, out-weight sums that overflow a double or
    are too small for NetworkX's 1 / S (1e308 + 1e308: NetworkX takes such a node as dangling), or a
    tolerance at the rounding error of an iteration (n * tol within _ROUNDING_MARGIN epsilons of the
    terms summed: tol=1e-17 on the karate club), where whether and when the iteration meets it is a
    matter of NetworkX's rounding. NetworkX computes each of these itself."""
    import numbers

    if getattr(G, "original", None) is not None:
        return True
    if isinstance(max_iter, bool) or not isinstance(max_iter, numbers.Integral):
        return True
    # alpha and tol as NetworkX computes with them: numbers only (alpha="0.85" is NetworkX's
    # TypeError, a Fraction its object arithmetic); float() would read a string
    real = (int, float, np.integer, np.floating)
    for x in (alpha, tol):
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, real):
            return True
    a, t = float(alpha), float(tol)
    if not (0 <= a < 1) or not (t > 0) or not np.isfinite(t):
        return True
    for v, what in ((personalization, "personalization"), (nstart, "nstart"), (dangling, "dangling")):
        if v is None:
            continue
        try:
            vec = _vector(G, v, what)
        except (TypeError, ValueError):
            return True
        if not _finite_nonnegative(vec) or (what != "personalization" and vec.sum() == 0):
            return True
    weighted = weight is not None and G.weights is not None
    if weighted and not _finite_nonnegative(G.weights):
        return True
    max_in, n_dangling, odd_sums = _stats(G, weighted)
    if odd_sums:
        return True
    # a tolerance at the rounding error: NetworkX's own iteration decides whether it is met
    if len(G.nodes) * t < _ROUNDING_MARGIN * _EPS * (1 + max_in + n_dangling):
        return True
    return False


def _stats(G, weighted):
    """(the largest in-degree, the dangling nodes, whether an out-weight sum is one NetworkX
    divides by otherwise than kiln: over _ROW_SUM_HIGH or a positive one under _ROW_SUM_LOW)."""
    if weighted not in G._stats:
        n = len(G.nodes)
        src, dst = G.src.view(np.int64), G.dst.view(np.int64)  # indices, below 2**32
        max_in = int(np.bincount(dst, minlength=n).max()) if dst.size else 0
        out = np.bincount(src, weights=G.weights if weighted else None, minlength=n)
        odd = bool(weighted and np.any((out >= _ROW_SUM_HIGH) | ((out > 0) & (out < _ROW_SUM_LOW))))
        G._stats[weighted] = (max_in, int(np.count_nonzero(out == 0)), odd)
    return G._stats[weighted]


def _networkx_pagerank(G, **kw):
    """NetworkX's own pagerank of G (a KilnGraph turned back into a NetworkX graph)."""
    import networkx as nx

    Gnx = G.original if G.original is not None else convert_to_nx(G)
    return nx.pagerank(Gnx, backend="networkx", **kw)


def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None, weight="weight",
             dangling=None, *, device=None):
    """networkx.pagerank on kiln: the same arguments and result (a dict {node: rank}); raises
    networkx.PowerIterationFailedConvergence when max_iter iterations do not reach tol (any int
    max_iter, 2**63 too), and ZeroDivisionError for an all-zero personalization, as NetworkX does.
    Where kiln would rank otherwise than NetworkX (see _outside_kiln), NetworkX computes the
    answer, or raises its exception."""
    import networkx as nx

    if not isinstance(G, KilnGraph):
        G = convert_from_nx(G, edge_attrs=None if weight is None else {weight: 1})
    if G.original is not None and not isinstance(G.original, nx.Graph):
        # no graph: NetworkX's own exception (a dict: AttributeError)
        return _networkx_pagerank(G, alpha=alpha, personalization=personalization, max_iter=max_iter, tol=tol,
                                  nstart=nstart, weight=weight, dangling=dangling)
    n = len(G.nodes)
    if n == 0:
        return {}
    if weight is not None and G.weight_attr != weight and G.src.size:
        raise ValueError(f"the graph was converted with weight {G.weight_attr!r}, not {weight!r}")
    if _outside_kiln(G, alpha, personalization, max_iter, tol, nstart, weight, dangling):
        # NetworkX's answer or NetworkX's exception, whatever kiln's library would refuse
        return _networkx_pagerank(G, alpha=alpha, personalization=personalization, max_iter=max_iter, tol=tol,
                                  nstart=nstart, weight=weight, dangling=dangling)
    p = _vector(G, personalization, "personalization")
    if p is not None and p.sum() == 0:
        raise ZeroDivisionError
    if device is None:
        device = nx.config.backends.kiln.device
    # max_iter 0 cannot converge: NetworkX raises without iterating, and so does this.
    if max_iter <= 0:
        raise nx.PowerIterationFailedConvergence(max_iter)
    # weight None: each edge weighs 1, so a multigraph's parallel edges count each (NetworkX's
    # matrix of it sums them). NetworkX may hand over a graph converted with weights for this.
    weights = G.weights if weight is not None else np.ones(G.src.size) if G.multigraph else None
    try:
        ranks = _kiln_pagerank(G.src, G.dst, n=n, weights=weights, alpha=alpha, personalization=p,
                               nstart=_vector(G, nstart, "nstart"), dangling=_vector(G, dangling, "dangling"),
                               tol=tol, max_iter=max_iter, device=device)
    except NotConverged:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    return dict(zip(G.nodes, ranks.tolist()))


def can_run(name, args, kwargs):
    return name == "pagerank"


def should_run(name, args, kwargs):
    return True
