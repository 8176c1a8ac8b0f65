#!/usr/bin/env bash
# kiln pagerank on input that can be read only once: `cat f | kiln pagerank /dev/stdin`,
# `kiln pagerank -` on a pipe, and a FIFO, for SNAP, Matrix Market, gzip and the CSR cache. Each
# must give the file's graph: SNAP's 4039 nodes and 176468 arcs and NetworkX's leading ranks
# (3437, 107, 1684, 0), and exactly the output of reading the file.
# usage: test_graph_load_cli.sh KILN DATA_DIR
set -u
KILN=$1
DATA=$2
. "$(dirname "$0")/cli_util.sh"
FB=$DATA/facebook_combined.txt
RUN=(pagerank --undirected --device cpu --top 4)

# check NAME SHIFT: the run left in $TMP/out and $TMP/err is Facebook with ids shifted by SHIFT
check() {
    grep -q "4039 nodes, 176468 edges" "$TMP/err" && ok || bad "$1: summary: $(head -c 300 "$TMP/err")"
    local want
    want=$(printf '1:%d,2:%d,3:%d,4:%d,' $((3437 + $2)) $((107 + $2)) $((1684 + $2)) $((0 + $2)))
    [ "$(cut -f1,2 "$TMP/out" | tr '\t\n' ':,')" = "$want" ] && ok || bad "$1: top 4: $(cat "$TMP/out")"
}

# feed NAME FILE SHIFT [OPTIONS...]: FILE through a pipe as /dev/stdin, as -, and through a FIFO
feed() {
    local name=$1 file=$2 shift_by=$3
    shift 3
    "$KILN" "${RUN[@]}" "$@" "$file" >"$TMP/file.out" 2>"$TMP/err" || bad "$name: file run failed"
    cp "$TMP/file.out" "$TMP/out"
    check "$name file" "$shift_by"
    cat "$file" | "$KILN" "${RUN[@]}" "$@" /dev/stdin >"$TMP/out" 2>"$TMP/err" || bad "$name: cat | /dev/stdin failed"
    check "$name cat | /dev/stdin" "$shift_by"
    cmp -s "$TMP/out" "$TMP/file.out" && ok || bad "$name: /dev/stdin output differs from the file's"
    cat "$file" | "$KILN" "${RUN[@]}" "$@" - >"$TMP/out" 2>"$TMP/err" || bad "$name: cat | - failed"
    check "$name cat | -" "$shift_by"
    cmp -s "$TMP/out" "$TMP/file.out" && ok || bad "$name: - output differs from the file's"
    rm -f "$TMP/fifo"
    mkfifo "$TMP/fifo"
    cat "$file" >"$TMP/fifo" &
    local writer=$!
    "$KILN" "${RUN[@]}" "$@" "$TMP/fifo" >"$TMP/out" 2>"$TMP/err" || bad "$name: FIFO failed"
    kill "$writer" 2>/dev/null
    wait "$writer" 2>/dev/null
    check "$name FIFO" "$shift_by"
    cmp -s "$TMP/out" "$TMP/file.out" && ok || bad "$name: FIFO output differs from the file's"
}

feed snap "$FB" 0

{
    echo '%%MatrixMarket matrix coordinate pattern general'
    echo '4039 4039 88234'
    awk '{ print $1 + 1, $2 + 1 }' "$FB"
} >"$TMP/fb.mtx"
feed mtx "$TMP/fb.mtx" 1

if command -v gzip >/dev/null; then
    gzip -c "$FB" >"$TMP/fb.txt.gz"
    if "$KILN" "${RUN[@]}" "$TMP/fb.txt.gz" >/dev/null 2>"$TMP/err"; then
        feed gzip "$TMP/fb.txt.gz" 0
    else
        grep -q zlib "$TMP/err" && ok || bad "gzip refused without naming zlib: $(cat "$TMP/err")"
        cat "$TMP/fb.txt.gz" | "$KILN" "${RUN[@]}" - >/dev/null 2>"$TMP/err"
        [ $? -eq 2 ] && grep -q zlib "$TMP/err" && ok || bad "piped gzip without zlib: $(cat "$TMP/err")"
    fi
fi

"$KILN" "${RUN[@]}" "$FB" --save-csr "$TMP/fb.kcsr" >/dev/null 2>&1 || bad "save-csr"
RUN=(pagerank --device cpu --top 4)
feed csr "$TMP/fb.kcsr" 0

# malformed input on stdin: exit 2, the line named
printf '0 1\n1 2\n2 x\n' | "$KILN" pagerank - --device cpu >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "<stdin>:3:" "$TMP/err" && ok || bad "bad line on stdin: $(cat "$TMP/err")"

finish
