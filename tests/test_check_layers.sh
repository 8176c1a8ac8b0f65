#!/usr/bin/env bash
# The layer check's include rule (scripts/check-layers.sh --includes) holds on the tree and
# catches what it is there to catch: a copy of src/ with one planted include at a time must fail,
# naming the file, for an include up a layer (src/graph -> src/api, src/core -> src/hash), beside
# it (src/pow -> src/merkle, src/cuda -> src/opencl), from an OpenCL kernel (src/opencl/kernels,
# two folders deep), and through a path that only resolves upward ("../graph/../api/"); it must
# pass for an include down a layer (src/dist -> src/api, as mpi_pagerank.c has) and for the
# public header. The expected verdicts come from docs/ARCHITECTURE.md's order, not from the script.
# Registered as every tests/test_*.sh is (tests/CMakeLists.txt), given the built kiln and
# tests/data, neither of which it needs: it reads the sources of the repository holding it.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
check=$root/scripts/check-layers.sh
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*" >&2; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$(bash "$check" --includes "$root/src" 2>&1)
rc=$?
[ $rc -eq 0 ] && ok || bad "the tree's includes: exit $rc: $out"

# plant FILE TEXT EXPECT: FILE (relative to src/) written with TEXT into a fresh copy of src/;
# EXPECT is fail (exit 1, FILE named in the output) or pass (exit 0)
plant() {
    rm -rf "$tmp/src"
    cp -r "$root/src" "$tmp/src"
    mkdir -p "$(dirname "$tmp/src/$1")"
    printf '%s\n' "$2" >"$tmp/src/$1"
    out=$(bash "$check" --includes "$tmp/src" 2>&1)
    rc=$?
    if [ "$3" = fail ]; then
        [ $rc -eq 1 ] && grep -qF "src/$1:" <<<"$out" && ok || bad "$1 with '$2': want exit 1 naming it, got $rc: $out"
    else
        [ $rc -eq 0 ] && ok || bad "$1 with '$2': want exit 0, got $rc: $out"
    fi
}
plant graph/planted.c '#include "../api/pagerank_split.h"' fail
plant core/planted.h '#include "../hash/keccak_host.h"' fail
plant pow/planted.c '#  include "../merkle/merkle_internal.h"' fail
plant cuda/planted.cu '#include "../opencl/ocl_ops.h"' fail
plant opencl/kernels/planted.cl '#include "../../api/pagerank_split.h"' fail
plant graph/planted.c '#include "../graph/../api/x.h"' fail
plant dist/planted.c '#include "../api/pagerank_split.h"' pass
plant graph/planted.c '#include "../core/ctx.h"' pass
plant opencl/kernels/planted.cl '#include "../../prim/sha256.h"' pass
plant api/planted.c '#include "kiln.h"' pass

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
