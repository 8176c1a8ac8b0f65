#!/usr/bin/env bash
# The Keccak/SHA-3 GPU check, in one call on the GPU machine (run from the repository root):
#   build (Release, CUDA), GPU tests, compute-sanitizer memcheck + racecheck on the GPU test,
#   SASS instruction counts, the rotation-placement variants, then one benchmark table.
# Env: OUT (logs; default ./out), ANCHORS (path of the anchors folder: also runs hashcat 6.2.6
# -m 17400/17800 for ratios from the same run), SKIP_SANITIZER=1, SKIP_VARIANTS=1, JOBS.
set -u
OUT=${OUT:-./out}
mkdir -p "$OUT"
JOBS=${JOBS:-$(nproc)}
export PATH="$PATH:/usr/local/cuda/bin:/usr/local/nvidia/bin"
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
say() { echo "[+$(el)s] $*"; }
B=build-gpu
K=$B/kiln
RESULTS=$OUT/results.txt
: > "$RESULTS"

say "GPU: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2>&1)"

# the rotation-placement study builds beside the library
(nvcc -O3 -std=c++17 -arch=sm_90 -Isrc -o /tmp/keccak_variants scripts/keccak_variants.cu > "$OUT/variants_build.log" 2>&1
 echo $? > /tmp/keccak_variants.rc) &
say "configure + build"
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON > "$OUT/build.log" 2>&1
if ! cmake --build $B -j "$JOBS" --target kiln_cli test_cuda_keccak test_keccak_kat >> "$OUT/build.log" 2>&1; then
    tail -40 "$OUT/build.log"
    exit 1
fi
wait
say "built; variants build rc=$(cat /tmp/keccak_variants.rc)"

say "tests"
$B/tests/test_cuda_keccak > "$OUT/test_cuda_keccak.log" 2>&1
echo "test_cuda_keccak rc=$? $(tail -1 "$OUT/test_cuda_keccak.log")" | tee -a "$RESULTS"
$B/tests/test_keccak_kat > "$OUT/test_keccak_kat.log" 2>&1
echo "test_keccak_kat rc=$? $(tail -1 "$OUT/test_keccak_kat.log")" | tee -a "$RESULTS"
bash tests/test_hash_cli.sh $K tests/data > "$OUT/test_hash_cli.log" 2>&1
echo "test_hash_cli rc=$? $(tail -1 "$OUT/test_hash_cli.log")" | tee -a "$RESULTS"
grep -m5 -E "CHECK|FAIL" "$OUT"/test_*.log

if [ "${SKIP_SANITIZER:-0}" != 1 ]; then
    for tool in memcheck racecheck; do
        say "compute-sanitizer $tool"
        timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $B/tests/test_cuda_keccak > "$OUT/$tool.log" 2>&1
        echo "compute-sanitizer $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$tool.log" | tail -1)" |
            tee -a "$RESULTS"
    done
fi

say "SASS"
cuobjdump -sass $B/src/libkiln.a 2> /dev/null | python3 scripts/sass_count.py keccak > "$OUT/sass.txt"
cuobjdump -sass /tmp/keccak_variants 2> /dev/null | python3 scripts/sass_count.py sha3_32 >> "$OUT/sass.txt"
cat "$OUT/sass.txt"

if [ "${SKIP_VARIANTS:-0}" != 1 ]; then
    say "rotation placement (variants)"
    /tmp/keccak_variants 2>&1 | tee "$OUT/variants.txt"
fi

say "benchmarks"
bench() { # label, kiln bench args...
    local label=$1
    shift
    local j
    j=$($K bench --device cuda --seconds 1 --json "$@" 2> "$OUT/bench_err.txt") || j="ERROR $(cat "$OUT/bench_err.txt")"
    echo "BENCH $label $j" | tee -a "$RESULTS"
}
for l in thread unrolled lane; do bench "perm_$l" --algo keccakf1600 --layout $l; done
for l in thread unrolled lane; do bench "perm_${l}_regs" --algo keccakf1600 --layout $l --in-registers; done
for a in sha3-256 keccak256; do
    bench "${a}_32B" --algo $a --size 32
    bench "${a}_32B_offsets" --algo $a --size 32 --offsets
    bench "${a}_64B" --algo $a --size 64
    bench "${a}_100B" --algo $a --size 100
    bench "${a}_4KiB" --algo $a --size 4096
done
bench "sha3-512_32B" --algo sha3-512 --size 32
bench "shake128_32B" --algo shake128 --size 32
bench "sha256_32B" --algo sha256 --size 32
bench "sha256_4KiB" --algo sha256 --size 4096
echo "BENCH cpu_sha3-256_8KiB_1thread $($K bench --device cpu --threads 1 --seconds 2 --json --algo sha3-256 --size 8192)" |
    tee -a "$RESULTS"
# CPU streaming against OpenSSL on this host too (CPU-time divisor, as openssl speed uses)
if nvcc -O2 -Iinclude scripts/sha3_speed.c $B/src/libkiln.a -Xcompiler -fopenmp -lgomp -o /tmp/sha3_speed \
    > "$OUT/sha3_speed_build.log" 2>&1; then
    echo "CPUSPEED $(/tmp/sha3_speed 8192 2)" | tee -a "$RESULTS"
    echo "CPUSPEED openssl $(openssl speed -evp sha3-256 -bytes 8192 -seconds 2 2> /dev/null | grep '^sha3-256')" |
        tee -a "$RESULTS"
fi

say "kiln hash over many small files: CPU streaming vs GPU batches"
many() { # files, bytes each
    local M=/tmp/kiln_many
    rm -rf $M && mkdir -p $M
    head -c $(($1 * $2)) /dev/urandom | split -b "$2" -a 5 - $M/f
    cat $M/f* > /dev/null # page cache: time the hashing, not the disk
    for d in cpu cuda auto; do
        local s e
        s=$(date +%s.%N)
        $K hash --algo sha3-256 --device $d $M/f* > "$OUT/many_$d.txt"
        e=$(date +%s.%N)
        echo "MANYFILES device=$d files=$1 size=$2 seconds=$(awk "BEGIN{printf \"%.3f\", $e - $s}")" | tee -a "$RESULTS"
    done
    cmp -s "$OUT/many_cpu.txt" "$OUT/many_cuda.txt" && cmp -s "$OUT/many_cpu.txt" "$OUT/many_auto.txt" &&
        echo "MANYFILES outputs identical" | tee -a "$RESULTS"
    rm -rf $M
}
many 20000 256
many 2048 131072
many 8192 131072

if [ -n "${ANCHORS:-}" ] && [ -d "${ANCHORS}" ]; then
    say "hashcat 6.2.6 -m 17400 / 17800"
    HC_MODES="17400 17800" HC_VARIANTS=default HC_BUDGET_S=${HC_BUDGET_S:-170} \
        timeout 240 bash "$ANCHORS/run_hashcat.sh" "$OUT/hashcat" > "$OUT/hashcat.log" 2>&1
    grep -h "HC_RESULT" "$OUT/hashcat.log" | tee -a "$RESULTS"
fi

say "done"
echo "==== results"
cat "$RESULTS"
