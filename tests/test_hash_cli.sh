#!/usr/bin/env bash
# kiln hash: output against known digests (NIST and Keccak team KATs, FIPS 180-4) and against
# coreutils' sha256sum, --check verdicts and exit codes, stdin, unreadable inputs, --length.
# (Hostile names, tagged lists, bounded memory and signals: tests/test_hash_check_*.sh, test_hash_interrupt.sh.)
# Usage: test_hash_cli.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
DATA=$(cd "$2" && pwd)
hex2bin() { printf '%b' "$(printf '%s' "$1" | sed 's/../\\x&/g')"; }
lower() { tr 'A-F' 'a-f'; }

# The entry of a KAT file whose Len is $2 bits: prints "MSGHEX MDHEX".
kat() {
    awk -v want="$2" '
        { sub(/\r$/, "") }
        $1 == "Len" { len = $3 }
        $1 == "Msg" && len == want { msg = $3 }
        ($1 == "MD" || $1 == "Output") && len == want && msg != "" { print msg, $3; exit }' "$DATA/$1"
}

cd "$T" || exit 1

# --- known answers: one message per algorithm from the KAT files
check_kat() { # file bits algo
    read -r msg md < <(kat "$1" "$2")
    [ -n "$md" ] || { bad "no Len=$2 entry in $1"; return; }
    if [ "$2" == 0 ]; then : > m.bin; else hex2bin "$msg" > m.bin; fi
    expect_eq "$("$KILN" hash --algo "$3" m.bin)" "$(printf '%s  m.bin' "$(printf '%s' "$md" | lower)")" "$3 of $1 Len=$2"
}
check_kat sha3/SHA3_224ShortMsg.rsp 8 sha3-224
check_kat sha3/SHA3_256ShortMsg.rsp 1080 sha3-256
check_kat sha3/SHA3_384ShortMsg.rsp 832 sha3-384
check_kat sha3/SHA3_512ShortMsg.rsp 576 sha3-512
check_kat keccak/ShortMsgKAT_224.txt 1152 keccak224
check_kat keccak/ShortMsgKAT_256.txt 0 keccak256
check_kat keccak/ShortMsgKAT_256.txt 1088 keccak256
check_kat keccak/ShortMsgKAT_384.txt 824 keccak384
check_kat keccak/ShortMsgKAT_512.txt 2040 keccak512

# SHAKE: the NIST files' output lengths (16 and 32 bytes) through --length
read -r msg md < <(kat sha3/SHAKE128ShortMsg.rsp 1344)
hex2bin "$msg" > s.bin
expect_eq "$("$KILN" hash --algo shake128 --length 16 s.bin)" "$(printf '%s  s.bin' "$(printf '%s' "$md" | lower)")" "shake128 --length 16"
read -r msg md < <(kat sha3/SHAKE256ShortMsg.rsp 1088)
hex2bin "$msg" > s.bin
expect_eq "$("$KILN" hash --algo shake256 --length=32 s.bin)" "$(printf '%s  s.bin' "$(printf '%s' "$md" | lower)")" "shake256 --length 32"
# the default SHAKE lengths (32 / 64 bytes) start with the 16 / 32 bytes above
out=$("$KILN" hash --algo shake256 s.bin)
expect_eq "${#out}" "$((128 + 7))" "shake256 default length"
expect_eq "${out:0:64}" "$(printf '%s' "$md" | lower)" "shake256 default output is a prefix-extension"

# SHA-256 and sha256d through the same front end: FIPS 180-4 "abc", then sha256sum itself
printf abc > abc
expect_eq "$("$KILN" hash --algo sha256 abc)" "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  abc" "sha256 abc"
expect_eq "$("$KILN" hash --algo sha256d abc)" "4f8b42c22dd3729b519ba6f68d2da7cc5b2d606d05daed5ad5128cc03e6c6358  abc" "sha256d abc"
head -c 100000 /dev/urandom > r1
: > empty
printf 'x' > 'with space'
printf 'y' > 'back\slash'
if command -v sha256sum > /dev/null; then
    expect_eq "$("$KILN" hash --algo sha256 r1 empty 'with space' 'back\slash')" \
        "$(sha256sum r1 empty 'with space' 'back\slash')" "same output as sha256sum"
fi

# --- stdin: no FILE and '-'
expect_eq "$(printf abc | "$KILN" hash --algo sha3-256)" \
    "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532  -" "stdin without FILE"
expect_eq "$(printf abc | "$KILN" hash --algo keccak256 - abc)" \
    "$(printf '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45  -\n4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45  abc')" \
    "stdin as '-' and a file"

# --- unreadable inputs: reported by name, the rest still hashed, exit 2 (bad input)
mkdir adir
out=$("$KILN" hash --algo sha3-256 abc missing adir empty 2> err)
rc=$?
expect_eq "$rc" 2 "exit status with unreadable inputs"
expect_eq "$(echo "$out" | wc -l | tr -d ' ')" 2 "readable inputs still hashed"
grep -q "missing: No such file or directory" err && ok || bad "missing file not reported: $(cat err)"
grep -q "adir: Is a directory" err && ok || bad "directory not reported: $(cat err)"

