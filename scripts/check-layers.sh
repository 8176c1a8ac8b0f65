#!/usr/bin/env bash
# Layers hold for calls as for includes (docs/ARCHITECTURE.md, "Layers"): an object of the library
# may use symbols of its own folder and of the layers below it, never of a layer above it, nor of
# another folder of its own layer (the workloads are independent of each other). The includes can
# look right while a call still runs up through a declaration in include/kiln.h, so this reads the
# built objects: each object's undefined symbols against the symbols the other objects define.
#   usage: scripts/check-layers.sh [BUILD_DIR | OBJECT_DIR | OBJECT.o ...]
# Default: build/. An argument may be a ';'-separated list ($<TARGET_OBJECTS:kiln_objects>, as
# tests/CMakeLists.txt passes it). A folder is searched for the objects of the library, those whose
# source is gone (left over from an earlier build) skipped. Exit 0 when every call goes down, 1
# naming each that does not, 2 when there is nothing to check.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# The layers, bottom first; folders on one line are one layer. A folder of src/ that is not here
# fails the check: a new folder gets its place in the picture first.
layers=(
    "prim"                      # header-only: KILN_HD functions, no objects
    "core"                      # context, errors, hex, clock, CPU dispatch, the GPU seam (gpu.h)
    "cuda"                      # a GPU backend, reached only through the seam's table
    "hash"                      # the host hashes the workloads above build on
    "pow scrypt merkle graph"   # the workloads, each on its own
    "api"                       # the public functions of the workloads, the registry
    "dist"                      # PageRank across processes (MPI): drives api's part loop
)

objs=()
add_dir() {
    local dir=$1 o src
    [ -d "$dir/src/CMakeFiles/kiln_objects.dir" ] && dir=$dir/src/CMakeFiles/kiln_objects.dir
    while IFS= read -r o; do
        src=${o#"$dir"/}
        src=$root/src/${src%.o}
        [ -f "$src" ] && objs+=("$o")
    done < <(find "$dir" -name '*.o' -path '*/kiln_objects.dir/*' | sort)
}
[ $# -eq 0 ] && set -- "$root/build"
for arg in "$@"; do
    IFS=';' read -r -a parts <<<"$arg"
    for p in "${parts[@]}"; do
        if [ -d "$p" ]; then add_dir "$p"; elif [ -f "$p" ]; then objs+=("$p"); fi
    done
done
if [ ${#objs[@]} -eq 0 ]; then
    echo "check-layers: no objects of the library found in: $*" >&2
    exit 2
fi

rank_table=$(for i in "${!layers[@]}"; do for f in ${layers[$i]}; do echo "$f $i"; done; done)
order=$(printf '%s < ' "${layers[@]}")
order=${order% < }
declare -A rank
while read -r f i; do rank[$f]=$i; done <<<"$rank_table"

# The includes first, from the sources: `#include "../X/..."` in src/L/ names a folder X that is
# L's own or below it.
bad_includes=0
while IFS=: read -r file line text; do
    L=${file#"$root"/src/}
    L=${L%%/*}
    X=$(sed -E 's|.*#include "\.\./([^"/]+)/.*|\1|' <<<"$text")
    [ "$X" = "$L" ] && continue
    [ -n "${rank[$L]:-}" ] && [ -n "${rank[$X]:-}" ] && [ "${rank[$X]}" -lt "${rank[$L]}" ] && continue
    echo "check-layers: src/${file#"$root"/src/}:$line includes ../$X/, which is not below src/$L/"
    bad_includes=$((bad_includes + 1))
done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include "\.\./' "$root/src" --include='*.c' --include='*.h' \
             --include='*.cu' --include='*.cuh' || true)

# nm -A -P -g: "path: name type value size", globals only; U is undefined, every other type a
# definition (weak ones too: C++ inline functions and templates of the CUDA code).
nm -A -P -g "${objs[@]}" | awk -v bad_includes="$bad_includes" -v ranks="$rank_table" -v order="$order" '
    BEGIN {
        n = split(ranks, rows, "\n")
        for (i = 1; i <= n; i++) { split(rows[i], f, " "); rank[f[1]] = f[2] }
    }
    function layer_of(path,   p, k) {
        p = path
        k = index(p, "kiln_objects.dir/")
        if (k) p = substr(p, k + 17)
        else { sub(/\/[^\/]*$/, "", p); sub(/.*\//, "", p); return p }
        sub(/\/.*/, "", p)
        return p
    }
    {
        obj = $1; sub(/:$/, "", obj)
        short = obj; k = index(short, "kiln_objects.dir/"); if (k) short = substr(short, k + 17)
        L = layer_of(obj)
        if (!(L in rank)) { unknown[L] = 1; next }
        seen[obj] = 1; lay[L] = 1
        if ($3 == "U") { need[++nn] = obj SUBSEP $2; needshort[nn] = short; needlayer[nn] = L }
        else {
            if (!((($2) SUBSEP L) in defin)) { defin[$2, L] = short; deflayers[$2] = deflayers[$2] " " L }
        }
    }
    END {
        bad = bad_includes
        for (u in unknown) {
            printf "check-layers: src/%s is in no layer: give it its place in scripts/check-layers.sh and docs/ARCHITECTURE.md\n", u
            bad++
        }
        for (i = 1; i <= nn; i++) {
            split(need[i], q, SUBSEP); sym = q[2]; L = needlayer[i]
            if (!(sym in deflayers)) continue          # libc, the CUDA runtime, MPI, ...
            if ((sym, L) in defin) continue             # its own folder
            m = split(deflayers[sym], dl, " ")
            ok = 0; where = ""
            for (j = 1; j <= m; j++) {
                if (rank[dl[j]] < rank[L]) ok = 1
                where = where (where == "" ? "" : ", ") defin[sym, dl[j]]
            }
            if (ok) continue
            how = "above it"
            for (j = 1; j <= m; j++) if (rank[dl[j]] == rank[L]) how = "beside it"
            printf "check-layers: %s (%s) needs %s, defined only %s: %s\n", needshort[i], L, sym, how, where
            bad++
        }
        nl = 0; for (l in lay) nl++
        no = 0; for (o in seen) no++
        if (bad) {
            printf "check-layers: %d include%s and %d use%s against the layers (%s)\n", bad_includes,
                   bad_includes == 1 ? "" : "s", bad - bad_includes, bad - bad_includes == 1 ? "" : "s", order
            exit 1
        }
        printf "check-layers: %d objects in %d folders, every include and every use goes down (%s)\n", no, nl, order
    }'
