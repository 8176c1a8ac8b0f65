#!/usr/bin/env bash
# `kiln scrypt --password-file` of an input that never ends under an address-space limit (issue 36
# item 16): /dev/zero is read up to the 1 GiB bound (exit 2, "larger than 1 GiB", where memory
# allows); when memory runs out first, that is a system failure, exit 3 as documented
# (docs/RELIABILITY.md), with "out of memory" named, nothing printed, and at once. It was exit 2.
# An AddressSanitizer build cannot run under ulimit -v: skipped there.
# usage: test_cli_scrypt_password_memory.sh KILN [DATA_DIR]
set -u
kiln=$1
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP
if ldd "$kiln" 2>/dev/null | grep -q libasan; then
    echo "AddressSanitizer build: skipped"
    exit 77
fi

for limit in 1000000 600000; do
    (ulimit -v $limit; exec timeout -s KILL 60 "$kiln" scrypt --password-file /dev/zero --salt s -N 2 -r 1) \
        >"$tmp/out" 2>"$tmp/err"
    code=$?
    [ "$code" = 3 ] && grep -q "cannot read password file '/dev/zero': out of memory" "$tmp/err" &&
        [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] && ok ||
        bad "--password-file /dev/zero under ulimit -v $limit: exit $code (want 3), $(cat "$tmp/err")"
done
# the same from standard input
(ulimit -v 1000000; exec timeout -s KILL 60 "$kiln" scrypt --password-file - --salt s -N 2 -r 1 </dev/zero) \
    >"$tmp/out" 2>"$tmp/err"
code=$?
[ "$code" = 3 ] && grep -q 'out of memory' "$tmp/err" && ok || bad "--password-file - </dev/zero: exit $code, $(cat "$tmp/err")"
# a password file that fits is read as ever under the same limit (RFC 7914's second vector)
printf password >"$tmp/pw"
got=$(ulimit -v 1000000; "$kiln" scrypt --password-file "$tmp/pw" --salt NaCl -N 1024 -r 8 -p 16 2>"$tmp/err")
[ "$got" = "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640" ] &&
    ok || bad "a small password file under ulimit -v: '$got' $(cat "$tmp/err")"

finish
