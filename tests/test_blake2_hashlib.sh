#!/usr/bin/env bash
# BLAKE2b and BLAKE2s with every field of the parameter block (digest size, key, salt,
# personalization, fanout, depth, leaf size, node offset, node depth, inner size, last node)
# through kiln_hash_init_params, against Python's hashlib: blake2_hashlib_vectors.py writes
# hashlib's digests now, test_blake2_kat checks kiln's against them.
# Usage: test_blake2_hashlib.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
python3 -c 'import hashlib; hashlib.blake2b(salt=b"", person=b"")' 2> /dev/null || { echo "no python3 hashlib.blake2b: skipped"; exit 77; }
prog=$(dirname "$KILN")/tests/test_blake2_kat
[ -x "$prog" ] || { echo "no $prog (the kiln_tests target builds it)"; exit 1; }
python3 "$(dirname "$0")/blake2_hashlib_vectors.py" > "$T/vectors.txt" || bad "the vector script failed"
lines=$(grep -vc '^#' "$T/vectors.txt")
[ "$lines" -ge 300 ] && ok || bad "only $lines hashlib vectors"
"$prog" "$T/vectors.txt" > "$T/out" 2>&1 && ok || bad "kiln differs from hashlib: $(head -5 "$T/out")"
# a digest changed by one bit is a failure (the check can fail)
awk '!/^#/ && !done { d = $NF; $NF = (substr(d, 1, 1) == "0" ? "1" : "0") substr(d, 2); done = 1 } { print }' \
    "$T/vectors.txt" > "$T/bad.txt"
"$prog" "$T/bad.txt" > /dev/null 2>&1 && bad "a wrong hashlib digest passed" || ok
finish
