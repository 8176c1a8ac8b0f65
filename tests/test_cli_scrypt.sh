#!/usr/bin/env bash
# `kiln scrypt` and `kiln mine --algo scrypt` as a user runs them: RFC 7914's vectors through every
# way of giving the password and salt, real Litecoin headers (tests/data/litecoin_pow.json) found
# in windows around their nonces with the byte-reversed PoW hash, exit codes and one-line errors
# for bad input, bench and tune. The GPU part runs when `kiln devices` lists a GPU.
# usage: test_cli_scrypt.sh KILN DATA_DIR
set -u
kiln=$1
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP

# RFC 7914 section 12
v1=77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906
v2=fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640
v3=7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887
expect 0 "$kiln" scrypt --password "" --salt "" -N 16 -r 1 -p 1; same "$out" "$v1" "vector 1"
expect 0 "$kiln" scrypt --password password --salt NaCl -N 1024 -r 8 -p 16; same "$out" "$v2" "vector 2"
expect 0 "$kiln" scrypt --password=password --salt=NaCl -N=1024 -r=8 -p=16 --threads 1; same "$out" "$v2" "vector 2, --opt=value"
expect 0 "$kiln" scrypt --password pleaseletmein --salt SodiumChloride; same "$out" "$v3" "vector 3 with the defaults"
printf 'pleaseletmein' > "$tmp/pw"
expect 0 "$kiln" scrypt --password-file "$tmp/pw" --salt-hex 536f6469756d43686c6f72696465 -N 16384 -r 8 -p 1 --length 64
same "$out" "$v3" "vector 3 from a file and hex salt"
expect 0 "$kiln" scrypt --password-file - --salt-hex 536F6469756D43686C6F72696465 < "$tmp/pw"; same "$out" "$v3" "stdin, upper-case hex"
expect 0 "$kiln" scrypt --password "" --salt "" -N 16 -r 1 -p 1 --length 16; same "$out" "${v1:0:32}" "--length 16"
# a file's bytes are used exactly: a trailing newline is part of the password
printf 'pleaseletmein\n' > "$tmp/pwnl"
expect 0 "$kiln" scrypt --password-file "$tmp/pwnl" --salt SodiumChloride -N 1024 -r 8
nl=$out
expect 0 "$kiln" scrypt --password pleaseletmein --salt SodiumChloride -N 1024 -r 8
if [ "$nl" != "$out" ] && [ ${#nl} = 128 ]; then ok; else bad "newline must change the key"; fi

# bad parameters and input: exit 2, one line naming the problem
expect 2 "$kiln" scrypt --password x --salt y -N 1000; one_line_error "power of two"
expect 2 "$kiln" scrypt --password x --salt y -N 1; one_line_error "power of two"
expect 2 "$kiln" scrypt --password x --salt y -N 0; one_line_error "power of two"
expect 2 "$kiln" scrypt --password x --salt y -N 65536 -r 1; one_line_error "less than 2^(16r)"
expect 2 "$kiln" scrypt --password x --salt y -r 0; one_line_error "r must be at least 1"
expect 2 "$kiln" scrypt --password x --salt y -p 0; one_line_error "p must be at least 1"
expect 2 "$kiln" scrypt --password x --salt y -r 1 -p 1073741824; one_line_error "p = 1073741824"
expect 2 "$kiln" scrypt --password x --salt y -N 1099511627776 -r 8; one_line_error "needs 128 \* r \* N"
expect 2 "$kiln" scrypt --password x --salt y --length 0; one_line_error "output length"
expect 2 "$kiln" scrypt --password x --salt y -N 16x; one_line_error "bad -N"
expect 2 "$kiln" scrypt --password x --salt y -r -1; one_line_error "bad -r"
expect 2 "$kiln" scrypt --salt y; one_line_error "exactly one of --password"
expect 2 "$kiln" scrypt --password x --password-file "$tmp/pw" --salt y; one_line_error "exactly one of --password"
expect 2 "$kiln" scrypt --password x; one_line_error "exactly one of --salt"
expect 2 "$kiln" scrypt --password x --salt-hex abc; one_line_error "salt-hex"
expect 2 "$kiln" scrypt --password x --salt-hex zz; one_line_error "non-hex character 'z'"
expect 2 "$kiln" scrypt --password-file "$tmp/nonexistent" --salt y; one_line_error "cannot read password file"
expect 2 "$kiln" scrypt --password x --salt y --frobnicate; one_line_error "unknown option"
expect 2 "$kiln" scrypt --password x --salt y -N; one_line_error "needs a value"
expect 0 "$kiln" scrypt --help

# kiln mine --algo scrypt: real Litecoin headers (name header nonce pow_hash)
mine_window() { # device header nonce pow
    local cleared=${2:0:152}00000000
    expect 0 "$kiln" mine --algo scrypt --header "$cleared" --start $(($3 - 700)) --count 1000 --device "$1"
    if printf '%s\n' "$out" | grep -qx "nonce=$3 hash=$4"; then ok; else bad "$1 $3: got '$out'"; fi
    if printf '%s\n' "$out" | grep -Eq '^hashes=[0-9]+ seconds=[0-9.]+ rate=[0-9]+$'; then ok; else bad "summary: $out"; fi
}
while read -r name header nonce pow; do
    mine_window cpu "$header" "$nonce" "$pow"
    cleared=${header:0:152}00000000
    expect 1 "$kiln" mine --algo scrypt --header "$cleared" --start $((nonce + 1)) --count 300 --device cpu
    expect 0 "$kiln" mine --algo scrypt --header "$cleared" --start $((nonce - 5)) --count 10 --device cpu --json
    if printf '%s' "$out" | grep -q "\"nonce\": $nonce, \"hash\": \"$pow\""; then ok; else bad "$name json: $out"; fi
    if printf '%s' "$out" | grep -q '"algo": "scrypt"'; then ok; else bad "$name json algo: $out"; fi
done <<'HEADERS'
ltc0 020000004c1271c211717198227392b029a64a7971931d351b387bb80db027f270411e398a07046f7d4a08dd815412a8712f874a7ebf0507e3878bd24e20a3b73fd750a667d2f451eac7471b00de6659 1499913728 00000000002bef4107f882f6115e0b01f348d21195dacd3582aa2dabd7985806
ltc2 02000000a72c8a177f523946f42f22c3e86b8023221b4105e8007e59e81f6beb013e29aaf635295cb9ac966213fb56e046dc71df5b3f7f67ceaeab24038e743f883aff1aaafaf551eac7471b0166249b 2602853889 00000000000b40f895f288e13244728a6c2d9d59d8aff29c65f8dd5114a8ca81
genesis 010000000000000000000000000000000000000000000000000000000000000000000000d9ced4ed1130f7b7faad9be25323ffafa33232a17c3edf6cfd97bee6bafbdd97b9aa8e4ef0ff0f1ecd513f7c 2084524493 0000050c34a64b415b6b15b37f2216634b5b1669cb9a2e38d76f7213b0671e00
HEADERS
ltc1=0200000011503ee6a855e900c00cfdd98f5f55fffeaee9b6bf55bea9b852d9de2ce35828e204eef76acfd36949ae56d1fbe81c1ac9c0209e6331ad56414f9072506a77f8c6faf551eac7471b00389d01
# --all with an easy target: ascending nonces, each hash under the target
expect 0 "$kiln" mine --algo scrypt --header "$ltc1" --target 0fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff --start 0 --count 200 --all --device cpu
n=$(printf '%s\n' "$out" | grep -c '^nonce=')
inorder=$(printf '%s\n' "$out" | grep '^nonce=' | sed 's/nonce=\([0-9]*\).*/\1/' | tr '\n' ' ')
sorted=$(printf '%s\n' "$out" | grep '^nonce=' | sed 's/nonce=\([0-9]*\).*/\1/' | sort -n | tr '\n' ' ')
under=$(printf '%s\n' "$out" | grep '^nonce=' | grep -vc ' hash=0')
if [ "$n" -ge 3 ] && [ "$sorted" = "$inorder" ] && [ "$under" = 0 ]; then ok; else bad "--all gave $n: $out"; fi
expect 2 "$kiln" mine --algo scrypt --demo --device cpu; one_line_error "demo"
expect 2 "$kiln" mine --algo scrypt2 --header "$ltc1" --device cpu; one_line_error "sha256d or scrypt"

# bench and tune
expect 0 "$kiln" bench --algo scrypt --device cpu --seconds 0.5 --json
if printf '%s' "$out" | grep -Eq '"algo": "scrypt", "device": ".*", "rate": [0-9]+, "unit": "H/s"'; then ok; else bad "bench json: $out"; fi
expect 0 "$kiln" bench --algo scrypt-kdf -N 1024 -r 1 -p 1 --device cpu --seconds 0.3 --json
if printf '%s' "$out" | grep -Eq '"algo": "scrypt-kdf", .*"rate": [0-9]+, "unit": "H/s", "N": 1024, "r": 1, "p": 1'; then ok; else bad "kdf bench json: $out"; fi
expect 2 "$kiln" bench --algo scrypt-kdf -N 1000 --device cpu; one_line_error "power of two"
expect 2 "$kiln" tune --algo scrypt --device cpu; one_line_error "use --device cuda"

# on a GPU: the same windows, and the batch-KDF bench
if "$kiln" devices | grep -q '^cuda:'; then
    mine_window cuda 020000004c1271c211717198227392b029a64a7971931d351b387bb80db027f270411e398a07046f7d4a08dd815412a8712f874a7ebf0507e3878bd24e20a3b73fd750a667d2f451eac7471b00de6659 1499913728 00000000002bef4107f882f6115e0b01f348d21195dacd3582aa2dabd7985806
    expect 0 "$kiln" mine --algo scrypt --header "${ltc1:0:152}00000000" --start 27000000 --count 200000 --device cuda
    if printf '%s\n' "$out" | grep -qx "nonce=27080704 hash=00000000003a0d11bdd5eb634e08b7feddcfbbf228ed35d250daf19f1c88fc94"; then ok; else bad "cuda ltc1: $out"; fi
fi

finish
