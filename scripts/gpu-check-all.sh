#!/usr/bin/env bash
# One GPU-machine run over everything: libjansson from the carried .debs (so the build has pool
# mining), then scripts/gpu-check.sh (build, every test with the GPU ones, compute-sanitizer on the
# sha256d kernel, selftest, demo, bench, tune, SASS counts), compute-sanitizer on the Merkle kernels
# (quick sizes) and the scrypt kernels (small sizes), and pool mining on the GPU against the test
# pool (scripts/gpu-pool-check.sh).
# Carry ".debs" (and "anchors" with KILN_GPU_HASHCAT=anchors for hashcat ratios). Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
export OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
. scripts/jansson-from-debs.sh /tmp/kiln-jansson || echo "gpu-check-all: no .debs/, building without pool mining"
KILN_GPU_BUILD=build-gpu bash scripts/gpu-check.sh
echo "================ compute-sanitizer memcheck + racecheck, test_cuda_merkle (KILN_TEST_QUICK=1)"
for tool in memcheck racecheck; do
    KILN_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 99 build-gpu/tests/test_cuda_merkle >> "$OUT/merkle-sanitizer.log" 2>&1
    echo "$tool exit $?"
done
grep -E 'passed|SUMMARY' "$OUT/merkle-sanitizer.log"
echo "================ compute-sanitizer memcheck + racecheck, test_cuda_scrypt (KILN_TEST_SMALL=1)"
for tool in memcheck racecheck; do
    KILN_TEST_SMALL=1 compute-sanitizer --tool $tool --error-exitcode 99 build-gpu/tests/test_cuda_scrypt >> "$OUT/scrypt-sanitizer.log" 2>&1
    echo "$tool exit $?"
done
grep -E 'passed|SUMMARY' "$OUT/scrypt-sanitizer.log"
echo "================ kiln bench --algo all --device cuda"
build-gpu/kiln bench --algo all --device cuda 2>&1
build-gpu/kiln bench --algo scrypt-kdf --device cuda 2>&1 | tail -1
[ -n "${KILN_GPU_SKIP_POOL:-}" ] && exit 0
echo "================ pool mining on the GPU"
OUT=$OUT/pool KILN_POOL_BUILD=build-gpu KILN_POOL_SKIP_CPU_TESTS=1 bash scripts/gpu-pool-check.sh 20 0.5 2>&1 | tail -14
