#!/usr/bin/env bash
# The scrypt GPU check, one call on the GPU machine, from the repository root:
#   build (Release, CUDA, sm_90) -> the test suite -> compute-sanitizer memcheck and racecheck on
#   the GPU scrypt test (KILN_TEST_SMALL=1) -> kiln tune/bench for the Litecoin search and the
#   batch KDF -> optionally hashcat -m 8900 beside it (HASHCAT=1, with anchors/ carried) -> one
#   table last. Logs under $OUT (at most 8 files come back).
# Knobs: SKIP_SANITIZER=1, SKIP_BENCH=1 (stop after the tests), HASHCAT=1 (ANCHORS=dir holding run_hashcat.sh and pkgs/, default anchors),
#        TUNE_SECONDS (per Litecoin shape, default 0.3), CTEST_FILTER (default 'scrypt|cuda').
set -u
OUT=${OUT:-./out}
mkdir -p "$OUT"
T0=$(date +%s)
el() { echo "+$(( $(date +%s) - T0 ))s"; }
export PATH="$PATH:/usr/local/nvidia/bin:/usr/local/cuda/bin"
export XDG_CACHE_HOME=/tmp/kiln-cache
J=$(nproc)

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw,memory.used --format=csv \
    > "$OUT/nvidia-smi.txt" 2>&1
echo "== [$(el)] configure + build (-j$J)"
if ! { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 &&
       cmake --build build -j"$J"; } > "$OUT/build.log" 2>&1; then
    grep -E "error|Error" -A4 "$OUT/build.log" | head -60
    exit 1
fi

echo "== [$(el)] test suite"
ctest --test-dir build --output-on-failure -j8 --timeout 600 -R "${CTEST_FILTER:-scrypt|cuda}" > "$OUT/ctest.log" 2>&1
echo "ctest exit $?"
grep -E "tests passed|tests failed|Failed|\*\*\*|Skipped|Not Run" "$OUT/ctest.log" | head -20
grep -E "^[0-9]+ passed" -B2 "$OUT/ctest.log" | grep -A2 -i "cuda_scrypt" | head -5

if [ "${SKIP_SANITIZER:-0}" != 1 ]; then
    for tool in memcheck racecheck; do
        echo "== [$(el)] compute-sanitizer --tool $tool (KILN_TEST_SMALL=1)"
        KILN_TEST_SMALL=1 timeout 400 compute-sanitizer --tool "$tool" --error-exitcode 99 \
            build/tests/test_cuda_scrypt > "$OUT/sanitizer-$tool.log" 2>&1
        echo "$tool exit $?"
        tail -3 "$OUT/sanitizer-$tool.log"
    done
fi

if [ "${SKIP_BENCH:-0}" = 1 ]; then
    build/kiln selftest --device cuda
    echo "== [$(el)] done (SKIP_BENCH=1)"
    exit 0
fi
echo "== [$(el)] tune + bench"
{
    build/kiln selftest --device cuda
    build/kiln tune --algo scrypt --device cuda --seconds "${TUNE_SECONDS:-0.3}"
    build/kiln bench --algo scrypt --device cuda --seconds 6 --json
    build/kiln tune --algo scrypt-kdf --device cuda
    build/kiln bench --algo scrypt-kdf --device cuda --seconds 6 --json
    build/kiln bench --algo scrypt --device cpu --seconds 4 --json
} > "$OUT/bench.txt" 2>&1
cat "$OUT/bench.txt"

ANCHORS=${ANCHORS:-anchors}
if [ "${HASHCAT:-0}" = 1 ] && [ -d "$ANCHORS/pkgs" ]; then
    echo "== [$(el)] hashcat 6.2.6 -m 8900 beside it"
    HC_MODES=8900 HC_VARIANTS="default scrypt1k" HC_BUDGET_S=170 timeout 220 bash "$ANCHORS/run_hashcat.sh" /tmp/hclogs \
        > "$OUT/hashcat.log" 2>&1
    grep HC_RESULT "$OUT/hashcat.log"
fi

echo "== [$(el)] summary"
{
    echo "GPU: $(tail -1 "$OUT/nvidia-smi.txt")"
    echo "Litecoin scrypt (N=1024 r=1 p=1), one launch shape per row; bandwidth share of 4.3 TB/s (measured copy rate):"
    awk '/layout/ && /gap/ {hdr=1; next} hdr && /hash/ && NF == 9 && $3 ~ /^[0-9]+$/ && $5 ~ /^[0-9]+$/ {
           printf "  %-15s gap %2s tpb %4s waves %s  %10s %s  bytes/hash %7s  %7s GB/s = %4.1f%% of 4.3 TB/s\n",
                  $1" "$2, $3, $4, $5, $6, $7, $8, $9, 100 * $9 / 4300 }' "$OUT/bench.txt"
    grep -E '^best:' "$OUT/bench.txt"
    grep -E '"algo": "scrypt"' "$OUT/bench.txt"
    echo "batch KDF (N=16384 r=8 p=1):"
    awk '/tuning scrypt-kdf/ {k=1; next} k && /^ *[0-9]+ +[0-9]+ +[0-9]+ / {printf "  kernel %s gap %s tpb %s  %s %s  bytes/hash %s  %s GB/s\n", $1, $2, $3, $4, $5, $6, $7}' "$OUT/bench.txt"
    grep -E '"algo": "scrypt-kdf"' "$OUT/bench.txt"
    [ -f "$OUT/hashcat.log" ] && grep HC_RESULT "$OUT/hashcat.log"
} | tee "$OUT/summary.txt"
echo "== [$(el)] done"
