#!/usr/bin/env bash
# `kiln scrypt`'s bounds beside N, r and p (issue 24, items 5 and 11):
#   - --length is checked against the memory limit before any work (the key and its hex, 3 bytes per
#     output byte): exit 2 naming the bytes and the limit, not minutes of work or exit 3;
#   - SIGINT during a long output (the last PBKDF2) ends the command within a second, exit 130,
#     nothing printed;
#   - a --password-file larger than 1 GiB is refused before it is read.
# usage: test_cli_scrypt_bounds.sh KILN DATA_DIR
set -u
kiln=$1
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP
. "$(dirname "$0")/signal_util.sh"

# --length over physical memory (130 GB of key, 390 GB with its hex): exit 2 at once, no ulimit
# needed (an AddressSanitizer build cannot run under ulimit -v)
start=$(date +%s)
"$kiln" scrypt --password pw --salt s --length 130000000000 >"$tmp/out" 2>"$tmp/err"
code=$?
took=$(($(date +%s) - start))
[ "$code" = 2 ] && grep -q 'length 130000000000' "$tmp/err" && grep -q 'kiln may use' "$tmp/err" && [ "$took" -le 2 ] &&
    [ ! -s "$tmp/out" ] && ok || bad "--length 130000000000: exit $code after $took s, $(cat "$tmp/err")"
"$kiln" scrypt --password pw --salt s --length 130000000000 --json >"$tmp/out" 2>"$tmp/err"
code=$?
[ "$code" = 2 ] && grep -q '"exit": 2' "$tmp/out" && ok || bad "--length 130000000000 --json: exit $code, $(cat "$tmp/out" "$tmp/err")"

# under ulimit -v 2 GiB (the plain build only): the limit named, the key and its hex counted
if ! ldd "$kiln" 2>/dev/null | grep -q libasan; then
    (ulimit -v 2097152; exec "$kiln" scrypt --password pw --salt s --length 3000000000) >"$tmp/out" 2>"$tmp/err"
    code=$?
    [ "$code" = 2 ] && grep -q 'length 3000000000' "$tmp/err" && grep -q 'kiln may use 2147483648' "$tmp/err" &&
        [ ! -s "$tmp/out" ] && ok || bad "--length 3000000000 under ulimit -v 2 GiB: exit $code, $(cat "$tmp/err")"
    (ulimit -v 2097152; exec "$kiln" scrypt --password pw --salt s -N 2 -r 1 --length 750000000) >"$tmp/out" 2>"$tmp/err"
    code=$?
    [ "$code" = 2 ] && grep -q 'needs 2250000001 bytes of memory (the key and its hex)' "$tmp/err" && ok ||
        bad "--length 750000000 under ulimit -v 2 GiB: exit $code, $(cat "$tmp/err")"
fi

# SIGINT inside the last PBKDF2 (100 MB of output: seconds of work)
signal_run INT 0.5 "$tmp/out" "$tmp/err" "$kiln" scrypt --password pw --salt s -N 2 -r 1 -p 1 --length 100000000
[ "$code" = 130 ] && within 1.5 && grep -q 'interrupted by SIGINT' "$tmp/err" && [ ! -s "$tmp/out" ] && ok ||
    bad "SIGINT during --length 100000000: exit $code after $took s, $(cat "$tmp/err")"

# a password file over 1 GiB (sparse): refused before it is read
truncate -s 2G "$tmp/big"
/usr/bin/time -f '%M' -o "$tmp/rss" "$kiln" scrypt --password-file "$tmp/big" --salt s >/dev/null 2>"$tmp/err"
code=$?
rss=$(tail -n 1 "$tmp/rss")
[ "$code" = 2 ] && grep -q 'larger than 1 GiB' "$tmp/err" && [ "$rss" -lt 102400 ] && ok ||
    bad "2 GiB password file: exit $code, peak ${rss} KiB, $(cat "$tmp/err")"

finish
