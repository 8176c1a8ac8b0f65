#!/bin/bash
# kiln version, --version and -V: the version is the project's (CMakeLists.txt, read here) and the
# public header's; the build-option lines say what CTest was told of this build's configuration
# (tests/CMakeLists.txt: KILN_EXPECT_*), the CPU lines what /proc/cpuinfo and `uname -m` say, and
# the git describe names a commit of the checkout (HEAD when built since the last commit).
# Usage: test_cli_version.sh KILN DATA_DIR
source "$(dirname "$0")/cli_docs_util.sh"

v=$(sed -n 's/^project(kiln VERSION \([0-9][0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
[ -n "$v" ] || bad "no project(kiln VERSION ...) in CMakeLists.txt"
expect_eq "$(sed -n 's/^#define KILN_VERSION "\(.*\)"$/\1/p' "$SRC/include/kiln.h")" "$v" "KILN_VERSION in kiln.h"
expect_eq "$("$KILN" version --short)" "$v" "kiln version --short (kiln_version())"

"$KILN" version > "$T/version"
expect_eq "$?" 0 "kiln version exit status"
"$KILN" --version > "$T/long" && "$KILN" -V > "$T/short"
expect_eq "$(cat "$T/long")" "$(cat "$T/version")" "kiln --version"
expect_eq "$(cat "$T/short")" "$(cat "$T/version")" "kiln -V"
line() { sed -n "s/^$1: //p" "$T/version"; }

# the first line, and git describe of the checkout when kiln was built from one
first=$(head -1 "$T/version")
# (only a checkout whose top level is the source tree itself: test_version_git.sh)
if command -v git > /dev/null && head=$(git -C "$SRC" rev-parse HEAD 2> /dev/null) &&
    [ "$(realpath "$(git -C "$SRC" rev-parse --show-toplevel)")" == "$(realpath "$SRC")" ]; then
    d=$(printf '%s\n' "$first" | sed -n "s/^kiln $v (git \(.*\))$/\1/p")
    hex=$(printf '%s\n' "$d" | sed -n 's/^\(.*-g\)\{0,1\}\([0-9a-f]\{7,\}\)\(-dirty\)\{0,1\}$/\2/p')
    # HEAD, or an older commit of it when HEAD moved after the build
    if [ -n "$hex" ] && git -C "$SRC" merge-base --is-ancestor "$hex" "$head" 2> /dev/null; then ok
    elif [ -n "$d" ] && [ "$d" == "$(git -C "$SRC" describe --tags --always --dirty)" ]; then ok
    else bad "first line [$first]: want kiln $v (git <describe of $head>)"; fi
else
    expect_eq "$first" "kiln $v" "first line (no git checkout)"
fi

# the build's options, as CTest was told (run outside CTest, these are not checked)
if [ -n "${KILN_EXPECT_CUDA:-}" ]; then
    case $KILN_EXPECT_CUDA in
    ON | 1 | TRUE) expect_eq "$(line cuda)" "on (architectures ${KILN_EXPECT_CUDA_ARCHITECTURES//,/ })" "cuda line" ;;
    *) expect_eq "$(line cuda)" "off" "cuda line" ;;
    esac
    [ "$KILN_EXPECT_ZLIB" == 1 ] && want="on (gzip-compressed graph files)" || want=off
    expect_eq "$(line zlib)" "$want" "zlib line"
    case $KILN_EXPECT_POOL in
    ON | 1 | TRUE) expect_eq "$(line 'pool mining')" "on (jansson)" "pool line" ;;
    *) expect_eq "$(line 'pool mining')" "off" "pool line" ;;
    esac
    case ${KILN_EXPECT_TLS:-} in
    ON | 1 | TRUE) expect_eq "$(line 'tls pools')" "on (OpenSSL)" "tls line" ;;
    *) expect_eq "$(line 'tls pools')" "off" "tls line" ;;
    esac
    case ${KILN_EXPECT_SOLO:-} in
    ON | 1 | TRUE) expect_eq "$(line 'node mining')" "on (libcurl, jansson)" "node mining line" ;;
    *) expect_eq "$(line 'node mining')" "off" "node mining line" ;;
    esac
    case ${KILN_EXPECT_NCCL:-} in
    ON | 1 | TRUE) expect_eq "$(line nccl)" "on (PageRank parts exchanged through libnccl.so.2 when it loads)" "nccl line" ;;
    *) expect_eq "$(line nccl)" "off" "nccl line" ;;
    esac
    case ${KILN_EXPECT_OPENCL:-} in
    ON | 1 | TRUE) expect_eq "$(line opencl)" "on (ICD loader libOpenCL.so.1; kernels built at run time)" "opencl line" ;;
    *) expect_eq "$(line opencl)" "off" "opencl line" ;;
    esac
    case ${KILN_EXPECT_MPI:-} in
    ON | 1 | TRUE) expect_eq "$(line mpi)" "on (pagerank under mpirun/srun)" "mpi line" ;;
    *) expect_eq "$(line mpi)" "off" "mpi line" ;;
    esac
else
    echo "(not run by CTest: the build-option lines are not checked)"
fi

# the CPU kernels compiled: the x86-64 ones on x86-64 only
case $(uname -m) in
x86_64 | amd64) expect_eq "$(line 'cpu kernels')" "avx512 avx2 sha-ni portable" "cpu kernels" ;;
*) expect_eq "$(line 'cpu kernels')" "portable" "cpu kernels" ;;
esac
# what this CPU has and uses, from the kernel's view of it
cpu=" $(line 'this cpu') "
flags=" $(sed -n 's/^flags[[:space:]]*: //p' /proc/cpuinfo 2> /dev/null | head -1) "
if [ "$flags" != "  " ] && [[ $(uname -m) == x86_64 ]]; then
    has() { [[ $flags == *" $1 "* ]]; }
    want=""
    has avx512f && has avx512vl && has avx512bw && want+=" avx512"
    has avx2 && want+=" avx2"
    has sha_ni && want+=" sha-ni"
    got=$(printf '%s\n' "$cpu" | tr ' ' '\n' | grep -v = | grep . | tr '\n' ' ')
    expect_eq "$got" "${want# } " "this cpu's features"
    if has sha_ni; then want=sha-ni; else want=portable; fi
    [[ $cpu == *" sha256=$want "* ]] && ok || bad "this cpu [$cpu]: want sha256=$want"
fi

# what the help says of the command
"$KILN" version --help > "$T/help"
grep -q -- '--short' "$T/help" && ok || bad "kiln version --help lists no --short"
"$KILN" version extra > /dev/null 2> "$T/err"
expect_eq "$?" 2 "kiln version extra: exit status"
finish
