#!/usr/bin/env bash
# BLAKE3 through kiln hash against the `blake3` Python package (the BLAKE3 team's Rust code):
# random files at and around the chunk and read-ahead sizes, extended outputs, keyed hashing and key
# derivation. Skipped where `import blake3` fails (it is not a Debian package: pip install blake3;
# KILN_TEST_PYTHON names another interpreter, a virtual environment's).
# Usage: test_hash_blake3_python.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
py=${KILN_TEST_PYTHON:-python3}
"$py" -c "import blake3" 2> /dev/null || { echo "no blake3 Python package ($py -c 'import blake3' fails): skipped"; exit 77; }
cd "$T" || exit 1
sizes=(0 1 64 1023 1024 1025 2048 31744 65537 1048576 1048577 $((9 * 1048576 + 3)))
files=()
for s in "${sizes[@]}"; do head -c "$s" /dev/urandom > "f$s"; files+=("f$s"); done
key='0123456789abcdef0123456789ABCDEF'
ctx='kiln 2026-11-29 blake3 python test'
# one line per file and mode: plain, 200-byte output, keyed, derive_key
"$py" - "$key" "$ctx" "${files[@]}" > want.txt << 'PY'
import sys, blake3
key, ctx, names = sys.argv[1].encode(), sys.argv[2], sys.argv[3:]
for n in names:
    d = open(n, "rb").read()
    print("plain", blake3.blake3(d).hexdigest(), n)
    print("long", blake3.blake3(d).hexdigest(length=200), n)
    print("keyed", blake3.blake3(d, key=key).hexdigest(), n)
    print("derive", blake3.blake3(d, derive_key_context=ctx).hexdigest(), n)
PY
: > got.txt
for f in "${files[@]}"; do
    echo "plain $("$KILN" hash --algo blake3 "$f")" >> got.txt
    echo "long $("$KILN" hash --algo blake3 --length 200 "$f")" >> got.txt
    echo "keyed $(printf %s "$key" | "$KILN" hash --algo blake3 --keyed "$f")" >> got.txt
    echo "derive $("$KILN" hash --algo blake3 --derive-key "$ctx" "$f")" >> got.txt
done
sed -i 's/  / /' got.txt
[ "$(wc -l < want.txt)" -eq $((4 * ${#files[@]})) ] && ok || bad "the Python side wrote $(wc -l < want.txt) lines"
cmp -s got.txt want.txt && ok || bad "differs from the blake3 package: $(diff got.txt want.txt | head -4)"
finish
