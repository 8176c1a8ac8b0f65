#!/usr/bin/env bash
# `kiln merkle` as a user runs it: real blocks (mainnet 413567, a segwit testnet3 block) against
# their headers, leaf files, proofs and their verification (and tampering), the whole tree, other
# algorithms against independent answers, damaged blocks and bad input (exit codes, one-line
# errors naming the line or byte offset), and the merkle bench/tune front ends.
# usage: test_cli_merkle.sh KILN DATA_DIR
set -u
kiln=$1
data=$2
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP

line() { printf '%s\n' "$out" | sed -n "${1}p"; }

root413567=64a50c649fc816baaa2effda230c39cacf1504e4e616a2863685b72aaa7dce05

# ---- raw blocks
expect 0 "$kiln" merkle --block "$data/block413567.raw"
same "$(line 1)" "$root413567" "block413567 root"
same "$(line 2)" "header_root=$root413567 match" "header root line"
same "$(line 3)" "block_hash=0000000000000000025aff8be8a55df8f89c77296db6198f272d6577325d4069 pow=ok (bits 18058436)" "pow line"
same "$(line 4)" "transactions=1557 segwit=0" "counts"
expect 0 "$kiln" merkle --block "$data/testnet3_block_000000000000045e.raw" --device cpu
same "$(line 1)" "7ef6e8a89489bf99fc1b53552c00a6408bc2d03d15a620d42a672f0ae726bc10" "segwit block root"
same "$(line 4)" "transactions=15 segwit=1" "segwit counts"

# Litecoin's genesis block (its coinbase rebuilt from chainparams; the header's Merkle root and
# litecoin_pow.json's scrypt hash are the external answers): its proof of work is scrypt's
ltc_root=97ddfbbae6be97fd6cdf3e7ca13232a3afff2353e29badfab7f73011edd4ced9
ltc_pow=0000050c34a64b415b6b15b37f2216634b5b1669cb9a2e38d76f7213b0671e00
expect 0 "$kiln" merkle --block "$data/litecoin_genesis.raw" --pow scrypt
same "$(line 2)" "header_root=$ltc_root match" "litecoin genesis root"
same "$(line 3)" "block_hash=12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2 pow=ok (scrypt $ltc_pow, bits 1e0ffff0)" \
    "litecoin pow line"
expect 1 "$kiln" merkle --block "$data/litecoin_genesis.raw"
one_line_error "a Litecoin block? --pow scrypt"
expect 1 "$kiln" merkle --block "$data/block413567.raw" --pow scrypt
one_line_error "scrypt hash .* does not meet its target"
expect 2 "$kiln" merkle --block "$data/block413567.raw" --pow x11
one_line_error "bad --pow 'x11'"
expect 0 "$kiln" merkle --block "$data/litecoin_genesis.raw" --pow scrypt --json
printf '%s' "$out" | python3 -c 'import json, sys; d = json.load(sys.stdin)
sys.exit(not (d["pow"] == "scrypt" and d["pow_hash"] == sys.argv[1] and d["pow_ok"] is True))' "$ltc_pow" && ok ||
    bad "--pow scrypt --json: $out"

# a wrong Merkle root in the header: exit 1; a broken proof of work: exit 1
cp "$data/block413567.raw" "$tmp/bad_root.raw"
printf '\x00' | dd of="$tmp/bad_root.raw" bs=1 seek=40 conv=notrunc status=none
expect 1 "$kiln" merkle --block "$tmp/bad_root.raw"
if printf '%s\n' "$out" | grep -q 'MISMATCH'; then ok; else bad "mismatch not reported: $out"; fi
one_line_error "does not match"
cp "$data/block413567.raw" "$tmp/bad_pow.raw"
printf '\x00\x00\x00\x00' | dd of="$tmp/bad_pow.raw" bs=1 seek=76 conv=notrunc status=none
expect 1 "$kiln" merkle --block "$tmp/bad_pow.raw"
if printf '%s\n' "$out" | grep -q 'pow=FAILED'; then ok; else bad "pow failure not reported: $out"; fi

# truncated, padded and garbage blocks: exit 2 with the byte offset, nothing on stdout
for cut in 0 79 80 81 85 500 123457 999886; do
    head -c $cut "$data/block413567.raw" > "$tmp/cut.raw"
    expect 2 "$kiln" merkle --block "$tmp/cut.raw"; one_line_error "offset"
    same "$out" "" "no partial output for a block cut at $cut"
