#!/usr/bin/env bash
# --json of every command that prints results (docs/JSON.md): stdout is one JSON document that
# Python's json module parses, whatever happens, and its values agree with answers from outside
# kiln: digests from Python's hashlib, RFC 7914's scrypt keys (tests/data/rfc7914.json), block
# 413567's Merkle root and hash (tests/data/block413567.json), a Merkle proof checked by a
# Python fold of double SHA-256, NetworkX's PageRank of ego-Facebook. Failures and signals give
# the error members ("error", "exit", "interrupted", "signal") beside what was complete.
# usage: test_cli_json.sh KILN DATA_DIR
set -u
kiln=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") data=$2
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP
. "$(dirname "$0")/signal_util.sh"

# run WANT_EXIT CMD...: runs kiln with stdout in $tmp/out, stderr in $tmp/err
run() {
    local want=$1
    shift
    "$kiln" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    [ "$got" = "$want" ] && ok || bad "exit $got, want $want: kiln $* ($(head -c 300 "$tmp/err"))"
}
# check WHAT PYTHON [ARG...]: the document is d (parsed from $tmp/out), the ARGs are argv; PYTHON
# is statements, the last an expression that must be true.
check() {
    local what=$1 code=$2
    shift 2
    python3 - "$tmp/out" "$code" "$@" <<'EOF' && ok || bad "$what: $(head -c 600 "$tmp/out")"
import ast, hashlib, json, os, sys
text = open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read()
d = json.loads(text)
assert text.endswith("}\n") or text.endswith("]\n"), "one document and a newline"
argv = sys.argv[3:]
body = ast.parse(sys.argv[2].strip())
last = body.body.pop()
exec(compile(body, "check", "exec"))
sys.exit(0 if eval(compile(ast.Expression(last.value), "check", "eval")) else 1)
EOF
}

# ---------------------------------------------------------------- hash
head -c 3000000 /dev/urandom >"$tmp/r1"
printf 'abc' >"$tmp/abc"
name=$(printf 'odd\377name') # not UTF-8: written as \udcff
printf 'x' >"$tmp/$name"
run 0 hash --algo sha256 --json "$tmp/r1" "$tmp/abc" "$tmp/$name"
check "hash digests from hashlib" \
    '(d["algo"] == "sha256" and d["length"] == 32 and d["unreadable"] == 0 and "error" not in d and
      [f["digest"] for f in d["files"]] == [hashlib.sha256(open(os.fsencode(f["name"]), "rb").read()).hexdigest() for f in d["files"]] and
      [f["bytes"] for f in d["files"]] == [os.stat(os.fsencode(f["name"])).st_size for f in d["files"]] and
      os.fsencode(d["files"][2]["name"]).endswith(b"odd\xffname"))'
grep -q 'odd\\udcffname' "$tmp/out" && ok || bad "a name that is not UTF-8 is written with \\udcff"
run 0 hash --algo sha3-512 --json "$tmp/abc"
check "sha3-512 of abc" 'd["files"][0]["digest"] == hashlib.sha3_512(b"abc").hexdigest()'
printf 'abc' | "$kiln" hash --algo shake256 --length 100 --json >"$tmp/out" 2>"$tmp/err" && ok || bad "shake256 stdin"
check "shake256 of stdin, 100 bytes" 'd["length"] == 100 and d["files"] == [{"name": "-", "algo": "shake256", "bytes": 3, "digest": hashlib.shake_256(b"abc").hexdigest(100)}]'
# an unreadable file: its entry has the error, the others their digests, exit 2
run 2 hash --algo sha256 --json "$tmp/abc" "$tmp/missing" "$tmp/r1"
check "unreadable file" \
    '(d["files"][1]["error"] == "No such file or directory" and "digest" not in d["files"][1] and
      d["files"][2]["digest"] == hashlib.sha256(open(argv[0], "rb").read()).hexdigest() and
      d["unreadable"] == 1 and d["exit"] == 2 and d["error"].endswith("missing: No such file or directory"))' "$tmp/r1"
# --check: a verdict per line, the tallies
(cd "$tmp" && sha256sum abc r1) >"$tmp/sums"
printf '%064d  abc\nnot a line\n' 0 >>"$tmp/sums"
printf '%s  missing\n' "$(sha256sum <"$tmp/abc" | cut -c1-64)" >>"$tmp/sums"
(cd "$tmp" && "$kiln" hash --algo sha256 --check sums --json) >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] && ok || bad "--check with a mismatch exits 1"
check "--check verdicts" \
    '([(f["name"], f["ok"]) for f in d["files"]] == [("abc", True), ("r1", True), ("abc", False), ("missing", False)] and
      d["files"][3]["error"] == "No such file or directory" and
      (d["matched"], d["mismatched"], d["unreadable"], d["improperly_formatted"]) == (2, 1, 1, 1) and d["exit"] == 1)'

