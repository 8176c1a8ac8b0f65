#!/usr/bin/env python3
"""Regenerates tests/data/rmat_* from the cuSPARSE anchor script (numpy route) and NetworkX.

usage: cp ../shared/anchors/pagerank_cupy.py anchors/ && python3 scripts/make_rmat_reference.py
(needs numpy and networkx; run from the repository root)"""
import sys, hashlib
sys.path.insert(0, 'anchors')
import numpy as np, networkx as nx
import pagerank_cupy as A
# scale 10: full cleaned edge list (CSR order), counts, and the networkx PageRank
g = A.build_graph(np, 10, 1)
src, dst = g['indices'], g['dst']
with open('tests/data/rmat_s10_seed1.edges.txt', 'w') as f:
    f.write('# RMAT scale 10, edge factor 16, seed 1, A=0.57 B=0.19 C=0.19, labels permuted; self loops and duplicates removed\n')
    f.write('# produced by shared/anchors/pagerank_cupy.py build_graph(numpy, 10, 1); one "src dst" per line, sorted by (dst, src)\n')
    f.write('# generated=%d self_loops_removed=%d duplicates_removed=%d nnz=%d\n' % (g['m'], g['self_loops'], g['dups'], g['nnz']))
    for s, d in zip(src.tolist(), dst.tolist()):
        f.write('%d %d\n' % (s, d))
G = nx.DiGraph(); G.add_nodes_from(range(g['n'])); G.add_edges_from(zip(src.tolist(), dst.tolist()))
pr = nx.pagerank(G, alpha=0.85, tol=1e-15, max_iter=100000)
with open('tests/data/rmat_s10_seed1.pagerank.txt', 'w') as f:
    f.write('# networkx %s pagerank(alpha=0.85, tol=1e-15) of rmat_s10_seed1.edges.txt as a DiGraph on nodes 0..1023: node rank\n' % nx.__version__)
    for v in range(g['n']):
        f.write('%d %.17g\n' % (v, pr[v]))
# larger scales: counts and a sha256 of the CSR arrays (int32 little-endian), dst then src
with open('tests/data/rmat_digests.txt', 'w') as f:
    f.write('# RMAT seed 1 edge factor 16 by shared/anchors/pagerank_cupy.py build_graph(numpy, scale, 1):\n')
    f.write('# scale generated self_loops_removed duplicates_removed nnz sha256(dst int32 LE) sha256(src int32 LE)\n')
    for s in (12, 16):
        g = A.build_graph(np, s, 1)
        hd = hashlib.sha256(g['dst'].astype('<i4').tobytes()).hexdigest()
        hs = hashlib.sha256(g['indices'].astype('<i4').tobytes()).hexdigest()
        f.write('%d %d %d %d %d %s %s\n' % (s, g['m'], g['self_loops'], g['dups'], g['nnz'], hd, hs))
print(open('tests/data/rmat_digests.txt').read())
