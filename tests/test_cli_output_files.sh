#!/usr/bin/env bash
# Output files are whole or absent: `pagerank --output` and `--save-csr` that cannot finish (the
# file size limit, `ulimit -f`, stands in for a full disk: with SIGXFSZ ignored the write fails
# with EFBIG) exit 3 naming the reason, keep the file that was there and leave no temporary file;
# a path that cannot be created exits 2; a complete run writes every node.
# usage: test_cli_output_files.sh KILN DATA_DIR
set -u
kiln=$1 data=$2
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP
graph=$data/facebook_combined.txt

for opt in --output --save-csr; do
    echo "an older file" >"$tmp/out"
    (trap '' XFSZ; ulimit -f 16; exec "$kiln" pagerank "$graph" "$opt" "$tmp/out" --device cpu) >/dev/null 2>"$tmp/err"
    code=$?
    [ "$code" = 3 ] && grep -q 'File too large' "$tmp/err" && ok || bad "$opt cut short: exit $code, $(cat "$tmp/err")"
    [ "$(cat "$tmp/out")" = "an older file" ] && ok || bad "$opt cut short replaced the old file"
    [ -z "$(ls -A "$tmp" | grep kiln-)" ] && ok || bad "$opt left a temporary file: $(ls -A "$tmp")"
    "$kiln" pagerank "$graph" "$opt" "$tmp/no/such/dir/out" --device cpu >/dev/null 2>"$tmp/err"
    code=$?
    [ "$code" = 2 ] && grep -q 'no/such/dir' "$tmp/err" && ok || bad "$opt into a missing directory: exit $code"
done

# complete: every node of the graph (NetworkX: 4039 nodes), and the cache loads back as the graph
# saved (undirected: NetworkX's top node is 3437)
"$kiln" pagerank "$graph" --undirected --output "$tmp/ranks" --save-csr "$tmp/g.kcsr" --device cpu >/dev/null 2>&1 &&
    ok || bad "full run"
[ "$(wc -l <"$tmp/ranks")" = 4039 ] && ok || bad "ranks: $(wc -l <"$tmp/ranks") lines"
"$kiln" pagerank "$tmp/g.kcsr" --top 1 --device cpu 2>/dev/null | grep -q "^1	3437	" && ok || bad "cache loads back"

# a target that is no regular file is written in place: /dev/stdout stays the link it is
lines=$("$kiln" pagerank "$graph" --output /dev/stdout --device cpu 2>/dev/null | wc -l)
[ "$lines" = 4039 ] && [ -L /dev/stdout ] && ok || bad "--output /dev/stdout: $lines lines"
mkfifo "$tmp/fifo"
wc -l <"$tmp/fifo" >"$tmp/fifo-lines" &
"$kiln" pagerank "$graph" --output "$tmp/fifo" --device cpu >/dev/null 2>&1
wait
[ "$(tr -d ' ' <"$tmp/fifo-lines")" = 4039 ] && [ -p "$tmp/fifo" ] && ok || bad "--output to a FIFO"

finish
