#!/usr/bin/env bash
# SHA-512, SHA-384 and SHA-512/256 through kiln hash, against the tools that write their lists:
# coreutils' sha512sum and sha384sum (plain and --tag lists byte for byte, each --check accepting
# the other's), OpenSSL 3's `dgst` for SHA-512/256 (its digests, and its tagged lines read by
# kiln --check), and a corrupted digest refused as sha512sum refuses it.
# Usage: test_hash_sha512_family.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
command -v sha512sum > /dev/null && command -v sha384sum > /dev/null || { echo "no sha512sum: skipped"; exit 77; }
cd "$T" || exit 1
printf '' > empty
printf abc > abc
head -c 1000000 /dev/zero | tr '\0' 'a' > million
head -c 777 "$2/block413567.raw" > 'odd name (1)'
files=(empty abc million 'odd name (1)')

for algo in sha512 sha384; do
    "$KILN" hash --algo $algo -- "${files[@]}" > kiln.sums
    ${algo}sum -- "${files[@]}" > cu.sums
    cmp -s kiln.sums cu.sums && ok || bad "$algo: list differs from ${algo}sum's: $(diff kiln.sums cu.sums | head -4)"
    "$KILN" hash --algo $algo --tag -- "${files[@]}" > kiln.tag
    ${algo}sum --tag -- "${files[@]}" > cu.tag
    cmp -s kiln.tag cu.tag && ok || bad "$algo --tag: differs from ${algo}sum's"
    "$KILN" hash --algo $algo --check cu.sums > /dev/null && ok || bad "$algo: kiln --check refused ${algo}sum's list"
    "$KILN" hash --check cu.tag > /dev/null && ok || bad "$algo: kiln --check refused ${algo}sum --tag's list"
    ${algo}sum --check --status kiln.sums && ok || bad "$algo: ${algo}sum --check refused kiln's list"
    # one digit changed: both say FAILED for that file and exit 1
    sed '2s/^./0/;2s/^00/11/' cu.sums > bad.sums
    "$KILN" hash --algo $algo --check --status bad.sums
    rc=$?
    ${algo}sum --check --status bad.sums
    cu=$?
    [ $rc = 1 ] && [ $cu = 1 ] && ok || bad "$algo: a corrupted line: kiln exit $rc, ${algo}sum exit $cu"
done

# SHA-512/256: coreutils has no tool; OpenSSL 3 has `dgst -sha512-256`
if openssl dgst -sha512-256 abc > /dev/null 2>&1; then
    for f in "${files[@]}"; do
        want=$(openssl dgst -sha512-256 -r "$f" | cut -d' ' -f1)
        got=$("$KILN" hash --algo sha512-256 -- "$f" | cut -d' ' -f1)
        [ "$got" = "$want" ] && ok || bad "sha512-256 of $f: $got, OpenSSL $want"
    done
    openssl dgst -sha512-256 abc million > ossl.tag
    "$KILN" hash --check ossl.tag > out && ok || bad "kiln --check refused OpenSSL's SHA2-512/256 lines: $(cat out)"
    openssl dgst -sha512 abc > ossl512.tag
    "$KILN" hash --check ossl512.tag > /dev/null && ok || bad "kiln --check refused OpenSSL's SHA2-512 line"
else
    echo "no openssl with sha512-256: SHA-512/256 not compared"
fi
finish
