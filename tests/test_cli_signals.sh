#!/usr/bin/env bash
# Ctrl-C and SIGTERM end every long command within a second (DESIGN.md, command-line contract):
# scrypt, bench and a Merkle tree exit 128 + signal with "kiln CMD: interrupted by SIGINT" and
# print no result; solo mining stops at a launch boundary and ends normally with its summary (and
# JSON that parses). Without the library's interrupt polls each of these runs for many seconds.
# Also the scrypt memory check counting a scratchpad per thread, and three messages of issue 11.
# usage: test_cli_signals.sh KILN DATA_DIR
set -u
kiln=$1
. "$(dirname "$0")/signal_util.sh"
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP

# scrypt of 1 GiB of scratchpad (N = 2^20, r = 8): seconds of ROMix, stopped inside it
signal_run INT 0.5 "$tmp/out" "$tmp/err" "$kiln" scrypt --password p --salt s -N 1048576 --threads 1
interrupted scrypt INT
signal_run TERM 0.5 "$tmp/out" "$tmp/err" "$kiln" scrypt --password p --salt s -N 1048576 --threads 1
interrupted scrypt TERM

# bench: between and inside its passes (the table header may be out already)
signal_run INT 0.5 "$tmp/out" "$tmp/err" "$kiln" bench --algo sha256d --device cpu --seconds 60
interrupted bench INT table
signal_run TERM 0.5 "$tmp/out" "$tmp/err" "$kiln" bench --algo scrypt-kdf --device cpu --seconds 60
interrupted bench TERM table
# a hash bench of 60 s repeats its batch for about 2 s a pass: the batches poll, so the signal
# that comes inside a pass is seen there
signal_run INT 1.2 "$tmp/out" "$tmp/err" "$kiln" bench --algo sha256 --device cpu --seconds 60
interrupted bench INT table

# a Rescue Prime tree of 2^18 leaves takes many seconds on one CPU thread
awk 'BEGIN { for (i = 0; i < 262144; i++) printf "%064x\n", i }' >"$tmp/leaves"
signal_run INT 0.5 "$tmp/out" "$tmp/err" "$kiln" merkle --algo rp64_256 --leaves "$tmp/leaves" --device cpu --threads 1
interrupted merkle INT

# solo mining for a target nothing meets: a summary and a normal end
target=0000000000000000000000000000000000000000000000000000000000000001
mine=("$kiln" mine --demo --target $target --device cpu --start 0 --count 4294967296)
signal_run INT 0.5 "$tmp/out" "$tmp/err" "${mine[@]}" --json
within 1.5 && ok || bad "mine --json took ${took}s after SIGINT"
[ "$code" = 0 ] && ok || bad "mine --json on SIGINT: exit $code; $(cat "$tmp/err")"
python3 -m json.tool "$tmp/out" >/dev/null && ok || bad "mine --json printed no valid JSON: $(cat "$tmp/out")"
python3 - "$tmp/out" <<'EOF' && ok || bad "mine --json summary: $(cat "$tmp/out")"
import json, sys
o = json.load(open(sys.argv[1]))
assert o["found"] == [] and o["hashes"] > 0 and o["seconds"] > 0 and o["exhausted"] is False
assert o["interrupted"] is True and o["signal"] == "SIGINT"
EOF
grep -q "stopped by SIGINT" "$tmp/err" && ok || bad "mine --json stderr: $(cat "$tmp/err")"
signal_run TERM 0.5 "$tmp/out" "$tmp/err" "${mine[@]}"
within 1.5 && ok || bad "mine took ${took}s after SIGTERM"
[ "$code" = 0 ] && ok || bad "mine on SIGTERM: exit $code; $(cat "$tmp/err")"
grep -Eq '^hashes=[1-9][0-9]* seconds=[0-9.]+ rate=[0-9]+$' "$tmp/out" && ok || bad "mine summary: $(cat "$tmp/out")"
grep -q "stopped by SIGTERM" "$tmp/err" && ok || bad "mine stderr: $(cat "$tmp/err")"
# without a signal the JSON says so
"$kiln" mine --demo --target $target --device cpu --count 1000 --json >"$tmp/out" 2>/dev/null
python3 -c 'import json, sys; o = json.load(open(sys.argv[1])); assert o["interrupted"] is False and "signal" not in o' \
    "$tmp/out" && ok || bad "mine --json without a signal: $(cat "$tmp/out")"

# scrypt's memory check counts one scratchpad per thread: two that do not fit together are
# refused at once (exit 2, naming the limit), under a memory limit in case they were not
mem=$(( $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) * 1024 ))
N=2
while [ $((N * 2 * 1024)) -le "$mem" ]; do N=$((N * 2)); done # 1024 N <= mem < 2048 N
(
    # a safety net in case the check let them through; an AddressSanitizer build cannot run under it
    ldd "$kiln" 2>/dev/null | grep -q libasan || ulimit -v $((mem / 1024 + 1048576))
    exec timeout -s KILL 10 "$kiln" scrypt --password p --salt s -N $N -r 8 -p 2 --threads 2
) >"$tmp/out" 2>"$tmp/err"
code=$?
[ "$code" = 2 ] && ok || bad "two scratchpads over memory: exit $code; $(cat "$tmp/err")"
grep -q "holds 2 scratchpads at once (one per thread) of 128 \* r \* N = $((N * 1024)) bytes each.*use at most 1 thread$" \
    "$tmp/err" && ok || bad "scratchpad message: $(cat "$tmp/err")"
"$kiln" scrypt --password password --salt NaCl -N 1024 -r 8 -p 16 --threads 4 >"$tmp/out" 2>"$tmp/err"
# RFC 7914 section 12, vector 2: p = 16 lanes over 4 threads
grep -q '^fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640$' \
    "$tmp/out" && ok || bad "RFC 7914 vector 2 over 4 threads: $(cat "$tmp/out" "$tmp/err")"

# messages that name what is wrong (issue 11, item 14)
"$kiln" scrypt --password p --salt-hex 0 >/dev/null 2>"$tmp/err"
code=$?
[ "$code" = 2 ] && grep -q "^kiln scrypt: bad --salt-hex: an odd number of hex digits (1); each byte is two digits$" \
    "$tmp/err" && ok || bad "--salt-hex 0: exit $code, $(cat "$tmp/err")"
"$kiln" mine --demo --duration 1e9 >/dev/null 2>"$tmp/err"
code=$?
[ "$code" = 2 ] && grep -q "^kiln mine: bad --duration '1e9' (expected seconds > 0, at most 10000000)$" "$tmp/err" &&
    ok || bad "--duration 1e9: exit $code, $(cat "$tmp/err")"
"$kiln" scrypt --password-file "$tmp" --salt s >/dev/null 2>"$tmp/err"
code=$?
[ "$code" = 2 ] && grep -q "^kiln scrypt: cannot read password file '$tmp': Is a directory$" "$tmp/err" &&
    ok || bad "--password-file DIR: exit $code, $(cat "$tmp/err")"

finish
