#!/usr/bin/env bash
# The OpenCL backend on the GPU host, beside CUDA on the same GPU: NVIDIA's OpenCL driver reached
# through an ICD file written here (the host's vendors folder names only PoCL), kiln built with
# CUDA and OpenCL, a CUDA-only build of BASE_TAR beside it (the CUDA figures before), the OpenCL
# and CUDA GPU tests, then every bench of ALGOS on cuda:0 (base and new) and opencl:0, the three
# alternating (ROUNDS rounds, medians), and a table: base CUDA, CUDA, OpenCL, OpenCL / CUDA.
# hashcat is a second step (HASHCAT=1: anchors/run_hashcat.sh with HC_BACKEND=opencl and cuda).
# Optional steps: kdfshapes (the OpenCL KDF bench in KDF_SHAPES, each a fresh process), kdf (kiln tune --algo scrypt-kdf on KDF_DEVICES, default CUDA and the OpenCL GPU: the
# ROMix kernels and lookup gaps) and
# cpu (streaming SHA3-256 / SHAKE128 on the host's CPU against its OpenSSL, a CPU-only build).
# Environment: BASE_TAR (optional), ALGOS, ROUNDS (3), SECONDS_EACH (2), STEPS ("build test bench"),
# CUDA_TEST_RE (the CUDA tests run), SANITIZE_TESTS and SANITIZE_TOOLS (compute-sanitizer beyond memcheck).
set -u
export LC_ALL=C NCCL_NVLS_ENABLE=0
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
ALGOS=${ALGOS:-"sha256d scrypt scrypt-kdf sha256 sha3-256 keccak256 sha512 keccakf1600 merkle-sha256d merkle-rp64 pagerank"}
ROUNDS=${ROUNDS:-3}
SECONDS_EACH=${SECONDS_EACH:-2}
STEPS=${STEPS:-"build test bench"}
SUMMARY=$OUT/summary.txt
T0=$(date +%s)
row() { printf '%-44s %s\n' "$1" "$2" | tee -a "$SUMMARY"; }
status() { [ "$1" -eq 0 ] && echo ok || echo "FAILED (exit $1)"; }
has() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }

ICD=/tmp/kiln-icd
mkdir -p $ICD
NV=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null | head -1)
[ -n "$NV" ] && echo "$NV" >$ICD/nvidia.icd
export OCL_ICD_VENDORS=$ICD
row "gpu" "$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | head -1)"
row "OpenCL driver" "${NV:-not found}"

if has build; then
    # find_package(OpenCL) looks for libOpenCL.so; a host with only the runtime's .so.1 is named to it
    LIB=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 2>/dev/null | head -1)
    cmake -S . -B build-ocl -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_OPENCL=ON \
        -DCMAKE_CUDA_ARCHITECTURES=90-real -DKILN_WERROR=OFF ${LIB:+-DOpenCL_LIBRARY=$LIB} >"$OUT/build.log" 2>&1 &&
        cmake --build build-ocl -j "$(nproc)" >>"$OUT/build.log" 2>&1 &
    p1=$!
    rb=0
    if [ -n "${BASE_TAR:-}" ]; then
        mkdir -p base && tar xf "$BASE_TAR" -C base
        { cmake -S base -B build-base -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-real \
            -DKILN_WERROR=OFF && cmake --build build-base -j "$(nproc)" --target kiln_cli; } >"$OUT/build-base.log" 2>&1
        rb=$?
    fi
    wait $p1
    rn=$?
    row "build (CUDA+OpenCL, base)" "$(status $rn), $(status $rb), $(($(date +%s) - T0)) s"
    [ $rn -ne 0 ] && { tail -30 "$OUT/build.log"; exit 1; }
    grep -E "kiln: OpenCL" "$OUT/build.log" | head -2
