#!/usr/bin/env bash
# Issue 38 item 5, on the machine it runs on: the SNAP text parse rate, the serial parser beside the
# chunked one on THREADS threads, of a generated edge list of MIB MiB (warm in the page cache; `cat`
# of the same file timed first, the storage's rate); then the whole load (parse, id remap, CSR
# build) through kiln_graph_load of the file (chunked) and of the same bytes through a pipe (the
# serial parser), and the graph's CSR cache written and read back. CPU only: a Release build with
# CUDA off in $B, of the one program needed (tests/test_graph_parse_parallel.c).
# Environment: MIB (10240), THREADS ("1 4 16"), FILE (/tmp/kiln-snap-bench.txt, kept between runs),
# B (build-snapbench), SERIAL_LOAD=0 skips the pipe load. Output in $OUT (./out).
set -eu
export LC_ALL=C
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
MIB=${MIB:-10240}
THREADS=${THREADS:-"1 4 16"}
FILE=${FILE:-/tmp/kiln-snap-bench.txt}
B=${B:-build-snapbench}
mkdir -p "$OUT"
T0=$(date +%s)
say() { echo "[$(($(date +%s) - T0)) s] $*" | tee -a "$OUT/snap-bench.txt"; }
say "$(nproc) cores; $(free -g | awk '/Mem:/ {print $2 " GiB memory"}'); $(df -h "$(dirname "$FILE")" | awk 'NR==2 {print $4 " free at " $6}')"
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=OFF -DCMAKE_MESSAGE_LOG_LEVEL=NOTICE >"$OUT/snap-build.log" 2>&1
cmake --build "$B" -j "$(nproc)" --target test_graph_parse_parallel >>"$OUT/snap-build.log" 2>&1
P=$B/tests/test_graph_parse_parallel
if [ ! -s "$FILE" ]; then
    say "writing $MIB MiB of edges to $FILE"
    "$P" --gen "$FILE" "$MIB"
fi
cat "$FILE" >/dev/null
TIMEFORMAT=%R
s=$( { time cat "$FILE" >/dev/null; } 2>&1 )
say "cat of $(stat -c %s "$FILE") bytes (warm): $s s"
say "parse alone (raw edges): serial, then chunked on each thread count"
"$P" --bench "$FILE" $THREADS | tee -a "$OUT/snap-bench.txt"
last=${THREADS##* }
say "whole load on $last threads, the file (chunked parser), and its CSR cache read back"
KILN_BENCH_CACHE="${FILE%.txt}.csr" "$P" --load "$FILE" "$last" | tee -a "$OUT/snap-bench.txt"
rm -f "${FILE%.txt}.csr"
if [ "${SERIAL_LOAD:-1}" = 1 ]; then
    say "whole load on $last threads, the same bytes through a pipe (serial parser)"
    cat "$FILE" | "$P" --load - "$last" | tee -a "$OUT/snap-bench.txt"
fi
say "done"
