#!/usr/bin/env bash
# Device sets on the command line: a malformed set is bad input (2), a set without GPUs a device
# failure (3), both named; with a GPU, two logical devices of GPU 0 (cuda:0,0) give what the CPU
# gives: block 840000's nonce (its real header), a Merkle root, PageRank's top nodes.
# usage: test_cli_device_sets.sh KILN DATA_DIR
set -u
KILN=$1
DATA=$2
. "$(dirname "$0")/cli_util.sh"
run() { "$@" >"$TMP/out" 2>"$TMP/err"; echo $?; }

for spec in "cuda:" "cuda:0,," "cuda:x" "cuda:0;1"; do
    [ "$(run "$KILN" mine --demo --device "$spec")" = 2 ] && grep -q "kiln mine: bad device '$spec'" "$TMP/err" && ok ||
        bad "$spec: $(cat "$TMP/err")"
done
if ! "$KILN" devices 2>/dev/null | grep -q '^cuda:0'; then
    [ "$(run "$KILN" pagerank --rmat 8 --device cuda:all)" = 3 ] && grep -q "no CUDA GPU available" "$TMP/err" && ok ||
        bad "cuda:all without a GPU: $(cat "$TMP/err")"
else
    # the demo block is block 840000 with its nonce cleared: the real nonce is found by both
    "$KILN" mine --demo --device cuda:0,0 >"$TMP/set" 2>"$TMP/err" && grep -q '^nonce=3932395645 ' "$TMP/set" && ok ||
        bad "mine --demo on cuda:0,0: $(cat "$TMP/set" "$TMP/err")"
    python3 -c 'import random; r = random.Random(3); print("\n".join("%064x" % r.getrandbits(256) for _ in range(100003)))' >"$TMP/leaves"
    "$KILN" merkle --leaves "$TMP/leaves" --device cpu >"$TMP/cpu" && "$KILN" merkle --leaves "$TMP/leaves" --device cuda:0,0 >"$TMP/set" &&
        cmp -s "$TMP/cpu" "$TMP/set" && ok || bad "merkle root on cuda:0,0: $(cat "$TMP/cpu" "$TMP/set")"
    "$KILN" pagerank "$DATA/facebook_combined.txt" --undirected --device cpu --tol 1e-10 --top 20 | cut -f1,2 >"$TMP/cpu"
    "$KILN" pagerank "$DATA/facebook_combined.txt" --undirected --device cuda:0,0 --precision float64 --tol 1e-10 --top 20 |
        cut -f1,2 >"$TMP/set"
    cmp -s "$TMP/cpu" "$TMP/set" && [ -s "$TMP/cpu" ] && ok || bad "pagerank top 20 on cuda:0,0: $(diff "$TMP/cpu" "$TMP/set" | head)"
    "$KILN" pagerank --rmat 12 --device cuda:0,0 --json >"$TMP/json" 2>/dev/null
    grep -q '"kernel": *"parts"' "$TMP/json" && grep -q '"devices": *2' "$TMP/json" && ok || bad "pagerank --json: $(cat "$TMP/json")"
fi
finish "test_cli_device_sets"
