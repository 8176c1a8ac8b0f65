#!/usr/bin/env bash
# Merkle trees, PageRank and scrypt on the first OpenCL device (PoCL in CI) from the command line:
# `kiln merkle --device opencl:0` prints the CPU's root for every merge and both schedules over odd
# leaf counts, and checks a real block; `kiln pagerank --device opencl:0` in float64 is within 1e-9
# (L1) of NetworkX's values for pr_small's six cases (tests/data/pr_small.networkx.txt), and in
# float32 within 1e-5 of the CPU's ranks, with personalization, dangling and nstart vectors and
# weights (an RMAT graph built on the device); `kiln mine -a scrypt --device opencl:0` finds a real
# Litecoin block's nonce with the CPU's output (`kiln scrypt` has no --device: the KDF batch on
# OpenCL is test_opencl_scrypt's).
# Skipped (77) without an OpenCL
# device unless KILN_REQUIRE_OPENCL is set.
# usage: test_opencl_work_cli.sh KILN DATA_DIR
set -u
KILN=$1
DATA=$2
. "$(dirname "$0")/pagerank_cli_util.sh"

. "$(dirname "$0")/opencl_test_util.sh"
OCL="--device $OCLDEV --quiet"

# ---- Merkle: leaves as 64 hex digits a line; rp64_256 leaves are 4 canonical field elements
python3 - "$TMP" <<'PY'
import random, sys
random.seed(7)
p = 2**64 - 2**32 + 1
for n in (1, 2, 3, 5, 77, 1000):
    with open(f"{sys.argv[1]}/l{n}", "w") as f:
        for _ in range(n):
            f.write("".join(random.randrange(p).to_bytes(8, "little").hex() for _ in range(4)) + "\n")
PY
# Each run is a process that loads the program and its kernels: the default runs each algorithm
# with each schedule once, on a leaf count that gives that schedule odd levels and several blocks
# (1000 leaves span two blocks of 32 threads x 2^4 leaves); KILN_TEST_LONG (the label long) runs
# every schedule on every count
methods=("levels" "subtrees --k 2" "subtrees --k 4 --threads-per-block 32")
for algo in sha256d sha256 sha3-256 keccak256 rp64_256; do
    for n in 1 2 3 5 77 1000; do
        want=
        for method in "${methods[@]}"; do
            if [ -z "${KILN_TEST_LONG:-}" ]; then
                case "$n:$method" in 1:levels | 5:levels | "77:subtrees --k 2" | 1000:subtrees\ --k\ 4*) ;; *) continue ;; esac
            fi
            [ -n "$want" ] || want=$("$KILN" merkle --algo "$algo" --leaves "$TMP/l$n" --device cpu --quiet)
            got=$("$KILN" merkle --algo "$algo" --leaves "$TMP/l$n" $OCL --method $method 2>&1)
            [ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "merkle $algo n=$n $method: '$got', want '$want'"
        done
    done
done
expect_rc 0 "merkle --block on $OCLDEV" "$KILN" merkle --block "$DATA/block413567.raw" $OCL

# ---- PageRank against NetworkX (float64) and the CPU (float32)
near_networkx() { # ranks file, column of pr_small.networkx.txt
    awk -v c="$2" 'NR == FNR { if ($1 !~ /^#/) ref[$1] = $(c + 1); next }
         { d = $2 - ref[$1]; s += d < 0 ? -d : d; n++ } END { exit !(n == 9 && s < 1e-9) }' \
        "$DATA/pr_small.networkx.txt" "$1"
}
near_files() { # two ranks files within an L1 distance
    awk -v tol="$3" 'NR == FNR { ref[$1] = $2; next } { d = $2 - ref[$1]; s += d < 0 ? -d : d; n++ }
         END { exit !(n > 0 && s < tol) }' "$1" "$2"
}
W=$DATA/pr_small.txt
P=$DATA/pr_small.personalization.txt
Q=$DATA/pr_small.dangling.txt
X0=$DATA/pr_small.nstart.txt
awk '!/^#/ { print $1, $2 }' "$W" >"$TMP/g.txt"
G=$TMP/g.txt
NX="--tol 1e-12 --max-iter 100000"
cases=(
    "1|$G|"
    "2|$W|--weighted"
    "3|$W|--weighted --personalization $P --dangling $Q --nstart $X0"
    "4|$G|--damping 0.6 --personalization $P --dangling $Q"
    "5|$W|--weighted --undirected --personalization $P"
    "6|$G|--nstart $X0"
)
for c in "${cases[@]}"; do
    IFS='|' read -r col graph opts <<<"$c"
    expect_rc 0 "pagerank case $col float64" "$KILN" pagerank "$graph" $opts $OCL $NX --precision float64 --output "$TMP/r.tsv"
    near_networkx "$TMP/r.tsv" "$col" && ok || bad "pagerank case $col (opencl float64) vs NetworkX: $(head -c 300 "$TMP/r.tsv")"
    "$KILN" pagerank "$graph" $opts --device cpu --quiet --precision float32 --output "$TMP/c32.tsv" >/dev/null 2>&1
    expect_rc 0 "pagerank case $col float32" "$KILN" pagerank "$graph" $opts $OCL --precision float32 --output "$TMP/o32.tsv"
    near_files "$TMP/c32.tsv" "$TMP/o32.tsv" 1e-5 && ok || bad "pagerank case $col float32: opencl vs cpu"
done
for prec in float32 float64; do
    "$KILN" pagerank --rmat 10 --weighted --device cpu --quiet --precision "$prec" --output "$TMP/c.tsv" >/dev/null 2>&1
    expect_rc 0 "rmat $prec" "$KILN" pagerank --rmat 10 --weighted $OCL --precision "$prec" --output "$TMP/o.tsv" --json
    near_files "$TMP/c.tsv" "$TMP/o.tsv" 1e-4 && ok || bad "weighted rmat 10 $prec: opencl vs cpu"
    grep -q '"backend": "opencl"' "$TMP/out" && grep -q '"kernel": "grid"' "$TMP/out" &&
        grep -q '"built_on_gpu": true' "$TMP/out" && ok ||
        bad "rmat json: $(head -c 400 "$TMP/out")"
done

# ---- scrypt: Litecoin's scrypt_tests_vector_0 header (tests/data/litecoin_pow.json), nonce 1499913728
H=020000004c1271c211717198227392b029a64a7971931d351b387bb80db027f270411e398a07046f7d4a08dd815412a8712f874a7ebf0507e3878bd24e20a3b73fd750a667d2f451eac7471b00de6659
"$KILN" mine -a scrypt --header "$H" --start 1499913700 --count 40 --device cpu 2>&1 | grep '^nonce=' >"$TMP/mc"
expect_rc 0 "mine -a scrypt on $OCLDEV" "$KILN" mine -a scrypt --header "$H" --start 1499913700 --count 40 --device $OCLDEV
grep '^nonce=' "$TMP/out" >"$TMP/mo"
grep -q '^nonce=1499913728 hash=00000000002bef4107f882f6115e0b01f348d21195dacd3582aa2dabd7985806$' "$TMP/mo" &&
    cmp -s "$TMP/mc" "$TMP/mo" && ok || bad "mine -a scrypt on $OCLDEV: $(cat "$TMP/mo") vs cpu $(cat "$TMP/mc")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
