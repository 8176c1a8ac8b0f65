#!/usr/bin/env bash
# Output targets as users name them (issue 24, items 1, 3, 6 and 11):
#   - a symbolic link is followed: the new file is written beside the file it leads to and renamed
#     over it; the link stays a link; a write cut short (ulimit -f) keeps the old file, leaves no
#     temporary file, and says "left as it was" only when there was a file (else "no file was
#     written"); a dangling link gets its file created;
#   - the outputs of one run are committed together at the end: a run interrupted after the graph
#     was loaded replaces neither --output nor --save-csr;
#   - a legal output name of up to NAME_MAX (255) bytes works (the temporary name fits too);
#   - an --output directory that does not exist is reported before any input is read.
# usage: test_cli_output_links.sh KILN DATA_DIR
set -u
kiln=$1 data=$2
. "$(dirname "$0")/cli_util.sh"
. "$(dirname "$0")/signal_util.sh"
tmp=$TMP
graph=$data/facebook_combined.txt # 4039 nodes
mkdir "$tmp/real" "$tmp/links"
temps() { find "$tmp" -name '*kiln-*'; }

# --- 1. a link to an existing file, the write cut short: the file the link leads to is kept
for opt in --output --save-csr; do
    echo "an older file" >"$tmp/real/pr.tsv"
    rm -f "$tmp/links/link.tsv"
    ln -s "$tmp/real/pr.tsv" "$tmp/links/link.tsv"
    (trap '' XFSZ; ulimit -f 16; exec "$kiln" pagerank "$graph" "$opt" "$tmp/links/link.tsv" --device cpu) \
        >/dev/null 2>"$tmp/err"
    code=$?
    [ "$code" = 3 ] && grep -q 'File too large' "$tmp/err" && grep -q 'left as it was' "$tmp/err" && ok ||
        bad "$opt through a link cut short: exit $code, $(cat "$tmp/err")"
    [ "$(cat "$tmp/real/pr.tsv")" = "an older file" ] && ok ||
        bad "$opt through a link cut short changed the file it leads to: $(head -c 40 "$tmp/real/pr.tsv" | tr -cd "[:print:]")"
    [ -L "$tmp/links/link.tsv" ] && ok || bad "$opt: the link is no longer a link"
    [ -z "$(temps)" ] && ok || bad "$opt through a link left $(temps)"
done

# complete through a relative link chain: the link stays, its file is replaced whole
(cd "$tmp/links" && rm -f link.tsv hop.tsv && ln -s ../real/pr.tsv hop.tsv && ln -s hop.tsv link.tsv)
"$kiln" pagerank "$graph" --output "$tmp/links/link.tsv" --device cpu >/dev/null 2>"$tmp/err" && ok ||
    bad "through a link chain: $(cat "$tmp/err")"
[ -L "$tmp/links/link.tsv" ] && [ -L "$tmp/links/hop.tsv" ] && [ -f "$tmp/real/pr.tsv" ] && ok ||
    bad "the link chain was not kept"
[ "$(wc -l <"$tmp/real/pr.tsv")" = 4039 ] && ok || bad "through a link chain: $(wc -l <"$tmp/real/pr.tsv") lines"
[ -z "$(temps)" ] && ok || bad "a link chain left $(temps)"
# the temporary file was made beside the file, not beside the link: a link into a directory that
# kiln may write while the link's own directory is read-only works
chmod a-w "$tmp/links"
if [ ! -w "$tmp/links" ] || [ "$(id -u)" != 0 ]; then
    rm -f "$tmp/real/pr.tsv"
    "$kiln" pagerank "$graph" --output "$tmp/links/link.tsv" --device cpu >/dev/null 2>"$tmp/err" && ok ||
        bad "a link in a read-only directory: $(cat "$tmp/err")"
fi
chmod u+w "$tmp/links"

# a dangling link: its file is created; cut short, nothing is created and no "left as it was"
rm -f "$tmp/real/pr.tsv"
(trap '' XFSZ; ulimit -f 16; exec "$kiln" pagerank "$graph" --output "$tmp/links/link.tsv" --device cpu) \
    >/dev/null 2>"$tmp/err"
