#!/usr/bin/env bash
# The device runner: one script, named steps, run from the repository root on the GPU machine.
#   STEPS="build suite" bash scripts/device.sh        (default: build suite)
# Steps:
#   build    configure + build (Release, CUDA for 75-virtual 90-real 90-virtual, OpenCL through
#            NVIDIA's driver, libjansson from the carried .debs/) in $B, the library, CLI and tests
#   gpu      the tests that touch a GPU or the host's devices first (ctest -R $GPU_TESTS, -j $JOBS)
#   suite    the whole suite as CI runs it, with the GPUs: ctest -j $JOBS (default 8); after the
#            step gpu, the tests it ran are not run again (or those SUITE_EXCLUDE matches)
#   tests    only the tests matching $TESTS (a ctest -R regex), verbose, for a failure's log
#   data     scripts/gpu-data-path.sh on the same build (issue 38's rows)
# Logs go to $OUT (else ./out): build.log, suite.log, tests.log; a short table last (summary.txt).
# Carry .debs (libjansson4 and libjansson-dev .debs, `apt-get download`) for the pool tests.
set -u
export LC_ALL=C NCCL_NVLS_ENABLE=0
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${KILN_DEVICE_BUILD:-build-dev}
STEPS=" ${STEPS:-build suite} "
JOBS=${JOBS:-8}
SUMMARY=$OUT/summary.txt
T0=$(date +%s)
has() { case "$STEPS" in *" $1 "*) return 0 ;; esac; return 1; }
row() { printf '%-40s %s\n' "$1" "$2" | tee -a "$SUMMARY"; }
status() { [ "$1" -eq 0 ] && echo ok || echo "FAILED (exit $1)"; }
export PATH="$PATH:/usr/local/cuda/bin:/usr/local/nvidia/bin"

# NVIDIA's OpenCL driver is on the host but no ICD file names it: one here does
ICD=/tmp/kiln-icd
mkdir -p $ICD
NV=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null | head -1)
[ -n "$NV" ] && echo "$NV" >$ICD/nvidia.icd
for f in /etc/OpenCL/vendors/*.icd; do [ -f "$f" ] && cp "$f" $ICD/; done
export OCL_ICD_VENDORS=$ICD
. scripts/jansson-from-debs.sh /tmp/kiln-jansson >/dev/null 2>&1 || row "libjansson" "absent: no pool tests"
row "gpus" "$(nvidia-smi -L 2>/dev/null | wc -l) x $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"

if has build; then
    LIB=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 2>/dev/null | head -1)
    t=$(date +%s)
    { cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_OPENCL=ON ${LIB:+-DOpenCL_LIBRARY=$LIB} &&
        cmake --build "$B" -j "$(nproc)" --target all kiln_tests; } >"$OUT/build.log" 2>&1
    rc=$?
    row "build (CUDA + OpenCL)" "$(status $rc), $(($(date +%s) - t)) s; $(grep -m1 -o 'OpenCL[^,]*' "$OUT/build.log" | head -1)"
    [ $rc -ne 0 ] && { tail -30 "$OUT/build.log"; exit 1; }
    "$B/kiln" devices 2>&1 | head -12 | tee -a "$SUMMARY"
fi

GPU_TESTS=${GPU_TESTS:-'cuda|device|gpu|mpi|hugediff|closed_fds|signals|interrupt'}
if has gpu; then
    t=$(date +%s)
    KILN_REQUIRE_OPENCL=1 timeout "${GPU_TIMEOUT:-300}" ctest --test-dir "$B" --output-on-failure -j "$JOBS" \
        -R "$GPU_TESTS" --timeout "${TEST_TIMEOUT:-300}" >"$OUT/gpu.log" 2>&1
    rc=$?
    row "GPU tests (ctest -R, -j $JOBS)" "$(status $rc), $(grep -E 'tests passed' "$OUT/gpu.log" | tail -1), $(($(date +%s) - t)) s"
    grep -E '^\s+[0-9]+ - .*(Failed|Timeout)|Not Run' "$OUT/gpu.log" | tee -a "$SUMMARY"
fi

if has suite; then
    t=$(date +%s)
    EXCL=()
    has gpu && EXCL=(-E "$GPU_TESTS")
    [ -n "${SUITE_EXCLUDE:-}" ] && EXCL=(-E "$SUITE_EXCLUDE")
    KILN_REQUIRE_OPENCL=1 timeout "${SUITE_TIMEOUT:-500}" ctest --test-dir "$B" --output-on-failure -j "$JOBS" \
        "${EXCL[@]}" --timeout "${TEST_TIMEOUT:-300}" >"$OUT/suite.log" 2>&1
    rc=$?
    row "suite (ctest -j $JOBS)" "$(status $rc), $(grep -E 'tests passed' "$OUT/suite.log" | tail -1), $(($(date +%s) - t)) s"
    grep -E '^\s+[0-9]+ - |Not Run|Timeout' "$OUT/suite.log" | tee -a "$SUMMARY"
    echo "slowest:" >>"$SUMMARY"
    grep -E 'Test +#[0-9]+: ' "$OUT/suite.log" | sed -nE 's/.*#[0-9]+: ([^ ]+) .* ([0-9.]+) sec.*/\2 \1/p' | sort -rn | head -6 >>"$SUMMARY"
fi

if has tests; then
    POOL_VERBOSE=1 KILN_REQUIRE_OPENCL=1 ctest --test-dir "$B" -R "${TESTS:-test_pool_hugediff}" -V --timeout 300 \
        >"$OUT/tests.log" 2>&1
    row "tests ${TESTS:-test_pool_hugediff}" "$(status $?), $(grep -E 'tests passed' "$OUT/tests.log" | tail -1)"
fi

if has data && [ -f scripts/gpu-data-path.sh ]; then
    KILN_BUILD="$B" bash scripts/gpu-data-path.sh 2>&1 | tail -40
fi
row "total" "$(($(date +%s) - T0)) s"
