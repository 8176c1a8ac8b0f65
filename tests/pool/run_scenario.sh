#!/bin/bash
# Runs one test-pool scenario: starts tests/pool/pool_server.py on 127.0.0.1, runs kiln against
# it with the arguments the scenario wrote (one CPU thread but on a GPU), then lets the server
# check its verdicts against kiln's JSON summary, log and exit code. Most scenarios end once what
# their checks count is there, the server stopping kiln with SIGINT (kiln.pid); the others when
# kiln gives up or stops by itself: its --duration, or a SIGINT after sigint_after seconds (here).
# Usage: run_scenario.sh KILN SCENARIO [--keep DIR]
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
for _ in $(seq 600); do [ -s "$dir/args" ] && break; kill -0 "$spid" 2> /dev/null || break; sleep 0.05; done
if [ ! -s "$dir/args" ]; then
    wait "$spid"
    rc=$?
    spid=
    cat "$dir/server.out"
    [ $rc -eq 77 ] && exit 77 # the scenario needs something missing here (the openssl command)
    echo "test pool did not start"
    exit 1
fi
mapfile -t args < "$dir/args"
# a scenario may ask for an injected resolver (slow_resolver.c) or a SIGINT after some seconds
if [ -s "$dir/preload" ]; then
    cc=${CC:-cc}
    command -v "$cc" > /dev/null || { echo "no C compiler for the injected resolver: skipping"; exit 77; }
    "$cc" -shared -fPIC -O1 -o "$dir/slow_resolver.so" "$here/slow_resolver.c" -ldl || { echo "cannot build the injected resolver"; exit 1; }
    export LD_PRELOAD="$dir/slow_resolver.so" SLOW_RESOLVER_DELAY="$(cat "$dir/preload")"
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
fi
sigint_after=0
[ -s "$dir/sigint_after" ] && sigint_after=$(cat "$dir/sigint_after")
python3 "$here/run_measured.py" "$dir" 60 "$sigint_after" "$dir/kiln.json" "$dir/kiln.log" -- "$kiln" mine "${args[@]}"
unset LD_PRELOAD
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
