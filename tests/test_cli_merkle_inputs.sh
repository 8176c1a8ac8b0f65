#!/usr/bin/env bash
# `kiln merkle` inputs that never end, are too large, come through pipes or are interrupted
# (issue 11, items 8, 14 and 15):
# - /dev/zero and /dev/urandom as --leaves and as --block fail at once with exit 2 naming the
#   limit (a 1024-byte line, a 4,000,000-byte block) under a 4 GiB address-space limit;
# - a line of 1024 bytes is accepted, 1025 refused, a line-less stream refused before it ends;
# - an endless list of valid hashes stops at what the address space can hold, with exit 2;
# - leaves and blocks through a FIFO or '-' give the root of the file (the block's own header
#   root, 64a50c64...);
# - SIGINT while waiting for a FIFO's writer or for data on standard input ends kiln within 1.5 s
#   with exit 130 and "interrupted by SIGINT".
# usage: test_cli_merkle_inputs.sh KILN DATA_DIR
set -u
KILN=$1
DATA=$2
. "$(dirname "$0")/input_util.sh"
# run SECONDS ARGS...: kiln merkle under a 4 GiB address-space limit and a time limit
run() {
    local secs=$1
    shift
    (vm_limit 4194304 && timeout "$secs" "$KILN" merkle "$@") >"$TMP/out" 2>"$TMP/err"
    rc=$?
}
root=64a50c649fc816baaa2effda230c39cacf1504e4e616a2863685b72aaa7dce05
grep -v '^#' "$DATA/block413567.txids.txt" | awk '{print $3}' >"$TMP/txids.txt"

# ---- endless and binary inputs
run 10 --leaves /dev/zero
expect 2 "--leaves /dev/zero" "/dev/zero line 1: longer than 1024 bytes"
run 10 --leaves /dev/urandom
expect 2 "--leaves /dev/urandom" "/dev/urandom line [0-9]*: "
run 10 --block /dev/zero
expect 2 "--block /dev/zero" "/dev/zero: oversized block: more than 4000000 bytes"
run 10 --block /dev/urandom
expect 2 "--block /dev/urandom" "/dev/urandom: oversized block: more than 4000000 bytes"
run 10 --verify /dev/zero --leaf "$root" --index 0 --count 1
expect 2 "--verify /dev/zero" "/dev/zero line 1: longer than 1024 bytes"

# a real block padded past 4,000,000 bytes: refused by size, before its transactions are read
{ cat "$DATA/block413567.raw"; head -c 3000114 /dev/zero; } >"$TMP/big.raw"
[ "$(wc -c <"$TMP/big.raw")" -eq 4000001 ] && ok || bad "big.raw is not 4,000,001 bytes"
run 10 --block "$TMP/big.raw"
expect 2 "4,000,001-byte block" "oversized block: more than 4000000 bytes"

# line lengths: 1024 bytes (a hash and 960 blanks) is accepted, 1025 is not
sed -n 1p "$TMP/txids.txt" >"$TMP/one.txt"
{ head -c 64 "$TMP/one.txt"; printf '%960s\n' ''; } >"$TMP/line1024.txt"
run 10 --leaves "$TMP/line1024.txt"
[ "$rc" = 0 ] && [ "$(cat "$TMP/out")" = "$(head -c 64 "$TMP/one.txt")" ] && ok || bad "1024-byte line: exit $rc $(cat "$TMP/err")"
{ head -c 64 "$TMP/one.txt"; printf '%961s\n' ''; } >"$TMP/line1025.txt"
run 10 --leaves "$TMP/line1025.txt"
expect 2 "1025-byte line" "line 1: longer than 1024 bytes"
# 4 KiB with no line end, the writer then keeping the FIFO open: refused before the writer ends
start_writer "head -c 4096 /dev/zero | tr '\\\\0' 'a'; exec sleep 30"
run 5 --leaves "$TMP/fifo"
stop_writer
expect 2 "line-less stream" "line 1: longer than 1024 bytes"

# an endless list of valid hashes: refused once its tree would not fit in 512 MiB
if [ "$asan" = 0 ]; then
    (vm_limit 524288 && yes "$(cat "$TMP/one.txt")" | timeout 60 "$KILN" merkle --leaves -) >"$TMP/out" 2>"$TMP/err"
    rc=$?
    expect 2 "endless hashes under ulimit -v 512 MiB" "hashes and more: their tree needs .*, more than the"
fi

# ---- pipes, FIFOs and '-' give the file's root
start_writer "exec cat '$TMP/txids.txt'"
run 10 --leaves "$TMP/fifo"
stop_writer
[ "$rc" = 0 ] && [ "$(cat "$TMP/out")" = "$root" ] && ok || bad "leaves through a FIFO: exit $rc $(cat "$TMP/out" "$TMP/err")"
cat "$TMP/txids.txt" | "$KILN" merkle --leaves /dev/stdin >"$TMP/out" 2>"$TMP/err"
[ "$(cat "$TMP/out")" = "$root" ] && ok || bad "leaves through /dev/stdin: $(cat "$TMP/out" "$TMP/err")"
cat "$DATA/block413567.raw" | "$KILN" merkle --block - >"$TMP/out" 2>"$TMP/err"
[ "$(sed -n 2p "$TMP/out")" = "header_root=$root match" ] && ok || bad "block through a pipe: $(cat "$TMP/out" "$TMP/err")"
start_writer "exec cat '$DATA/block413567.raw'"
run 10 --block "$TMP/fifo"
stop_writer
[ "$rc" = 0 ] && [ "$(sed -n 1p "$TMP/out")" = "$root" ] && ok || bad "block through a FIFO: exit $rc $(cat "$TMP/err")"

# ---- SIGINT while waiting for input
interrupt_while "--leaves FIFO never opened for writing" merkle --leaves "$TMP/fifo"
start_writer "head -3 '$TMP/txids.txt'; exec sleep 30"
interrupt_while "--leaves - after three lines" merkle --leaves - <"$TMP/fifo"
stop_writer
start_writer "exec sleep 30"
interrupt_while "--block FIFO never written" merkle --block "$TMP/fifo"
stop_writer

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
