#!/usr/bin/env bash
# The blake2s and blake2s-stwo Merkle merges (kiln merkle), on the CPU and on every GPU backend
# present, against roots an independent Python script computes here:
#   blake2s       parent = hashlib.blake2s(left + right).digest()
#   blake2s-stwo  Stwo's Blake2sMerkleHasher::hash_node(Some((left, right)), []) as
#                 starkware-libs/stwo crates/prover/src/core/vcs/blake2_merkle.rs writes it: the
#                 BLAKE2s compression of the block left || right from the state [0; 8], counter 0,
#                 no last-block or last-node flag; the digest is the state, little-endian. The
#                 script's compression is RFC 7693's F, checked first against hashlib.blake2s.
# An odd level pairs its last node with itself (kiln's rule for every merge; Stwo's layers are
# powers of two, which the sizes 1, 2, 4, 8, 64 and 1024 cover).
# ctest: opencl
# Usage: test_merkle_blake2s.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
python3 -c 'import hashlib; hashlib.blake2s' 2> /dev/null || { echo "no python3 hashlib.blake2s: skipped"; exit 77; }
cd "$T" || exit 1
cat > ref.py <<'PY'
import hashlib, random, struct, sys

M = 0xffffffff
IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
SIGMA = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
         [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4], [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
         [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13], [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
         [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11], [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
         [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5], [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0]]

def rotr(x, n):
    return (x >> n | x << (32 - n)) & M

def compress(h, block, t, f0, f1):
    m = struct.unpack("<16I", block)
    v = list(h) + IV[:4] + [IV[4] ^ (t & M), IV[5] ^ (t >> 32), IV[6] ^ f0, IV[7] ^ f1]
    def g(a, b, c, d, x, y):
        v[a] = (v[a] + v[b] + x) & M; v[d] = rotr(v[d] ^ v[a], 16)
        v[c] = (v[c] + v[d]) & M; v[b] = rotr(v[b] ^ v[c], 12)
        v[a] = (v[a] + v[b] + y) & M; v[d] = rotr(v[d] ^ v[a], 8)
        v[c] = (v[c] + v[d]) & M; v[b] = rotr(v[b] ^ v[c], 7)
    for r in range(10):
        s = SIGMA[r]
        for i, (a, b, c, d) in enumerate([(0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                                          (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)]):
            g(a, b, c, d, m[s[2 * i]], m[s[2 * i + 1]])
    return [h[i] ^ v[i] ^ v[i + 8] for i in range(8)]

# the compression is BLAKE2s's: one-block messages as hashlib hashes them
for msg in (b"", b"abc", bytes(range(64))):
    h = [IV[0] ^ 0x01010020] + IV[1:]
    mine = struct.pack("<8I", *compress(h, msg.ljust(64, b"\0"), len(msg), M, 0))
    assert mine == hashlib.blake2s(msg).digest(), msg

merges = {
    "blake2s": lambda l, r: hashlib.blake2s(l + r).digest(),
    "blake2s-stwo": lambda l, r: struct.pack("<8I", *compress([0] * 8, l + r, 0, 0, 0)),
}

def root(leaves, merge):
    level = leaves
    while len(level) > 1:
        level = [merge(level[i], level[i + 1] if i + 1 < len(level) else level[i]) for i in range(0, len(level), 2)]
    return level[0]

n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
leaves = [bytes(rng.getrandbits(8) for _ in range(32)) for _ in range(n)]
with open(f"leaves{n}.txt", "w") as f:
    f.write("".join(l.hex() + "\n" for l in leaves))
for name, merge in merges.items():
    print(name, root(leaves, merge).hex())
PY
devices=(cpu)
"$KILN" devices 2> /dev/null | grep -q '^opencl:' && devices+=(opencl)
"$KILN" devices 2> /dev/null | grep -q '^cuda:' && devices+=(cuda)
for n in 1 2 3 4 5 7 8 9 33 64 1000 1024; do
    python3 ref.py $n $((n * 7 + 1)) > want.txt || { bad "the reference script failed"; continue; }
    while read -r algo want; do
        for dev in "${devices[@]}"; do
            got=$("$KILN" merkle --algo "$algo" --leaves leaves$n.txt --device "$dev" --quiet 2>&1)
            [ "$got" = "$want" ] && ok || bad "$algo, $n leaves on $dev: $got, want $want"
        done
    done < want.txt
done
# the two merges differ (Stwo's node is not BLAKE2s-256 of the pair)
python3 ref.py 2 5 > want.txt
[ "$(cut -d' ' -f2 want.txt | sort -u | wc -l)" = 2 ] && ok || bad "blake2s and blake2s-stwo roots coincide"
echo "devices: ${devices[*]}"
finish
