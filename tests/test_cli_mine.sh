#!/usr/bin/env bash
# The CLI as a user runs it: real blocks (tests/data/headers.json) found by `kiln mine` in windows
# around their nonces, exit codes and one-line errors for bad input, JSON, devices, selftest, bench.
# usage: test_cli_mine.sh KILN DATA_DIR
set -u
kiln=$1
. "$(dirname "$0")/cli_util.sh"

# name header nonce hash (from tests/data/headers.json)
while read -r name header nonce hash; do
    cleared=${header:0:152}00000000
    expect 0 "$kiln" mine --header "$cleared" --start $((nonce - 3000)) --count 10000 --device cpu
    if printf '%s\n' "$out" | grep -qx "nonce=$nonce hash=$hash"; then ok; else bad "$name: got '$out'"; fi
    if printf '%s\n' "$out" | grep -Eq '^hashes=[0-9]+ seconds=[0-9.]+ rate=[0-9]+$'; then ok; else bad "$name summary: $out"; fi
    expect 1 "$kiln" mine --header "$cleared" --start $((nonce + 1)) --count 5000 --device cpu
    expect 0 "$kiln" mine --header "$cleared" --start $((nonce - 10)) --count 20 --device cpu --json
    if printf '%s' "$out" | grep -q "\"nonce\": $nonce, \"hash\": \"$hash\""; then ok; else bad "$name json: $out"; fi
done <<'HEADERS'
genesis 0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c 2083236893 000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f
block_125552 0100000081cd02ab7e569e8bcd9317e2fe99f2de44d49ab2b8851ba4a308000000000000e320b6c2fffc8d750423db8b1eb942ae710e951ed797f7affc8892b0f1fc122bc7f5d74df2b9441a42a14695 2504433986 00000000000000001e8d6829a8a21adc5d38d0a473b144b6765798e61f98bd1d
block_650000 0000002051ac76bab033df05336c51eed091525aec9c12ea1e6c0700000000000000000033e8830654ba263225a013bc7af63a29e8b9da7f093beacabe0ee48974f62851ad7f6e5faa920e17201c2dc5 3308067872 0000000000000000000060e32d547b6ae2ded52aadbc6310808e4ae42b08cc6a
block_840000 00e05f2aab948491071265ad552351d0ad625745668da54b0172010000000000000000004f89a5d73bd4d4887f25981fe81892ccafda10c27f52d6f3dd28183a7c411b03b7072366194203177d9863ea 3932395645 0000000000000000000320283a032748cef8227873ff4872689bf23f1cda83a5
HEADERS

genesis=0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c

# --all with an easy target reports several nonces, ascending
expect 0 "$kiln" mine --header "$genesis" --target 00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff --start 0 --count 4000 --all --device cpu
n=$(printf '%s\n' "$out" | grep -c '^nonce=')
sorted=$(printf '%s\n' "$out" | grep '^nonce=' | sed 's/nonce=\([0-9]*\).*/\1/' | sort -n | tr '\n' ' ')
inorder=$(printf '%s\n' "$out" | grep '^nonce=' | sed 's/nonce=\([0-9]*\).*/\1/' | tr '\n' ' ')
if [ "$n" -ge 5 ] && [ "$sorted" = "$inorder" ]; then ok; else bad "--all gave $n nonces: $inorder"; fi
# --bits overrides the header's target: 2000ffff is easy, so nonce 0 or a close one qualifies
expect 0 "$kiln" mine --header "$genesis" --bits 2000ffff --start 0 --count 1000 --device cpu
# --duration stops a hopeless search with exit 0 and a summary
expect 0 "$kiln" mine --header "$genesis" --target 0000000000000000000000000000000000000000000000000000000000000001 --duration 0.5 --device cpu
if printf '%s\n' "$out" | grep -q '^hashes='; then ok; else bad "duration summary: $out"; fi

# the demo finds block 840000 on the CPU
expect 0 "$kiln" mine --demo --device cpu
if printf '%s\n' "$out" | grep -qx 'nonce=3932395645 hash=0000000000000000000320283a032748cef8227873ff4872689bf23f1cda83a5'; then ok; else bad "demo: $out"; fi

# bad input: exit 2 and one line naming the problem
expect 2 "$kiln" mine --header "${genesis:0:158}" --device cpu; one_line_error "160 hex"
expect 2 "$kiln" mine --header "${genesis:0:100}zz${genesis:102}" --device cpu; one_line_error "non-hex character 'z'"
expect 2 "$kiln" mine --header "$genesis" --bits zz00ffff --device cpu; one_line_error "nBits"
expect 2 "$kiln" mine --header "$genesis" --bits 04923456 --device cpu; one_line_error "negative"
expect 2 "$kiln" mine --header "$genesis" --bits ff123456 --device cpu; one_line_error "overflows"
expect 2 "$kiln" mine --header "$genesis" --target 1234 --device cpu; one_line_error "target"
expect 2 "$kiln" mine --header "$genesis" --start abc; one_line_error "start"
expect 2 "$kiln" mine --header "$genesis" --start 4294967296; one_line_error "start"
expect 2 "$kiln" mine --header "$genesis" --count 0; one_line_error "count"
expect 2 "$kiln" mine --header "$genesis" --start 4294967000 --count 1000 --device cpu; one_line_error "2^32"
expect 2 "$kiln" mine --header "$genesis" --device tpu; one_line_error "unknown device"
expect 2 "$kiln" mine --header "$genesis" --bits 1d00ffff --target 00ff; one_line_error "not both"
expect 2 "$kiln" mine --header "$genesis" --threads many; one_line_error "threads"
expect 2 "$kiln" mine --header "$genesis" --duration -1; one_line_error "duration"
expect 2 "$kiln" mine --header "$genesis" --algo md5; one_line_error "unknown mining algorithm"
# a zero target can never be met, as --bits 00000000 (zero mantissa) already says
expect 2 "$kiln" mine --header "$genesis" --target 0000000000000000000000000000000000000000000000000000000000000000 --device cpu; one_line_error "zero"
expect 2 "$kiln" mine --frobnicate; one_line_error "unknown option"
expect 2 "$kiln" mine --header; one_line_error "needs a value"
expect 2 "$kiln" mine; one_line_error "--header or --demo"
expect 2 "$kiln" frobnicate
expect 2 "$kiln"

# devices, selftest, bench, tune
expect 0 "$kiln" devices
if printf '%s\n' "$out" | grep -q '^cpu '; then ok; else bad "devices: $out"; fi
expect 0 "$kiln" devices --json
expect 0 "$kiln" selftest --device cpu
expect 0 "$kiln" bench --algo sha256d --device cpu --seconds 0.1 --json
if printf '%s' "$out" | grep -Eq '"algo": "sha256d", "device": ".*", "rate": [0-9]+, "unit": "H/s"'; then ok; else bad "bench json: $out"; fi
# every row, each briefly: what is checked is that each runs (test_bench_table checks the table)
expect 0 "$kiln" bench --device cpu --seconds 0.05
expect 2 "$kiln" bench --algo md4 --device cpu
expect 2 "$kiln" tune --device cpu

# without a GPU, asking for one is a device failure (exit 3)
if ! "$kiln" devices | grep -q '^cuda:'; then
    expect 3 "$kiln" mine --header "$genesis" --device cuda; one_line_error "GPU"
    expect 3 "$kiln" selftest --device cuda
    expect 3 "$kiln" tune
fi

finish
