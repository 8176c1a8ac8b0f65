#!/usr/bin/env bash
# kiln pagerank from the command line: output formats, exit codes, malformed input named by line,
# gzip input, the CSR cache, the RMAT generator, and (the long label) kiln bench --algo pagerank.
# usage: test_pagerank_cli.sh KILN DATA_DIR
set -u
KILN=$1
DATA=$2
. "$(dirname "$0")/pagerank_cli_util.sh"
FB=$DATA/facebook_combined.txt
CPU="--device cpu"

# top K: rank<TAB>node<TAB>score, the NetworkX ranking (3437, 107, 1684, 0 lead ego-Facebook)
expect_rc 0 "top 4" "$KILN" pagerank "$FB" --undirected $CPU --top 4
if awk -F'\t' 'NF != 3 { exit 1 }' "$TMP/out" && [ "$(cut -f1,2 "$TMP/out" | tr '\t\n' ':,')" = "1:3437,2:107,3:1684,4:0," ]; then ok; else bad "top 4 output: $(cat "$TMP/out")"; fi
grep -q "4039 nodes, 176468 edges" "$TMP/err" && ok || bad "summary line: $(cat "$TMP/err")"

# --output: node<TAB>score for every node, scores within 1e-9 of NetworkX's converged column
expect_rc 0 "output" "$KILN" pagerank "$FB" --undirected $CPU --tol 1e-14 --max-iter 1000 --output "$TMP/ranks.tsv"
[ "$(wc -l <"$TMP/ranks.tsv")" -eq 4039 ] && ok || bad "output lines"
[ ! -s "$TMP/out" ] && ok || bad "--output alone should print nothing on stdout"
awk 'NR == FNR { if ($1 !~ /^#/) ref[$1] = $3; next } { d = $2 - ref[$1]; s += d < 0 ? -d : d; n++ }
     END { exit !(n == 4039 && s < 1e-9) }' "$DATA/facebook_combined.pagerank.txt" "$TMP/ranks.tsv" && ok || bad "output vs NetworkX"
awk -F'\t' '{ s += $2 } END { exit !(s > 0.999999999 && s < 1.000000001) }' "$TMP/ranks.tsv" && ok || bad "ranks sum to 1"

# --json: one object with the run's figures
expect_rc 0 "json" "$KILN" pagerank "$FB" --undirected $CPU --json --top 2
for key in '"iterations": ' '"converged": true' '"residual": ' '"seconds_per_iteration": ' '"edges_per_second": ' \
    '"nodes": 4039' '"edges": 176468' '"top": [{"rank": 1, "node": 3437'; do
    grep -qF "$key" "$TMP/out" && ok || bad "json lacks $key: $(head -c 400 "$TMP/out")"
done
[ "$(wc -l <"$TMP/out")" -eq 1 ] && ok || bad "json is one line"

# malformed input: exit 2, message names file and line
printf '0 1\n1 2\n2 x\n' >"$TMP/bad.txt"
expect_rc 2 "malformed" "$KILN" pagerank "$TMP/bad.txt" $CPU
grep -q "bad.txt:3:" "$TMP/err" && ok || bad "malformed message: $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] && ok || bad "no partial output on bad input"
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n9 1\n' >"$TMP/bad.mtx"
expect_rc 2 "mtx out of range" "$KILN" pagerank "$TMP/bad.mtx" $CPU
grep -q "bad.mtx:4:" "$TMP/err" && ok || bad "mtx message: $(cat "$TMP/err")"
expect_rc 2 "missing file" "$KILN" pagerank "$TMP/none.txt" $CPU
expect_rc 2 "graph and rmat" "$KILN" pagerank "$FB" --rmat 8 $CPU
expect_rc 2 "no graph" "$KILN" pagerank $CPU
expect_rc 2 "bad damping" "$KILN" pagerank "$FB" --damping 1 $CPU
expect_rc 2 "bad tol" "$KILN" pagerank "$FB" --tol -1 $CPU
expect_rc 2 "bad max-iter" "$KILN" pagerank "$FB" --max-iter 0 $CPU
expect_rc 2 "missing value" "$KILN" pagerank "$FB" --top
expect_rc 2 "unknown option" "$KILN" pagerank "$FB" --frobnicate
expect_rc 2 "bad scale" "$KILN" pagerank --rmat 31 $CPU
expect_rc 0 "help" "$KILN" pagerank --help

