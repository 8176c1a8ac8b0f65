#!/usr/bin/env bash
# kiln hash and --check against GNU coreutils' sha256sum on hostile file names (a newline, a
# backslash, a carriage return, leading blanks, '*', parentheses): kiln's lists are byte for byte
# sha256sum's (plain and --tag), each accepts the other's, and the verdicts are the same bytes.
# Then BSD/OpenSSL tagged lines (the tag must name --algo, or chooses the hash without it), and a
# binary file given as a list (one summary line, as sha256sum, not a warning per line). Last, the
# options sha256sum users bring (issue 25.5): -a, -c with several lists, --status, --strict,
# --ignore-missing, -z, -w, each run beside sha256sum on the same files: same stdout, same stderr
# (program name aside), same exit status.
# Usage: test_hash_check_coreutils.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
command -v sha256sum > /dev/null || { echo "no sha256sum: skipped"; exit 77; }
same_bytes() { if cmp -s "$1" "$2"; then ok; else bad "$3: $(od -c "$1" | head -5) versus $(od -c "$2" | head -5)"; fi; }
# Verdict lines (`NAME: OK`) follow coreutils 9.1, Debian 12's: only a name with a newline is
# escaped there; later releases escape backslashes and carriage returns too. Against another
# release the lists are still compared byte for byte, the verdicts not.
cu_version=$(sha256sum --version | sed -n '1s/.* //p')
[ "$cu_version" = 9.1 ] || echo "sha256sum $cu_version: verdict lines not compared (they follow 9.1)"
same_verdicts() {
    if [ "$cu_version" = 9.1 ]; then same_bytes "$@"; fi
}

mkdir "$T/names" && cd "$T/names" || exit 1
printf a > "$(printf 'new\nline')"
printf b > 'back\slash'
printf c > "$(printf 'cr\r')"
printf d > "$(printf 'both\r\n\\')"
printf e > '  two leading'
printf f > '*star'
printf g > 'pa(re)n) = x'
printf h > '#hash'
printf i > plain
names=(*)

# --- kiln writes what sha256sum writes
"$KILN" hash --algo sha256 -- "${names[@]}" > ../kiln.sums
sha256sum -- "${names[@]}" > ../cu.sums
same_bytes ../kiln.sums ../cu.sums "plain list equals sha256sum's"
"$KILN" hash --algo sha256 --tag -- "${names[@]}" > ../kiln.tag
sha256sum --tag -- "${names[@]}" > ../cu.tag
same_bytes ../kiln.tag ../cu.tag "--tag list equals sha256sum --tag"

# --- each checks the other's list, with the same verdict bytes
for list in cu.sums kiln.sums cu.tag kiln.tag; do
    "$KILN" hash --algo sha256 --check "../$list" > ../kiln.out 2> ../kiln.err
    expect_eq "$?" 0 "kiln --check $list"
    sha256sum -c "../$list" > ../cu.out 2> /dev/null
    expect_eq "$?" 0 "sha256sum -c $list"
    same_verdicts ../kiln.out ../cu.out "verdicts of $list"
    expect_eq "$(cat ../kiln.err)" "" "no warning for $list"
done
# a tagged list names its hash: no --algo needed
"$KILN" hash --check ../cu.tag > ../kiln.out
expect_eq "$?" 0 "--check of a tagged list without --algo"
same_verdicts ../kiln.out ../cu.out "verdicts without --algo"

# --- a changed file fails in both, with the same words
printf X > "$(printf 'cr\r')"
printf Y > "$(printf 'new\nline')"
"$KILN" hash --algo sha256 --check ../cu.sums > ../kiln.out 2> ../kiln.err
expect_eq "$?" 1 "kiln --check with mismatches"
sha256sum -c ../cu.sums > ../cu.out 2> /dev/null
same_verdicts ../kiln.out ../cu.out "FAILED verdicts"
grep -q "WARNING: 2 computed checksums did NOT match" ../kiln.err && ok || bad "mismatch summary: $(cat ../kiln.err)"
rm -- "$(printf 'both\r\n\\')"
"$KILN" hash --algo sha256 --check ../cu.tag > ../kiln.out 2> ../kiln.err
expect_eq "$?" 1 "kiln --check with a missing listed file"
sha256sum -c ../cu.tag > ../cu.out 2> /dev/null
same_verdicts ../kiln.out ../cu.out "FAILED open or read verdict"
expect_eq "$(grep -c . ../kiln.err)" 3 "the unreadable file on one line (its newline escaped) and the two summaries"
cd "$T" || exit 1

