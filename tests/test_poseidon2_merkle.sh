#!/usr/bin/env bash
# Poseidon2 Merkle roots: `kiln merkle --rows` (kiln_merkle_leaves_from_rows, then the tree)
# against an independent reference, tests/poseidon2_ref.py (Python written for this test from the
# Poseidon2 paper and Plonky3's definitions, sharing no code with the C: plain modular integers,
# full matrices; it first checks its permutations against Plonky3's own known answers). Roots of
# power-of-two row counts are Plonky3's MerkleTree roots (PaddingFreeSponge leaves,
# TruncatedPermutation compression); for other counts kiln pairs an odd level's last node with
# itself where Plonky3 pads with a zero digest, so the roots are compared with the reference's
# kiln rule and must differ from Plonky3's. Then bad rows: a non-canonical element, ragged rows,
# another merge.
# usage: test_poseidon2_merkle.sh KILN DATA_DIR
set -u
kiln=$1
data=$2
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP
src=$(cd "$data/../../src" && pwd)
ref() { python3 "$(dirname "$0")/poseidon2_ref.py" "$src" "$data" "$@"; }

command -v python3 > /dev/null || { echo "no python3: skipped"; exit 77; }
if ref selfcheck; then ok; else bad "the reference fails Plonky3's permutation known answers"; fi

# field, the merge, the row widths (below, at and above the sponge's rate and over two blocks).
# The reference writes every case's rows and roots first, in one process (batch); kiln then
# checks each case.
cases="babybear:poseidon2_babybear16:1,8,13,16,20 koalabear:poseidon2_koalabear16:1,8,13,16 goldilocks:poseidon2_goldilocks8:1,4,7,8,9"
seed=1
i=0
: > "$tmp/batch"
: > "$tmp/cases"
for c in $cases; do
    field=${c%%:*} rest=${c#*:}
    algo=${rest%%:*} widths=${rest#*:}
    for w in ${widths//,/ }; do
        for n in 1 2 4 16; do
            seed=$((seed + 1)) i=$((i + 1))
            printf 'rows %s %s %s %s %s\nroot %s plonky3 %s %s\n' "$field" "$n" "$w" "$seed" "$tmp/rows$i" \
                "$field" "$tmp/rows$i" "$tmp/p3_$i" >> "$tmp/batch"
            echo "$i $algo plonky3 $n rows of $w: Plonky3's root" >> "$tmp/cases"
        done
    done
    for n in 3 5 7; do
        seed=$((seed + 1)) i=$((i + 1))
        printf 'rows %s %s 8 %s %s\nroot %s kiln %s %s\nroot %s plonky3 %s %s\n' "$field" "$n" "$seed" "$tmp/rows$i" \
            "$field" "$tmp/rows$i" "$tmp/kiln_$i" "$field" "$tmp/rows$i" "$tmp/p3_$i" >> "$tmp/batch"
        echo "$i $algo kiln $n rows: the odd level's last node paired with itself" >> "$tmp/cases"
    done
done
# 32 rows of BabyBear: the whole tree's leaves are the reference's sponge of each row
i=$((i + 1))
printf 'rows babybear 32 16 77 %s\nroot babybear plonky3 %s %s\n' "$tmp/rows$i" "$tmp/rows$i" "$tmp/p3_$i" >> "$tmp/batch"
echo "$i poseidon2_babybear16 plonky3 32 rows of 16" >> "$tmp/cases"
ref batch < "$tmp/batch" || bad "the reference's batch failed"
while read -r i algo rule what; do
    expect 0 "$kiln" merkle --algo "$algo" --rows "$tmp/rows$i" --device cpu --quiet
    if [ "$rule" = kiln ]; then
        same "$out" "$(cat "$tmp/kiln_$i")" "$algo: $what"
        if [ "$out" != "$(cat "$tmp/p3_$i")" ]; then ok; else bad "$algo: ${what%%:*}: equal to Plonky3's zero-padded root"; fi
    else
        same "$out" "$(cat "$tmp/p3_$i")" "$algo: $what"
    fi
done < "$tmp/cases"

# bad rows
printf '1 2 3\n2013265921 0 0\n' > "$tmp/bad"
expect 2 "$kiln" merkle --algo poseidon2_babybear16 --rows "$tmp/bad" --device cpu --quiet
one_line_error "row 1: element 0 is not a canonical"
printf '1 2 3\n4 5\n' > "$tmp/bad"
expect 2 "$kiln" merkle --algo poseidon2_koalabear16 --rows "$tmp/bad" --device cpu --quiet
one_line_error "line 2: 2 elements, the first row has 3"
printf '1 x\n' > "$tmp/bad"
expect 2 "$kiln" merkle --algo poseidon2_goldilocks8 --rows "$tmp/bad" --device cpu --quiet
one_line_error "line 1: elements must be decimal"
expect 2 "$kiln" merkle --algo sha256 --rows "$tmp/rows1" --device cpu --quiet
one_line_error "poseidon2"
# a leaf file of the BabyBear merge must hold canonical elements
printf '%s\n' ffffffff00000000000000000000000000000000000000000000000000000000 > "$tmp/leaves"
expect 2 "$kiln" merkle --algo poseidon2_babybear16 --leaves "$tmp/leaves" --device cpu --quiet
one_line_error "below 2^31 - 2^27 + 1"
finish
