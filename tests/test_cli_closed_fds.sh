#!/usr/bin/env bash
# Closed standard streams, as coreutils treats them (issue 24, item 10):
#   - a closed standard output that nothing is written to is no failure: `pagerank --output F
#     --quiet >&-` and `hash --check --quiet >&-` exit 0, as `sha256sum -c --quiet >&-` does;
#   - output that cannot reach a closed standard output still exits 3 (`hash FILE >&-`);
#   - a closed standard input is bad input, exit 2, for merkle as for hash and pagerank, also when a
#     file is opened after start-up before standard input is read (as a GPU runtime does: issue 36
#     item 17), and a closed standard error is not taken by an output file.
# usage: test_cli_closed_fds.sh KILN DATA_DIR
set -u
kiln=$1 data=$2
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP
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

# a closed standard input is held at start-up (issue 36 item 17): on a GPU host the runtime opens its
# device files when kiln starts using the GPU, and the first took descriptor 0, so that kiln read the
# driver's file as "-" and hung. The preloaded aid opens a file the first time kiln looks at
# descriptor 0, as a runtime would just before; kiln must still refuse "-" (EBADF, exit 2), never
# read that file. Without the aid (a sanitizer build cannot preload it) these cases are skipped.
if [ -n "${KILN_PRELOAD_STDIN:-}" ] && [ -f "$KILN_PRELOAD_STDIN" ] && ! ldd "$kiln" 2>/dev/null | grep -q libasan; then
    printf '%064d\n' 1 >"$tmp/decoy-leaves"
    printf '0 1\n1 2\n2 0\n' >"$tmp/decoy-graph"
    decoy() { # DECOY WHAT CMD...: runs CMD with stdin closed and the aid opening DECOY first
        local file=$1 what=$2
        shift 2
        LD_PRELOAD=$KILN_PRELOAD_STDIN KILN_OPEN_BEFORE_STDIN=$file "$@" <&- >"$tmp/out" 2>"$tmp/err"
        local got=$?
        [ "$got" = 2 ] && grep -q 'Bad file descriptor' "$tmp/err" && [ ! -s "$tmp/out" ] && ok ||
            bad "$what with a file opened before stdin is read: exit $got (want 2, Bad file descriptor), out: $(head -c 200 "$tmp/out"), err: $(cat "$tmp/err")"
    }
    decoy "$tmp/decoy-leaves" "merkle --leaves - <&-" "$kiln" merkle --algo sha256 --leaves -
    decoy "$tmp/decoy-leaves" "hash - <&-" "$kiln" hash --algo sha256 -
    decoy "$tmp/decoy-graph" "pagerank - <&-" "$kiln" pagerank - --device cpu
    # the aid itself works: with stdin open it opens its file and kiln reads stdin as ever
    got=$(printf abc | LD_PRELOAD=$KILN_PRELOAD_STDIN KILN_OPEN_BEFORE_STDIN=$tmp/decoy-leaves "$kiln" hash --algo sha256 - 2>"$tmp/err")
    [ "$got" = "$(printf abc | sha256sum)" ] && ok || bad "hash - with the aid and stdin open: $got $(cat "$tmp/err")"
else
    echo "no preload aid (KILN_PRELOAD_STDIN) or a sanitizer build: the held-stdin cases are skipped"
fi

# a closed standard error is held too: an output file opened later does not take descriptor 2, so
# the progress lines written while it is written do not end up inside it
"$kiln" pagerank "$data/facebook_combined.txt" --output "$tmp/ranks2" --device cpu --progress 2>&-
code=$?
[ "$code" = 0 ] && [ "$(wc -l <"$tmp/ranks2")" = 4039 ] && ! grep -qv '^[0-9]*	[0-9.e-]*$' "$tmp/ranks2" && ok ||
    bad "pagerank --output F --progress 2>&-: exit $code, $(wc -l <"$tmp/ranks2") lines, $(grep -v '^[0-9]*	[0-9.e-]*$' "$tmp/ranks2" | head -c 200)"
# --output - on a closed standard output: the write error of today (exit 3, EBADF), before any work
"$kiln" pagerank "$data/facebook_combined.txt" --output - --device cpu >&- 2>"$tmp/err"
code=$?
[ "$code" = 3 ] && grep -q 'Bad file descriptor' "$tmp/err" && ok || bad "pagerank --output - >&-: exit $code, $(cat "$tmp/err")"

finish