# --- --check
"$KILN" hash --algo sha3-256 abc r1 empty > sums
out=$("$KILN" hash --algo sha3-256 --check sums)
expect_eq "$?" 0 "check all OK exit"
expect_eq "$out" "$(printf 'abc: OK\nr1: OK\nempty: OK')" "check all OK"
printf 'abd' > abc
out=$("$KILN" hash --algo sha3-256 --check sums 2> err)
expect_eq "$?" 1 "check with a mismatch exit"
expect_eq "$out" "$(printf 'abc: FAILED\nr1: OK\nempty: OK')" "check FAILED line"
grep -q "WARNING: 1 computed checksum did NOT match" err && ok || bad "mismatch warning: $(cat err)"
rm -f r1
out=$("$KILN" hash --algo sha3-256 --check sums 2> err)
expect_eq "$?" 1 "check with a missing file exit"
echo "$out" | grep -qx "r1: FAILED open or read" && ok || bad "missing listed file: $out"
grep -q "r1: No such file or directory" err && ok || bad "missing listed file not named: $(cat err)"
# uppercase digests, '*' markers and malformed lines: one summary, each line named with --warn
printf abc > abc
D=$("$KILN" hash --algo sha3-256 abc | cut -d' ' -f1 | tr a-f A-F)
printf '%s *abc\nnot a checksum line\n%s  abc\n' "$D" "${D:0:10}" > mixed
out=$("$KILN" hash --algo sha3-256 --check mixed 2> err)
expect_eq "$?" 0 "malformed lines alone do not fail the check"
expect_eq "$out" "abc: OK" "uppercase and binary marker"
expect_eq "$(cat err)" "kiln hash: WARNING: 2 lines are improperly formatted" "malformed summary alone"
"$KILN" hash --algo sha3-256 --check mixed --warn > /dev/null 2> err
grep -q "mixed: 2: improperly formatted SHA3-256 checksum line" err && ok || bad "malformed line 2: $(cat err)"
grep -q "mixed: 3: improperly formatted" err && ok || bad "short digest line 3: $(cat err)"
grep -q "WARNING: 2 lines are improperly formatted" err && ok || bad "malformed summary: $(cat err)"
printf 'garbage\n' > junk
"$KILN" hash --algo sha3-256 --check junk > /dev/null 2> err
expect_eq "$?" 2 "no valid lines"
"$KILN" hash --algo sha3-256 --check nolist > /dev/null 2> err
expect_eq "$?" 2 "unreadable check list"
# a SHAKE list without --length takes each line's length; the check list from stdin
"$KILN" hash --algo shake128 --length 5 abc > s5
"$KILN" hash --algo shake128 abc > s32
out=$(cat s5 s32 | "$KILN" hash --algo shake128 --check -)
expect_eq "$out" "$(printf 'abc: OK\nabc: OK')" "shake lengths per line"
"$KILN" hash --algo shake128 --length 5 --check s32 > /dev/null 2>&1
expect_eq "$?" 2 "--length mismatching every line"
# names that need escaping round-trip through --check
printf 'n' > "$(printf 'new\nline')"
"$KILN" hash --algo keccak256 "$(printf 'new\nline')" 'back\slash' > esc
expect_eq "$(head -c 1 esc)" '\' "escaped line starts with a backslash"
out=$("$KILN" hash --algo keccak256 --check esc)
expect_eq "$?" 0 "escaped names check"

# --- usage errors
"$KILN" hash abc > /dev/null 2>&1
expect_eq "$?" 2 "missing --algo"
"$KILN" hash --algo md5 abc > /dev/null 2>&1
expect_eq "$?" 2 "unknown algorithm"
"$KILN" hash --algo sha3-256 --length 16 abc > /dev/null 2> err
expect_eq "$?" 2 "--length for a fixed-size hash"
grep -q "shake128 and shake256 (bytes) and blake2b and blake2s (bits) only" err && ok || bad "--length message: $(cat err)"
"$KILN" hash --algo shake128 --length 0 abc > /dev/null 2>&1
expect_eq "$?" 2 "--length 0"
"$KILN" hash --algo sha3-256 --check sums abc > /dev/null 2>&1
expect_eq "$?" 2 "--check with FILE arguments"
"$KILN" hash --algo sha3-256 --frobnicate > /dev/null 2>&1
expect_eq "$?" 2 "unknown option"
"$KILN" hash --algo sha3-256 --device cpu -- -dash > /dev/null 2> err
expect_eq "$?" 2 "'--' ends the options"
grep -q "^kiln hash: -dash: No such file or directory$" err && ok || bad "'--': $(cat err)"
"$KILN" hash --algo sha3-256 --tag --check sums > /dev/null 2>&1
expect_eq "$?" 2 "--tag with --check"
"$KILN" hash --algo sha3-256 --warn abc > /dev/null 2>&1
expect_eq "$?" 2 "--warn without --check"
"$KILN" hash --check sums --length 5 > /dev/null 2>&1
expect_eq "$?" 2 "--length without --algo"

# --- the GPU path, when there is a GPU: same output as the CPU for many small files
if "$KILN" devices 2> /dev/null | grep -q '^cuda:'; then
    mkdir many
    for i in $(seq 1 300); do head -c $((i * 7 % 500)) /dev/urandom > "many/f$i"; done
    for a in sha3-256 keccak256 shake256 sha256; do
        expect_eq "$("$KILN" hash --algo $a --device cuda many/*)" "$("$KILN" hash --algo $a --device cpu many/*)" \
            "GPU batch == CPU for $a"
    done
    "$KILN" hash --algo sha3-256 --device cpu many/* > gsums
    expect_eq "$("$KILN" hash --algo sha3-256 --device cuda --check gsums | grep -c ': OK$')" 300 "GPU --check"
fi

finish
