#!/usr/bin/env bash
# kiln bench's text table keeps its columns whatever the names' lengths (issue 39): the device
# starts, and the rate ends, at the same column on the header and on every row, for the whole
# table (labels from "scrypt" to "sha512-256/32B") and for a key-derivation row's long label.
# Usage: test_bench_table.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
cd "$T" || exit 1
dev=$("$KILN" bench --algo sha256 --device cpu --threads 1 --seconds 0.01 --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["device"])') || { echo "no python3: skipping"; exit 77; }
# aligned FILE NAME: the device column and the rate's right edge line up on every line
aligned() {
    python3 - "$1" "$dev" <<'PY'
import sys
lines = [l.rstrip("\n") for l in open(sys.argv[1]) if l.strip()]
dev = sys.argv[2]
head, rows = lines[0], lines[1:]
col = head.index("device")
bad = [l for l in rows if l.find(dev) != col or len(l.rstrip()) != len(head.rstrip())]
for l in bad:
    print("misaligned: %r (device at %d, want %d; width %d, want %d)" % (l, l.find(dev), col, len(l.rstrip()), len(head.rstrip())))
sys.exit(1 if bad or not rows else 0)
PY
}
"$KILN" bench --device cpu --threads 1 --seconds 0.02 > all.txt 2> err
expect_eq "$?" 0 "bench (every row) exit ($(cat err))"
grep -q '^sha512-256/32B ' all.txt && ok || bad "a name longer than 10 characters: $(cat all.txt)"
aligned all.txt && ok || bad "the whole table's columns"
"$KILN" bench --algo scrypt-kdf --device cpu -N 1024 -r 1 --seconds 0.05 > kdf.txt 2> err
expect_eq "$?:$(wc -l < kdf.txt | tr -d ' ')" "0:2" "scrypt-kdf: a header and one row ($(cat err))"
aligned kdf.txt && ok || bad "the key derivation row's columns"
finish
