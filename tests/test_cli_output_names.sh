#!/usr/bin/env bash
# Output names checked before any work, and "-" (issue 36, items 12 and 16), through the one place
# that opens outputs (cli_output_open, kiln_output_open):
#   - a name longer than the directory's NAME_MAX, or a path of PATH_MAX bytes or more, is exit 2
#     at once naming the reason (File name too long), for --output and --save-csr alike, with no
#     file and no temporary file left; it was exit 3 after the whole computation;
#   - `--output -` writes the ranks to standard output (a text stream, as "-" reads standard input),
#     the same bytes as --output FILE, and creates no file named "-"; with --top or --json, which
#     print there too, it is exit 2; `--save-csr -` (a binary cache, read back from a file) is
#     exit 2 and creates nothing.
# usage: test_cli_output_names.sh KILN DATA_DIR
set -u
kiln=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") data=$(cd "$2" && pwd) # the cases run in folders of their own
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP
graph=$data/facebook_combined.txt
long=$(printf 'a%.0s' $(seq 256))
# a path of 4096 bytes of short components (each directory name legal, the whole too long)
deep=$tmp$(printf '/%0254d' $(seq 17))

# expect_refused WHAT CMD...: exit 2 with one line naming the name's fault, nothing on stdout, no
# file left in $tmp/w, and quickly: RMAT 20 takes seconds to build and rank, a refusal does not
refused() {
    local what=$1
    shift
    rm -rf "$tmp/w"
    mkdir "$tmp/w"
    local start end
    start=$(date +%s%N)
    (cd "$tmp/w" && "$@") >"$tmp/out" 2>"$tmp/err"
    local code=$?
    end=$(date +%s%N)
    local ms=$(((end - start) / 1000000))
    [ "$code" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'File name too long' "$tmp/err" && [ ! -s "$tmp/out" ] &&
        [ -z "$(ls -A "$tmp/w")" ] && ok ||
        bad "$what: exit $code after $ms ms (want 2 at once), files: $(ls -A "$tmp/w" | head -c 100), err: $(head -c 300 "$tmp/err")"
    # before the graph: a refusal within 3 s (at once, on a busy machine), where RMAT 20 takes longer
    [ "$ms" -lt 3000 ] && ok || bad "$what: refused after $ms ms: not before the work"
}
refused "--output NAME_MAX+1 bytes" "$kiln" pagerank --rmat 20 --device cpu --output "$long"
refused "--output DIR/NAME_MAX+1 bytes" "$kiln" pagerank --rmat 20 --device cpu --output "$tmp/w/$long"
refused "--save-csr NAME_MAX+1 bytes" "$kiln" pagerank --rmat 20 --device cpu --output r --save-csr "$long"
refused "--output of PATH_MAX bytes" "$kiln" pagerank --rmat 20 --device cpu --output "$deep/r"
# a link to a name too long: the file it would create is refused the same way
ln -s "$long" "$tmp/link"
refused "--output LINK -> NAME_MAX+1 bytes" "$kiln" pagerank --rmat 20 --device cpu --output "$tmp/link"
# the longest legal name is written as ever
name255=${long:0:255}
(cd "$tmp" && "$kiln" pagerank "$graph" --device cpu --output "$name255" 2>"$tmp/err")
code=$?
[ "$code" = 0 ] && [ "$(wc -l <"$tmp/$name255")" = 4039 ] && ok || bad "--output of 255 bytes: exit $code, $(cat "$tmp/err")"

# --output -: the ranks on standard output, the same bytes as a file, and no file named "-"
mkdir -p "$tmp/cwd"
(cd "$tmp/cwd" && "$kiln" pagerank "$graph" --device cpu --output - >"$tmp/stdout" 2>"$tmp/err")
code=$?
"$kiln" pagerank "$graph" --device cpu --output "$tmp/file" 2>/dev/null
[ "$code" = 0 ] && cmp -s "$tmp/stdout" "$tmp/file" && [ ! -e "$tmp/cwd/-" ] && [ "$(wc -l <"$tmp/stdout")" = 4039 ] && ok ||
    bad "--output -: exit $code, $(wc -l <"$tmp/stdout") lines, '-' $([ -e "$tmp/cwd/-" ] && echo created || echo absent), $(cat "$tmp/err")"
# through a pipe, as a stream: the first line and no failure of kiln's own
first=$("$kiln" pagerank "$graph" --device cpu --output - 2>"$tmp/err" | sort -k2,2gr | head -n 1)
[ "$first" = "$(sort -k2,2gr "$tmp/file" | head -n 1)" ] && ok || bad "--output - | sort: '$first', $(cat "$tmp/err")"
# with --save-csr FILE beside it: both written
(cd "$tmp/cwd" && "$kiln" pagerank "$graph" --device cpu --output - --save-csr "$tmp/g.csr" >"$tmp/stdout" 2>"$tmp/err")
code=$?
[ "$code" = 0 ] && cmp -s "$tmp/stdout" "$tmp/file" && [ -s "$tmp/g.csr" ] && ok || bad "--output - --save-csr F: exit $code, $(cat "$tmp/err")"

# "-" refused where standard output is taken or the output is binary: exit 2, one line, nothing made
for c in "--output - --top 3:--top" "--output - --json:--json" "--save-csr -:binary" "--output r --save-csr -:binary"; do
    args=${c%%:*} why=${c##*:}
    rm -rf "$tmp/cwd"
    mkdir "$tmp/cwd"
    # shellcheck disable=SC2086
    (cd "$tmp/cwd" && "$kiln" pagerank "$graph" --device cpu $args >"$tmp/out" 2>"$tmp/err")
    code=$?
    [ "$code" = 2 ] && grep -q -- "$why" "$tmp/err" && [ -z "$(ls -A "$tmp/cwd")" ] &&
        { [ "$why" = "--json" ] || [ ! -s "$tmp/out" ]; } && ok ||
        bad "$args: exit $code, files: $(ls -A "$tmp/cwd"), err: $(cat "$tmp/err")"
done

finish
