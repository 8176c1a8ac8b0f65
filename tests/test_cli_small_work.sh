#!/usr/bin/env bash
# Small work runs small: on a machine whose every core is busy, PageRank over a 3-node graph with
# the default threads runs as fast as with --threads 1 (one thread below a work threshold), not as
# a team that wakes for every pass and waits for members the busy cores deschedule (issue 25: 22-28
# ms an iteration against 0.0008 ms; here about 12 times slower before the fix). The best of three
# runs each, interleaved; the default may be at most 4 times the single thread's.
# usage: test_cli_small_work.sh KILN DATA_DIR
set -u
KILN=$1
. "$(dirname "$0")/pagerank_cli_util.sh"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq "$(nproc)"); do
    sh -c 'while :; do :; done' &
    pids+=($!)
done
printf '1 2\n2 3\n3 1\n' >"$TMP/cycle.txt"
spi() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert all(abs(t["score"] - 1/3) < 1e-12 for t in d["top"]), d["top"]
print(d["seconds_per_iteration"])' "$TMP/out"; }
best_default=1 best_one=1
for _ in 1 2 3; do
    for t in default one; do
        args=()
        [ $t = one ] && args=(--threads 1)
        expect_rc 0 "3-node cycle ($t threads), cores busy" "$KILN" pagerank "$TMP/cycle.txt" --device cpu --tol 0 \
            --max-iter 2000 --json --top 3 "${args[@]}"
        s=$(spi) || { bad "3-node cycle ($t): $(head -c 300 "$TMP/out")"; continue; }
        [ $t = one ] && best_one=$(python3 -c "print(min($best_one, $s))") || best_default=$(python3 -c "print(min($best_default, $s))")
    done
done
python3 -c "import sys; sys.exit(0 if $best_default <= 4 * $best_one else 1)" && ok ||
    bad "3-node cycle under load: $best_default s an iteration with the default threads, $best_one with one"
echo "test_cli_small_work: $pass passed, $fail failed (default $best_default s, one thread $best_one s an iteration)"
[ "$fail" -eq 0 ]