# ---------------------------------------------------------------- scrypt: RFC 7914 section 12
for i in 0 1 2; do
    # the password's bytes into a file, the salt in hex, the parameters: from the vector
    salt=$(python3 -c 'import json, sys; v = json.load(open(sys.argv[1]))["scrypt"][int(sys.argv[2])]
open(sys.argv[3], "wb").write(bytes.fromhex(v["password_hex"]))
print(v["salt_hex"], v["N"], v["r"], v["p"], v["dkLen"])' "$data/rfc7914.json" $i "$tmp/pw")
    read -r hex n r p len <<<"$salt"
    if [ -z "$len" ]; then # an empty salt: the line holds the four numbers only
        len=$p p=$r r=$n n=$hex hex=""
    fi
    run 0 scrypt --password-file "$tmp/pw" --salt-hex "$hex" -N "$n" -r "$r" -p "$p" --length "$len" --json
    check "scrypt RFC 7914 vector $((i + 1))" \
        'v = json.load(open(argv[0]))["scrypt"][int(argv[1])]; (d["key"], d["N"], d["r"], d["p"], d["length"]) == (v["output"], v["N"], v["r"], v["p"], v["dkLen"])' \
        "$data/rfc7914.json" $i
done
run 2 scrypt --json --password x --salt y -N 1000
check "scrypt bad N" 'set(d) == {"error", "exit"} and d["exit"] == 2 and "power of two" in d["error"]'

# ---------------------------------------------------------------- merkle: block 413567
run 0 merkle --block "$data/block413567.raw" --json
check "merkle --block" \
    'b = json.load(open(argv[0])); (d["root"], d["header_root"], d["block_hash"], d["transactions"]) == (b["merkle_root"], b["merkle_root"], b["block_hash"], b["n_tx"]) and d["root_matches"] and d["pow_ok"] and d["leaves"] == b["n_tx"]' \
    "$data/block413567.json"
grep -v '^#' "$data/block413567.txids.txt" | awk '{print $3}' >"$tmp/leaves"
run 0 merkle --leaves "$tmp/leaves" --proof 1000 --json
check "merkle proof folds to the root" '
b = json.load(open(argv[0]))
def h(x): return hashlib.sha256(hashlib.sha256(x).digest()).digest()
txids = [l.split()[1] for l in open(argv[1]) if not l.startswith("#")]
node, idx = bytes.fromhex(txids[1000]), 1000
for s in d["proof"]:
    s = bytes.fromhex(s)[::-1]
    node = h(s + node) if idx & 1 else h(node + s)
    idx >>= 1
node[::-1].hex() == b["merkle_root"] == d["root"] and d["index"] == 1000 and len(d["proof"]) == 11' \
    "$data/block413567.json" "$data/block413567.txids.txt"
"$kiln" merkle --leaves "$tmp/leaves" --proof 1000 >"$tmp/proof"
leaf=$(sed -n 1001p "$tmp/leaves")
run 0 merkle --verify "$tmp/proof" --leaf "$leaf" --index 1000 --count 1557 --json
check "merkle --verify" 'd["ok"] is True and d["index"] == 1000 and d["count"] == 1557 and "error" not in d'
run 1 merkle --verify "$tmp/proof" --leaf "$leaf" --index 1001 --count 1557 --json
check "merkle --verify, wrong index" 'd["ok"] is False and d["exit"] == 1 and d["reason"] == d["error"]'
head -3 "$tmp/leaves" >"$tmp/three"
run 0 merkle --leaves "$tmp/three" --tree --json
check "merkle --tree levels" '[len(l) for l in d["tree"]] == [3, 2, 1] and d["tree"][2][0] == d["root"] and d["tree"][0] == [l.strip() for l in open(argv[0])]' "$tmp/three"
run 2 merkle --leaves "$tmp/missing" --json
check "merkle missing leaves" 'set(d) == {"error", "exit"} and d["exit"] == 2'

# ---------------------------------------------------------------- selftest, devices, bench, mine
run 0 selftest --device cpu --json
check "selftest" 'd["ok"] is True and d["backend"] == "cpu" and d["device"] and d["sha256"]'
run 0 devices --json
check "devices" 'isinstance(d, list) and d[0]["device"] == "cpu" and d[0]["units"] >= 1 and d[0]["name"]'
run 0 bench --algo sha256 --device cpu --seconds 0.2 --json
check "bench, one row" 'd["algo"] == "sha256" and d["rate"] > 0 and d["unit"] == "H/s" and d["message_bytes"] == 32'
run 0 bench --algo merkle-sha256d --leaves 2^10 --device cpu --reps 2 --json
check "bench, tree" 'd["algo"] == "merkle-sha256d" and d["leaves"] == 1024 and d["results"][0]["method"] == "cpu"'
# block 840000 with its nonce cleared, the window around the real nonce (3932395645)
run 0 mine --demo --device cpu --json
check "mine --demo finds the real nonce" \
    'd["found"][0]["nonce"] == 3932395645 and d["found"][0]["hash"] == "0000000000000000000320283a032748cef8227873ff4872689bf23f1cda83a5" and d["interrupted"] is False and d["exhausted"] is False'
run 1 mine --demo --device cpu --start 0 --count 1000 --json
check "mine, nothing found" 'd["found"] == [] and d["hashes"] == 1000 and d["exhausted"] and d["exit"] == 1 and "no nonce" in d["error"]'
# the devices: one, the CPU's, whose count is the 1000 nonces asked for (docs/JSON.md)
check "mine, the CPU's device entry" '
e = d["devices"]
(len(e) == 1 and e[0]["id"] == "cpu" and e[0]["ordinal"] == -1 and e[0]["hashes"] == 1000 and e[0]["name"] == d["device"]
 and e[0]["seconds"] > 0 and e[0]["health"]["source"] == "unavailable" and sorted(e[0]) == sorted(["id", "ordinal", "name", "hashes", "seconds", "rate", "health"]))'

# ---------------------------------------------------------------- pagerank: NetworkX's top 3
run 0 pagerank "$data/facebook_combined.txt" --undirected --device cpu --tol 1e-14 --max-iter 1000 --top 3 --json
check "pagerank top 3 against NetworkX" '
nx = sorted(((float(c[2]), int(c[0])) for c in (l.split() for l in open(argv[0]) if not l.startswith("#"))), reverse=True)[:3]
([t["node"] for t in d["top"]] == [n for _, n in nx] and all(abs(t["score"] - s) < 1e-11 for t, (s, _) in zip(d["top"], nx)) and
 d["nodes"] == 4039 and d["converged"] and d["dangling"] is None and d["dangling_nodes"] == 0)' \
    "$data/facebook_combined.pagerank.txt"
run 2 pagerank "$tmp/missing" --device cpu --json
check "pagerank missing graph" 'set(d) == {"error", "exit"} and d["exit"] == 2 and "missing" in d["error"]'

# ---------------------------------------------------------------- usage errors, --help
run 2 hash --json --algo sha256 --bogus
check "unknown option" 'd == {"error": "unknown option '"'"'--bogus'"'"' (see kiln hash --help)", "exit": 2}'
run 2 hash --bogus --algo sha256 --json
check "--json after the bad option" 'd["exit"] == 2 and "--bogus" in d["error"]'
run 2 bench --json --algo nope
check "bench unknown algorithm" 'd["exit"] == 2 and "nope" in d["error"]'
# --json as another option's value is that value, not JSON mode
run 0 scrypt --password --json --salt s -N 16 -r 1 -p 1
python3 -c 'import hashlib, sys; sys.exit(open(sys.argv[1]).read().strip() != hashlib.scrypt(b"--json", salt=b"s", n=16, r=1, p=1, dklen=64).hex())' "$tmp/out" &&
    ok || bad "--password --json: $(cat "$tmp/out")"
run 0 hash --json --help
grep -q '^usage: kiln hash' "$tmp/out" && ok || bad "--help with --json prints the help"
run 2 hash --algo sha256 --tag --json "$tmp/abc"
check "--tag with --json" 'd["exit"] == 2 and "exclude each other" in d["error"]'
run 2 mine --pool stratum+tcp://127.0.0.1:1 --user u --progress --json
check "--progress does not apply to pool mining" 'd["exit"] == 2 and "--progress" in d["error"]'

# ---------------------------------------------------------------- signals
# hash: the files finished before the signal, then the signal's members; a FIFO blocks the read
mkfifo "$tmp/fifo"
exec 3<>"$tmp/fifo" # a writer that never writes: the read waits
signal_run INT 0.5 "$tmp/out" "$tmp/err" "$kiln" hash --algo sha256 --json "$tmp/abc" "$tmp/fifo"
exec 3>&-
[ "$code" = 130 ] && ok || bad "hash --json on SIGINT: exit $code"
check "hash --json interrupted" \
    '(len(d["files"]) == 1 and d["files"][0]["digest"] == hashlib.sha256(b"abc").hexdigest() and
      (d["interrupted"], d["signal"], d["exit"], d["error"]) == (True, "SIGINT", 130, "interrupted by SIGINT"))'
