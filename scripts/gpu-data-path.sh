#!/usr/bin/env bash
# Issue 38 (items 1 and 3) on a GPU host, in one run of a few minutes:
#   build     this tree, Release, CUDA sm_90 code + compute_90 PTX, only what the steps need
#             (libkiln, test_cuda_device_memory, test_cuda_merkle, the cuda_leaves example,
#             scripts/data_path_bench.c against libkiln.so, the Python extension when CuPy is here)
#   test      test_cuda_device_memory (device memory in/out, byte-identical to the host paths, zero
#             host copies by stream capture; the staged host paths) and test_cuda_merkle
#   sanitize  compute-sanitizer memcheck on test_cuda_device_memory
#   example   examples/cuda_leaves (leaves made by the program's own kernel, handed to kiln)
#   python    python/tests/test_device_arrays.py (CuPy arrays in, CuPy arrays out)
#   table     the issue's rows: page-locked and pageable host-to-device bandwidth measured in the
#             same process, the Merkle whole builds from host memory (sha256d 2^26, rp64_256 2^24)
#             on one GPU, a large hash batch from host memory, the device-memory Merkle build; each
#             as a fraction of the page-locked bandwidth
# Logs and summary.txt in $OUT (default ./out-data-path). Environment: STEPS (default all of the
# above), JOBS (default nproc).
set -u
export LC_ALL=C
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out-data-path}
mkdir -p "$OUT"
STEPS=${STEPS:-"build test sanitize example python table"}
JOBS=${JOBS:-$(nproc)}
B=build-dp
has() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }
T0=$(date +%s)
say() { echo "[$(($(date +%s) - T0)) s] $*" | tee -a "$OUT/summary.txt"; }
# scripts/gpu-ceilings.sh's configuration, with the PTX beside the sm_90 code
CM="-DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_OPENCL=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real;90-virtual -DKILN_WERROR=OFF"
say "$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null | head -1)"
HAVE_CUPY=0
python3 -c 'import cupy; cupy.cuda.runtime.getDeviceCount()' >/dev/null 2>&1 && HAVE_CUPY=1

if has build; then
    {
        cmake -S . -B $B $CM &&
            # the example where examples/ is in the build (it is hooked in by examples/CMakeLists.txt)
            EX=$(cmake --build $B --target help | grep -o 'example_cuda_leaves' | head -1) &&
            cmake --build $B -j "$JOBS" --target kiln kiln_shared test_cuda_device_memory test_cuda_merkle $EX &&
            gcc -O2 -std=c11 -Wall -Wextra -Iinclude -I/usr/local/cuda/include -o $B/data_path_bench scripts/data_path_bench.c \
                -L$B/src -Wl,-rpath,"$PWD/$B/src" -lkiln -L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcudart
    } >"$OUT/build.log" 2>&1
    rc=$?
    say "build: rc $rc"
    [ $rc -ne 0 ] && { grep -E "error|Error" "$OUT/build.log" | head -30; exit 1; }
    if [ $HAVE_CUPY = 1 ] && has python; then
        { cmake -S python -B $B-py -DCMAKE_BUILD_TYPE=Release -DKILN_BUILD_DIR="$PWD/$B" &&
            cmake --build $B-py -j "$JOBS" --target _kiln; } >"$OUT/build-python.log" 2>&1
        say "python extension: rc $?"
    fi
fi
T=$(find $B/tests $B -maxdepth 2 -name test_cuda_device_memory -type f 2>/dev/null | head -1)

if has test; then
    for t in test_cuda_device_memory test_cuda_merkle; do
        p=$(find $B -maxdepth 3 -name $t -type f | head -1)
        timeout 300 "$p" >"$OUT/$t.log" 2>&1
        say "$t: rc $? ($(tail -1 "$OUT/$t.log"))"
        grep -E "failed:" "$OUT/$t.log" | head -10 | tee -a "$OUT/summary.txt"
    done
fi

if has sanitize; then
    if command -v compute-sanitizer >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/compute-sanitizer ]; then
        CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
        timeout 300 "$CS" --tool memcheck --error-exitcode 99 "$T" >"$OUT/sanitizer-memcheck.log" 2>&1
        say "compute-sanitizer memcheck test_cuda_device_memory: rc $? $(grep -E 'ERROR SUMMARY' "$OUT/sanitizer-memcheck.log" | tr '\n' ' ') $(grep -E 'passed, .* failed' "$OUT/sanitizer-memcheck.log" | tail -1)"
    else
        say "compute-sanitizer: not found, skipped"
    fi
fi

if has example; then
    E=$(find $B -name cuda_leaves -type f -perm -u+x | head -1)
    if [ -n "$E" ]; then
        timeout 120 "$E" $((1 << 22)) >"$OUT/example.log" 2>&1
        say "examples/cuda_leaves 2^22 leaves: rc $? $(tr '\n' ' ' <"$OUT/example.log")"
    else
        say "examples/cuda_leaves: not built (examples/ not in this build)"
    fi
fi

if has python; then
    if [ $HAVE_CUPY = 1 ] && ls $B-py/_kiln*.so >/dev/null 2>&1; then
        rm -rf $B-py/pkg && mkdir -p $B-py/pkg && cp -r python/kiln $B-py/pkg/ && cp $B-py/_kiln*.so $B-py/pkg/kiln/
        PYTHONPATH=$PWD/$B-py/pkg timeout 300 python3 -m pytest -q python/tests/test_device_arrays.py >"$OUT/python.log" 2>&1
        say "python/tests/test_device_arrays.py: rc $? $(tail -1 "$OUT/python.log")"
    else
        say "python: skipped (CuPy $([ $HAVE_CUPY = 1 ] && echo present || echo absent), extension $(ls $B-py/_kiln*.so 2>/dev/null | head -1))"
    fi
fi

if has table; then
    say "issue 38 rows, cuda:0, one process (fraction: the path's host bytes over its time, over the page-locked bandwidth)"
    XDG_CACHE_HOME=$(mktemp -d) timeout 300 $B/data_path_bench 26 24 >"$OUT/table.log" 2>"$OUT/table.err"
    rc=$?
    printf '%-66s %9s %8s %9s  %s\n' path ms GB/s fraction note | tee -a "$OUT/summary.txt"
    grep '^ROW ' "$OUT/table.log" | sed 's/^ROW //' | while IFS='|' read -r name ms gbs frac note; do
        printf '%-66s %9s %8s %9s  %s\n' "$name" "$ms" "$gbs" "$frac" "$note"
    done | tee -a "$OUT/summary.txt"
    [ $rc -ne 0 ] && { say "data_path_bench: rc $rc"; tail -5 "$OUT/table.err" | tee -a "$OUT/summary.txt"; }
fi
say done