fi
K=build-ocl/kiln
$K devices >"$OUT/devices.txt" 2>&1
grep -E "^(cuda|opencl):" "$OUT/devices.txt" | tee -a "$SUMMARY"
# the loader may list PoCL's CPU device too: the GPU is the OpenCL device named like the CUDA one
OCL=$(grep -oE '^opencl:[0-9]+ +NVIDIA' "$OUT/devices.txt" | head -1 | cut -d' ' -f1)
OCL=${OCL:-opencl:0}
export KILN_TEST_OPENCL_DEVICE=$OCL
row "OpenCL device measured" "$OCL"

if has test; then
    KILN_REQUIRE_OPENCL=1 ctest --test-dir build-ocl -L opencl --output-on-failure -j 4 >"$OUT/tests-opencl.log" 2>&1
    rc=$?
    cp build-ocl/Testing/Temporary/LastTest.log "$OUT/tests-opencl-last.log" 2>/dev/null
    row "OpenCL tests on the GPU" "$(status $rc): $(grep -E 'tests passed|tests failed' "$OUT/tests-opencl.log" | tail -1)"
    [ $rc -ne 0 ] && grep -E "Failed|\*\*\*|CHECK" "$OUT/tests-opencl.log" | head -20
    if [ "${CUDA_TESTS:-1}" = 1 ]; then
        ctest --test-dir build-ocl -R "${CUDA_TEST_RE:-cuda|devices|gpu|selftest}" --output-on-failure -j 4 >"$OUT/tests-cuda.log" 2>&1
        rc=$?
        row "CUDA tests" "$(status $rc): $(grep -E 'tests passed|tests failed' "$OUT/tests-cuda.log" | tail -1)"
        [ $rc -ne 0 ] && grep -E "Failed|\*\*\*" "$OUT/tests-cuda.log" | head -20
    fi
    CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    if [ "${CUDA_TESTS:-1}" = 1 ] && [ -x "$CS" ]; then
        for t in ${SANITIZE_TESTS:-test_cuda_sha256d}; do
            for tool in memcheck ${SANITIZE_TOOLS:-}; do
                KILN_TEST_QUICK=1 KILN_TEST_SMALL=1 "$CS" --error-exitcode 9 --tool $tool build-ocl/tests/$t >"$OUT/sanitizer-$t-$tool.log" 2>&1
                row "compute-sanitizer $tool $t" "$(status $?)"
            done
        done
    fi
fi

rate() { # rate KILN ALGO DEVICE: trees and PageRank time a fixed amount of work, not seconds
    local secs=(--seconds "$SECONDS_EACH")
    case $2 in merkle-* | pagerank) secs=() ;; esac
    timeout 300 "$1" bench --algo "$2" --device "$3" "${secs[@]}" --json --quiet 2>>"$OUT/bench.err" |
        python3 -c 'import json,sys
