#!/usr/bin/env python3
"""Expected weighted graphs for tests/test_graph_weights.c, computed with NetworkX, independently
of kiln's parsers and CSR build.

Each case reads one of the hand-made files in tests/data with its own small parser (SNAP: `src dst
[weight]`, a missing weight is 1; Matrix Market: `row col [value]`, row = source, a symmetric
file's off-diagonal entries mirrored, pattern entries weigh 1), puts every edge into a NetworkX
MultiDiGraph (or a MultiGraph turned into one with to_directed(), which is what nx.pagerank does to
an undirected graph), and prints what NetworkX's weighted PageRank uses: each (u, v) pair's summed
weight and each node's out_degree(weight="weight"), plus the count of nodes whose out-weight is 0.

    python3 tests/data/tools/weights_expected.py tests/data > tests/data/weights_expected.txt
"""
import os
import sys

import networkx as nx


def read_snap(path):
    edges = []
    with open(path) as f:
        for line in f:
            t = line.split()
            if not t or t[0][0] in "#%":
                continue
            edges.append((int(t[0]), int(t[1]), float(t[2]) if len(t) > 2 else 1.0))
    return None, edges


def read_mtx(path):
    with open(path) as f:
        lines = [l for l in f.read().splitlines()]
    banner = lines[0].lower().split()
    field, symmetry = banner[3], banner[4]
    body = [l for l in lines[1:] if l.strip() and not l.lstrip().startswith("%")]
    n = int(body[0].split()[0])
    edges = []
    for l in body[1:]:
        t = l.split()
        i, j = int(t[0]), int(t[1])
        w = 1.0 if field == "pattern" else float(t[2])
        edges.append((i, j, w))
        if symmetry == "symmetric" and i != j:
            edges.append((j, i, w))
    return list(range(1, n + 1)), edges


CASES = [
    # name, file, undirected, drop self loops
    ("snap", "weights_small.txt", False, False),
    ("snap_undirected", "weights_small.txt", True, False),
    ("snap_noloops", "weights_small.txt", False, True),
    ("snap_undirected_noloops", "weights_small.txt", True, True),
    ("mtx_general", "weights_general.mtx", False, False),
    ("mtx_general_undirected", "weights_general.mtx", True, False),
    ("mtx_symmetric", "weights_symmetric.mtx", False, False),
    ("mtx_integer_symmetric", "weights_integer_symmetric.mtx", False, False),
    ("mtx_pattern", "weights_pattern.mtx", False, False),
]


def main():
    data = sys.argv[1]
    print("# written by tests/data/tools/weights_expected.py (NetworkX %s)" % nx.__version__)
    print("# case NAME FILE UNDIRECTED DROP_LOOPS / nodes N / edge SRC DST WEIGHT / out NODE WEIGHT / dangling N")
    for name, fname, undirected, drop in CASES:
        path = os.path.join(data, fname)
        nodes, edges = (read_mtx if fname.endswith(".mtx") else read_snap)(path)
        g = nx.MultiGraph() if undirected else nx.MultiDiGraph()
        if nodes:
            g.add_nodes_from(nodes)
        for u, v, w in edges:
            if drop and u == v:
                g.add_nodes_from((u,))
                continue
            g.add_edge(u, v, weight=w)
        d = g.to_directed() if undirected else g
        print("case %s %s %d %d" % (name, fname, int(undirected), int(drop)))
        print("nodes %d" % d.number_of_nodes())
        pair = {}
        for u, v, w in d.edges(data="weight"):
            pair[(u, v)] = pair.get((u, v), 0.0) + w
        for (u, v) in sorted(pair):
            print("edge %d %d %r" % (u, v, pair[(u, v)]))
        dangling = 0
        for u in sorted(d.nodes()):
            ow = d.out_degree(u, weight="weight")
            print("out %d %r" % (u, float(ow)))
            dangling += ow == 0
        print("dangling %d" % dangling)


if __name__ == "__main__":
    main()
