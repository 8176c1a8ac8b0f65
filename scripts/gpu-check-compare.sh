#!/usr/bin/env bash
# The device run for a change that must keep every GPU figure: builds this tree and a base tree
# (BASE_TAR, a `git archive` of the commit to compare with) for Hopper, runs the GPU tests of this
# tree, compute-sanitizer over the kernels the change touched (SANITIZE: ctest names), then every
# bench of ALGOS on cuda:0 with the two builds alternating (ROUNDS rounds, the median of each
# build's), and prints a table: algorithm, base rate, new rate, new / base. Everything goes to
# $OUT as it comes (summary.txt, compare.txt, the logs).
# Environment: BASE_TAR (required), ALGOS, ROUNDS (3), SECONDS_EACH (1), SANITIZE.
set -u
export LC_ALL=C NCCL_NVLS_ENABLE=0
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
ALGOS=${ALGOS:-"sha256d scrypt sha256 sha3-256 keccak256 shake128 merkle-sha256d merkle-rp64 keccakf1600 pagerank"}
ROUNDS=${ROUNDS:-3}
SECONDS_EACH=${SECONDS_EACH:-1}
SANITIZE=${SANITIZE:-"test_cuda_keccak test_cuda_pagerank"}
JOBS=$(nproc)
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
T0=$(date +%s)
row() { printf '%-40s %s\n' "$1" "$2" | tee -a "$SUMMARY"; }
status() { [ "$1" -eq 0 ] && echo ok || echo "FAILED (exit $1)"; }
row "gpu" "$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | head -1)"

build() { # build DIR SRC
    cmake -S "$2" -B "$1" -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-real -DKILN_WERROR=OFF &&
        cmake --build "$1" -j "$JOBS" --target kiln_cli ${3:-}
}
mkdir -p base && tar xf "$BASE_TAR" -C base
build build-gpu . kiln_tests >"$OUT/build.log" 2>&1 &
p1=$!
build build-base base >"$OUT/build-base.log" 2>&1
rb=$?
wait $p1
rn=$?
row "build (new, base)" "$(status $rn), $(status $rb), $(($(date +%s) - T0)) s"
[ $rn -ne 0 ] && { tail -30 "$OUT/build.log"; exit 1; }
[ $rb -ne 0 ] && { tail -30 "$OUT/build-base.log"; exit 1; }

ctest --test-dir build-gpu -R 'cuda|devices|gpu|selftest' --output-on-failure -j 4 >"$OUT/tests.log" 2>&1
rc=$?
row "GPU tests" "$(status $rc): $(grep -E 'tests passed|tests failed' "$OUT/tests.log" | tail -1)"
[ $rc -ne 0 ] && grep -E "Failed|\*\*\*" "$OUT/tests.log" | head -20

if command -v compute-sanitizer >/dev/null || [ -x /usr/local/cuda/bin/compute-sanitizer ]; then
    CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    for t in $SANITIZE; do
        KILN_TEST_QUICK=1 "$CS" --error-exitcode 9 --tool memcheck "build-gpu/tests/$t" >>"$OUT/sanitizer.log" 2>&1
        row "compute-sanitizer memcheck $t" "$(status $?)"
    done
fi

K_NEW=build-gpu/kiln
K_BASE=build-base/kiln
rate() { # trees and PageRank time a fixed amount of work, not seconds
    local secs=(--seconds "$SECONDS_EACH")
    case $2 in merkle-* | pagerank) secs=() ;; esac
    "$1" bench --algo "$2" --device cuda:0 "${secs[@]}" --json --quiet 2>>"$OUT/bench.err" |
    python3 -c 'import json,sys
d=json.load(sys.stdin)
r=d.get("rate") or d.get("edges_per_second") or d.get("rows",[{}])[0].get("rate")
print(r if r else "nan")' 2>>"$OUT/bench.err" || echo nan; }
median() { python3 -c 'import sys,statistics as s; v=[float(x) for x in sys.argv[1:] if x!="nan"]; print(s.median(v) if v else "nan")' "$@"; }
printf '%-18s %16s %16s %8s\n' algorithm base new new/base | tee -a "$OUT/compare.txt"
for a in $ALGOS; do
    nb=() nn=()
    for _ in $(seq "$ROUNDS"); do
        nb+=("$(rate "$K_BASE" "$a")")
        nn+=("$(rate "$K_NEW" "$a")")
    done
    b=$(median "${nb[@]}")
    n=$(median "${nn[@]}")
    printf '%-18s %16s %16s %8s\n' "$a" "$b" "$n" "$(python3 -c "import sys; b,n=sys.argv[1:]; print('%.3f' % (float(n)/float(b)) if b!='nan' and n!='nan' else '-')" "$b" "$n")" |
        tee -a "$OUT/compare.txt"
done
row "total" "$(($(date +%s) - T0)) s"
