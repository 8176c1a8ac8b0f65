#!/usr/bin/env python3
"""An independent Poseidon2 and Plonky3 Merkle reference for kiln's tests.

Written from the Poseidon2 paper (eprint 2023/323) and Plonky3's definitions (poseidon2/,
symmetric/, merkle-tree/ at commit 5dc50e51436a811c62443e336f766015fecc9217), sharing no code with
kiln's C: plain integers mod p (no Montgomery form), both linear layers as full matrices built from
their definitions and multiplied out (kiln's C uses sums and shifts), the diagonals from Plonky3's
stated V as fractions mod p. Only the round constants are read from kiln's constants headers
(src/prim/poseidon2_*_constants.h, data transcribed from Plonky3), and `selfcheck` first verifies
every permutation against Plonky3's own known answers (tests/data/poseidon2_plonky3.txt), so a
constant wrong in those headers fails here, not silently in both.

usage: poseidon2_ref.py SRC_DIR DATA_DIR selfcheck
       poseidon2_ref.py SRC_DIR DATA_DIR rows FIELD N WIDTH SEED     (writes N rows, decimal)
<<<<<<< HEAD
       poseidon2_ref.py SRC_DIR DATA_DIR root FIELD RULE ROWSFILE [SCHEME]   (prints the root, hex)
=======
       poseidon2_ref.py SRC_DIR DATA_DIR root FIELD RULE ROWSFILE    (prints the root, hex)
       poseidon2_ref.py SRC_DIR DATA_DIR batch                       (stdin: a rows or root
                                                                       command a line, then the
                                                                       file its output goes to)
>>>>>>> suite
FIELD: babybear, koalabear, goldilocks; RULE: plonky3 (an odd layer padded with a zero digest) or
kiln (an odd layer's last node paired with itself). SCHEME, the leaf hash and merge:
  sponge (default)  PaddingFreeSponge<Perm16, 16, 8, 8> leaves, TruncatedPermutation<Perm16, 2, 8,
                    16> nodes (BabyBear, KoalaBear); <Perm8, 8, 4, 4> and <Perm8, 2, 4, 8> (Goldilocks)
  sponge24          BabyBear, KoalaBear: PaddingFreeSponge<Perm24, 24, 16, 8> leaves, the width-16
                    nodes (Plonky3's examples)
  gl12              Goldilocks: PaddingFreeSponge<Perm12, 12, 8, 4> leaves, TruncatedPermutation<
                    Perm12, 2, 4, 12> nodes (miden-crypto's Poseidon2Hasher and Poseidon2::merge)
  gl12-miden        Goldilocks: miden-crypto's Poseidon2::hash_elements leaves (capacity[0] = the
                    row's length mod 8, a short last block zero-padded), the width-12 nodes
selfcheck also checks the width-12 merge against miden-crypto's published empty-subtree roots
(tests/data/miden_poseidon2_empty_roots.txt) and its hash_elements against its merge (equal on 8
elements, as miden's docs state).
"""
import re
import sys
from fractions import Fraction

FIELDS = {
    # p, S-box degree, widths: partial rounds
    "babybear": (2**31 - 2**27 + 1, 7, {16: 13, 24: 21}),
    "koalabear": (2**31 - 2**24 + 1, 3, {16: 20, 24: 23}),
    "goldilocks": (2**64 - 2**32 + 1, 7, {8: 22, 12: 22}),
}
TAG = {"babybear": "BB", "koalabear": "KB", "goldilocks": "GL"}
SHORT = {"babybear": "bb", "koalabear": "kb", "goldilocks": "gl"}

