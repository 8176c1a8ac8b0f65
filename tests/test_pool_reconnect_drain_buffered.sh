#!/bin/bash
# Test pool scenario "reconnect_drain_buffered" (tests/pool/pool_server.py says what it plays and checks).
exec bash "$(dirname "$0")/pool/run_scenario.sh" "$1" reconnect_drain_buffered
