#!/usr/bin/env python3
"""NetworkX's PageRank with weights, personalization, dangling and nstart vectors: the expected
values of tests/test_pagerank_networkx.c and tests/test_pagerank_vectors_cli.sh.

Run from tests/data:  python3 tools/pagerank_networkx.py
Needs networkx (3.6.1 was used). It calls networkx's pure-Python `_pagerank_python`, which
implements the definition of nx.pagerank without scipy, with tol=1e-12 and max_iter large, so the
stopping rule (L1 change < N * tol) is NetworkX's own and kiln, run with the same tol, lands on the
same iterate.

Duplicate edges sum their weights, as kiln's KILN_GRAPH_WEIGHTED policy says: the weighted graphs
are built as a MultiDiGraph (MultiGraph when undirected), whose parallel edges NetworkX's
stochastic_graph and pagerank add up. Unweighted graphs are a DiGraph / Graph (duplicates merged,
every edge weighs 1). Self loops are kept; an undirected self loop is one u->u edge (to_directed).

Writes:
  pr_small.networkx.txt  every node of pr_small.txt, one column per case (listed in its header)
  facebook_vectors.networkx.txt  for each case on facebook_combined.txt: the top 100 nodes
      (`case node value`), `case sum S` (all nodes) and `case checksum C` where
      C = sum over nodes v of x_v * ((v % 100) + 1) / 100, so the stored lines check every node.
The random weights and vectors of the facebook cases are functions of splitmix64, rebuilt by the
C test (fb_weight, fb_vector below).
"""
import os
import sys

import networkx as nx
from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python

TOL = 1e-12
MAX_ITER = 100000
MASK = (1 << 64) - 1


