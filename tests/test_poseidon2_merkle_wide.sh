#!/usr/bin/env bash
# The wider Poseidon2 leaf hashes and the width-12 Goldilocks merge through `kiln merkle --rows
# --leaf-hash`, against the independent reference tests/poseidon2_ref.py (which first checks its
# permutations against Plonky3's known answers, its width-12 merge against miden-crypto's published
# empty-subtree roots and its hash_elements against its merge):
#   sponge24 over BabyBear and KoalaBear: PaddingFreeSponge<Perm24, 24, 16, 8> leaves under the
#            width-16 merge (Plonky3's examples);
#   poseidon2_goldilocks12 with the sponge (PaddingFreeSponge<Perm12, 12, 8, 4>, miden's
#            Poseidon2Hasher) and with miden (miden-crypto's hash_elements) leaves.
# Power-of-two row counts (the roots of Plonky3's MerkleTree and miden's), row widths below, at and
# above the rate and over two blocks; on the CPU, then on each GPU device `kiln devices` lists
# (cuda:0, opencl:0: their rows kernels), whose roots must be the same. Then the refusals.
# ctest: opencl
# usage: test_poseidon2_merkle_wide.sh KILN DATA_DIR
set -u
kiln=$1
data=$2
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP
src=$(cd "$data/../../src" && pwd)
ref() { python3 "$(dirname "$0")/poseidon2_ref.py" "$src" "$data" "$@"; }
export KILN_OPENCL_CACHE=off

command -v python3 > /dev/null || { echo "no python3: skipped"; exit 77; }
if ref selfcheck; then ok; else bad "the reference fails its known answers"; fi

devices=cpu
listed=$("$kiln" devices 2>/dev/null)
for d in cuda:0 opencl:0; do
    if grep -q "^$d " <<< "$listed"; then devices="$devices $d"; fi
done

# field:merge:leaf hash:reference scheme:row widths
cases="babybear:poseidon2_babybear16:sponge24:sponge24:1,15,16,17,33
koalabear:poseidon2_koalabear16:sponge24:sponge24:1,16,20
goldilocks:poseidon2_goldilocks12:sponge:gl12:1,7,8,9,17
goldilocks:poseidon2_goldilocks12:miden:gl12-miden:1,7,8,9,17"
# the reference writes every case's rows and root first, in one process (its batch command: a
# start of the script costs 0.15 s of CPU, and there are 54 cases); kiln then builds each tree
seed=100
i=0
: > "$tmp/batch"
for c in $cases; do
    IFS=: read -r field algo leaf scheme widths <<< "$c"
    for w in ${widths//,/ }; do
        for n in 1 4 16; do
            seed=$((seed + 1)) i=$((i + 1))
            printf 'rows %s %s %s %s %s\nroot %s plonky3 %s %s %s\n' "$field" "$n" "$w" "$seed" "$tmp/rows$i" \
                "$field" "$tmp/rows$i" "$scheme" "$tmp/root$i" >> "$tmp/batch"
        done
    done
done
ref batch < "$tmp/batch" || bad "the reference's batch failed"
i=0
for c in $cases; do
    IFS=: read -r field algo leaf scheme widths <<< "$c"
    for w in ${widths//,/ }; do
        for n in 1 4 16; do
            i=$((i + 1))
            want=$(cat "$tmp/root$i")
            for d in $devices; do
                # the GPUs' rows kernels at 1 and 16 rows (a leaf alone, a tree of four levels): each
                # run on PoCL costs 0.13 s of CPU
                [ "$d" != cpu ] && [ "$n" = 4 ] && continue
                expect 0 "$kiln" merkle --algo "$algo" --leaf-hash "$leaf" --rows "$tmp/rows$i" --device "$d" --quiet
                same "$out" "$want" "$algo --leaf-hash $leaf on $d: $n rows of $w"
            done
        done
    done
done

# a row count that is not a power of two: kiln pairs the odd level's last node with itself
ref rows goldilocks 5 8 7 > "$tmp/rows"
expect 0 "$kiln" merkle --algo poseidon2_goldilocks12 --rows "$tmp/rows" --device cpu --quiet
same "$out" "$(ref root goldilocks kiln "$tmp/rows" gl12)" "poseidon2_goldilocks12: 5 rows, kiln's odd rule"

# the width-24 sponge differs from the width-16 one, miden's hash from the sponge off multiples of 8
ref rows babybear 4 16 9 > "$tmp/rows"
a=$("$kiln" merkle --algo poseidon2_babybear16 --rows "$tmp/rows" --device cpu --quiet)
b=$("$kiln" merkle --algo poseidon2_babybear16 --leaf-hash sponge24 --rows "$tmp/rows" --device cpu --quiet)
if [ -n "$a" ] && [ "$a" != "$b" ]; then ok; else bad "sponge and sponge24 roots equal ($a)"; fi
ref rows goldilocks 4 8 9 > "$tmp/rows"
a=$("$kiln" merkle --algo poseidon2_goldilocks12 --rows "$tmp/rows" --device cpu --quiet)
b=$("$kiln" merkle --algo poseidon2_goldilocks12 --leaf-hash miden --rows "$tmp/rows" --device cpu --quiet)
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "8-element rows: sponge $a, miden $b (miden says they agree)"; fi

# refusals
expect 2 "$kiln" merkle --algo poseidon2_goldilocks8 --leaf-hash miden --rows "$tmp/rows" --device cpu --quiet
one_line_error "no leaf hash miden"
expect 2 "$kiln" merkle --algo poseidon2_goldilocks12 --leaf-hash sponge24 --rows "$tmp/rows" --device cpu --quiet
one_line_error "no leaf hash sponge24"
expect 2 "$kiln" merkle --algo poseidon2_babybear16 --leaf-hash wide --rows "$tmp/rows" --device cpu --quiet
one_line_error "--leaf-hash"
expect 2 "$kiln" merkle --algo poseidon2_babybear16 --leaf-hash sponge24 --leaves "$tmp/rows" --device cpu --quiet
one_line_error "--leaf-hash"
printf '1 2 3\n18446744069414584321 0 0\n' > "$tmp/bad"
expect 2 "$kiln" merkle --algo poseidon2_goldilocks12 --rows "$tmp/bad" --device cpu --quiet
one_line_error "row 1: element 0 is not a canonical"
finish
