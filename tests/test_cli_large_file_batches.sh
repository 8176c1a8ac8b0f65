#!/usr/bin/env bash
# `kiln hash --device opencl:0` over many small files (issue 38.2): each GPU batch is hashed on a
# thread while the next batch's files are read, and the results still come in the order the
# files were named, checked against sha256sum and Python's hashlib:
# - 80 files of 1 MiB (two batches by size: a batch holds 64 MiB) among 300 small ones, with a
#   file past the 1 MiB limit (streamed on the CPU) and a missing one in the middle: sha256sum's
#   lines in the same order, and exit 2 naming the missing file;
# - a --check list whose lines take turns between SHA256 and SHA3-256 (a batch each: a batch is of
#   one algorithm): every file OK, in the list's order.
# Runs on an OpenCL device (PoCL's CPU device in CI); skipped where there is none.
# ctest: opencl
# usage: test_cli_large_file_batches.sh KILN DATA_DIR
set -u
kiln=$(readlink -f "$1") # absolute: the test runs in its scratch folder
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cli_util.sh"
tmp=$TMP
"$kiln" devices 2>/dev/null | grep -q '^opencl:0 ' || { echo "SKIP: no OpenCL device"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }

cd "$tmp" || exit 1
for i in $(seq 1 80); do head -c 1048576 /dev/urandom >"m$i"; done
for i in $(seq 1 300); do head -c $((i * 997 % 5000)) /dev/urandom >"s$i"; done
head -c 3000000 /dev/urandom >big
files=()
for i in $(seq 1 300); do
    files+=("s$i")
    [ $((i % 4)) = 0 ] && [ $((i / 4)) -le 80 ] && files+=("m$((i / 4))")
    [ "$i" = 150 ] && files+=(big missing)
done

"$kiln" hash --algo sha256 --device opencl:0 "${files[@]}" >got 2>err
rc=$?
sha256sum "${files[@]}" >want 2>/dev/null
[ "$rc" = 2 ] && grep -q "missing: No such file or directory" err && ok || bad "exit $rc, $(cat err)"
cmp -s got want && ok || bad "digests differ from sha256sum's: $(diff got want | head -5)"

# a check list taking turns between two algorithms
python3 - "${files[@]}" >list <<'EOF'
import hashlib, sys
for name in sys.argv[1:]:
    if name == "missing": continue
    data = open(name, "rb").read()
    print("SHA256 (%s) = %s" % (name, hashlib.sha256(data).hexdigest()))
    print("SHA3-256 (%s) = %s" % (name, hashlib.sha3_256(data).hexdigest()))
EOF
"$kiln" hash --check --device opencl:0 list >got 2>err
rc=$?
for f in "${files[@]}"; do [ "$f" = missing ] || printf '%s: OK\n%s: OK\n' "$f" "$f"; done >want
[ "$rc" = 0 ] && ok || bad "--check: exit $rc, $(cat err)"
cmp -s got want && ok || bad "--check verdicts: $(diff got want | head -5)"

finish
