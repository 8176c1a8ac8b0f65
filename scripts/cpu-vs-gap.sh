#!/usr/bin/env bash
# CPU PageRank beside the GAP benchmark suite's `pr` on the same graph files and the same cores.
# GAP is built beside the project, never inside it: GAP_DIR names its source tree (a checkout of
# github.com/sbeamer/gapbs; default peers/gapbs, an ignored folder). For each scale it writes GAP's
# Kronecker graph as an edge list (converter -g S -e), runs GAP's pr (symmetrized, 20 iterations,
# tolerance 0, 5 trials: "Average Time" / 20) and kiln on the same file (--undirected: the same arcs;
# --tol 0 --max-iter 20 --repeat 5: the median per iteration), in float64 and with float32 storage
# (--precision float32, as GAP's float scores).
#   GAP_DIR=/path/to/gapbs SCALES="20 22" bash scripts/cpu-vs-gap.sh
set -eu
cd "$(dirname "$0")/.."
gap=${GAP_DIR:-peers/gapbs}
scales=${SCALES:-20 22}
threads=${THREADS:-$(nproc)}
make -C "$gap" -j "$threads" pr converter >/dev/null
cmake -S . -B build-gapcmp -DKILN_CUDA=OFF -DKILN_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-gapcmp -j "$threads" --target kiln_cli >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-6s %12s %12s %14s %14s %9s\n' scale arcs "GAP ms/it" "kiln f64 ms/it" "kiln f32 ms/it" f32/GAP
for s in $scales; do
    "$gap/converter" -g "$s" -e "$tmp/k$s.el" >/dev/null
    arcs=$(wc -l <"$tmp/k$s.el")
    g=$(OMP_NUM_THREADS=$threads "$gap/pr" -f "$tmp/k$s.el" -s -t 0 -i 20 -n 5 | awk '/Average Time/ { print $3 * 1000 / 20 }')
    kiln_ms() { # extra kiln arguments...
        build-gapcmp/kiln pagerank "$tmp/k$s.el" --undirected --device cpu --threads "$threads" --tol 0 --max-iter 20 \
            --repeat 5 --quiet "$@" 2>&1 >/dev/null | sed -n 's/.*; \([0-9.]*\) ms\/iteration.*/\1/p'
    }
    k64=$(kiln_ms)
    k32=$(kiln_ms --precision float32)
    printf '%-6s %12s %12.2f %14.2f %14.2f %9.2f\n' "$s" "$arcs" "$g" "$k64" "$k32" "$(awk -v k="$k32" -v g="$g" 'BEGIN { print k / g }')"
done
