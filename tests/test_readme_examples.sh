#!/usr/bin/env bash
# The examples of README.md, of the docs/ pages split out of it and of python/README.md that use the
# repository's tests/data files work as written: taken from the pages themselves each time, so they
# cannot drift apart. And every link of those pages to a file of the repository resolves.
# - In a ```sh block, every line naming tests/data/ (with its `\` continuation lines) runs from the
#   repository root, `kiln` being the kiln under test, and must exit 0. The `# ` lines right under it
#   are its output as the README shows it: stdout must be those lines, field by field, numbers with
#   a fraction equal to 1e-12 relative (the last digits of a float sum may differ with the threads).
#   The README's numbers are not kiln's: its PageRank example shows NetworkX's nx.pagerank of that
#   graph (NetworkX 3.6.1 gives 0.0076145868447496, 0.006936420955866117, 0.006367162138306824).
#   They are the CPU's float64 ranks (a GPU stores them in float32, docs/USAGE.md "kiln pagerank"): the
#   examples run with no GPU visible (CUDA_VISIBLE_DEVICES empty), so `auto` is the CPU everywhere.
# - In a ```python block, a line naming tests/data/ runs with the README's import lines before it and,
#   after it, the lines that follow it and use a name it assigns; they must raise nothing. They run
#   only with KILN_PYTHON, a Python that imports kiln (python/tools/ci.sh sets it): without it each
#   is listed as not run.
# - A tests/data/ path in a fenced block of any other kind fails: the test would not know how to run it.
# Usage: test_readme_examples.sh KILN DATA_DIR
set -u
KILN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/cli_util.sh"
T=$TMP

# Each example into $T/ex/N.{where,lang,cmd,want}
mkdir "$T/ex"
n=0
# the front page, the pages split out of it, and the Python package's
pages=(README.md docs/USAGE.md docs/GPU.md docs/PACKAGING.md docs/LIBRARY.md docs/PYTHON.md docs/PERFORMANCE.md
       docs/DEVELOPMENT.md python/README.md)
