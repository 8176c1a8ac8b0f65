#!/usr/bin/env bash
# `kiln merkle --algo blake3` against b3sum: a parent is BLAKE3 of its children's 64 bytes, so a
# tree of 37 leaves (odd levels, whose last node pairs with itself) is rebuilt here level by level
# with b3sum over each pair, and kiln's root, every node of --tree, and a proof must agree.
# Usage: test_merkle_blake3.sh KILN DATA_DIR
set -u
kiln=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/cli_util.sh"
command -v b3sum > /dev/null || { echo "no b3sum (scripts/setup-debian installs it): skipped"; exit 77; }
cd "$TMP" || exit 1

# BLAKE3 of the 64 bytes whose hex is $1$2
pair() { printf "$(printf '%s%s' "$1" "$2" | sed 's/../\\x&/g')" | b3sum --no-names; }

level=()
for i in $(seq 0 36); do level+=("$(printf 'leaf %d' "$i" | b3sum --no-names)"); done
printf '%s\n' "${level[@]}" > leaves.txt
: > want_tree.txt
l=0
while :; do
    for i in "${!level[@]}"; do echo "$l $i ${level[$i]}" >> want_tree.txt; done
    [ ${#level[@]} -eq 1 ] && break
    next=()
    for ((i = 0; i < ${#level[@]}; i += 2)); do
        right=${level[$((i + 1))]:-${level[$i]}}
        next+=("$(pair "${level[$i]}" "$right")")
    done
    level=("${next[@]}")
    l=$((l + 1))
done
root=${level[0]}

expect 0 "$kiln" merkle --algo blake3 --leaves leaves.txt --device cpu
same "$out" "$root" "root of 37 leaves"
expect 0 "$kiln" merkle --algo blake3 --leaves leaves.txt --device cpu --threads 1
same "$out" "$root" "root of 37 leaves, one thread"
expect 0 "$kiln" merkle --algo blake3 --leaves leaves.txt --device cpu --tree
printf '%s\n' "$out" | grep -E '^[0-9]+ [0-9]+ [0-9a-f]{64}$' > got_tree.txt
cmp -s got_tree.txt want_tree.txt && ok || bad "--tree differs: $(diff got_tree.txt want_tree.txt | head -4)"
# two leaves: the root is BLAKE3 of their 64 bytes, one compression flagged as a whole message
printf '%s\n%s\n' "$(sed -n 1p leaves.txt)" "$(sed -n 2p leaves.txt)" > two.txt
expect 0 "$kiln" merkle --algo blake3 --leaves two.txt
same "$out" "$(pair "$(sed -n 1p leaves.txt)" "$(sed -n 2p leaves.txt)")" "root of two leaves"
# a proof of leaf 36 (the odd one out at every level) verifies against the same root
expect 0 "$kiln" merkle --algo blake3 --leaves leaves.txt --proof 36
printf '%s\n' "$out" > proof.txt
same "$(sed -n 1p proof.txt)" "$root" "the proof's root"
expect 0 "$kiln" merkle --algo blake3 --verify proof.txt --leaf "$(sed -n 37p leaves.txt)" --index 36 --count 37
finish
