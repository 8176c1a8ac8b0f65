#!/usr/bin/env bash
# BLAKE2b and BLAKE2s through kiln hash, against the tools that write their lists: coreutils'
# b2sum (plain and --tag lists byte for byte, also with -l/--length in bits, which b2sum tags
# BLAKE2b-<bits>; each --check accepting the other's lists; b2sum's refusals of a length), and
# OpenSSL 3's `dgst -blake2b512` / `-blake2s256` (their digests, and their tagged lines read by
# kiln --check).
# Usage: test_hash_blake2_family.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
command -v b2sum > /dev/null || { echo "no b2sum: skipped"; exit 77; }
cd "$T" || exit 1
printf '' > empty
printf abc > abc
head -c 128 /dev/zero | tr '\0' 'x' > block
head -c 129 /dev/zero | tr '\0' 'y' > block1
head -c 1000000 /dev/zero | tr '\0' 'a' > million
head -c 777 "$2/block413567.raw" > 'odd name (1)'
files=(empty abc block block1 million 'odd name (1)')

for len in "" 8 160 256 384 504 512; do
    opt=() && [ -n "$len" ] && opt=(--length "$len")
    what="blake2b${len:+ -l $len}"
    "$KILN" hash --algo blake2b "${opt[@]}" -- "${files[@]}" > kiln.sums
    b2sum "${opt[@]}" -- "${files[@]}" > cu.sums
    cmp -s kiln.sums cu.sums && ok || bad "$what: list differs from b2sum's: $(diff kiln.sums cu.sums | head -4)"
    "$KILN" hash --algo blake2b "${opt[@]}" --tag -- "${files[@]}" > kiln.tag
    b2sum "${opt[@]}" --tag -- "${files[@]}" > cu.tag
    cmp -s kiln.tag cu.tag && ok || bad "$what --tag: differs from b2sum's: $(diff kiln.tag cu.tag | head -4)"
    "$KILN" hash --algo blake2b --check cu.sums > /dev/null && ok || bad "$what: kiln --check refused b2sum's list"
    "$KILN" hash --check cu.tag > /dev/null && ok || bad "$what: kiln --check refused b2sum --tag's list"
    b2sum --check --status kiln.sums && ok || bad "$what: b2sum --check refused kiln's list"
    b2sum --check --status kiln.tag && ok || bad "$what: b2sum --check refused kiln's --tag list"
    # one digit changed: both say FAILED for that file and exit 1
    sed '2s/^./0/;2s/^00/11/' cu.sums > bad.sums
    "$KILN" hash --algo blake2b --check --status bad.sums
    rc=$?
    b2sum --check --status bad.sums
    cu=$?
    [ $rc = 1 ] && [ $cu = 1 ] && ok || bad "$what: a corrupted line: kiln exit $rc, b2sum exit $cu"
done
# -l is --length
"$KILN" hash -a blake2b -l 256 abc > kiln.sums && b2sum -l 256 abc > cu.sums && cmp -s kiln.sums cu.sums && ok ||
    bad "-l 256 differs from b2sum's"

# lines b2sum -c refuses, kiln refuses (improperly formatted: with --strict, exit 1 beside a good
# line): a tag's length and the digest's disagree, a length that is not a multiple of 8 or is past
# 512 bits, the plain tag with a shorter digest
h8=$(b2sum -l 8 abc | cut -c1-2)
h256=$(b2sum -l 256 abc | cut -c1-64)
h512=$(b2sum abc | cut -c1-128)
for line in "BLAKE2b-256 (abc) = $h512" "BLAKE2b-12 (abc) = $h8" "BLAKE2b-520 (abc) = $h512" \
    "BLAKE2b-0 (abc) = $h512" "BLAKE2b (abc) = $h256" "BLAKE2b-0256 (abc) = $h256"; do
    printf '%s\n%s\n' "BLAKE2b (abc) = $h512" "$line" > one.sums
    b2sum --check --status --strict one.sums 2> /dev/null
    cu=$?
    "$KILN" hash --check --status --strict one.sums 2> /dev/null
    rc=$?
    [ $cu = 1 ] && [ $rc = 1 ] && ok || bad "'${line:0:24}...': kiln exit $rc, b2sum exit $cu"
done
# and those it accepts: an untagged line of any length (b2sum infers it), BLAKE2b-512
for line in "$h8  abc" "$h256  abc" "BLAKE2b-512 (abc) = $h512" "BLAKE2b-8 (abc) = $h8"; do
    printf '%s\n' "$line" > one.sums
    b2sum --check --status one.sums && ok || bad "b2sum refused '$line'"
    "$KILN" hash --algo blake2b --check --status one.sums && ok || bad "kiln refused '${line:0:24}...'"
done

# lengths b2sum refuses, kiln refuses (usage, exit 2); other algorithms keep --length's bytes
for len in 12 520 4; do
    b2sum -l $len abc > /dev/null 2>&1 && bad "b2sum took -l $len"
    "$KILN" hash -a blake2b -l $len abc > /dev/null 2> err
    rc=$?
    [ $rc = 2 ] && grep -q "in bits" err && ok || bad "-l $len: exit $rc, $(cat err)"
done
"$KILN" hash -a sha256 -l 256 abc > /dev/null 2> err
[ $? = 2 ] && ok || bad "sha256 took --length"
"$KILN" hash -a shake128 --length 5 abc | grep -q '^5881092dd8  abc$' && ok || bad "shake128 --length 5 is no longer 5 bytes"

# BLAKE2s: no coreutils tool; the reference b2sum's tag BLAKE2s, and a digest length in bits too
"$KILN" hash -a blake2s -l 128 --tag abc | grep -q '^BLAKE2s-128 (abc) = [0-9a-f]\{32\}$' && ok || bad "blake2s -l 128 --tag"
python3 -c 'import hashlib; print(hashlib.blake2s(b"abc", digest_size=16).hexdigest() + "  abc")' > py.sums 2> /dev/null &&
    { "$KILN" hash -a blake2s -l 128 abc | cmp -s - py.sums && ok || bad "blake2s -l 128 differs from hashlib"; }

# OpenSSL 3: digests, and its tagged lines
if openssl dgst -blake2b512 abc > /dev/null 2>&1 && openssl dgst -blake2s256 abc > /dev/null 2>&1; then
    for f in "${files[@]}"; do
        for pair in blake2b:blake2b512 blake2s:blake2s256; do
            want=$(openssl dgst -${pair#*:} -r "$f" | cut -d' ' -f1)
            got=$("$KILN" hash --algo ${pair%%:*} -- "$f" | cut -d' ' -f1)
            [ "$got" = "$want" ] && ok || bad "${pair%%:*} of $f: $got, OpenSSL $want"
        done
    done
    openssl dgst -blake2b512 abc million > ossl.tag
    openssl dgst -blake2s256 abc block1 >> ossl.tag
    "$KILN" hash --check ossl.tag > out && [ "$(grep -c ': OK$' out)" = 4 ] && ok ||
        bad "kiln --check refused OpenSSL's BLAKE2B-512 / BLAKE2S-256 lines: $(cat out)"
else
    echo "no openssl with blake2b512 / blake2s256: not compared"
fi
finish
