#!/usr/bin/env python3
"""The PageRank benchmark table from the logs of scripts/gpu-check-pagerank.sh.

usage: pagerank_table.py OUT_DIR   (reads kiln.jsonl, anchor.log, gap.log there)

Compulsory traffic of one iteration (the floor any implementation must move): the column indices
read once (4 B per edge), the row offsets once (4 B per vertex + 4) and the ranks once (4 B per
vertex in float32). Its time at the measured copy bandwidth, over the measured time per iteration,
is the fraction of the bound reached.
"""
import json
import os
import re
import sys

BW_DEFAULT = 4256e9  # device-to-device copy, read + write, measured on the H200 (anchors/README.md)


def load(out):
    runs = {}
    path = os.path.join(out, 'kiln.jsonl')
    if os.path.exists(path):
        for line in open(path):
            try:
                d = json.loads(line)
                runs[d['label']] = d['run']
            except (ValueError, KeyError):
                pass
    anchor = {'scales': {}, 'facebook': None, 'bw': None}
    path = os.path.join(out, 'anchor.log')
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r'PR_RESULT scale=(\d+) nnz=(\d+) iters=(\d+) t_iter_ms=([\d.]+) \(best ([\d.]+)\)', line)
            if m:
                anchor['scales'][int(m.group(1))] = dict(nnz=int(m.group(2)), t=float(m.group(4)),
                                                         best=float(m.group(5)))
            m = re.match(r'PR_FACEBOOK N=(\d+) nnz=(\d+) iters=(\d+) total_ms=([\d.]+)', line)
            if m:
                anchor['facebook'] = dict(nnz=int(m.group(2)), iters=int(m.group(3)), ms=float(m.group(4)))
            m = re.match(r'PR_BW memcpy_d2d.*median ([\d.]+) GB/s', line)
            if m:
                anchor['bw'] = float(m.group(1)) * 1e9
    gap = {}
    path = os.path.join(out, 'gap.log')
    if os.path.exists(path):
        scale = None
        for line in open(path):
            m = re.match(r'GAP_SCALE (\d+)', line)
            if m:
                scale = int(m.group(1))
                gap[scale] = {}
            m = re.search(r'Graph has (\d+) nodes and (\d+) undirected edges', line)
            if m and scale is not None:
                gap[scale]['nodes'] = int(m.group(1))
                gap[scale]['arcs'] = 2 * int(m.group(2))
            m = re.match(r'Average Time:\s+([\d.]+)', line)
            if m and scale is not None:
                gap[scale]['trial_s'] = float(m.group(1))
    return runs, anchor, gap


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else '.'
    runs, anchor, gap = load(out)
    bw = anchor['bw'] or BW_DEFAULT
    print('copy bandwidth used for the bound: %.0f GB/s (%s)' % (bw / 1e9, 'measured in this run by the anchor'
                                                                  if anchor['bw'] else 'anchors/README.md'))
    print()
    print('GPU, float32 ranks, 20 fixed iterations, median of 5 runs (RMAT: self loops + duplicates removed)')
    hdr = ('graph', 'nodes', 'edges', 'kiln ms/it', 'no-reorder', 'cuSPARSE', 'speedup', 'Gedges/s',
           'B/edge', 'GB/s', 'of bound')
    print('%-14s %10s %11s %10s %10s %9s %8s %9s %7s %7s %8s' % hdr)
    fb = runs.get('fb_f32')
    if fb:
        t = fb['seconds'] * 1e3
        nr = runs.get('fb_f32_noreorder', {}).get('seconds', float('nan')) * 1e3
        a = anchor['facebook']
        print('%-14s %10d %11d %10s %10s %9s %8s %9.2f %7s %7s %8s   (1000 iterations: kiln %.2f ms, '
              'no-reorder %.2f ms, cuSPARSE %s ms)'
              % ('ego-Facebook', fb['nodes'], fb['edges'], '%.4f' % (t / 1000), '%.4f' % (nr / 1000),
                 '%.4f' % (a['ms'] / a['iters']) if a else '-', '%.1fx' % (a['ms'] / t) if a else '-',
                 fb['edges_per_second'] / 1e9, '', '', '', t, nr, '%.1f' % a['ms'] if a else '-'))
    for prec in ('f32', 'f64'):
        line = []
        for label, what in (('fb_%s' % prec, 'default'), ('fb_%s_grid' % prec, 'grid kernel'),
                            ('fb_%s_noreorder' % prec, 'no-reorder')):
            r = runs.get(label)
            if r:
                line.append('%s (%s) %.3f ms' % (what, r.get('kernel', '?'), r['seconds'] * 1e3))
        if line:
            print('   ego-Facebook 1000 iterations %s: %s' % ('float32' if prec == 'f32' else 'float64', ', '.join(line)))
    for label in sorted(k for k in runs if re.match(r'gpu_rmat\d+$', k)):
        r = runs[label]
        s = int(label[8:])
        n, m = r['nodes'], r['edges']
        t = r['seconds_per_iteration'] * 1e3
        nr = runs.get(label + '_noreorder', {}).get('seconds_per_iteration', float('nan')) * 1e3
        a = anchor['scales'].get(s)
        need = 4.0 * m + 4.0 * (n + 1) + 4.0 * n
        bound_ms = need / bw * 1e3
        print('%-14s %10d %11d %10.3f %10.3f %9s %8s %9.2f %7.2f %7.0f %7.1f%%'
              % ('RMAT %d' % s, n, m, t, nr, '%.3f' % a['t'] if a else '-', '%.2fx' % (a['t'] / t) if a else '-',
                 m / (t * 1e-3) / 1e9, need / m, need / (t * 1e-3) / 1e9, 100 * bound_ms / t))
        if a and a['nnz'] != m:
            print('   WARNING: the anchor graph has %d edges, kiln %d' % (a['nnz'], m))
    print()
    print('GPU setup (not in the iteration figures): graph generation + CSR build on the GPU, upload + relabel')
    for label in sorted(k for k in runs if k.startswith('gpu_rmat')):
        r = runs[label]
        print('  %-22s build %.2f s (on GPU: %s)  setup %.2f s  CPU re-check L1 %.2e vs device residual %.2e'
              % (label, r['build_seconds'], r['built_on_gpu'], r['setup_seconds'], r['verify_residual'],
                 r['residual']))
    print()
    print('CPU (kiln float64 vs GAP pr float32, 20 fixed iterations, all cores)')
    print('%-6s %-11s %11s %10s %12s | %11s %10s %12s | %8s'
          % ('scale', 'kiln graph', 'edges', 'ms/it', 'edges/s', 'GAP arcs', 'ms/it', 'edges/s', 'kiln/GAP'))
    for label in sorted(k for k in runs if re.match(r'cpu_rmat\d+', k)):
        r = runs[label]
        s = int(re.match(r'cpu_rmat(\d+)', label).group(1))
        t = r['seconds_per_iteration'] * 1e3
        g = gap.get(s, {})
        gt = g['trial_s'] * 1e3 / 20 if 'trial_s' in g else None
        print('%-6d %-11s %11d %10.2f %12.3e | %11s %10s %12s | %8s'
              % (s, 'undirected' if 'undirected' in label else 'directed', r['edges'], t, r['edges_per_second'],
                 g.get('arcs', '-'), '%.2f' % gt if gt else '-',
                 '%.3e' % (g['arcs'] / (gt * 1e-3)) if gt and 'arcs' in g else '-',
                 '%.2fx' % (t / gt) if gt else '-'))


if __name__ == '__main__':
    main()
