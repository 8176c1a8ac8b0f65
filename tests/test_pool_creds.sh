#!/bin/bash
# Test pool scenario "creds" (tests/pool/pool_server.py says what it plays and checks).
exec bash "$(dirname "$0")/pool/run_scenario.sh" "$1" creds