done
{ cat "$data/block413567.raw"; printf 'xx'; } > "$tmp/long.raw"
expect 2 "$kiln" merkle --block "$tmp/long.raw"; one_line_error "2 bytes follow the last transaction at offset 999887"
expect 2 "$kiln" merkle --block "$tmp/missing.raw"; one_line_error "missing.raw: No such file or directory"
expect 2 "$kiln" merkle --leaves "$tmp/nosuch"; one_line_error "nosuch: No such file or directory"

# ---- leaf files: txids as explorers show them
grep -v '^#' "$data/block413567.txids.txt" | awk '{print $3}' > "$tmp/txids.txt"
expect 0 "$kiln" merkle --leaves "$tmp/txids.txt"
same "$out" "$root413567" "root of the txid list (one line)"
expect 0 "$kiln" merkle --algo sha256d --leaves - < "$tmp/txids.txt"
same "$out" "$root413567" "root from stdin"

# proofs: the last transaction pairs with itself; every proof verifies, tampering does not
expect 0 "$kiln" merkle --leaves "$tmp/txids.txt" --proof 1556
printf '%s\n' "$out" > "$tmp/proof1556"
same "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 12 "root + 11 siblings"
last=$(sed -n 1557p "$tmp/txids.txt")
same "$(line 2)" "$last" "the last leaf's sibling is itself"
expect 0 "$kiln" merkle --verify "$tmp/proof1556" --leaf "$last" --index 1556 --count 1557
same "$out" "OK" "verify"
for i in 0 1 2 777 1000 1555; do
    "$kiln" merkle --leaves "$tmp/txids.txt" --proof $i > "$tmp/p" 2>/dev/null
    leaf=$(sed -n "$((i + 1))p" "$tmp/txids.txt")
    expect 0 "$kiln" merkle --verify "$tmp/p" --leaf "$leaf" --index $i --count 1557
    expect 1 "$kiln" merkle --verify "$tmp/p" --leaf "$leaf" --index $((i ^ 1)) --count 1557
    other=$(sed -n "$((i + 2))p" "$tmp/txids.txt")
    expect 1 "$kiln" merkle --verify "$tmp/p" --leaf "$other" --index $i --count 1557
    awk 'NR == 5 { c = substr($0, 1, 1); $0 = (c == "0" ? "1" : "0") substr($0, 2) } 1' "$tmp/p" > "$tmp/p2"
    expect 1 "$kiln" merkle --verify "$tmp/p2" --leaf "$leaf" --index $i --count 1557
    if printf '%s\n' "$out" | grep -q '^FAILED'; then ok; else bad "tampered proof $i: $out"; fi
done
expect 1 "$kiln" merkle --verify "$tmp/proof1556" --leaf "$last" --index 1557 --count 1557
expect 1 "$kiln" merkle --verify "$tmp/proof1556" --leaf "$last" --index 1556 --count 1000
expect 2 "$kiln" merkle --verify "$tmp/proof1556" --leaf 1234 --index 0 --count 1557; one_line_error "leaf"
# without the leaf count a proof cannot bound the index: index 3 of a 3-leaf tree would pass as
# index 2 (the last node of an odd level pairs with itself), so --count is required
head -3 "$tmp/txids.txt" > "$tmp/three.txt"
"$kiln" merkle --leaves "$tmp/three.txt" --proof 2 > "$tmp/proof3" 2>/dev/null
third=$(sed -n 3p "$tmp/three.txt")
expect 0 "$kiln" merkle --verify "$tmp/proof3" --leaf "$third" --index 2 --count 3
expect 1 "$kiln" merkle --verify "$tmp/proof3" --leaf "$third" --index 3 --count 3
expect 2 "$kiln" merkle --verify "$tmp/proof3" --leaf "$third" --index 3; one_line_error "--count"
expect 2 "$kiln" merkle --verify "$tmp/proof3" --leaf "$third" --index 2; one_line_error "--count"
same "$out" "" "nothing on stdout without --count"
# a proof file holds at most the root and 64 siblings
for i in $(seq 66); do echo "$third"; done > "$tmp/proof66"
expect 2 "$kiln" merkle --verify "$tmp/proof66" --leaf "$third" --index 0 --count 1; one_line_error "line 66: more than 65 hashes"
expect 2 "$kiln" merkle --verify "$tmp/proof1556" --index 0; one_line_error "--leaf"

# the whole tree of 5 leaves: 5 + 3 + 2 + 1 nodes after the root line
head -5 "$tmp/txids.txt" > "$tmp/five.txt"
expect 0 "$kiln" merkle --leaves "$tmp/five.txt" --tree
same "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 12 "tree lines"
same "$(line 2)" "0 0 $(sed -n 1p "$tmp/five.txt")" "first leaf line"
same "$(line 12)" "3 0 $(line 1)" "last line is the root"