d=json.load(sys.stdin)
r=d.get("rate") or d.get("edges_per_second") or d.get("rows",[{}])[0].get("rate")
print(r if r else "nan")' 2>>"$OUT/bench.err" || echo nan
}
median() { python3 -c 'import sys,statistics as s; v=[float(x) for x in sys.argv[1:] if x!="nan"]; print(s.median(v) if v else "nan")' "$@"; }
ratio() { python3 -c "import sys; a,b=sys.argv[1:]; print('%.3f' % (float(a)/float(b)) if a!='nan' and b!='nan' and float(b) else '-')" "$1" "$2"; }
if has bench; then
    printf '%-16s %16s %16s %16s %8s %8s\n' algorithm cuda-base cuda opencl cuda/base ocl/cuda | tee -a "$OUT/compare.txt"
    for a in $ALGOS; do
        b=() c=() o=()
        for _ in $(seq "$ROUNDS"); do
            [ -x build-base/kiln ] && b+=("$(rate build-base/kiln "$a" cuda:0)")
            c+=("$(rate $K "$a" cuda:0)")
            o+=("$(rate $K "$a" "$OCL")")
        done
        mb=$( [ ${#b[@]} -gt 0 ] && median "${b[@]}" || echo nan)
        mc=$(median "${c[@]}")
        mo=$(median "${o[@]}")
        printf '%-16s %16s %16s %16s %8s %8s\n' "$a" "$mb" "$mc" "$mo" "$(ratio "$mc" "$mb")" "$(ratio "$mo" "$mc")" |
            tee -a "$OUT/compare.txt"
    done
fi

if has kdf; then
    C=$(mktemp -d)
    for dev in ${KDF_DEVICES:-cuda:0 $OCL}; do
        XDG_CACHE_HOME=$C timeout 400 $K tune --algo scrypt-kdf --device "$dev" >"$OUT/tune-kdf-$dev.txt" 2>&1
        row "tune scrypt-kdf ($dev)" "$(status $?): $(grep -E '^best' "$OUT/tune-kdf-$dev.txt" | head -1)"
        grep -E '^ +[12] +[0-9]+ +[0-9]+ ' "$OUT/tune-kdf-$dev.txt" | tee -a "$SUMMARY"
    done
    for dev in cuda:0 "$OCL"; do
        row "bench scrypt-kdf $dev (tuned)" "$(XDG_CACHE_HOME=$C rate $K scrypt-kdf "$dev")"
    done
fi

if has kdfshapes; then
    # the OpenCL KDF in given shapes, each bench a fresh process (a memory back-off lasts a handle's
    # life, so a tune's later points inherit its earlier ones'): KDF_SHAPES "tpb/kernel/gap" words,
    # "default" for no tune cache entry at all
    model=$(grep -E "^$OCL " "$OUT/devices.txt" | sed -E 's/^opencl:[0-9]+ +//; s/, [0-9]+ compute units.*//')
    for sh in ${KDF_SHAPES:-default 128/1/0 128/2/0 128/2/2 64/2/2 160/2/2 128/1/2 256/1/2}; do
        C=$(mktemp -d)
        if [ "$sh" != default ]; then
            mkdir -p "$C/kiln"
            IFS=/ read -r tpb kern gap <<<"$sh"
            printf 'scrypt-kdf\topencl:%s\t%s\t%s\t1\t4\t%s\n' "$model" "$tpb" "$kern" "$gap" >"$C/kiln/tune.txt"
        fi
        for dev in $OCL ${KDF_SHAPES_CUDA:+cuda:0}; do
            row "scrypt-kdf $dev tpb/kernel/gap $sh" "$(XDG_CACHE_HOME=$C rate $K scrypt-kdf "$dev")"
        done
    done
fi

if has cpu; then
    { cmake -S . -B build-cpu -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=OFF -DKILN_OPENCL=OFF -DKILN_WERROR=OFF &&
        cmake --build build-cpu -j "$(nproc)" --target kiln; } >"$OUT/build-cpu.log" 2>&1
    for a in sha3-256 shake128; do
        cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude scripts/sha3_speed.c build-cpu/src/libkiln.a -fopenmp -lm \
            -o /tmp/sha3_speed 2>>"$OUT/build-cpu.log" || break
        for _ in 1 2 3; do
            row "cpu $a kiln" "$(/tmp/sha3_speed 8192 2 $a | grep -oE '[0-9.]+ MB/s')"
            row "cpu $a openssl" "$(openssl speed -evp $a -bytes 8192 -seconds 2 2>/dev/null | awk -v a=$a 'tolower($1)==a {print $2}')"
        done
    done
fi

if [ "${HASHCAT:-0}" = 1 ] && [ -d anchors ]; then
    for be in opencl cuda; do
        HC_BACKEND=$be HC_MODES="${HC_MODES:-21400 17400 8900}" HC_VARIANTS="${HC_VARIANTS:-default scrypt1k}" \
            HC_BUDGET_S="${HC_BUDGET_S:-200}" bash anchors/run_hashcat.sh "$OUT/hashcat-$be" >"$OUT/hashcat-$be.log" 2>&1
        grep HC_RESULT "$OUT/hashcat-$be.log" | sed "s/^/$be /" | tee -a "$SUMMARY"
    done
fi
row "total" "$(($(date +%s) - T0)) s"
