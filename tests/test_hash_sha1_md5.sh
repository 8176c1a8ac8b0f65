#!/usr/bin/env bash
# SHA-1, SHA-224 and MD5 through kiln hash, against the tools that write their lists: coreutils'
# sha1sum, sha224sum and md5sum (plain and --tag lists byte for byte, each --check accepting the
# other's, a corrupted digest refused as they refuse it) and OpenSSL's `dgst` (its digests, and its
# tagged lines read by kiln --check).
# Usage: test_hash_sha1_md5.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
for tool in sha1sum sha224sum md5sum; do
    command -v $tool > /dev/null || { echo "no $tool: skipped"; exit 77; }
done
cd "$T" || exit 1
printf '' > empty
printf abc > abc
head -c 1000000 /dev/zero | tr '\0' 'a' > million
head -c 777 "$2/block413567.raw" > 'odd name (1)'
head -c 64 "$2/block413567.raw" > block64
head -c 119 "$2/block413567.raw" > pad119
files=(empty abc million 'odd name (1)' block64 pad119)

for algo in sha1 sha224 md5; do
    tool=${algo}sum
    "$KILN" hash --algo $algo -- "${files[@]}" > kiln.sums
    $tool -- "${files[@]}" > cu.sums
    cmp -s kiln.sums cu.sums && ok || bad "$algo: list differs from $tool's: $(diff kiln.sums cu.sums | head -4)"
    "$KILN" hash --algo $algo --tag -- "${files[@]}" > kiln.tag
    $tool --tag -- "${files[@]}" > cu.tag
    cmp -s kiln.tag cu.tag && ok || bad "$algo --tag: differs from $tool's: $(diff kiln.tag cu.tag | head -4)"
    "$KILN" hash --algo $algo --check cu.sums > /dev/null && ok || bad "$algo: kiln --check refused $tool's list"
    "$KILN" hash --check cu.tag > /dev/null && ok || bad "$algo: kiln --check refused $tool --tag's list"
    $tool --check --status kiln.sums && ok || bad "$algo: $tool --check refused kiln's list"
    $tool --check --status kiln.tag && ok || bad "$algo: $tool --check refused kiln's --tag list"
    # standard input, as coreutils names it
    got=$("$KILN" hash --algo $algo < abc)
    want=$($tool < abc)
    expect_eq "$got" "$want" "$algo of standard input"
    # one digit changed: both say FAILED for that file and exit 1
    sed '2s/^./0/;2s/^00/11/' cu.sums > bad.sums
    "$KILN" hash --algo $algo --check --status bad.sums
    rc=$?
    $tool --check --status bad.sums
    cu=$?
    [ $rc = 1 ] && [ $cu = 1 ] && ok || bad "$algo: a corrupted line: kiln exit $rc, $tool exit $cu"
done

# OpenSSL: its digests, and its tagged lines (SHA1(f)= ..., SHA2-224(f)= ... in OpenSSL 3, MD5(f)= ...)
if command -v openssl > /dev/null; then
    for algo in sha1 sha224 md5; do
        for f in "${files[@]}"; do
            want=$(openssl dgst -$algo -r "$f" | cut -d' ' -f1)
            got=$("$KILN" hash --algo $algo -- "$f" | cut -d' ' -f1)
            [ "$got" = "$want" ] && ok || bad "$algo of $f: $got, OpenSSL $want"
        done
        openssl dgst -$algo abc million block64 > ossl.tag
        "$KILN" hash --check ossl.tag > out && ok || bad "kiln --check refused OpenSSL's $algo lines: $(cat ossl.tag; cat out)"
    done
else
    echo "no openssl: OpenSSL's digests not compared"
fi
finish