# Plonky3's internal diagonals V (the matrix is ones + Diag(V)), as its sources state them.
F = Fraction
DIAG = {
    ("babybear", 16): [-2, 1, 2, F(1, 2), 3, 4, F(-1, 2), -3, -4, F(1, 2**8), F(1, 4), F(1, 8), F(1, 2**27),
                       F(-1, 2**8), F(-1, 16), F(-1, 2**27)],
    ("babybear", 24): [-2, 1, 2, F(1, 2), 3, 4, F(-1, 2), -3, -4, F(1, 2**8), F(1, 4), F(1, 8), F(1, 16),
                       F(1, 2**7), F(1, 2**9), F(1, 2**27), F(-1, 2**8), F(-1, 4), F(-1, 8), F(-1, 16), F(-1, 32),
                       F(-1, 64), F(-1, 2**7), F(-1, 2**27)],
    ("koalabear", 16): [-2, 1, 2, F(1, 2), 3, 4, F(-1, 2), -3, -4, F(1, 2**8), F(1, 8), F(1, 2**24), F(-1, 2**8),
                        F(-1, 8), F(-1, 16), F(-1, 2**24)],
    ("koalabear", 24): [-2, 1, 2, F(1, 2), 3, 4, F(-1, 2), -3, -4, F(1, 2**8), F(1, 4), F(1, 8), F(1, 16),
                        F(1, 32), F(1, 64), F(1, 2**24), F(-1, 2**8), F(-1, 8), F(-1, 16), F(-1, 32), F(-1, 64),
                        F(-1, 2**7), F(-1, 2**9), F(-1, 2**24)],
    ("goldilocks", 8): [-2, 1, 2, F(1, 2), 3, F(-1, 2), -3, -4],
    ("goldilocks", 12): [-2, 1, 2, F(1, 2), 3, 4, F(-1, 2), -3, -4, F(1, 4), F(-1, 4), F(1, 8)],
}
M4 = [[2, 3, 1, 1], [1, 2, 3, 1], [1, 1, 2, 3], [3, 1, 1, 2]]


def mod_frac(v, p):
    v = Fraction(v)
    return v.numerator % p * pow(v.denominator, -1, p) % p


