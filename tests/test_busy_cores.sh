#!/usr/bin/env bash
# Small work on a busy machine (issues 25.3 and 36.2-4): with a busy loop on every core, each of
# these calls takes at most twice as long with the default threads as with one thread:
#   pagerank of facebook_combined (--undirected): the whole call, and the iterations' seconds;
#   pagerank of a 3-node cycle (2000 iterations): seconds an iteration;
#   hash of a small file (it has no --threads: one thread is `taskset -c` to one CPU, which kiln
#   sizes its threads by);
#   bench --algo sha512: the rate, one thread's at most twice the default's;
#   merkle of a small leaves file; the scrypt KDF with small parameters.
# Each figure is the median of interleaved tries in this one run, never a wall-clock constant.
# Before, every parallel region waited at its end for each member of its team, and a member the
# scheduler had not run held it for a time slice or more: PageRank of facebook_combined took
# 40-150 ms of iterations against 0.7 ms on one thread, the bench measured the hand-off between
# threads (13 algorithms at exactly 8.19 MH/s), a 1000-leaf Merkle tree took 3 times as long.
# The default and one-thread outputs must also agree.
# usage: test_busy_cores.sh KILN DATA_DIR
set -u
export LC_ALL=C
KILN=$1
DATA=$2
. "$(dirname "$0")/pagerank_cli_util.sh"
command -v python3 >/dev/null || { echo "test_busy_cores: skipped (needs python3)"; exit 77; }
[ -n "${EPOCHREALTIME:-}" ] || { echo "test_busy_cores: skipped (needs bash 5)"; exit 77; }
TRIES=${KILN_BUSY_TRIES:-5}

# one busy loop per CPU this process may use, pinned there when taskset is present
cpus=$(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))' 2>/dev/null || seq 0 $(($(nproc) - 1)))
have_taskset=0
command -v taskset >/dev/null && have_taskset=1
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT
for c in $cpus; do
    if [ $have_taskset = 1 ]; then taskset -c "$c" sh -c 'while :; do :; done' &
    else sh -c 'while :; do :; done' & fi
    pids+=($!)
done
cpu0=${cpus%% *}
sleep 0.2

head -c 3000 "$DATA/facebook_combined.txt" >"$TMP/small.txt"
python3 -c 'import hashlib
for i in range(1000): print(hashlib.sha256(str(i).encode()).hexdigest())' >"$TMP/leaves.txt"
printf '1 2\n2 3\n3 1\n' >"$TMP/cycle.txt"

# call NAME MODE: one call, its stdout in $TMP/out.NAME.MODE; MODE default or one
call() {
    local one=() pin=()
    if [ "$2" = one ]; then one=(--threads 1); fi
    case $1 in
    pagerank)
        "$KILN" pagerank "$DATA/facebook_combined.txt" --undirected --device cpu --json --top 5 "${one[@]}" ;;
    cycle)
        "$KILN" pagerank "$TMP/cycle.txt" --device cpu --tol 0 --max-iter 2000 --json --top 3 "${one[@]}" ;;
    hash)
        [ "$2" = one ] && pin=(taskset -c "$cpu0")
        "${pin[@]}" "$KILN" hash --algo sha256 "$TMP/small.txt" "$TMP/leaves.txt" ;;
    bench)
        "$KILN" bench --algo sha512 --device cpu --seconds 0.2 --json --quiet "${one[@]}" ;;
    merkle)
        "$KILN" merkle --leaves "$TMP/leaves.txt" --device cpu "${one[@]}" ;;
    scrypt)
        "$KILN" scrypt --password pw --salt NaCl -N 1024 -r 8 -p 4 --length 32 "${one[@]}" ;;
    esac >"$TMP/out.$1.$2" 2>"$TMP/err"
}

# json NAME MODE KEY: the number KEY of the call's JSON output
json() { sed -n "s/.*\"$3\": \([-+0-9.eE]*\).*/\1/p" "$TMP/out.$1.$2" | head -1; }
# microseconds since the epoch
usec() { local t=${EPOCHREALTIME/./}; echo $((10#$t)); }

median() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }

# at_most_twice WHAT A B: A <= 2 B (A the default's time, B one thread's)
at_most_twice() {
    if awk -v a="$2" -v b="$3" 'BEGIN { exit !(a + 0 <= 2 * b) }'; then
        ok
    else
        bad "$1 on busy cores: $2 with the default threads, $3 with one (more than twice)"
    fi
    printf '  %-44s default %-12s one thread %s\n' "$1" "$2" "$3"
}

# measure NAME [KEY]: TRIES interleaved pairs of calls; sets wall_default, wall_one (seconds) and,
# with KEY, key_default, key_one (medians of that JSON field)
measure() {
    local name=$1 key=${2:-} t mode w0 wd=() wo=() kd=() ko=() failed=0
    for t in $(seq "$TRIES"); do
        for mode in default one; do
            w0=$(usec)
            if ! call "$name" "$mode"; then
                bad "$name ($mode threads) failed: $(head -c 300 "$TMP/err")"
                failed=1
                continue
            fi
            w0=$(($(usec) - w0))
            if [ $mode = default ]; then wd+=("$w0"); else wo+=("$w0"); fi
            if [ -n "$key" ]; then
                if [ $mode = default ]; then kd+=("$(json "$name" $mode "$key")"); else ko+=("$(json "$name" $mode "$key")"); fi
            fi
        done
    done
    [ $failed = 0 ] || return 1
    if ! cmp -s "$TMP/out.$name.default" "$TMP/out.$name.one" && [ "$name" != bench ] && [ -z "$key" ]; then
        bad "$name: the default threads and one thread print different results"
    fi
    # seconds
    wall_default=$(awk -v u="$(median "${wd[@]}")" 'BEGIN { print u / 1e6 }')
    wall_one=$(awk -v u="$(median "${wo[@]}")" 'BEGIN { print u / 1e6 }')
    if [ -n "$key" ]; then key_default=$(median "${kd[@]}") key_one=$(median "${ko[@]}"); fi
}

echo "test_busy_cores: a busy loop on each of CPUs $cpus; medians of $TRIES tries"
if measure pagerank seconds; then
    at_most_twice "pagerank facebook_combined: the call" "$wall_default" "$wall_one"
    at_most_twice "pagerank facebook_combined: iterations" "$key_default" "$key_one"
    top() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["top"])' "$TMP/out.pagerank.$1"; }
    [ "$(top default)" = "$(top one)" ] && ok || bad "pagerank facebook_combined: the top 5 differ between the default threads and one"
fi
if measure cycle seconds_per_iteration; then
    at_most_twice "pagerank 3-node cycle: an iteration" "$key_default" "$key_one"
fi
if [ $have_taskset = 1 ] && measure hash; then
    at_most_twice "hash of two small files" "$wall_default" "$wall_one"
fi
if measure bench rate; then
    # a rate: one thread's may be at most twice the default's
    at_most_twice "bench sha512: seconds a hash" "$(awk -v r="$key_default" 'BEGIN { print 1 / r }')" \
        "$(awk -v r="$key_one" 'BEGIN { print 1 / r }')"
fi
if measure merkle; then
    at_most_twice "merkle of 1000 leaves" "$wall_default" "$wall_one"
fi
if measure scrypt; then
    at_most_twice "scrypt N=1024 r=8 p=4" "$wall_default" "$wall_one"
fi
echo "test_busy_cores: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