# --- tagged lines: coreutils', OpenSSL's, kiln's own
printf abc > abc
S=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad # FIPS 180-4 "abc"
printf 'SHA256 (abc) = %s\nSHA2-256(abc)= %s\n' "$S" "$S" > tags
expect_eq "$("$KILN" hash --algo sha256 --check tags)" "$(printf 'abc: OK\nabc: OK')" "coreutils and OpenSSL tags"
printf 'SHA512 (abc) = %s\nsha256 (abc) = %s\n%s  abc\n' "$S" "$S" "$S" > wrongtag
out=$("$KILN" hash --algo sha256 --check wrongtag 2> err)
expect_eq "$?$out" "0abc: OK" "a tag naming another hash, or spelled otherwise, is improperly formatted"
grep -q "WARNING: 2 lines are improperly formatted" err && ok || bad "wrong tags: $(cat err)"
printf 'SHA3-256 (abc) = %s\n' "$S" > othertag
"$KILN" hash --algo sha256 --check othertag > /dev/null 2> err
expect_eq "$?" 2 "a list of another hash's lines has no properly formatted line"
"$KILN" hash --check "$(printf '%s  abc\n' "$S" > untagged; echo untagged)" > /dev/null 2> err
expect_eq "$?" 2 "untagged lines without --algo"
grep -q "need --algo" err && ok || bad "untagged hint: $(cat err)"
if command -v openssl > /dev/null && openssl dgst -sha3-256 abc > ossl 2> /dev/null; then
    openssl dgst -shake128 abc >> ossl 2> /dev/null
    expect_eq "$("$KILN" hash --check ossl)" "$(printf 'abc: OK\nabc: OK')" "OpenSSL's SHA3-256 and SHAKE-128 lines choose the hash"
fi
# kiln's tags for every hash read back without --algo (SHAKE at its default length)
for a in sha256d sha3-224 sha3-512 shake256 keccak256; do "$KILN" hash --algo $a --tag abc; done > mixed
expect_eq "$("$KILN" hash --check mixed | grep -c '^abc: OK$')" 5 "one tagged list of five hashes"

# --- one-space (md5 -r) lists, comments, blank lines and CRLF, as sha256sum reads them
printf '# made by hand\n\n%s abc\r\n' "$S" > bsd
expect_eq "$("$KILN" hash --algo sha256 --check bsd 2>&1)" "$(sha256sum -c bsd 2>&1)" "one-space list, comment, blank, CRLF"

# --- a binary file as the list: one line, as sha256sum, whatever its size
head -c 300000 /dev/urandom | tr -d '\n' > binary
printf '\n' >> binary
head -c 300000 /dev/urandom >> binary
"$KILN" hash --algo sha256 --check binary > out 2> err
expect_eq "$?" 2 "binary list exit"
expect_eq "$(wc -l < err | tr -d ' ')$(wc -c < out | tr -d ' ')" "10" "binary list: one message, no verdict"
grep -q "binary: no properly formatted sha256 checksum lines found" err && ok || bad "binary message: $(cat err)"
{ printf '%s  abc\n' "$S"; cat binary; } > mostly_binary
"$KILN" hash --algo sha256 --check mostly_binary > out 2> err
expect_eq "$?" 0 "a good line among binary ones"
expect_eq "$(cat out)" "abc: OK" "binary lines print no verdict"
expect_eq "$(wc -l < err | tr -d ' ')" 1 "binary lines: one summary warning"
n=$(sha256sum -c mostly_binary 2>&1 >/dev/null | sed -n 's/.*WARNING: \([0-9]*\) lines.*/\1/p')
grep -q "WARNING: $n lines are improperly formatted" err && ok || bad "same count as sha256sum ($n): $(cat err)"
# --warn names each one, as sha256sum --warn
"$KILN" hash --algo sha256 --check mostly_binary --warn 2> err > /dev/null
expect_eq "$(grep -c 'mostly_binary: [0-9]*: improperly formatted SHA256 checksum line' err)" "$n" "--warn"

# --- --quiet prints only the failures, as sha256sum -c --quiet (and no progress line)
printf 'xyz' > other
{ printf '%s  abc\n' "$S"; printf '%s  other\n' "$S"; } > half_wrong
expect_eq "$("$KILN" hash --algo sha256 --check half_wrong --quiet 2>/dev/null)" \
    "$(sha256sum -c --quiet half_wrong 2>/dev/null)" "--quiet: only the FAILED line"
