#!/usr/bin/env bash
# CPU speed of two builds where wall-clock time is too noisy to tell 2% (a shared 2-core machine):
# the instructions (valgrind's callgrind) each executes for the same fixed work on one thread:
# a sha256d and a scrypt nonce range, SHA-256 and SHA3-256 of 4 MB, Merkle trees of 2^15
# leaves, 20 PageRank iterations of RMAT 14 and one scrypt KDF (N=16384, r=8, p=1). The same
# code path gives the same count (to a constant: process start, the CPU dispatch's self-tests).
# valgrind runs neither AVX-512 nor the GPU: it measures the AVX2 / SHA-NI / portable paths.
#   usage: scripts/cpu-instructions-compare.sh OLD_KILN NEW_KILN
set -u
old=$1 new=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
head -c 4000000 /dev/urandom >"$dir/blob"
python3 -c "
import random
random.seed(1)
with open('$dir/leaves', 'w') as f:
    for _ in range(1 << 15): f.write('%064x\n' % random.getrandbits(256))
"
genesis=0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c
ltc=020000004c1271c211717198227392b029a64a7971931d351b387bb80db027f270411e398a07046f7d4a08dd815412a8712f874a7ebf0507e3878bd24e20a3b73fd750a667d2f451eac7471b00de6659
count() { # $1 = binary, rest = arguments; prints the instruction count
    local bin=$1
    shift
    OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive valgrind --tool=callgrind --callgrind-out-file="$dir/out" "$bin" "$@" >/dev/null 2>"$dir/err"
    grep -o 'refs: *[0-9,]*' "$dir/err" | tr -d ', ' | cut -d: -f2
}
printf '%-16s %16s %16s %9s\n' work old new new/old
row() {
    local name=$1
    shift
    local o n
    o=$(count "$old" "$@")
    n=$(count "$new" "$@")
    awk -v a="$name" -v o="$o" -v n="$n" 'BEGIN { printf "%-16s %16.0f %16.0f %9.4f\n", a, o, n, n / o }'
}
row sha256d-mine mine --header $genesis --start 0 --count 1048576 --threads 1 --device cpu
row scrypt-mine mine --algo scrypt --header $ltc --start 0 --count 512 --threads 1 --device cpu
row sha256-hash hash --algo sha256 --device cpu "$dir/blob"
row sha3-256-hash hash --algo sha3-256 --device cpu "$dir/blob"
row merkle-sha256d merkle --algo sha256d --leaves "$dir/leaves" --device cpu --threads 1
row merkle-rp64 merkle --algo rp64_256 --leaves "$dir/leaves" --device cpu --threads 1
row pagerank pagerank --rmat 14 --device cpu --tol 0 --max-iter 20 --threads 1
row scrypt-kdf scrypt --password pw --salt salt -N 16384 -r 8 -p 1 --threads 1