# ---- other algorithms
# sha256 of two leaves = sha256sum of their 64 bytes
l=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
r=ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100
printf '%s\n%s\n' "$l" "$r" > "$tmp/two.txt"
want=$(printf "$(printf '%s%s' "$l" "$r" | sed 's/../\\x&/g')" | sha256sum | cut -d' ' -f1)
expect 0 "$kiln" merkle --algo sha256 --leaves "$tmp/two.txt"
same "$out" "$want" "sha256 root = sha256sum of left||right"
# rp64_256: tests/data/rp64_256_derived.json's merge vector, as little-endian u64 bytes
printf '%s\n%s\n' 685ffe77e88e9dcf7d87b0560c0c332a112460b5f1368b3e7ccd2a358a2f7125 \
    e53d5076342f9a03f26920e26ef261ba73feb97ff301cb18444a8a5086b7a785 > "$tmp/rp.txt"
expect 0 "$kiln" merkle --algo rp64_256 --leaves "$tmp/rp.txt"
same "$out" 430ef05793dc17ca82c759855e58240a59cb98aea33b0169e6035a9f06f035bb "rp64_256 merge vector"
printf '%s\n' ffffffffffffffff000000000000000000000000000000000000000000000000 > "$tmp/noncanon.txt"
expect 2 "$kiln" merkle --algo rp64_256 --leaves "$tmp/noncanon.txt"; one_line_error "canonical"
# rpo256: miden-crypto's published hash_elements(0..7) (tests/test_rpo.c), which equals its
# merge([0,1,2,3], [4,5,6,7]), as little-endian u64 bytes
printf '%s\n%s\n' 0000000000000000010000000000000002000000000000000300000000000000 \
    0400000000000000050000000000000006000000000000000700000000000000 > "$tmp/rpo.txt"
expect 0 "$kiln" merkle --algo rpo256 --leaves "$tmp/rpo.txt"
same "$out" 2d15fa1522183c4b10e47645ff7626875396dba8794a6461818f21a9d0ddd877 "rpo256 merge vector"
expect 2 "$kiln" merkle --algo rpo256 --leaves "$tmp/noncanon.txt"; one_line_error "canonical"
expect 2 "$kiln" merkle --algo md5 --leaves "$tmp/two.txt"; one_line_error "unknown merkle algorithm"
expect 0 "$kiln" merkle --algo sha3-256 --leaves "$tmp/two.txt"
expect 0 "$kiln" merkle --algo keccak256 --leaves "$tmp/two.txt"

# ---- bad leaf files and usage
printf '%s\nzz\n' "$l" > "$tmp/badhex.txt"
expect 2 "$kiln" merkle --leaves "$tmp/badhex.txt"; one_line_error "line 2"
printf '%sff\n' "$l" > "$tmp/long.txt"
expect 2 "$kiln" merkle --leaves "$tmp/long.txt"; one_line_error "line 1: expected 64 hex digits"
printf '# nothing\n\n' > "$tmp/empty.txt"
expect 2 "$kiln" merkle --leaves "$tmp/empty.txt"; one_line_error "no hashes"
expect 2 "$kiln" merkle --leaves "$tmp/two.txt" --proof 2; one_line_error "--proof"
expect 2 "$kiln" merkle --leaves "$tmp/two.txt" --block "$data/block413567.raw"; one_line_error "exactly one"
expect 2 "$kiln" merkle --algo sha256 --block "$data/block413567.raw"; one_line_error "sha256d"
expect 2 "$kiln" merkle --leaves "$tmp/two.txt" --k 13; one_line_error "--k"
expect 2 "$kiln" merkle --leaves "$tmp/two.txt" --method fast; one_line_error "--method"
expect 0 "$kiln" merkle --help

# ---- bench and tune front ends
expect 0 "$kiln" bench --algo merkle-sha256d --leaves 2^10 --device cpu --reps 2 --json
if printf '%s' "$out" | grep -Eq '^\{"algo": "merkle-sha256d", "device": ".*", "rate": [0-9]+, "unit": "H/s", "leaves": 1024'; then ok
else bad "bench json: $out"; fi
expect 0 "$kiln" bench --algo merkle-rp64 --leaves 300 --device cpu --reps 1
expect 2 "$kiln" bench --algo merkle-md5; one_line_error "unknown algorithm"
expect 2 "$kiln" bench --algo merkle-sha256d --leaves 2^41; one_line_error "--leaves"
expect 2 "$kiln" tune --algo merkle-sha256d --device cpu; one_line_error "GPU"

finish
