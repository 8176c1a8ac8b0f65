#!/bin/bash
# GPU check of pool mining: builds kiln with CUDA and pool support, runs the CPU pool tests,
# then `kiln mine --pool ... --device cuda` against the test pool (tests/pool/pool_server.py,
# scenario "gpu") on the loopback for DURATION seconds, then `kiln bench` on the same GPU, and
# prints the hash rate over the pool against the bench rate.
#
# The GPU machine has no libjansson and no package registry: the Debian packages travel in
# .debs/ (libjansson4 and libjansson-dev, from `apt-get download`) and are unpacked into a
# private prefix with python3 (no dpkg needed). Logs go to $OUT (or /tmp/kiln-gpu-pool).
#
# usage: scripts/gpu-pool-check.sh [DURATION] [DIFFICULTY]      (defaults 20 s, difficulty 0.5:
#        about 2^32 / 0.5 hashes a share, a few shares a second at ~9 GH/s)
set -uo pipefail
cd "$(dirname "$0")/.."
duration=${1:-20}
difficulty=${2:-0.5}
device=${KILN_DEVICE:-cuda} # KILN_DEVICE=cpu tries the script on a machine without a GPU
out=${OUT:-/tmp/kiln-gpu-pool}
mkdir -p "$out"
build=/tmp/kiln-gpu-pool-build
prefix=/tmp/kiln-jansson
log() { echo "== $*" | tee -a "$out/summary.txt"; }

# ---- libjansson from the carried .debs unless the machine has it
. scripts/jansson-from-debs.sh "$prefix" || { log "no .debs/ with libjansson: carry it"; exit 3; }

# ---- build (or reuse KILN_POOL_BUILD, a CUDA build with pool support and its tests)
tests=ON
if [ -n "${KILN_POOL_BUILD:-}" ] && [ -x "$KILN_POOL_BUILD/kiln" ]; then
    build=$KILN_POOL_BUILD
    log "reusing the build in $build"
else
log "configure and build (Release, CUDA)"
if ! cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON > "$out/configure.log" 2>&1; then
    tests=OFF # the test suite needs OpenSSL's headers; the GPU pool run does not
    log "configure with tests failed (see configure.log); building without the test suite"
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_TESTS=OFF >> "$out/configure.log" 2>&1 ||
        { tail -30 "$out/configure.log"; exit 3; }
fi
grep "kiln:" "$out/configure.log" | tee -a "$out/summary.txt"
grep -q "pool mining ON" "$out/configure.log" || { log "libjansson not found by CMake"; exit 3; }
cmake --build "$build" -j "$(nproc)" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 3; }
fi
kiln=$build/kiln
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2> /dev/null | tee -a "$out/summary.txt"

# ---- the CPU pool tests on this machine (quick)
log "pool tests (CPU, test pool on 127.0.0.1)"
if [ -n "${KILN_POOL_SKIP_CPU_TESTS:-}" ]; then
    log "skipped (KILN_POOL_SKIP_CPU_TESTS: the caller ran the suite)"
elif [ $tests = ON ]; then
    ctest --test-dir "$build" -R "test_pool|test_difficulty" -j 8 --output-on-failure > "$out/ctest.log" 2>&1
    grep -h "pool figures\|kiln figures" "$out/ctest.log" > "$out/cpu-pool-figures.txt"
    tail -5 "$out/ctest.log" | tee -a "$out/summary.txt"
else
    log "skipped (no test suite)"
fi

# ---- bench, the pool run, bench again (the reference is their mean)
bench() {
    "$kiln" bench --algo sha256d --device "$device" --seconds 5 --json > "$out/bench-$1.json" 2>> "$out/bench.err"
    cat "$out/bench-$1.json" | tee -a "$out/summary.txt"
}
log "kiln bench --algo sha256d --device $device (before)"
bench before
log "kiln mine --pool (test pool, loopback) --device $device --duration $duration, difficulty $difficulty"
POOL_DIFFICULTY=$difficulty POOL_DURATION=$duration POOL_DEVICE=$device POOL_KEEP=$out/gpu POOL_VERBOSE=1 \
    bash tests/pool/run_scenario.sh "$kiln" gpu > "$out/gpu-pool.log" 2>&1
pool_rc=$?
grep -E "^(ok|FAIL)|figures|PASS|FAILED" "$out/gpu-pool.log" | tee -a "$out/summary.txt"
grep "H/s |" "$out/gpu/kiln.log" | tee -a "$out/summary.txt"
log "kiln bench --algo sha256d --device $device (after)"
bench after

python3 - "$out/gpu/kiln.json" "$out/bench-before.json" "$out/bench-after.json" <<'PY' | tee -a "$out/summary.txt"
import json, math, sys
pool = json.load(open(sys.argv[1]))
b1, b2 = (json.load(open(f))["rate"] for f in sys.argv[2:4])
sh = pool["shares"]
rate, dev, n = pool["rate"], pool["device_rate"], sh["accepted"]
g = lambda r: "%.4g GH/s" % (r / 1e9)
print("pool: %d hashes in %.2f s of mining -> %s (inside kiln_scan: %s)" %
      (pool["hashes"], pool["mining_seconds"], g(rate), g(dev)))
print("shares: found %d sent %d accepted %d rejected %d stale %d unanswered %d blocks %d; reconnects %d, jobs %d" %
      (sh["found"], sh["sent"], n, sh["rejected"], sh["stale"], sh["unanswered"], sh["blocks"], pool["reconnects"],
       pool["jobs"]))
print("work proven by the accepted shares: %s (+-%.0f%% from %d shares)" %
      (g(pool["share_rate"]), 100 / math.sqrt(max(n, 1)), n))
bench = (b1 + b2) / 2
print("bench: %s before, %s after, mean %s" % (g(b1), g(b2), g(bench)))
ratio = rate / bench
print("pool rate / bench = %.4f -> %s (acceptance: within 5%%)" % (ratio, "PASS" if ratio >= 0.95 else "FAIL"))
PY
log "logs in $out"
exit $pool_rc