def constants(src, field, width):
    text = open("%s/prim/poseidon2_%s_constants.h" % (src, field)).read()

    def lst(part):
        m = re.search(r"#define KILN_P2_%s%d_%s\(M\) \\\n(.*?)\n#define" % (TAG[field], width, part), text, re.S)
        return [int(x, 16) for x in re.findall(r"0x([0-9a-f]+)", m.group(1))]

    init, final, internal = lst("EXT_INIT"), lst("EXT_FINAL"), lst("INTERNAL")
    rows = lambda flat: [flat[r * width:(r + 1) * width] for r in range(len(flat) // width)]
    return rows(init), rows(final), internal


class Perm:
    def __init__(self, src, field, width):
        self.p, self.d, rounds = FIELDS[field]
        self.w = width
        self.init, self.final, self.internal = constants(src, field, width)
        assert len(self.internal) == rounds[width] and len(self.init) == len(self.final) == 4
        p = self.p
        # external: circ-like block matrix, 2*M4 on the diagonal blocks, M4 elsewhere
        self.me = [[(2 if i // 4 == j // 4 else 1) * M4[i % 4][j % 4] % p for j in range(width)] for i in range(width)]
        diag = [mod_frac(v, p) for v in DIAG[(field, width)]]
        self.mi = [[(1 + (diag[i] if i == j else 0)) % p for j in range(width)] for i in range(width)]

    def mat(self, m, s):
        return [sum(a * b for a, b in zip(row, s)) % self.p for row in m]

    def __call__(self, s):
        p, d = self.p, self.d
        s = [x % p for x in s]
        s = self.mat(self.me, s)
        for rc in self.init:
            s = self.mat(self.me, [pow((x + c) % p, d, p) for x, c in zip(s, rc)])
        for c in self.internal:
            s[0] = pow((s[0] + c) % p, d, p)
            s = self.mat(self.mi, s)
        for rc in self.final:
            s = self.mat(self.me, [pow((x + c) % p, d, p) for x, c in zip(s, rc)])
        return s


def sponge(perm, row, rate, out):
    """PaddingFreeSponge: overwrite the first elements of the state with each block, permute."""
    s = [0] * perm.w
    for i in range(0, len(row), rate):
        block = row[i:i + rate]
        s[:len(block)] = block
        s = perm(s)
    return s[:out]


def miden_hash(perm, row):
    """miden-crypto's AlgebraicSponge::hash_elements over the width-12 permutation."""
    s = [0] * 12
    s[8] = len(row) % 8
    for i in range(0, len(row), 8):
        block = row[i:i + 8]
        s[:8] = block + [0] * (8 - len(block))
        s = perm(s)
    return s[:4]


def compress(perm, left, right):
    """TruncatedPermutation<_, 2, CHUNK, WIDTH>: left || right (|| zeros), permute, the first CHUNK."""
    s = left + right + [0] * (perm.w - 2 * len(left))
    return perm(s)[:len(left)]


def root(leaf, node, rows, rule):
    layer = [leaf(r) for r in rows]
    while len(layer) > 1:
        if len(layer) % 2:
            layer = layer + [[0] * len(layer[0]) if rule == "plonky3" else layer[-1]]
        layer = [compress(node, layer[i], layer[i + 1]) for i in range(0, len(layer), 2)]
    return layer[0]


def scheme(src, field, name):
    """(leaf hash of a row, the merge's permutation) of a SCHEME."""
    gl = field == "goldilocks"
    if name == "sponge":
        w = 8 if gl else 16
        perm = Perm(src, field, w)
        return (lambda r: sponge(perm, r, w // 2, w // 2)), perm
    if name == "sponge24" and not gl:
        leaf, node = Perm(src, field, 24), Perm(src, field, 16)
        return (lambda r: sponge(leaf, r, 16, 8)), node
    if name in ("gl12", "gl12-miden") and gl:
        perm = Perm(src, field, 12)
        if name == "gl12":
            return (lambda r: sponge(perm, r, 8, 4)), perm
        return (lambda r: miden_hash(perm, r)), perm
    raise SystemExit("no scheme %s over %s" % (name, field))


def selfcheck(src, data):
    kat = {}
    for line in open(data + "/poseidon2_plonky3.txt"):
        if line.startswith("#") or not line.strip():
            continue
        name, which, *vals = line.split()
        kat.setdefault(name, {})[which] = [int(v) for v in vals]
    bad = 0
    for field, (_, _, widths) in FIELDS.items():
        for w in widths:
            k = kat["%s%d" % (SHORT[field], w)]
            got = Perm(src, field, w)(k["in"])
            if got != k["out"]:
                print("reference %s%d differs from Plonky3's known answer" % (field, w), file=sys.stderr)
                bad += 1
    # miden-crypto's empty-subtree roots: depth d is the merge of two copies of depth d - 1
    perm = Perm(src, "goldilocks", 12)
    roots = [[int(v, 16) for v in line.split()[1:]] for line in open(data + "/miden_poseidon2_empty_roots.txt")
             if not line.startswith("#")]
    for d in range(1, 9):
        if compress(perm, roots[d - 1], roots[d - 1]) != roots[d]:
            print("reference merge differs from miden's empty root at depth %d" % d, file=sys.stderr)
            bad += 1
    e = list(range(1, 9))
    if miden_hash(perm, e) != compress(perm, e[:4], e[4:]):
        print("reference hash_elements of 8 elements differs from its merge", file=sys.stderr)
        bad += 1
    return bad


SCHEMES = {}  # (field, scheme) -> (leaf hash, merge), made once a process


def run(src, args, out):
    """One rows or root command (args after DATA_DIR), its output written to out."""
    cmd, field = args[0], args[1]
    p = FIELDS[field][0]
    if cmd == "rows":
        n, width, seed = int(args[2]), int(args[3]), int(args[4])
        x = seed
        for _ in range(n):
            row = []
            for _ in range(width):
                x = (x * 6364136223846793005 + 1442695040888963407) % 2**64  # an LCG: any numbers do
                row.append((x >> 1) % p)
            print(" ".join(map(str, row)), file=out)
    elif cmd == "root":
        rule, path = args[2], args[3]
        rows = [[int(v) for v in line.split()] for line in open(path) if line.strip()]
        name = args[4] if len(args) > 4 else "sponge"
        if (field, name) not in SCHEMES:
            SCHEMES[(field, name)] = scheme(src, field, name)
        leaf, node = SCHEMES[(field, name)]
        size = 8 if field == "goldilocks" else 4
        print(b"".join(v.to_bytes(size, "little") for v in root(leaf, node, rows, rule)).hex(), file=out)


def main():
    src, data, cmd = sys.argv[1:4]
    if cmd == "selfcheck":
        sys.exit(1 if selfcheck(src, data) else 0)
    if cmd == "batch":
        # one command a line of standard input, its output to the file its last word names (one
        # process for a test's many cases: a start of this script was 0.15 s of CPU)
        for line in sys.stdin:
            *args, path = line.split()
            with open(path, "w") as out:
                run(src, args, out)
        return
    run(src, sys.argv[3:], sys.stdout)


if __name__ == "__main__":
    main()
