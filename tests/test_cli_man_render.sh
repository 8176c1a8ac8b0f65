#!/bin/bash
# Every manual page kiln writes (share/, `kiln help --roff`) renders with man(1) -- groff with all
# its warnings on (man --warnings) -- without a single warning, at 80 and 60 columns, and shows its
# NAME. Skipped (77) without man or groff (scripts/setup-debian installs man-db).
# Usage: test_cli_man_render.sh KILN DATA_DIR
source "$(dirname "$0")/cli_docs_util.sh"
if command -v man > /dev/null && command -v groff > /dev/null; then
    render() { MANWIDTH=$1 man --warnings -E UTF-8 -l "$2"; }
elif command -v groff > /dev/null; then
    render() { groff -ww -man -Tutf8 -rLL="$1"n "$2"; }
else
    echo "no man or groff: skipped"
    exit 77
fi
n=0
for page in "$SHARE"/man/man1/*.1; do
    name=$(basename "$page" .1)
    for width in 80 60; do
        render "$width" "$page" > "$T/out" 2> "$T/err"
        rc=$?
        if [ $rc == 0 ] && [ ! -s "$T/err" ]; then ok; else bad "$name at $width columns: exit $rc, $(cat "$T/err")"; fi
        grep -Eq "^ *$name +- " "$T/out" && ok || bad "$name at $width columns shows no NAME line"
    done
    n=$((n + 1))
done
[ $n -ge 2 ] && ok || bad "only $n pages under $SHARE/man/man1"
# a page with a fault does warn: the check above can fail
printf '.TH X 1\n.SH NAME\nx \\- y\n.BOGUS\n\\fQ\n' > "$T/bad.1"
render 80 "$T/bad.1" > /dev/null 2> "$T/err"
[ -s "$T/err" ] && ok || bad "a page with an unknown macro and font rendered without a warning"
finish
