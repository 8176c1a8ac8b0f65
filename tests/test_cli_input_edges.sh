#!/usr/bin/env bash
# Inputs at their edges (issue 24, item 11):
#   - a gzip graph with bytes after its end is refused (exit 2, naming it), as gunzip warns and exits
#     2; members one after another and zero padding are taken, as gunzip takes them;
#   - --damping 1e-320 (a subnormal: in range) is taken as 0 is, and a refused --damping or --tol
#     says why (not a number, too large, out of range).
# usage: test_cli_input_edges.sh KILN DATA_DIR
set -u
kiln=$1 data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
graph=$data/facebook_combined.txt
# same_ranks A B: the same nodes in the same order, scores within 1e-12 (the CPU's float64 sums may
# differ in the last bits with the threads' scheduling)
same_ranks() {
    [ -n "$1" ] && [ "$(printf '%s\n' "$1" | cut -f1,2)" = "$(printf '%s\n' "$2" | cut -f1,2)" ] &&
        paste <(printf '%s\n' "$1" | cut -f3) <(printf '%s\n' "$2" | cut -f3) |
        awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-12) bad = 1 } END { exit bad }'
}

if "$kiln" --version | grep -q '^zlib: on'; then
    gzip -c "$graph" >"$tmp/g.gz"
    want=$("$kiln" pagerank "$graph" --top 3 --device cpu 2>/dev/null)
    cp "$tmp/g.gz" "$tmp/garbage.gz" && echo "trailing garbage" >>"$tmp/garbage.gz"
    "$kiln" pagerank "$tmp/garbage.gz" --top 3 --device cpu >"$tmp/out" 2>"$tmp/err"
    code=$?
    # gunzip itself: a warning and exit 2
    gzip -dc "$tmp/garbage.gz" >/dev/null 2>&1
    gz=$?
    [ "$code" = 2 ] && grep -q 'trailing garbage' "$tmp/err" && [ ! -s "$tmp/out" ] && [ "$gz" = 2 ] && ok ||
        bad "trailing garbage: exit $code (gunzip $gz), $(cat "$tmp/err")"
    cp "$tmp/g.gz" "$tmp/padded.gz" && head -c 10240 /dev/zero >>"$tmp/padded.gz"
    same_ranks "$("$kiln" pagerank "$tmp/padded.gz" --top 3 --device cpu 2>/dev/null)" "$want" && ok || bad "zero padding"
    # two members: the graph twice, duplicates merged
    cat "$tmp/g.gz" "$tmp/g.gz" >"$tmp/two.gz"
    same_ranks "$("$kiln" pagerank "$tmp/two.gz" --top 3 --device cpu 2>/dev/null)" "$want" && ok || bad "two members"
    # the same through a pipe
    "$kiln" pagerank - --top 3 --device cpu <"$tmp/garbage.gz" >/dev/null 2>"$tmp/err"
    code=$?
    [ "$code" = 2 ] && grep -q 'trailing garbage' "$tmp/err" && ok || bad "trailing garbage on stdin: exit $code"
else
    echo "no zlib: gzip cases skipped"
fi

# --damping 1e-320: in range, the ranks of --damping 0
want=$("$kiln" pagerank "$graph" --damping 0 --top 3 --device cpu 2>/dev/null)
got=$("$kiln" pagerank "$graph" --damping 1e-320 --top 3 --device cpu 2>"$tmp/err")
code=$?
[ "$code" = 0 ] && same_ranks "$got" "$want" && ok || bad "--damping 1e-320: exit $code, $(cat "$tmp/err")"
for c in "--damping abc:not a number" "--damping 1e400:too large" "--damping 1:out of range" "--tol -1:negative" \
    "--tol x:not a number"; do
    opt=${c%%:*} why=${c#*:}
    # shellcheck disable=SC2086
    "$kiln" pagerank "$graph" $opt --device cpu >/dev/null 2>"$tmp/err"
    code=$?
    [ "$code" = 2 ] && grep -q "$why" "$tmp/err" && ok || bad "$opt: exit $code, $(cat "$tmp/err")"
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
