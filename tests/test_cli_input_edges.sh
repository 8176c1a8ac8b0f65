#!/usr/bin/env bash
# Inputs at their edges (issue 24, item 11):
#   - a gzip graph with bytes after its end is refused (exit 2, naming it), as gunzip warns and exits
#     2; members one after another and zero padding are taken, as gunzip takes them;
#   - --damping 1e-320 (a subnormal: in range) is taken as 0 is, and a refused --damping or --tol
#     says why (not a number, not finite, out of range, negative, empty) in one line, exit 2.
# usage: test_cli_input_edges.sh KILN DATA_DIR
set -u
kiln=$1 data=$2
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP
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
# OPTION=VALUE:why; each refused in one line naming the option, its value and the range
# (cli/common/opts.c, OPT_REAL)
# (issue 36 item 16: infinities are "not finite" and overflows "out of range", either sign; -inf was
# "too large")
for c in "--damping=abc:not a number" "--damping=1e400:out of range" "--damping=1:out of range" "--tol=-1:negative" \
    "--tol=x:not a number" "--damping=nan:not a number" "--damping=inf:not finite" "--damping=1.5:out of range" \
    "--damping=-0.5:negative" "--damping=0.5x:not a number" "--damping= 0.5:not a number" "--damping=:empty" \
    "--tol=:empty" "--tol=-inf:not finite" "--tol=nan:not a number" "--tol=1e-6s:not a number" \
    "--damping=-inf:not finite" "--damping=+inf:not finite" "--damping=-Infinity:not finite" \
    "--damping=-1e400:out of range" "--tol=1e400:out of range" "--damping=-nan:not a number"; do
    opt=${c%%=*} val=${c#*=}
    val=${val%:*} why=${c##*:}
    "$kiln" pagerank "$graph" "$opt" "$val" --device cpu >"$tmp/out" 2>"$tmp/err"
    code=$?
    [ "$code" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] &&
        grep -q "^kiln pagerank: bad $opt '$val': $why (expected " "$tmp/err" && ok || bad "$opt '$val': exit $code, $(cat "$tmp/err")"
done
# the ends of the ranges: 0 and just below 1 are damping factors, 0 a tolerance
for d in 0 0.999999; do
    "$kiln" pagerank "$graph" --damping $d --tol 0 --max-iter 3 --device cpu >/dev/null 2>"$tmp/err" && ok ||
        bad "--damping $d refused: $(cat "$tmp/err")"
done

finish
