#!/usr/bin/env bash
# kiln pagerank's NetworkX options from the command line: --weighted, --personalization, --dangling
# and --nstart FILE; the vector files' errors (named FILE:LINE, exit 2), and runs compared with
# NetworkX's values (tests/data/pr_small.networkx.txt, from tests/data/tools/pagerank_networkx.py).
# usage: test_pagerank_vectors_cli.sh KILN DATA_DIR
set -u
KILN=$1
DATA=$2
. "$(dirname "$0")/pagerank_cli_util.sh"
err_has() { # description text: the last command's stderr holds text
    grep -qF -- "$2" "$TMP/err" && ok || bad "$1: stderr lacks '$2': $(head -c 300 "$TMP/err")"
}
# ranks file ($1, removed after) within 1e-9 L1 of column $2 (1 = first case) of
# pr_small.networkx.txt, all 9 nodes
near_networkx() {
    local rc=0
    awk -v c="$2" 'NR == FNR { if ($1 !~ /^#/) ref[$1] = $(c + 1); next }
         { d = $2 - ref[$1]; s += d < 0 ? -d : d; n++ } END { exit !(n == 9 && s < 1e-9) }' \
        "$DATA/pr_small.networkx.txt" "$1" 2>/dev/null || rc=1
    [ "$rc" -eq 0 ] || head -c 300 "$1" >&2 2>/dev/null
    rm -f "$1"
    return "$rc"
}
CPU="--device cpu"
NX="--tol 1e-12 --max-iter 100000"
W=$DATA/pr_small.txt
P=$DATA/pr_small.personalization.txt
Q=$DATA/pr_small.dangling.txt
X0=$DATA/pr_small.nstart.txt
# the same graph without its weight column, for the unweighted runs
awk '!/^#/ { print $1, $2 }' "$W" >"$TMP/g.txt"
G=$TMP/g.txt

# runs against NetworkX (columns: plain weighted weighted_pdn pd_a06 undirected_wp nstart)
expect_rc 0 "plain" "$KILN" pagerank "$G" $CPU $NX --output "$TMP/r.tsv"
near_networkx "$TMP/r.tsv" 1 && ok || bad "plain vs NetworkX"
expect_rc 0 "pd_a06" "$KILN" pagerank "$G" $CPU $NX --damping 0.6 --personalization "$P" --dangling "$Q" \
    --output "$TMP/r.tsv"
near_networkx "$TMP/r.tsv" 4 && ok || bad "personalization + dangling vs NetworkX"
expect_rc 0 "nstart" "$KILN" pagerank "$G" $CPU $NX --nstart "$X0" --output "$TMP/r.tsv"
near_networkx "$TMP/r.tsv" 6 && ok || bad "nstart vs NetworkX"
expect_rc 0 "weighted" "$KILN" pagerank "$W" --weighted $CPU $NX --output "$TMP/r.tsv"
near_networkx "$TMP/r.tsv" 2 && ok || bad "weighted vs NetworkX"
expect_rc 0 "weighted_pdn" "$KILN" pagerank "$W" --weighted $CPU $NX --personalization "$P" --dangling "$Q" \
    --nstart "$X0" --output "$TMP/r.tsv"
near_networkx "$TMP/r.tsv" 3 && ok || bad "weighted + vectors vs NetworkX"
expect_rc 0 "undirected_wp" "$KILN" pagerank "$W" --weighted --undirected $CPU $NX --personalization "$P" \
    --output "$TMP/r.tsv"
near_networkx "$TMP/r.tsv" 5 && ok || bad "undirected weighted vs NetworkX"

# --json names the parameters
expect_rc 0 "json" "$KILN" pagerank "$G" $CPU --personalization "$P" --json
for key in '"weighted": false' "\"personalization\": \"$P\"" '"dangling": null' '"nstart": null'; do
    grep -qF "$key" "$TMP/out" && ok || bad "json lacks $key: $(head -c 600 "$TMP/out")"
done
expect_rc 0 "weighted rmat" "$KILN" pagerank --rmat 8 --weighted $CPU --json
grep -qF '"weighted": true' "$TMP/out" && ok || bad "weighted rmat json: $(head -c 300 "$TMP/out")"

