#!/usr/bin/env bash
# Ctrl-C and SIGTERM during PageRank iterations and while hashing an endless stream: the command
# ends within a second with "kiln CMD: interrupted by SIG..." and exit 128 + signal, prints no
# result, and `pagerank --output` keeps the file that was there with no temporary file beside it.
# These rest on the interrupt poll of the CPU PageRank loop (src/graph/pagerank_cpu.c) and on the
# read loop of `kiln hash` giving up on EINTR once a signal came (cli/hash/cmd_hash.c).
# usage: test_cli_signals_pagerank_hash.sh KILN DATA_DIR
set -u
kiln=$1
. "$(dirname "$0")/signal_util.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; kill $(jobs -p) 2>/dev/null' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# 100000 iterations of a 2^14-vertex RMAT graph: minutes without the poll
mkdir "$tmp/ranks"
for sig in INT TERM; do
    echo "an older file" >"$tmp/ranks/r.tsv"
    signal_run $sig 0.8 "$tmp/out" "$tmp/err" "$kiln" pagerank --rmat 14 --max-iter 100000 --tol 0 \
        --output "$tmp/ranks/r.tsv" --device cpu --threads 1
    interrupted pagerank $sig
    [ "$(cat "$tmp/ranks/r.tsv")" = "an older file" ] && ok || bad "pagerank on SIG$sig replaced the old file"
    [ "$(ls -A "$tmp/ranks")" = r.tsv ] && ok || bad "pagerank on SIG$sig left: $(ls -A "$tmp/ranks")"
done

# an endless stream of zeros through a FIFO, and through a pipe on standard input
mkfifo "$tmp/fifo"
head -c 1T /dev/zero >"$tmp/fifo" &
signal_run INT 0.5 "$tmp/out" "$tmp/err" "$kiln" hash --algo sha256 "$tmp/fifo"
interrupted hash INT
signal_run TERM 0.5 "$tmp/out" "$tmp/err" "$kiln" hash --algo sha3-256 - < <(head -c 1T /dev/zero)
interrupted hash TERM

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
