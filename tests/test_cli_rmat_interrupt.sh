#!/usr/bin/env bash
# The CPU RMAT generator polls the interrupt (issue 24.4: SIGINT during `pagerank --rmat 23` took
# 123 s to act): a SIGINT while RMAT 21 is generated (0.5 s in: the permutation and the edges take
# seconds on 2 cores) or built ends `kiln pagerank` within a second, exit 130, nothing printed.
# usage: test_cli_rmat_interrupt.sh KILN DATA_DIR
set -u
kiln=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
. "$(dirname "$0")/signal_util.sh"

for delay in 0.5 1.5; do
    for sig in INT TERM; do
        signal_run "$sig" "$delay" "$tmp/out" "$tmp/err" "$kiln" pagerank --rmat 21 --device cpu --max-iter 1 --top 1
        want=$((128 + $(kill -l "$sig")))
        [ "$code" = "$want" ] && within 1.0 && grep -q "interrupted by SIG$sig" "$tmp/err" && [ ! -s "$tmp/out" ] && ok ||
            bad "SIG$sig after $delay s: exit $code after $took s, $(cat "$tmp/err")"
    done
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
