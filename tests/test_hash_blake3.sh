#!/usr/bin/env bash
# BLAKE3 through kiln hash, against b3sum (Debian's b3sum 1.2.0, the BLAKE3 team's tool): the
# digest lists byte for byte (names that need escaping included; files that go through the stream,
# the whole-chunk runs and the read-ahead thread), each --check reading the other's list with the
# same verdicts, a corrupted line refused by both with exit 1, extended outputs (--length), keyed
# hashing and key derivation (--keyed, --derive-key), stdin, and the options b3sum refuses.
# Usage: test_hash_blake3.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
command -v b3sum > /dev/null || { echo "no b3sum (scripts/setup-debian installs it): skipped"; exit 77; }
DATA=$(cd "$2" && pwd)
cd "$T" || exit 1
printf '' > empty
printf abc > abc
# 1024 (a whole chunk), 1025 and 2048 bytes: the chunk boundaries; 2.5 MB and 9 MiB + 7 bytes (read
# ahead on a thread) of the block file repeated
head -c 1024 "$DATA/block413567.raw" > chunk
head -c 1025 "$DATA/block413567.raw" > chunk1
head -c 2048 "$DATA/block413567.raw" > chunks2
for i in $(seq 60); do cat "$DATA/block413567.raw"; done > rep
head -c 2500001 rep > 'odd name (1)'
cat rep rep rep rep rep rep rep rep rep rep | head -c $((9 * 1048576 + 7)) > big
printf 'q' > 'back\slash'
files=(empty abc chunk chunk1 chunks2 'odd name (1)' big)

"$KILN" hash --algo blake3 -- "${files[@]}" 'back\slash' > kiln.sums
b3sum -- "${files[@]}" 'back\slash' > b3.sums
cmp -s kiln.sums b3.sums && ok || bad "list differs from b3sum's: $(diff kiln.sums b3.sums | head -4)"
"$KILN" hash --algo blake3 --check b3.sums > out && ok || bad "kiln --check refused b3sum's list: $(cat out)"
b3sum --check kiln.sums > b3.out && ok || bad "b3sum --check refused kiln's list: $(cat b3.out)"
# the same verdicts ("NAME: OK"), but for a name with a backslash, which b3sum escapes in its
# verdicts and sha256sum -c (whose rules kiln follows) does not
"$KILN" hash --algo blake3 --check b3.sums | grep -v slash > k.out
grep -v slash b3.out > b.out
cmp -s k.out b.out && ok || bad "verdicts differ from b3sum's: $(diff k.out b.out | head -4)"

# one digit changed: both say FAILED for that file, exit 1
sed '2s/^./0/;2s/^00/11/' b3.sums > bad.sums
"$KILN" hash --algo blake3 --check bad.sums > k.out
rc=$?
b3sum --check bad.sums > b.out
b3=$?
[ $rc = 1 ] && [ $b3 = 1 ] && ok || bad "a corrupted line: kiln exit $rc, b3sum exit $b3"
grep -q '^abc: FAILED$' k.out && grep -q '^abc: FAILED$' b.out && ok || bad "the FAILED verdicts: $(cat k.out b.out)"

# extended output, stdin, keyed hashing, key derivation
expect_eq "$("$KILN" hash --algo blake3 --length 131 -- "${files[@]}")" "$(b3sum --length 131 -- "${files[@]}")" "--length 131"
b3sum --length 100 abc big > long.sums
"$KILN" hash --algo blake3 --check long.sums > /dev/null && ok || bad "kiln --check refused b3sum --length 100's lines"
expect_eq "$("$KILN" hash --algo blake3 < big)" "$(b3sum < big)" "stdin"
key='whats the Elvish word for friend'
expect_eq "$(printf %s "$key" | "$KILN" hash --algo blake3 --keyed -- "${files[@]}")" \
    "$(printf %s "$key" | b3sum --keyed -- "${files[@]}")" "--keyed"
expect_eq "$("$KILN" hash --algo blake3 --derive-key 'kiln test 2026 context' -- "${files[@]}")" \
    "$(b3sum --derive-key 'kiln test 2026 context' -- "${files[@]}")" "--derive-key"
expect_eq "$("$KILN" hash --algo blake3 --derive-key '' --length 70 abc)" "$(b3sum --derive-key '' --length 70 abc)" \
    "--derive-key with an empty context"

# refused, as b3sum refuses them: a key of another length, --keyed with --check or --derive-key;
# and the modes no other algorithm has
printf short | "$KILN" hash --algo blake3 --keyed abc > /dev/null 2>&1
[ $? = 2 ] && ok || bad "a 5-byte key was taken"
printf %s "$key" | "$KILN" hash --algo blake3 --keyed --check b3.sums > /dev/null 2>&1
[ $? = 2 ] && ok || bad "--keyed --check was taken"
"$KILN" hash --algo blake3 --keyed --derive-key x abc > /dev/null 2>&1 < /dev/null
[ $? = 2 ] && ok || bad "--keyed with --derive-key was taken"
"$KILN" hash --algo sha256 --derive-key x abc > /dev/null 2>&1
[ $? = 2 ] && ok || bad "sha256 took --derive-key"

# --tag lines name the algorithm, so --check needs no --algo
"$KILN" hash --algo blake3 --tag abc big > tag.sums
grep -q '^BLAKE3 (abc) = 6437b3ac' tag.sums && ok || bad "--tag line: $(head -1 tag.sums)"
"$KILN" hash --check tag.sums > /dev/null && ok || bad "kiln --check refused its BLAKE3 tags"
finish
