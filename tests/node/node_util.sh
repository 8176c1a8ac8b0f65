# Shared by the tests/test_gbt_*.sh solo-mining tests: starts tests/node/mock_node.py on 127.0.0.1
# and runs kiln against it. Source it after setting kiln and data; it skips (exit 77) without
# python3 or when kiln was built without solo mining. The tests mine on GBT_DEVICE (default cpu:
# GBT_DEVICE=cuda runs them on the GPU).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
command -v python3 > /dev/null || { echo "python3 not found: skipping"; exit 77; }
if "$kiln" mine --rpc http://127.0.0.1:1 --coinbase-addr x 2>&1 | grep -q "built without"; then
    echo "kiln built without solo mining (libcurl, libjansson): skipping"
    exit 77
fi
dev=(--device "${GBT_DEVICE:-cpu}")
dir=$(mktemp -d)
npid=
fails=0
cleanup() {
    [ -n "$npid" ] && kill "$npid" 2> /dev/null
    rm -rf "$dir"
}
trap cleanup EXIT

# start_node ARGS...: a fresh node (verdicts and port in $dir/nN); sets url and nd
nodes=0
start_node() {
    [ -n "$npid" ] && kill "$npid" 2> /dev/null && wait "$npid" 2> /dev/null
    nodes=$((nodes + 1))
    nd="$dir/n$nodes"
    mkdir -p "$nd"
    python3 "$here/mock_node.py" --dir "$nd" "$@" > "$nd/node.out" 2>&1 &
    npid=$!
    for _ in $(seq 400); do [ -s "$nd/port" ] && break; sleep 0.05; done
    [ -s "$nd/port" ] || { echo "mock node did not start:"; cat "$nd/node.out"; exit 1; }
    url="http://127.0.0.1:$(cat "$nd/port")"
}

# kiln_mine ARGS...: runs kiln mine with a time limit; sets rc, out (stdout), log (stderr)
kiln_mine() {
    timeout 60 "$kiln" mine "$@" > "$nd/out" 2> "$nd/log"
    rc=$?
    out=$(cat "$nd/out")
    log=$(cat "$nd/log")
}

ok() { echo "ok: $*"; }
bad() {
    echo "FAIL: $*"
    echo "--- stdout"; cat "$nd/out" 2> /dev/null
    echo "--- stderr"; cat "$nd/log" 2> /dev/null
    echo "--- node"; cat "$nd/node.out" "$nd/verdicts.jsonl" 2> /dev/null
    fails=$((fails + 1))
}

# verdicts N: the node accepted exactly N blocks and rejected none
verdicts() {
    python3 - "$nd/verdicts.jsonl" "$1" << 'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])] if __import__("os").path.exists(sys.argv[1]) else []
acc = [r for r in rows if r["verdict"] is None]
rej = [r for r in rows if r["verdict"] is not None]
if rej or len(acc) != int(sys.argv[2]):
    print("node verdicts: %d accepted, rejected: %s" % (len(acc), [r["verdict"] for r in rej]))
    sys.exit(1)
PY
}
