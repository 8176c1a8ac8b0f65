#!/bin/bash
# kiln mine --api-listen and --temp-limit, solo and against the test pool: tests/monitor/probe.py
# reads /status and /metrics, sends hostile clients, and drives the fake health source.
set -u
kiln=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 > /dev/null || { echo "python3 not found: skipping"; exit 77; }
if "$kiln" mine --demo --count 1 --device cpu --api-listen 0 2>&1 | grep -q "needs kiln built with libjansson"; then
    echo "kiln built without libjansson: no endpoint, skipping"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/monitor/probe.py" "$kiln" "$here/pool/pool_server.py" "$work"
