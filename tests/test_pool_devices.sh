#!/bin/bash
# Pool mining on a device set against the test pool (scenario gpu_devices in
# tests/pool/pool_server.py): an entry per device in kiln's summary, their hashes summing to the
# total, that total agreeing with the valid shares the pool counted, no invalid share. By default
# two logical devices of GPU 0 (cuda:0,0, the documented testing aid), so one GPU runs it;
# POOL_DEVICE=cuda:all on a host of several. Skipped (77) without a GPU; CI has none.
kiln=$1
if ! "$kiln" devices 2> /dev/null | grep -q '^cuda:0'; then
    echo "no CUDA GPU: skipping"
    exit 77
fi
POOL_DEVICE=${POOL_DEVICE:-cuda:0,0} POOL_DURATION=${POOL_DURATION:-30} \
    exec bash "$(dirname "$0")/pool/run_scenario.sh" "$kiln" gpu_devices
