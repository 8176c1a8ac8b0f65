#!/usr/bin/env bash
# Closed standard streams, as coreutils treats them (issue 24, item 10):
#   - a closed standard output that nothing is written to is no failure: `pagerank --output F
#     --quiet >&-` and `hash --check --quiet >&-` exit 0, as `sha256sum -c --quiet >&-` does;
#   - output that cannot reach a closed standard output still exits 3 (`hash FILE >&-`);
#   - a closed standard input is bad input, exit 2, for merkle as for hash and pagerank.
# usage: test_cli_closed_fds.sh KILN DATA_DIR
set -u
kiln=$1 data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect() { # WANT WHAT CMD...: runs CMD with stdout and stdin as the caller set them
    local want=$1 what=$2
    shift 2
    "$@" 2>"$tmp/err"
    local got=$?
    [ "$got" = "$want" ] && ok || bad "$what: exit $got (want $want): $(cat "$tmp/err")"
}

echo abc >"$tmp/f"
sha256sum "$tmp/f" >"$tmp/sums"
# the reference: coreutils itself
sha256sum -c --quiet "$tmp/sums" >&- 2>/dev/null
ref=$?
[ "$ref" = 0 ] && ok || bad "sha256sum -c --quiet >&- exits $ref here"

expect 0 "pagerank --output F --quiet >&-" "$kiln" pagerank "$data/facebook_combined.txt" --output "$tmp/ranks" \
    --device cpu --quiet >&-
[ "$(wc -l <"$tmp/ranks")" = 4039 ] && ok || bad "pagerank >&-: the output file is not complete"
expect 0 "hash --check --quiet >&-" "$kiln" hash --algo sha256 --check "$tmp/sums" --quiet >&-
# a FAILED line that cannot be printed is lost output: 3, kiln's code for a failed write (sha256sum,
# which has one failure code, exits 1)
expect 3 "hash --check --quiet >&- of a failing list" sh -c 'echo abd >"$1"; exec "$2" hash --algo sha256 --check "$3" --quiet >&-' \
    sh "$tmp/f" "$kiln" "$tmp/sums"
echo abc >"$tmp/f"
expect 3 "hash FILE >&- (a digest to print)" "$kiln" hash --algo sha256 "$tmp/f" >&-
grep -q 'Bad file descriptor' "$tmp/err" && ok || bad "hash FILE >&-: $(cat "$tmp/err")"

# closed standard input: exit 2 for each command that reads it
expect 2 "merkle --leaves - <&-" "$kiln" merkle --algo sha256 --leaves - <&-
expect 2 "hash - <&-" "$kiln" hash --algo sha256 - <&-
expect 2 "pagerank - <&-" "$kiln" pagerank - --device cpu <&-

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
