#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/, clang) and, for every fuzz/fuzz_<name>.c:
#   1. replays its seed corpus fuzz/corpus/<name>/ and every past crash reproducer under
#      fuzz/crashes/<name>/ (each must now pass);
#   2. fuzzes it for FUZZ_SECONDS (default 20) from a scratch copy of the corpus, so the
#      repository's files are never changed.
# Any crash, leak, undefined behaviour, failed property, timeout or out-of-memory fails the script;
# the input that did it is kept under $FUZZ_BUILD/fuzz-out/<name>/ and its path printed.
# Harnesses run FUZZ_JOBS at a time (default: the number of cores).
#
#   FUZZ_SECONDS=300 scripts/fuzz-smoke.sh        # longer
#   scripts/fuzz-smoke.sh hex snap                # only these harnesses
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-20}
build=${FUZZ_BUILD:-build-fuzz}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
cc=${CC:-clang}

if ! command -v "$cc" >/dev/null; then
    echo "fuzz-smoke: $cc not found: the harnesses need clang with libFuzzer (Debian: apt-get install clang libomp-dev)" >&2
    exit 2
fi

# clang diagnoses things gcc, the project's compiler, does not: warnings in the instrumented
# libraries do not stop the fuzz build (the harnesses themselves are always built with -Werror).
CC=$cc cmake -S . -B "$build" -DKILN_FUZZ=ON -DKILN_CUDA=OFF -DKILN_TESTS=OFF -DKILN_WERROR=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$jobs" >/dev/null

names=()
if [ $# -gt 0 ]; then
    names=("$@")
else
    for src in fuzz/fuzz_*.c; do
        n=${src#fuzz/fuzz_}
        names+=("${n%.c}")
    done
fi
[ ${#names[@]} -gt 0 ] || { echo "fuzz-smoke: no harness under fuzz/" >&2; exit 2; }

out="$build/fuzz-out"
rm -rf "$out"
mkdir -p "$out"
# Every sanitizer report is fatal; leaks are checked after each input (libFuzzer's -detect_leaks).
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# One harness, start to end; its log is $out/<name>.log, its status the function's.
run_one() {
    local name=$1 bin="$build/fuzz/fuzz_$1" seeds="fuzz/corpus/$1" work="$out/$1"
    mkdir -p "$work/corpus" "$work/artifacts"
    [ -x "$bin" ] || { echo "no binary $bin (did fuzz/fuzz_$name.c build?)"; return 1; }
    [ -d "$seeds" ] || { echo "no seed corpus $seeds"; return 1; }
    # Inputs stay near the seeds' size: the largest seed or 4 KiB, whichever is more.
    local max_len=4096 s
    for f in "$seeds"/*; do
        [ -f "$f" ] || continue
        s=$(stat -c %s "$f")
        [ "$s" -le "$max_len" ] || max_len=$s
    done
    local common=(-max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/artifacts/")

    echo "== replay corpus $seeds"
    "$bin" "${common[@]}" -runs=0 "$seeds" || return 1
    local crashes=()
    if [ -d "fuzz/crashes/$name" ]; then
        while IFS= read -r -d '' f; do crashes+=("$f"); done \
            < <(find "fuzz/crashes/$name" -type f ! -name 'README*' -print0 | sort -z)
    fi
    if [ ${#crashes[@]} -gt 0 ]; then
        echo "== replay ${#crashes[@]} past crash reproducer(s) of fuzz/crashes/$name"
        "$bin" "${common[@]}" "${crashes[@]}" || return 1
    fi
    echo "== fuzz ${seconds}s"
    "$bin" "${common[@]}" -max_total_time="$seconds" -print_final_stats=1 "$work/corpus" "$seeds" || return 1
}

# Each harness in the background, at most $jobs at once; its exit status lands in <name>.rc.
for name in "${names[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    ( rc=0; run_one "$name" >"$out/$name.log" 2>&1 || rc=$?; echo "$rc" >"$out/$name.rc" ) &
done
wait

failed=()
for name in "${names[@]}"; do
    if [ "$(cat "$out/$name.rc" 2>/dev/null)" = 0 ]; then
        execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/$name.log" | grep -o '[0-9]*$' || true)
        echo "fuzz-smoke: $name ok (${execs:-?} inputs fuzzed)"
    else
        failed+=("$name")
        echo "fuzz-smoke: $name FAILED; log $out/$name.log:"
        # the report from its first line to libFuzzer's SUMMARY (else the log's end)
        awk '/property failed|runtime error|ERROR: |^Running: /{on=1} on && n++ < 40 {print} /^SUMMARY/{if (on) exit}' \
            "$out/$name.log" | sed 's/^/    /'
        grep -q 'SUMMARY' "$out/$name.log" || tail -n 10 "$out/$name.log" | sed 's/^/    /'
        for a in "$out/$name/artifacts"/*; do
            [ -f "$a" ] && echo "    reproduce: $build/fuzz/fuzz_$name $a"
        done
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz-smoke: ${#failed[@]} of ${#names[@]} harnesses failed: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz-smoke: all ${#names[@]} harnesses passed (${seconds}s each)"
