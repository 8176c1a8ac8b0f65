#!/usr/bin/env bash
# SIGINT that lands just before kiln opens a FIFO that has no writer (the race behind
# test_cli_merkle_inputs's rare "SIGINT answered after 4.1 s" on a busy machine, issue 25): with
# tests/preload_signal_open.c preloaded the signal comes exactly there, every run. merkle --leaves,
# pagerank and hash must end at once (exit 130, "interrupted by SIGINT"), not wait for a writer that
# never comes (before the fix: until `timeout` killed them). Skipped (77) without the preload
# library, and under AddressSanitizer (whose runtime must be the first library loaded).
# usage: test_cli_signal_before_open.sh KILN DATA_DIR
set -u
KILN=$1
[ -n "${KILN_PRELOAD_SIGNAL:-}" ] && [ -f "$KILN_PRELOAD_SIGNAL" ] || { echo "no preload library: skipped"; exit 77; }
ldd "$KILN" 2>/dev/null | grep -q libasan && { echo "AddressSanitizer build: skipped"; exit 77; }
. "$(dirname "$0")/pagerank_cli_util.sh"
mkfifo "$TMP/fifo"
for cmd in "merkle --leaves" "pagerank --device cpu" "hash --algo sha256"; do
    t0=$(date +%s%N)
    expect_rc 130 "$cmd, SIGINT just before the FIFO's open" env KILN_SIGNAL_BEFORE_OPEN="$TMP/fifo" \
        LD_PRELOAD="$KILN_PRELOAD_SIGNAL" timeout -s KILL 10 "$KILN" $cmd "$TMP/fifo"
    ms=$((($(date +%s%N) - t0) / 1000000))
    grep -q "interrupted by SIGINT" "$TMP/err" && ok || bad "$cmd: $(head -c 300 "$TMP/err")"
    [ "$ms" -lt 5000 ] && ok || bad "$cmd: ended after $ms ms"
done
echo "test_cli_signal_before_open: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
