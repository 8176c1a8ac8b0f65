#!/usr/bin/env bash
# kiln scrypt --batch FILE (issue 39.6): one password per line (its bytes without the newline: an
# empty line is the empty password, a '\r' stays, the last line may lack its newline), one hex key
# per line in the file's order, each equal to Python's hashlib.scrypt (OpenSSL's) of that line and
# RFC 7914's vector; stdin, JSON, the refusals; --device cpu for one password. The OpenCL run is
# test_opencl_scrypt_cli.sh.
# Usage: test_cli_scrypt_batch.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
cd "$T" || exit 1
python3 -c 'import hashlib; hashlib.scrypt(b"", salt=b"", n=2, r=1, p=1)' 2> /dev/null ||
    { echo "python3 with hashlib.scrypt not found: skipping"; exit 77; }
s() { "$KILN" scrypt "$@"; }
# want FILE SALT N R P LEN: hashlib's keys of FILE's lines, one per line
want() {
    python3 - "$@" <<'PY'
import hashlib, sys
data = open(sys.argv[1], "rb").read()
lines = data.split(b"\n")
if data.endswith(b"\n"):
    lines.pop()
if not data:
    lines = []
salt, n, r, p, length = sys.argv[2].encode(), *map(int, sys.argv[3:7])
for pw in lines:
    print(hashlib.scrypt(pw, salt=salt, n=n, r=r, p=p, maxmem=1 << 30, dklen=length).hex())
PY
}
printf 'password\npleaseletmein\n\nwith space\r\nlast, no newline' > pw.txt
got=$(s --batch pw.txt --salt NaCl -N 16 -r 1 -p 1 --length 32 --device cpu)
expect_eq "$?" 0 "--batch exit"
expect_eq "$got" "$(want pw.txt NaCl 16 1 1 32)" "--batch: hashlib's keys, in order"
expect_eq "$(printf '%s\n' "$got" | wc -l | tr -d ' ')" 5 "one key per password (5)"
# RFC 7914 section 12's second vector, as the first line of a batch
printf 'password\nx\n' > rfc.txt
expect_eq "$(s --batch rfc.txt --salt NaCl -N 1024 -r 8 -p 16 --threads 2 | head -1)" \
    "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640" \
    "RFC 7914's vector"
printf 'a\nb\n' > two.txt
expect_eq "$(s --batch - --salt-hex 00ff -N 4 -r 2 -p 3 < two.txt)" "$(python3 -c '
import hashlib
for pw in (b"a", b"b"):
    print(hashlib.scrypt(pw, salt=bytes([0, 255]), n=4, r=2, p=3, dklen=64).hex())')" "stdin, --salt-hex, p=3"
out=$(s --batch two.txt --salt s -N 2 -r 1 -p 1 --length 16 --json)
python3 -c '
import hashlib, json, sys
d = json.loads(sys.argv[1])
want = [hashlib.scrypt(pw, salt=b"s", n=2, r=1, p=1, dklen=16).hex() for pw in (b"a", b"b")]
sys.exit(0 if d["keys"] == want and d["count"] == 2 and d["length"] == 16 else 1)' "$out" && ok || bad "--json: $out"
: > empty.txt
expect_eq "$(s --batch empty.txt --salt s -N 2 -r 1 -p 1; echo "rc=$?")" "rc=0" "an empty file: no key, exit 0"
# refusals: one line, exit 2
s --batch two.txt --password x --salt s > /dev/null 2> err
expect_eq "$?:$(wc -l < err | tr -d ' ')" "2:1" "--batch with --password"
s --batch nofile.txt --salt s > /dev/null 2> err
expect_eq "$?" 2 "a missing --batch file"
grep -q "cannot read --batch file 'nofile.txt'" err && ok || bad "missing file message: $(cat err)"
mkdir d
s --batch d --salt s > /dev/null 2> err
expect_eq "$?" 2 "a directory as --batch"
# --device on one password: cpu as before (RFC 7914's first vector: empty password and salt)
expect_eq "$(s --password '' --salt '' -N 16 -r 1 -p 1 --device cpu)" \
    "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906" \
    "--device cpu: RFC 7914's first vector"
s --password x --salt s --device nosuch > /dev/null 2> err
expect_eq "$?" 2 "an unknown --device"
finish