def splitmix64(x):
    z = (x + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def fb_weight(i):
    """Weight of the i-th edge line (0-based) of facebook_combined.txt: in (0, 1], exact."""
    return ((splitmix64(0x5EED0000 + i) >> 11) + 1) / 2.0**53


# (seed, every k-th by z % k is 0) of the facebook vectors
FB_VECTORS = {"personalization": (0x9E510000, 4), "dangling": (0xDA460000, 3), "nstart": (0x57A40000, 5)}


def fb_vector(name, v):
    seed, k = FB_VECTORS[name]
    z = splitmix64(seed + v)
    return 0.0 if z % k == 0 else (z >> 11) / 2.0**53


def read_edges(path):
    edges = []
    with open(path) as f:
        for line in f:
            t = line.split()
            if not t or t[0].startswith("#"):
                continue
            w = float(t[2]) if len(t) > 2 else 1.0
            edges.append((int(t[0]), int(t[1]), w))
    return edges


def read_vector(path):
    """node<TAB>value lines; nodes not listed are left out (NetworkX's .get(n, 0))."""
    out = {}
    with open(path) as f:
        for line in f:
            t = line.split()
            if not t or t[0].startswith("#"):
                continue
            out[int(t[0])] = float(t[1])
    return out


def build(edges, weighted, undirected):
    if weighted:
        G = nx.MultiGraph() if undirected else nx.MultiDiGraph()
        G.add_weighted_edges_from(edges)
    else:
        G = nx.Graph() if undirected else nx.DiGraph()
        G.add_edges_from((u, v) for u, v, _ in edges)
    return G


def pagerank(G, alpha=0.85, personalization=None, dangling=None, nstart=None):
    # _pagerank_python's error check reads xlast[n] for every node: give nstart every node (0 for
    # the unlisted, as nx.pagerank's nstart.get(n, 0) does)
    if nstart is not None:
        nstart = {n: nstart.get(n, 0.0) for n in G}
    return _pagerank_python(G, alpha=alpha, personalization=personalization, max_iter=MAX_ITER, tol=TOL,
                            nstart=nstart, weight="weight", dangling=dangling)


def small(here):
    edges = read_edges(os.path.join(here, "pr_small.txt"))
    p = read_vector(os.path.join(here, "pr_small.personalization.txt"))
    q = read_vector(os.path.join(here, "pr_small.dangling.txt"))
    x0 = read_vector(os.path.join(here, "pr_small.nstart.txt"))
    # name, description (the kiln pagerank options), result
    cases = [
        ("plain", "unweighted, directed, defaults", pagerank(build(edges, False, False))),
        ("weighted", "--weighted", pagerank(build(edges, True, False))),
        ("weighted_pdn", "--weighted --personalization --dangling --nstart",
         pagerank(build(edges, True, False), personalization=p, dangling=q, nstart=x0)),
        ("pd_a06", "--damping 0.6 --personalization --dangling",
         pagerank(build(edges, False, False), alpha=0.6, personalization=p, dangling=q)),
        ("undirected_wp", "--weighted --undirected --personalization",
         pagerank(build(edges, True, True), personalization=p)),
        ("nstart", "--nstart", pagerank(build(edges, False, False), nstart=x0)),
    ]
    nodes = sorted({u for u, _, _ in edges} | {v for _, v, _ in edges})
    with open(os.path.join(here, "pr_small.networkx.txt"), "w") as f:
        f.write("# NetworkX %s _pagerank_python(tol=%g) of pr_small.txt with the pr_small.*.txt vectors,\n"
                "# written by tools/pagerank_networkx.py. Columns: node, then one per case:\n" % (nx.__version__, TOL))
        for name, desc, _ in cases:
            f.write("#   %s: %s\n" % (name, desc))
        f.write("# node\t" + "\t".join(c[0] for c in cases) + "\n")
        for n in nodes:
            f.write("%d\t%s\n" % (n, "\t".join("%.17g" % c[2][n] for c in cases)))


def facebook(here):
    raw = [(u, v, fb_weight(i)) for i, (u, v, _) in enumerate(read_edges(os.path.join(here, "facebook_combined.txt")))]
    nodes = sorted({u for u, _, _ in raw} | {v for _, v, _ in raw})
    vec = {name: {v: fb_vector(name, v) for v in nodes} for name in FB_VECTORS}
    p, q, x0 = vec["personalization"], vec["dangling"], vec["nstart"]
    cases = [
        ("dir_w_p", "directed, weighted, personalization", build(raw, True, False), dict(personalization=p)),
        ("dir_w_pdn", "directed, weighted, personalization, dangling, nstart", build(raw, True, False),
         dict(personalization=p, dangling=q, nstart=x0)),
        ("und_w_pdn", "undirected, weighted, personalization, dangling, nstart", build(raw, True, True),
         dict(personalization=p, dangling=q, nstart=x0)),
        ("dir_pdn", "directed, unweighted, personalization, dangling, nstart", build(raw, False, False),
         dict(personalization=p, dangling=q, nstart=x0)),
        ("und_p", "undirected, unweighted, personalization", build(raw, False, True), dict(personalization=p)),
    ]
    with open(os.path.join(here, "facebook_vectors.networkx.txt"), "w") as f:
        f.write("# NetworkX %s _pagerank_python(tol=%g) of facebook_combined.txt with the splitmix64 weights and\n"
                "# vectors of tools/pagerank_networkx.py. Per case: the top 100 as `case node value`, then\n"
                "# `case sum S` and `case checksum C` (C = sum of x_v * ((v %% 100) + 1) / 100 over all nodes).\n"
                % (nx.__version__, TOL))
        for name, desc, G, kw in cases:
            print("facebook", name, file=sys.stderr)
            x = pagerank(G, **kw)
            f.write("# %s: %s\n" % (name, desc))
            top = sorted(x, key=lambda n: (-x[n], n))[:100]
            for n in top:
                f.write("%s\t%d\t%.17g\n" % (name, n, x[n]))
            f.write("%s\tsum\t%.17g\n" % (name, sum(x.values())))
            f.write("%s\tchecksum\t%.17g\n" % (name, sum(x[n] * ((n % 100) + 1) / 100 for n in x)))


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    small(here)
    facebook(here)


if __name__ == "__main__":
    main()
