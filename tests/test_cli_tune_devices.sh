#!/bin/bash
# kiln tune on a device set, one GPU enough: cuda:0,0 holds one GPU model, so the sweep runs once,
# on cuda:0 alone, and caches its shape under that model's name as `kiln devices --json` gives it
# (not the set's "2 x ..."); kiln mine on the set then runs that shape. Skipped (77) without a GPU.
# usage: test_cli_tune_devices.sh KILN [DATA_DIR]
set -u
kiln=$1
if ! "$kiln" devices 2> /dev/null | grep -q '^cuda:0'; then
    echo "no CUDA GPU: skipping"
    exit 77
fi
command -v python3 > /dev/null || { echo "python3 not found: skipping"; exit 77; }
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP

model=$("$kiln" devices --json | python3 -c 'import json, sys; print([d["name"] for d in json.load(sys.stdin) if d["device"] == "cuda" and d["index"] == 0][0])')
XDG_CACHE_HOME=$tmp "$kiln" tune --algo sha256d --device cuda:0,0 --seconds 0.05 --quiet > "$tmp/out" 2> "$tmp/err" &&
    [ "$(grep -c '^tuning sha256d on ' "$tmp/out")" = 1 ] && grep -qF "tuning sha256d on $model (" "$tmp/out" &&
    grep -q '^a set of 2 devices, 1 GPU model: ' "$tmp/out" && ok ||
    bad "tune on cuda:0,0: one sweep on $model: $(cat "$tmp/out" "$tmp/err")"
# the cache: one sha256d line, under the model
awk -F '\t' -v m="$model" '$1 == "sha256d" { n++; if ($2 != m) bad = 1 } END { exit !(n == 1 && !bad) }' \
    "$tmp/kiln/tune.txt" && ok || bad "the cache: $(cat "$tmp/kiln/tune.txt")"
# the set runs the cached shape: bench on the set reports it (its launch after the cache)
XDG_CACHE_HOME=$tmp "$kiln" bench --algo sha256d --device cuda:0,0 --seconds 0.2 --json > "$tmp/bench" 2> "$tmp/err" &&
    python3 - "$tmp/bench" "$tmp/kiln/tune.txt" << 'EOF' && ok || bad "bench on the set, with the cached shape: $(cat "$tmp/bench" "$tmp/err")"
import json, sys
d = json.load(open(sys.argv[1]))
line = [l.split("\t") for l in open(sys.argv[2]) if l.startswith("sha256d\t")][0]
assert (d["threads_per_block"], d["items_per_thread"]) == (int(line[2]), int(line[3])), (d, line)
EOF
finish "test_cli_tune_devices"