# not converging within --max-iter: ranks still printed, exit 1
expect_rc 1 "not converged" "$KILN" pagerank "$FB" --undirected $CPU --max-iter 2 --top 1
[ "$(wc -l <"$TMP/out")" -eq 1 ] && ok || bad "not converged still prints"
grep -q "converge" "$TMP/err" && ok || bad "not converged message"

# CRLF + comments + sparse ids: reported in original ids
printf '# directed\r\n1000000000000\t7\r\n7 42\r\n42 1000000000000\r\n42 7\r\n' >"$TMP/crlf.txt"
expect_rc 0 "crlf" "$KILN" pagerank "$TMP/crlf.txt" $CPU --output "$TMP/crlf.tsv"
[ "$(cut -f1 "$TMP/crlf.tsv" | tr '\n' ,)" = "7,42,1000000000000," ] && ok || bad "crlf ids: $(cat "$TMP/crlf.tsv")"

# gzip input (when kiln has zlib) gives the same ranks as the plain file
if command -v gzip >/dev/null; then
gzip -c "$FB" >"$TMP/fb.txt.gz"
"$KILN" pagerank "$TMP/fb.txt.gz" --undirected $CPU --top 3 >"$TMP/gz.out" 2>"$TMP/gz.err"
rc=$?
if [ $rc -eq 0 ]; then
    "$KILN" pagerank "$FB" --undirected $CPU --top 3 >"$TMP/plain.out" 2>/dev/null
    cmp -s "$TMP/gz.out" "$TMP/plain.out" && ok || bad "gzip ranks differ"
elif [ $rc -eq 2 ] && grep -q zlib "$TMP/gz.err"; then
    ok # built without zlib: refused with a message naming it
else
    bad "gzip: exit $rc $(cat "$TMP/gz.err")"
fi
fi

# CSR cache round trip
expect_rc 0 "save csr" "$KILN" pagerank "$FB" --undirected $CPU --top 5 --save-csr "$TMP/fb.kcsr"
cp "$TMP/out" "$TMP/first.out"
expect_rc 0 "load csr" "$KILN" pagerank "$TMP/fb.kcsr" $CPU --top 5
cmp -s "$TMP/out" "$TMP/first.out" && ok || bad "cache reload gives different ranks"
printf 'KILNCSR\0garbage' >"$TMP/junk.kcsr"
expect_rc 2 "damaged cache" "$KILN" pagerank "$TMP/junk.kcsr" $CPU

# RMAT: the anchor's graph (scale 10: 12122 edges after removing 147 loops and 4115 duplicates)
expect_rc 0 "rmat" "$KILN" pagerank --rmat 10 $CPU --json --tol 0 --max-iter 20
grep -qF '"edges": 12122' "$TMP/out" && grep -qF '"self_loops_removed": 147' "$TMP/out" &&
    grep -qF '"duplicates_removed": 4115' "$TMP/out" && grep -qF '"iterations": 20' "$TMP/out" && ok ||
    bad "rmat json: $(cat "$TMP/out")"

# bench: its graph is RMAT 20 (8 s of CPU on 2 cores), so in the long label only (KILN_TEST_LONG=1,
# test_pagerank_cli_long)
if [ "${KILN_TEST_LONG:-}" = 1 ]; then
    expect_rc 0 "bench" "$KILN" bench --algo pagerank $CPU --json
    grep -qF '"unit": "edges/s"' "$TMP/out" && ok || bad "bench json: $(cat "$TMP/out")"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
