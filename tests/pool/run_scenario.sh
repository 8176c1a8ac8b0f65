#!/bin/bash
# Runs one test-pool scenario: starts tests/pool/pool_server.py on 127.0.0.1, runs kiln against
# it with the arguments the scenario wrote, then lets the server check its verdicts against
# kiln's JSON summary, log and exit code. Usage: run_scenario.sh KILN SCENARIO [--keep DIR]
# Exit 77 (skip) when python3 is missing or kiln was built without pool support.
set -u
kiln=$1
scenario=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 > /dev/null || { echo "python3 not found: skipping"; exit 77; }
if "$kiln" mine --pool none --user x 2>&1 | grep -q "without pool support"; then
    echo "kiln built without pool support: skipping"
    exit 77
fi
dir=$(mktemp -d)
spid=
cleanup() {
    [ -n "$spid" ] && kill "$spid" 2> /dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
python3 "$here/pool_server.py" --scenario "$scenario" --dir "$dir" --time-limit 60 --kiln "$kiln" ${POOL_DIFFICULTY:+--difficulty "$POOL_DIFFICULTY"} \
    ${POOL_DURATION:+--duration "$POOL_DURATION"} ${POOL_DEVICE:+--device "$POOL_DEVICE"} \
    > "$dir/server.out" 2>&1 &
spid=$!
for _ in $(seq 600); do [ -s "$dir/args" ] && break; sleep 0.05; done
[ -s "$dir/args" ] || { echo "test pool did not start"; cat "$dir/server.out"; exit 1; }
mapfile -t args < "$dir/args"
t0=$(date +%s%N)
timeout 60 "$kiln" mine "${args[@]}" > "$dir/kiln.json" 2> "$dir/kiln.log"
echo $? > "$dir/rc"
echo $((($(date +%s%N) - t0) / 1000000)) > "$dir/elapsed_ms"
kill -TERM "$spid"
wait "$spid"
rc=$?
spid=
cat "$dir/server.out"
if [ $rc -ne 0 ] || [ -n "${POOL_VERBOSE:-}" ]; then
    echo "---- kiln ${args[*]}"
    echo "---- kiln stdout"; cat "$dir/kiln.json"
    echo "---- kiln stderr (last 60 lines)"; tail -n 60 "$dir/kiln.log"
fi
if [ -n "${POOL_KEEP:-}" ]; then mkdir -p "$POOL_KEEP" && cp "$dir"/* "$POOL_KEEP"/; fi
exit $rc
