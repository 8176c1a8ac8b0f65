#!/usr/bin/env bash
# Layers hold for calls as for includes (docs/ARCHITECTURE.md, "Layers"): an object of the library
# may use symbols of its own folder and of the layers below it, never of a layer above it, nor of
# another folder of its own layer (the workloads are independent of each other). The includes can
# look right while a call still runs up through a declaration in include/kiln.h, so this reads the
# built objects: each object's undefined symbols against the symbols the other objects define.
# A header of src/ declares only functions its own folder or a layer below defines (an upward
# call waiting to happen otherwise). Every #include "..." of every file of src/ (.c .h .cu .cuh
# .cl, the OpenCL kernels in opencl/kernels/ too) names, once its path is resolved against the
# including file's folder, a file of that folder's layer-folder or of a layer below it.
#   usage: scripts/check-layers.sh [BUILD_DIR | OBJECT_DIR | OBJECT.o ...]
#          scripts/check-layers.sh --includes [SRC_DIR]
# Default: build/. An argument may be a ';'-separated list ($<TARGET_OBJECTS:kiln_objects>, as
# tests/CMakeLists.txt passes it). A folder is searched for the objects of the library, those whose
# source is gone (left over from an earlier build) skipped. --includes checks only the folders and
# the includes of SRC_DIR (default src/), no build needed (tests/test_check_layers.sh plants an
# upward include in a copy of src/ with it). Exit 0 when every call and include goes down, 1
# naming each that does not, 2 when there is nothing to check.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
srcdir=$root/src
includes_only=0
if [ "${1:-}" = --includes ]; then
    includes_only=1
    [ -n "${2:-}" ] && srcdir=$(cd "$2" && pwd)
    set --
fi

# The layers, bottom first; folders on one line are one layer. A folder of src/ that is not here
# fails the check: a new folder gets its place in the picture first.
layers=(
    "prim"                      # header-only: KILN_HD functions, no objects
    "core"                      # context, errors, hex, clock, CPU dispatch, the GPU seam (gpu.h)
    "cuda opencl"               # the GPU backends, each reached only through the seam's table
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
if [ $includes_only = 0 ]; then
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
elif ! compgen -G "$srcdir/*/" >/dev/null; then
    echo "check-layers: no folders of sources in $srcdir" >&2
    exit 2
fi

rank_table=$(for i in "${!layers[@]}"; do for f in ${layers[$i]}; do echo "$f $i"; done; done)
order=$(printf '%s < ' "${layers[@]}")
order=${order% < }
declare -A rank
while read -r f i; do rank[$f]=$i; done <<<"$rank_table"

bad_folders=0
for dir in "$srcdir"/*/; do
    f=$(basename "$dir")
    [ -n "${rank[$f]:-}" ] && continue
    echo "check-layers: src/$f is in no layer: give it its place here and in docs/ARCHITECTURE.md"
    bad_folders=$((bad_folders + 1))
done

# grep over the sources, run in src/ so that its paths start with the folder ("graph/graph.h:9:...")
in_src() {
    (cd "$srcdir" && grep -r "$@" --include='*.c' --include='*.h' --include='*.cu' --include='*.cuh' \
        --include='*.cl' -- */) || true
}

