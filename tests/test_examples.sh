#!/usr/bin/env bash
# The programs of examples/ (README.md, docs/LIBRARY.md), as the build tree built them against its
# libkiln (examples/CMakeLists.txt), each against answers found elsewhere: hash.c against Python's
# hashlib; mine.c finds the genesis block's nonce and hash; scrypt.c gives RFC 7914's vectors and
# hashlib.scrypt's key; merkle.c gives block 100000's Merkle root (its header's) and checks its
# proof; pagerank.c gives NetworkX's nx.pagerank of tests/data/pr_small.txt's edges. Run on the CPU. tests/test_install.sh builds them again against an installed
# kiln.
# Usage: test_examples.sh KILN DATA_DIR
set -u
ex=$(cd "$(dirname "$1")" && pwd)/examples
data=$2
. "$(dirname "$0")/cli_util.sh"
T=$TMP
same() { if [ "$1" = "$2" ]; then ok; else bad "$3: got [$1] want [$2]"; fi; }
for p in hash mine scrypt merkle pagerank; do
    [ -x "$ex/$p" ] || { echo "FAIL: no $ex/$p (built by the kiln_tests target)" >&2; exit 1; }
done
devices=(cpu) # the GPU backends are the other tests' concern; here the programs and their API use

# hash.c: every algorithm hashlib has, on two messages in one batch
for dev in "${devices[@]}"; do
    for algo in sha256 sha3-256 sha3-512 shake128 sha512 sha384; do
        want=$(python3 - "$algo" <<'PY'
import hashlib, sys
a = sys.argv[1].replace("-", "_")
for m in (b"abc", b"The quick brown fox jumps over the lazy dog" * 5):
    h = hashlib.new(a, m)
    d = h.hexdigest(32) if a.startswith("shake") else h.hexdigest()
    print("%s  %s" % (d, m.decode()))
PY
)
        same "$("$ex/hash" "$algo" --device "$dev" abc "$(printf 'The quick brown fox jumps over the lazy dog%.0s' 1 2 3 4 5)")" \
            "$want" "hash $algo on $dev"
    done
done
"$ex/hash" nosuchalgo abc >/dev/null 2>&1
same $? 2 "hash with an unknown algorithm: exit 2"

# mine.c: the genesis block (nonce and hash as every block explorer shows them)
for dev in "${devices[@]}"; do
    same "$("$ex/mine" "$dev")" \
        "nonce=2083236893 hash=000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f" "mine on $dev"
done

# scrypt.c: RFC 7914 section 12, vectors 2 and 3; and a short key against hashlib.scrypt
same "$("$ex/scrypt" password NaCl 1024 8 16 64)" \
    "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640" \
    "scrypt, RFC 7914 vector 2"
same "$("$ex/scrypt" pleaseletmein SodiumChloride)" \
    "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887" \
    "scrypt, RFC 7914 vector 3 (the defaults)"
same "$("$ex/scrypt" kiln salty 256 2 3 20)" \
    "$(python3 -c 'import hashlib; print(hashlib.scrypt(b"kiln", salt=b"salty", n=256, r=2, p=3, dklen=20).hex())')" \
    "scrypt against hashlib.scrypt"
"$ex/scrypt" x y 1000 8 1 64 >/dev/null 2>&1
same $? 2 "scrypt with N not a power of two: exit 2"

# merkle.c: block 100000's transactions, its header's Merkle root
cat >"$T/txids" <<'TX'
8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87
fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4
6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4
e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d
TX
for dev in "${devices[@]}"; do
    same "$("$ex/merkle" "$dev" <"$T/txids")" \
        "root=f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766
proof of leaf 3: 2 siblings, OK" "merkle on $dev (block 100000)"
done
# an odd count pairs the last txid with itself, as Bitcoin does: hashlib's root of the first three
want=$(head -3 "$T/txids" | python3 -c '
import hashlib, sys
d = lambda b: hashlib.sha256(hashlib.sha256(b).digest()).digest()
level = [bytes.fromhex(l.strip())[::-1] for l in sys.stdin if l.strip()]
while len(level) > 1:
    if len(level) % 2: level.append(level[-1])
    level = [d(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
print(level[0][::-1].hex())')
same "$(head -3 "$T/txids" | "$ex/merkle" cpu | head -1)" "root=$want" "merkle of three txids against hashlib"

# pagerank.c: NetworkX's ranks of a small digraph with dangling nodes, a self loop and a duplicate
# edge (tests/data/pr_small.networkx.txt: nx.pagerank's, column "plain"), to kiln's tolerance
grep -v '^#' "$data/pr_small.txt" | awk '{ print $1, $2 }' >"$T/edges"
for dev in "${devices[@]}"; do
    "$ex/pagerank" "$dev" <"$T/edges" >"$T/ranks"
    same $? 0 "pagerank on $dev: exit 0"
    got=$(awk 'NR == FNR { want[$1] = $2; n++; next }
               { m++; d = $2 - want[$1]; if (!($1 in want) || d > 1e-5 || d < -1e-5) print "node " $1 ": " $2 " want " want[$1] }
               END { if (m != n) print m " nodes, want " n }' <(grep -v '^#' "$data/pr_small.networkx.txt") "$T/ranks")
    same "$got" "" "pagerank on $dev against NetworkX"
done

finish
