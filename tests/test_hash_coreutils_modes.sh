#!/usr/bin/env bash
# coreutils users' habits in kiln hash (issue 39.5), compared with GNU sha256sum run here:
# -b/--binary and -t/--text (same digest on Linux; '*' marks binary mode; the last of -b, -t and
# --tag wins; meaningless with --check; --tag refuses text mode), algorithm names in any case and
# with optional dashes wherever --algo is read, and -w's warnings worded as sha256sum -c -w's.
# Usage: test_hash_coreutils_modes.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
cd "$T" || exit 1
command -v sha256sum > /dev/null || { echo "sha256sum not found: skipping"; exit 77; }
h() { "$KILN" hash "$@"; }
printf 'abc' > f
printf 'other' > 'a b'
printf 'x' > 'new
line'
printf 'y' > 'back\slash'

# --- -b / -t as GNU prints them, byte for byte (plain, escaped names, stdin, -z)
for opts in "-b" "--binary" "-t" "--text" "-b -t" "-t -b" "-b -z" "-t -z"; do
    # shellcheck disable=SC2086
    want=$(sha256sum $opts f 'a b' 'new
line' 'back\slash' | od -c)
    # shellcheck disable=SC2086
    got=$(h -a sha256 $opts f 'a b' 'new
line' 'back\slash' | od -c)
    expect_eq "$got" "$want" "hash $opts as sha256sum $opts"
done
expect_eq "$(h -a sha256 -b < f)" "$(sha256sum -b < f)" "-b on stdin"
expect_eq "$(h -a sha256 -b --tag f)" "$(sha256sum -b --tag f)" "--tag takes no marker"
expect_eq "$(h -a sha256 -t --tag f)" "$(sha256sum -t --tag f)" "-t then --tag: --tag wins"
h -a sha256 --tag -t f > /dev/null 2> err
expect_eq "$?:$(cat err)" "2:kiln hash: --tag does not support --text mode" "--tag then -t (sha256sum's words)"
sha256sum -b f 'a b' > list.b
h -a sha256 -c -b list.b > /dev/null 2> err
expect_eq "$?:$(cat err)" "2:kiln hash: the --binary and --text options are meaningless when verifying checksums" \
    "-b with --check"
out=$(h -a sha256 -c list.b)
expect_eq "$?:$out" "$(printf '0:f: OK\na b: OK')" "a list written by sha256sum -b checks"

# --- algorithm names in any case, dashes optional: hash, merkle, mine (the one matcher)
want=$(sha256sum f | cut -d' ' -f1)
for a in SHA256 sha-256 Sha-256 SHA_256; do
    expect_eq "$(h -a "$a" f | cut -d' ' -f1)" "$want" "--algo $a"
done
expect_eq "$(h --algo=SHA3-256 f)" "$(h --algo sha3-256 f)" "--algo=SHA3-256"
expect_eq "$(h -a SHA3_256 f)" "$(h --algo sha3-256 f)" "--algo SHA3_256 (hashlib's spelling)"
h -a SHA257 f > /dev/null 2> err
expect_eq "$?" 2 "an unknown name is still refused"
printf '%s\n' "$want" > leaves
expect_eq "$("$KILN" merkle --algo SHA-256 --leaves leaves)" "$("$KILN" merkle --algo sha256 --leaves leaves)" \
    "merkle --algo SHA-256"
"$KILN" mine --algo SHA256D --demo --threads 1 > /dev/null 2>&1
expect_eq "$?" 0 "mine --algo SHA256D"

# --- -w: sha256sum -c -w's warnings, word for word after the program's name
printf 'junk\n%s\nmore junk\n' "$(sha256sum f)" > list
want=$(sha256sum -c -w list 2>&1 > /dev/null | sed 's/^sha256sum: //')
got=$(h -a sha256 -c -w list 2>&1 > /dev/null | sed 's/^kiln hash: //')
expect_eq "$got" "$want" "-w warnings as sha256sum's"
finish