# pagerank: no partial ranks, the signal's members alone
signal_run TERM 0.5 "$tmp/out" "$tmp/err" "$kiln" pagerank --rmat 16 --device cpu --tol 0 --max-iter 100000 --threads 1 --json
[ "$code" = 143 ] && ok || bad "pagerank --json on SIGTERM: exit $code"
check "pagerank --json interrupted" 'd == {"error": "interrupted by SIGTERM", "exit": 143, "interrupted": True, "signal": "SIGTERM"}'
# bench: the rows measured before the signal
signal_run INT 1.5 "$tmp/out" "$tmp/err" "$kiln" bench --device cpu --seconds 0.5 --json
[ "$code" = 130 ] && ok || bad "bench --json on SIGINT: exit $code"
check "bench --json interrupted" 'len(d["results"]) >= 1 and d["results"][0]["algo"] == "sha256d" and d["interrupted"] is True and d["exit"] == 130'
# scrypt: no key
signal_run INT 0.5 "$tmp/out" "$tmp/err" "$kiln" scrypt --password p --salt s -N 262144 -r 8 -p 2 --threads 1 --json
[ "$code" = 130 ] && ok || bad "scrypt --json on SIGINT: exit $code"
check "scrypt --json interrupted" 'd == {"error": "interrupted by SIGINT", "exit": 130, "interrupted": True, "signal": "SIGINT"}'

finish