# The includes: every `#include "PATH"` of a file of src/L/ (its subfolders too), PATH resolved
# against the file's own folder as the compiler does, names a file of src/L/ or of a folder of a
# layer below L. One that resolves beside L (another workload, the other backend) or above it
# fails, as does one into a folder of src/ in no layer; one that leaves src/ (none does) or
# names a file of no folder of src/ (kiln.h: include/, the public header every layer may use) is
# not the layers' concern. <...> includes are system headers.
inc_msgs=$(in_src -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' | awk -v ranks="$rank_table" '
    BEGIN {
        n = split(ranks, rows, "\n")
        for (i = 1; i <= n; i++) { split(rows[i], f, " "); rank[f[1]] = f[2] }
    }
    {
        file = $0; sub(/:.*/, "", file)
        rest = substr($0, length(file) + 2); line = rest; sub(/:.*/, "", line)
        inc = rest; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
        # the path from src/: the folder of the file, then the include, ".." and "." folded
        np = split(file, parts, "/"); k = 0
        for (i = 1; i < np; i++) stack[++k] = parts[i]
        ni = split(inc, ip, "/"); out = 0
        for (i = 1; i <= ni; i++) {
            if (ip[i] == "." || ip[i] == "") continue
            if (ip[i] == "..") { if (k > 0) k--; else out = 1; continue }
            stack[++k] = ip[i]
        }
        if (out || k < 2) next                     # leaves src/, or a file of no folder
        L = parts[1]; X = stack[1]
        if (X == L) next
        if ((L in rank) && (X in rank) && rank[X] < rank[L]) next
        where = !(X in rank) ? "a folder in no layer" : !(L in rank) ? "from a folder in no layer" : \
                rank[X] == rank[L] ? "beside src/" L "/" : "above src/" L "/"
        printf "check-layers: src/%s:%s includes \"%s\" (src/%s/), %s\n", file, line, inc, X, where
    }')
bad_includes=0
if [ -n "$inc_msgs" ]; then
    echo "$inc_msgs"
    bad_includes=$(wc -l <<<"$inc_msgs")
fi
if [ $includes_only = 1 ]; then
    nfiles=$(in_src -lE '' | wc -l)
    if [ $((bad_folders + bad_includes)) -gt 0 ]; then
        echo "check-layers: $bad_folders folder(s) in no layer, $bad_includes include(s) against the layers ($order)"
        exit 1
    fi
    echo "check-layers: $nfiles files of $srcdir, every include goes down ($order)"
    exit 0
fi

# The functions the headers declare: a line that starts with a type and names kiln_...( (the
# code's style: return type and name on one line), "layer path name" each.
decls=$(mktemp)
trap 'rm -f "$decls"' EXIT
in_src -noE '^[A-Za-z_][A-Za-z0-9_ *]*[ *]kiln_[A-Za-z0-9_]+\(' | grep -E '^[^:]*\.(h|cuh):' |
    sed -E 's|^(([^/]+)/[^:]+):[0-9]+:.*[ *](kiln_[A-Za-z0-9_]+)\($|\2 \1 \3|' >"$decls" || true

# nm -A -P -g: "path: name type value size", globals only; U is undefined, every other type a
# definition (weak ones too: C++ inline functions and templates of the CUDA code).
nm -A -P -g "${objs[@]}" | awk -v bad_folders="$bad_folders" -v bad_includes="$bad_includes" -v decls="$decls" \
    -v ranks="$rank_table" -v order="$order" '
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
        if (!(L in rank)) next                         # named above
        seen[obj] = 1; lay[L] = 1
        if ($3 == "U") { ++nn; needsym[nn] = $2; needby[nn] = short; needlayer[nn] = L; needverb[nn] = "needs" }
        else {
            if (!((($2) SUBSEP L) in defin)) { defin[$2, L] = short; deflayers[$2] = deflayers[$2] " " L }
        }
    }
    END {
        bad = bad_includes
        while ((getline line < decls) > 0) {
            split(line, f, " ")
            if (!(f[1] in rank)) continue              # named above
            ++nn; needsym[nn] = f[3]; needby[nn] = "src/" f[2]; needlayer[nn] = f[1]; needverb[nn] = "declares"
        }
        ndecl = 0
        for (i = 1; i <= nn; i++) {
            sym = needsym[i]; L = needlayer[i]
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
            printf "check-layers: %s (%s) %s %s, defined only %s: %s\n", needby[i], L, needverb[i], sym, how, where
            bad++
            if (needverb[i] == "declares") ndecl++
        }
        nl = 0; for (l in lay) nl++
        no = 0; for (o in seen) no++
        if (bad || bad_folders) {
            nuse = bad - bad_includes - ndecl
            printf "check-layers: %d folder%s in no layer, %d include%s, %d declaration%s and %d use%s " \
                   "against the layers (%s)\n", bad_folders, bad_folders == 1 ? "" : "s", bad_includes, bad_includes == 1 ? "" : "s", ndecl,
                   ndecl == 1 ? "" : "s", nuse, nuse == 1 ? "" : "s", order
            exit 1
        }
        printf "check-layers: %d objects in %d folders, every include, declaration and use goes down (%s)\n", no, nl, order
    }'
