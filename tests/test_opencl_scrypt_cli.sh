#!/usr/bin/env bash
# kiln scrypt --device on the first OpenCL device (PoCL in CI; issue 39.6): one password (a batch
# of one on the GPU) and --batch FILE give Python's hashlib.scrypt keys, line for line, the
# library spot-checking the GPU's keys on the CPU. Skipped (77) without an OpenCL device unless
# KILN_REQUIRE_OPENCL is set.
# Usage: test_opencl_scrypt_cli.sh KILN DATA_DIR
set -u
KILN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/opencl_test_util.sh"
python3 -c 'import hashlib; hashlib.scrypt(b"", salt=b"", n=2, r=1, p=1)' 2> /dev/null ||
    { echo "python3 with hashlib.scrypt not found: skipping"; exit 77; }
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
cd "$TMP" || exit 1
python3 -c '
for i in range(300):
    print("password %d" % i)
print("")
print("last\r")' > pw.txt
want=$(python3 -c '
import hashlib
for pw in open("pw.txt", "rb").read().split(b"\n")[:-1]:
    print(hashlib.scrypt(pw, salt=b"NaCl", n=64, r=1, p=1, dklen=32).hex())')
got=$("$KILN" scrypt --batch pw.txt --salt NaCl -N 64 -r 1 -p 1 --length 32 --device "$OCLDEV" --quiet 2> err)
[ "$?" = 0 ] && [ "$got" = "$want" ] && ok || bad "--batch on $OCLDEV: $(head -c 300 err) $(printf '%s\n' "$got" | head -3)"
got=$("$KILN" scrypt --password pleaseletmein --salt SodiumChloride -N 1024 -r 8 -p 1 --length 64 --device "$OCLDEV" --quiet 2> err)
want=$(python3 -c 'import hashlib; print(hashlib.scrypt(b"pleaseletmein", salt=b"SodiumChloride", n=1024, r=8, p=1, dklen=64).hex())')
[ "$got" = "$want" ] && ok || bad "one password on $OCLDEV: $got $(cat err)"
out=$("$KILN" scrypt --batch pw.txt --salt NaCl -N 64 -r 1 -p 1 --length 32 --device "$OCLDEV" --json 2> /dev/null)
name=$("$KILN" devices | sed -n "s/^$OCLDEV  *\([^,]*\),.*/\1/p")
[ -n "$name" ] && [[ $out == *"\"device\": \"$name\""* ]] && ok || bad "--json names $OCLDEV ($name): $(printf '%s' "$out" | head -c 200)"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