"$KILN" hash --algo sha256 --check half_wrong --quiet 2>&1 >/dev/null | grep -q "WARNING: 1 computed checksum did NOT match" &&
    ok || bad "--quiet keeps the mismatch warning"
"$KILN" hash --algo sha256 --check half_wrong --quiet > /dev/null 2>&1
expect_eq "$?" 1 "--quiet with a mismatch: exit 1"

# --- the options sha256sum users bring: kiln hash -a sha256 ARGS against sha256sum ARGS
mkdir "$T/conv" && cd "$T/conv" || exit 1
printf abc > abc
printf xyz > xyz
printf '%s\n' "$(printf 'new\nline')" > "$(printf 'n\nl')"
sha256sum abc xyz > good.sums
sha256sum abc > a.sums
{ sha256sum abc; echo "garbage line"; } > bad.sums
{ sha256sum abc; printf '%s  missing\n' "$S"; } > miss.sums
printf '%s  missing\n' "$S" > allmiss.sums
printf '%064d  abc\n' 0 > wrong.sums
same_as_coreutils() {
    local what="$*"
    sha256sum "$@" < "${IN:-/dev/null}" > cu.out 2> cu.err
    local cu_rc=$?
    "$KILN" hash -a sha256 "$@" < "${IN:-/dev/null}" > k.out 2> k.err
    local k_rc=$?
    expect_eq "$k_rc" "$cu_rc" "exit status of '$what'"
    same_bytes k.out cu.out "stdout of '$what'"
    sed 's/^sha256sum: /kiln hash: /' cu.err > cu.err2
    same_bytes k.err cu.err2 "stderr of '$what'"
}
same_as_coreutils -c good.sums
same_as_coreutils -c a.sums wrong.sums bad.sums # several lists: each checked, each summed up
same_as_coreutils --check good.sums wrong.sums
same_as_coreutils -c --status good.sums
same_as_coreutils --check --status wrong.sums
same_as_coreutils -c --status bad.sums # improperly formatted lines alone do not fail...
same_as_coreutils -c --strict bad.sums # ...unless --strict
same_as_coreutils -c --strict --status bad.sums
same_as_coreutils -c --status miss.sums # the missing file's error stays on stderr
same_as_coreutils -c miss.sums
same_as_coreutils -c --ignore-missing miss.sums
same_as_coreutils -c --ignore-missing --quiet miss.sums
same_as_coreutils -c --ignore-missing allmiss.sums # no file verified: a failure
same_as_coreutils -c --ignore-missing --status allmiss.sums
same_as_coreutils -c --ignore-missing --strict bad.sums miss.sums
same_as_coreutils -c --status a.sums wrong.sums
same_as_coreutils -z abc xyz "$(printf 'n\nl')" # NUL-ended lines, names unescaped
same_as_coreutils --zero --tag abc "$(printf 'n\nl')"
same_as_coreutils abc "$(printf 'n\nl')"
IN=good.sums same_as_coreutils -c # no list: stdin
IN=good.sums same_as_coreutils -c -
# a list that cannot be read: both go on with the next list; kiln's exit is 2 (bad input, its one
# rule for a command-line argument that cannot be read), sha256sum's 1
"$KILN" hash -a sha256 -c nolist a.sums > k.out 2> k.err
expect_eq "$?" 2 "-c nolist a.sums: exit 2"
expect_eq "$(cat k.out)" "abc: OK" "-c nolist a.sums: the second list still checked"
# the check-only options do not apply to digests, nor -z to checking (sha256sum refuses them too)
for o in --status --strict --ignore-missing; do
    "$KILN" hash -a sha256 $o abc > /dev/null 2> k.err
    expect_eq "$?:$(cat k.err)" "2:kiln hash: $o does not apply to computing digests" "$o without --check"
    sha256sum $o abc > /dev/null 2>&1 && bad "sha256sum $o abc accepted" || ok
done
"$KILN" hash -a sha256 -c -z a.sums > /dev/null 2> k.err
expect_eq "$?:$(cat k.err)" "2:kiln hash: --zero does not apply to --check" "-z with --check"
sha256sum -c -z a.sums > /dev/null 2>&1 && bad "sha256sum -c -z accepted" || ok
cd "$T" || exit 1

finish