code=$?
[ "$code" = 3 ] && grep -q 'no file was written' "$tmp/err" && ! grep -q 'left as it was' "$tmp/err" && ok ||
    bad "a new file cut short: exit $code, $(cat "$tmp/err")"
[ ! -e "$tmp/real/pr.tsv" ] && [ -z "$(temps)" ] && ok || bad "a new file cut short left $(ls -A "$tmp/real")"
"$kiln" pagerank "$graph" --output "$tmp/links/link.tsv" --device cpu >/dev/null 2>&1
[ "$(wc -l <"$tmp/real/pr.tsv" 2>/dev/null)" = 4039 ] && [ -L "$tmp/links/link.tsv" ] && ok ||
    bad "a dangling link's file was not created"

# --- 3. a run interrupted after the graph was loaded replaces neither output
echo "old ranks" >"$tmp/x"
echo "old cache" >"$tmp/y"
# SIGINT once the run is iterating (its first progress line), not after a fixed 3 s of it
signal_at_line INT "pagerank: iteration [1-9]" /dev/null "$tmp/err" "$kiln" pagerank --rmat 14 --tol 0 \
    --max-iter 100000000 --output "$tmp/x" --save-csr "$tmp/y" --device cpu --threads 1 --progress
[ "$code" = 130 ] && ok || bad "interrupted run: exit $code, $(cat "$tmp/err")"
[ "$(cat "$tmp/x")" = "old ranks" ] && [ "$(cat "$tmp/y")" = "old cache" ] && ok ||
    bad "an interrupted run replaced an output: x=$(head -c 20 "$tmp/x" | tr -d '\0'), y=$(head -c 7 "$tmp/y" | tr -d '\0')"
[ -z "$(temps)" ] && ok || bad "an interrupted run left $(temps)"
# complete: both written
"$kiln" pagerank --rmat 10 --output "$tmp/x" --save-csr "$tmp/y" --device cpu >/dev/null 2>&1 && ok || bad "rmat 10"
[ "$(head -c 7 "$tmp/y")" = KILNCSR ] && [ "$(wc -l <"$tmp/x")" -gt 100 ] && ok || bad "complete run: outputs missing"

# --- 6. names of up to NAME_MAX bytes
for len in 245 255; do
    name=$(printf 'n%.0s' $(seq "$len"))
    rm -f "$tmp/real/"*
    "$kiln" pagerank "$graph" --output "$tmp/real/$name" --device cpu >/dev/null 2>"$tmp/err" && ok ||
        bad "a $len-byte name: $(cat "$tmp/err")"
    [ "$(wc -l <"$tmp/real/$name" 2>/dev/null)" = 4039 ] && ok || bad "a $len-byte name: no complete file"
    # twice: the second run replaces the first file
    "$kiln" pagerank "$graph" --save-csr "$tmp/real/$name" --device cpu >/dev/null 2>&1 &&
        [ "$(head -c 7 "$tmp/real/$name")" = KILNCSR ] && ok || bad "a $len-byte name replaced"
    [ -z "$(temps)" ] && ok || bad "a $len-byte name left $(temps)"
done
# multibyte: the temporary name is cut at a character boundary and still fits
name=$(printf 'é%.0s' $(seq 127)) # 254 bytes
"$kiln" pagerank "$graph" --output "$tmp/real/$name" --device cpu >/dev/null 2>"$tmp/err" &&
    [ "$(wc -l <"$tmp/real/$name")" = 4039 ] && ok || bad "a 254-byte UTF-8 name: $(cat "$tmp/err")"

# --- 11. a bad --output directory is reported before the input is read: stdin a pipe whose writer
# (this shell, fd 4) never writes nor closes; kiln reading it first would wait for timeout (124)
mkfifo "$tmp/silent"
exec 4<>"$tmp/silent"
start=$(date +%s)
timeout 10 "$kiln" pagerank - --output "$tmp/no/such/dir/out" --device cpu <"$tmp/silent" 4>&- >/dev/null 2>"$tmp/err"
code=$?
took=$(($(date +%s) - start))
exec 4>&-
[ "$code" = 2 ] && grep -q 'no/such/dir' "$tmp/err" && [ "$took" -lt 4 ] && ok ||
    bad "bad --output directory: exit $code after $took s, $(cat "$tmp/err")"

finish