for readme in "${pages[@]}"; do
    n=$(awk -v file="$readme" -v dir="$T/ex" -v n="$n" '
    function out(kind, text,   f) { f = dir "/" n "." kind; printf "%s", text > f; close(f) }
    function flush() { # the example under way, if any, is complete
        if (state == "sh" || state == "want") { out("cmd", cmd "\n"); out("want", want) }
        if (state == "py") out("cmd", imports cmd "\n")
        state = ""
    }
    function names(line,   lhs, k, a, i, s) { # the names a Python line assigns ("a, b = ..."): "|a|b|"
        s = "|"
        if (match(line, /^[A-Za-z_][A-Za-z0-9_, ]*=[^=]/)) {
            lhs = substr(line, 1, RLENGTH - 2); k = split(lhs, a, ",")
            for (i = 1; i <= k; i++) { gsub(/ /, "", a[i]); if (a[i] != "") s = s a[i] "|" }
        }
        return s
    }
    function uses(line, s,   k, a, i) { # does line use one of the names in s
        k = split(s, a, "|")
        for (i = 1; i <= k; i++)
            if (a[i] != "" && line ~ ("(^|[^A-Za-z0-9_.])" a[i] "([^A-Za-z0-9_]|$)")) return 1
        return 0
    }
    /^```/ {
        if (lang == "") { lang = substr($0, 4); sub(/[ \t].*/, "", lang); if (lang == "") lang = "(none)" }
        else { flush(); lang = "" }
        next
    }
    lang == "" { next }
    state == "sh" { cmd = cmd "\n" $0; if ($0 !~ /\\$/) state = "want"; next } # a continuation line
    state == "want" && /^# / { want = want substr($0, 3) "\n"; next }        # its output
    state == "py" && $0 != "" && uses($0, assigned) { cmd = cmd "\n" $0; next }
    { flush() }
    lang == "python" && /^(import|from) / { imports = imports $0 "\n" }
    /tests\/data\// {
        n++
        out("where", file ":" FNR); out("lang", lang)
        cmd = $0; want = ""
        if (lang == "sh") state = ($0 ~ /\\$/) ? "sh" : "want"
        else if (lang == "python") { assigned = names($0); state = "py" }
        else out("cmd", $0 "\n")
    }
    END { flush(); print n }
    ' "$src/$readme")
done

total=$(find "$T/ex" -name '*.where' | wc -l)
[ "$total" -gt 0 ] || bad "no example in the READMEs names tests/data/"
for w in $(find "$T/ex" -name '*.where' | sort -V); do
    i=${w%.where}
    where=$(cat "$w") lang=$(cat "$i.lang")
    case $lang in
    sh)
        # kiln is the kiln under test; the rest of the line as the README writes it
        # shellcheck disable=SC2317 # called by the eval'd example
        kiln() { "$KILN" "$@"; }
        (cd "$src" && export CUDA_VISIBLE_DEVICES= && eval "$(cat "$i.cmd")") >"$T/out" 2>"$T/err"
        rc=$?
        if [ "$rc" = 0 ]; then ok; else bad "$where: exit $rc: $(cat "$i.cmd")"; cat "$T/err" >&2; continue; fi
        [ -s "$i.want" ] || continue
        # field by field; numbers with a fraction to 1e-12 relative
        if awk -F'[ \t]+' 'NR == FNR { want[FNR] = $0; n = FNR; next }
            { got[FNR] = $0; m = FNR }
            END {
                if (m != n) { print "lines: got " m ", want " n; exit 1 }
                for (l = 1; l <= n; l++) {
                    k = split(want[l], a, /[ \t]+/); j = split(got[l], b, /[ \t]+/)
                    if (k != j) { print "line " l ": got [" got[l] "] want [" want[l] "]"; exit 1 }
                    for (f = 1; f <= k; f++) {
                        if (a[f] == b[f]) continue
                        num = "^-?[0-9]+\\.[0-9]+([eE][-+]?[0-9]+)?$"
                        if (a[f] ~ num && b[f] ~ num) {
                            d = a[f] - b[f]; if (d < 0) d = -d
                            s = a[f] < 0 ? -a[f] : a[f]
                            if (d <= 1e-12 * s) continue
                        }
                        print "line " l ": got [" got[l] "] want [" want[l] "]"; exit 1
                    }
                }
            }' "$i.want" "$T/out" >"$T/diff"; then ok; else bad "$where: the output differs from the README's: $(cat "$T/diff")"; fi
        ;;
    python)
        if [ -z "${KILN_PYTHON:-}" ]; then
            echo "not run (no KILN_PYTHON): $where"
            continue
        fi
        if (cd "$src" && "$KILN_PYTHON" - <"$i.cmd") >"$T/out" 2>&1; then ok; else
            bad "$where: the Python example raised:"; cat "$i.cmd" "$T/out" >&2
        fi
        ;;
    *)
        bad "$where: tests/data/ in a block of kind '$lang', which this test cannot run: $(cat "$i.cmd")"
        ;;
    esac
done

# Links: every markdown link [text](target) that is no URL, and every bare path of the repository
# (docs/X.md, examples/x.c, scripts/..., tests/...) named in the pages, exists (relative to the
# page for a markdown link, to the root for a bare path); an #anchor of a markdown page names one
# of its headings (GitHub's spelling: lower case, spaces to dashes, punctuation dropped)
links=0
for page in "${pages[@]}"; do
    dir=$(dirname "$page")
    while IFS= read -r target; do
        links=$((links + 1))
        file=${target%%#*} anchor=${target#*#}
        [ "$anchor" = "$target" ] && anchor=
        [ -z "$file" ] && file=$(basename "$page")
        if [ ! -e "$src/$dir/$file" ]; then bad "$page: link ($target): no $dir/$file"; continue; fi
        if [ -n "$anchor" ] && [[ $file == *.md ]]; then
            if sed -n 's/^#\{1,6\} //p' "$src/$dir/$file" | tr 'A-Z' 'a-z' | sed -e 's/[^a-z0-9 _-]//g' -e 's/ /-/g' |
                grep -qxF -- "$anchor"; then ok; else bad "$page: link ($target): no heading #$anchor in $dir/$file"; fi
        else ok; fi
    done < <(grep -oE '\]\([^)]+\)' "$src/$page" | sed -e 's/^](//' -e 's/)$//' | grep -vE '^[a-z]+:')
    while IFS= read -r path; do
        links=$((links + 1))
        if [ -e "$src/$path" ]; then ok; else bad "$page: names $path, which does not exist"; fi
    done < <(grep -v '^    ' "$src/$page" | grep -oE '(^|[ `(])(docs|examples|scripts|python|cmake|fuzz)/[A-Za-z0-9_./*-]*' |
             sed -e 's/^[ `(]//' -e 's/[.-]*$//' | grep -v '[*]' | sort -u)
done
[ "$links" -gt 0 ] || bad "no link found in the pages"

echo "$total examples, $links links; $pass passed, $fail failed"
[ "$fail" = 0 ]
