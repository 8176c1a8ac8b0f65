#!/usr/bin/env bash
# Pipes and FIFOs as inputs give what the same bytes in a file give: a pipe can be read only once
# and in pieces (64 KiB at a time here, the inputs are larger), a FIFO blocks its opener until a
# writer comes. Covered: hash (files, '-', /dev/stdin, a FIFO, and --check lists from each),
# merkle --leaves and --block, scrypt --password-file. Every digest is also checked against an
# independent answer: coreutils sha256sum, Python's hashlib, the block's published Merkle root.
# (pagerank's inputs are tested in test_graph_load_cli.sh.)
# usage: test_faults_pipe_inputs.sh KILN DATA_DIR
set -u
kiln=$1 data=$2
pass=0 fail=0
tmp=$(mktemp -d)
writers=()
cleanup() {
    for p in "${writers[@]}"; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
k() { timeout 30 "$kiln" "$@"; }
# feed FILE FIFO: writes FILE into the FIFO from the background (the open, too, is bounded)
feed() {
    timeout 30 sh -c 'cat "$1" >"$2"' sh "$1" "$2" &
    writers+=($!)
}
same() { # WHAT GOT WANT
    [ "$2" = "$3" ] && ok || bad "$1: got '$2', want '$3'"
}

block=$data/block413567.raw # 999,887 bytes
mkfifo "$tmp/fifo"

# ---- hash
want=$(sha256sum "$block" | cut -d' ' -f1)
same "sha256sum agrees with the published file_sha256" "$want" \
    "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["file_sha256"])' "$data/block413567.json")"
same "hash FILE" "$(k hash --algo sha256 "$block")" "$want  $block"
same "hash from a pipe (no FILE)" "$(cat "$block" | k hash --algo sha256)" "$want  -"
same "hash - from a pipe" "$(cat "$block" | k hash --algo sha256 -)" "$want  -"
same "hash /dev/stdin from a pipe" "$(cat "$block" | k hash --algo sha256 /dev/stdin)" "$want  /dev/stdin"
feed "$block" "$tmp/fifo"
same "hash FIFO" "$(k hash --algo sha256 "$tmp/fifo")" "$want  $tmp/fifo"
want3=$(python3 -c 'import hashlib,sys; print(hashlib.sha3_256(open(sys.argv[1],"rb").read()).hexdigest())' "$block")
same "hash sha3-256 from a pipe" "$(cat "$block" | k hash --algo sha3-256)" "$want3  -"
same "hash of an empty pipe" "$(: | k hash --algo sha256)" \
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  -"

# --check: the list from a pipe or a FIFO, and a FIFO named in the list
printf '%s  %s\n' "$want" "$block" >"$tmp/list"
same "hash --check - from a pipe" "$(cat "$tmp/list" | k hash --algo sha256 --check -)" "$block: OK"
feed "$tmp/list" "$tmp/fifo"
same "hash --check FIFO" "$(k hash --algo sha256 --check "$tmp/fifo")" "$block: OK"
printf '%s  %s\n' "$want" "$tmp/fifo" >"$tmp/list-fifo"
feed "$block" "$tmp/fifo"
same "hash --check naming a FIFO" "$(k hash --algo sha256 --check "$tmp/list-fifo")" "$tmp/fifo: OK"

# ---- merkle: block 413567's 1557 txids (as explorers show them), and the raw block
grep -v '^#' "$data/block413567.txids.txt" | awk '{print $3}' >"$tmp/leaves"
root=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["merkle_root"])' "$data/block413567.json")
same "merkle --leaves FILE" "$(k merkle --leaves "$tmp/leaves" --device cpu)" "$root"
same "merkle --leaves - from a pipe" "$(cat "$tmp/leaves" | k merkle --leaves - --device cpu)" "$root"
same "merkle --leaves /dev/stdin" "$(cat "$tmp/leaves" | k merkle --leaves /dev/stdin --device cpu)" "$root"
feed "$tmp/leaves" "$tmp/fifo"
same "merkle --leaves FIFO" "$(k merkle --leaves "$tmp/fifo" --device cpu)" "$root"
from_file=$(k merkle --block "$block" --device cpu)
echo "$from_file" | grep -q "^header_root=$root match" && ok || bad "merkle --block FILE: $from_file"
same "merkle --block - from a pipe" "$(cat "$block" | k merkle --block - --device cpu)" "$from_file"
same "merkle --block /dev/stdin" "$(cat "$block" | k merkle --block /dev/stdin --device cpu)" "$from_file"
feed "$block" "$tmp/fifo"
same "merkle --block FIFO" "$(k merkle --block "$tmp/fifo" --device cpu)" "$from_file"

# ---- scrypt --password-file: taken exactly (newlines included), and one larger than a pipe's buffer
scrypt_py() { # PASSWORD_FILE: RFC 7914 through Python's hashlib (OpenSSL)
    python3 -c 'import hashlib,sys; print(hashlib.scrypt(open(sys.argv[1],"rb").read(), salt=b"NaCl", n=16, r=1, p=1, dklen=32).hex())' "$1"
}
printf 'pass\nword\n' >"$tmp/pw-small"
head -c 200000 "$block" >"$tmp/pw-large"
for pw in "$tmp/pw-small" "$tmp/pw-large"; do
    name=${pw##*/}
    want=$(scrypt_py "$pw")
    args=(--salt NaCl -N 16 -r 1 -p 1 --length 32)
    same "scrypt --password-file FILE ($name)" "$(k scrypt --password-file "$pw" "${args[@]}")" "$want"
    same "scrypt --password-file - ($name)" "$(cat "$pw" | k scrypt --password-file - "${args[@]}")" "$want"
    same "scrypt --password-file /dev/stdin ($name)" \
        "$(cat "$pw" | k scrypt --password-file /dev/stdin "${args[@]}")" "$want"
    feed "$pw" "$tmp/fifo"
    same "scrypt --password-file FIFO ($name)" "$(k scrypt --password-file "$tmp/fifo" "${args[@]}")" "$want"
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