# the format's freedoms: comments, blank lines, spaces or tabs, CRLF, -0 and exponents give the
# same ranks as the plain file
printf '# a comment\n\n  1 \t2\r\n2 5e-1\r\n3 1.0E0\n5 -0\n7\t3\n10 .25   \n' >"$TMP/p_free.txt"
expect_rc 0 "free format" "$KILN" pagerank "$G" $CPU $NX --damping 0.6 --personalization "$TMP/p_free.txt" \
    --dangling "$Q" --output "$TMP/r.tsv"
near_networkx "$TMP/r.tsv" 4 && ok || bad "free-format vector"

# errors: exit 2, FILE:LINE and what is wrong, nothing on stdout
vec_error() { # description file-content message [option]
    printf -- "$2" >"$TMP/v.txt"
    expect_rc 2 "$1" "$KILN" pagerank "$G" $CPU "${4:---personalization}" "$TMP/v.txt" --top 3
    err_has "$1" "$3"
    [ ! -s "$TMP/out" ] && ok || bad "$1: output on stdout"
}
vec_error "unknown node" '1\t1\n99\t2\n' "v.txt:2: node 99 is not in the graph"
vec_error "duplicate node" '1 1\n2 1\n1 3\n' "v.txt:3: node 1 is listed twice"
vec_error "bad number" '1 1\n2 abc\n' "v.txt:2: bad number 'abc'"
vec_error "hex number" '1 0x10\n' "v.txt:1: bad number"
vec_error "nan" '1 nan\n' "v.txt:1: bad number"
vec_error "inf" '1 inf\n' "v.txt:1: bad number"
vec_error "overflow" '1 1e999\n' "v.txt:1: bad number"
vec_error "trailing junk" '1 1x\n' "v.txt:1: bad number"
vec_error "negative" '1 1\n# c\n3 -0.5\n' "v.txt:3: negative value -0.5 for node 3"
vec_error "missing value" '1 1\n2\n' "v.txt:2: expected 'node<TAB>value'"
vec_error "extra field" '1 1 2\n' "v.txt:1: expected 'node<TAB>value'"
vec_error "bad id" 'x 1\n' "v.txt:1: bad node id 'x'"
vec_error "negative id" '-1 1\n' "v.txt:1: bad node id '-1'"
vec_error "all zero" '1 0\n2 0\n' "v.txt: the personalization vector sums to 0"
vec_error "empty" '' "v.txt: the personalization vector sums to 0"
vec_error "all-zero dangling" '# none\n3 0\n' "v.txt: the dangling vector sums to 0" --dangling
vec_error "all-zero nstart" '3 0e5\n' "v.txt: the nstart vector sums to 0" --nstart
vec_error "unknown node in nstart" '1 1\n11 1\n' "v.txt:2: node 11 is not in the graph" --nstart
printf '1 1\nA\0B 2\n' >"$TMP/nul.txt"
expect_rc 2 "NUL byte" "$KILN" pagerank "$G" $CPU --personalization "$TMP/nul.txt"
err_has "NUL byte" "nul.txt:2:"
{ echo "1 1"; printf '2 %05000d\n' 1; } >"$TMP/long.txt"
expect_rc 2 "long line" "$KILN" pagerank "$G" $CPU --personalization "$TMP/long.txt"
err_has "long line" "long.txt:2: longer than 4096 bytes"
expect_rc 2 "missing file" "$KILN" pagerank "$G" $CPU --nstart "$TMP/none.txt"
err_has "missing file" "none.txt"
expect_rc 2 "directory" "$KILN" pagerank "$G" $CPU --dangling "$TMP"
err_has "directory" "is a directory"
expect_rc 2 "no value" "$KILN" pagerank "$G" $CPU --personalization

# --help lists the options
expect_rc 0 "help" "$KILN" pagerank --help
for o in --weighted --personalization --dangling --nstart; do
    grep -q -- "$o" "$TMP/out" && ok || bad "--help lacks $o"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
