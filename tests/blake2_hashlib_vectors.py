#!/usr/bin/env python3
"""Writes BLAKE2b and BLAKE2s vectors from Python's hashlib (the expected digests of
test_blake2_kat's vector mode): every field of the parameter block alone at its edges, then
seeded random combinations of all of them, over messages around the block sizes. One line a vector:
algo digest_size key salt person fanout depth leaf_size node_offset node_depth inner_size last_node
message digest (byte fields hex, '-' for empty)."""
import hashlib
import random

LIMITS = {  # digest/key bytes, salt/person bytes, node_offset bits, block
    "blake2b": (64, 16, 64, 128),
    "blake2s": (32, 8, 48, 64),
}
DEFAULT = dict(digest_size=None, key=b"", salt=b"", person=b"", fanout=1, depth=1, leaf_size=0, node_offset=0,
               node_depth=0, inner_size=0, last_node=False)


def hx(b):
    return b.hex() or "-"


def line(algo, msg, **kw):
    p = dict(DEFAULT)
    p.update(kw)
    out, _, _, _ = LIMITS[algo]
    if p["digest_size"] is None:
        p["digest_size"] = out
    d = getattr(hashlib, algo)(msg, **p).hexdigest()
    return " ".join([algo, str(p["digest_size"]), hx(p["key"]), hx(p["salt"]), hx(p["person"]), str(p["fanout"]),
                     str(p["depth"]), str(p["leaf_size"]), str(p["node_offset"]), str(p["node_depth"]),
                     str(p["inner_size"]), str(int(p["last_node"])), hx(msg), d])


def main():
    rng = random.Random(7693)
    for algo, (out, salt, off_bits, block) in LIMITS.items():
        lens = [0, 1, 3, block - 1, block, block + 1, 2 * block, 2 * block + 1, 1000]
        msgs = [bytes(rng.getrandbits(8) for _ in range(n)) for n in lens]
        print(f"# {algo}: each field alone")
        for m in msgs:
            print(line(algo, m))
        single = [dict(digest_size=n) for n in (1, 7, out // 2, out - 1, out)]
        single += [dict(key=bytes(range(n))) for n in (1, block // 2 - 1, out)]
        single += [dict(salt=bytes(range(1, n + 1))) for n in (1, salt - 1, salt)]
        single += [dict(person=b"kiln" + bytes(n - 4)) for n in (4, salt)]
        single += [dict(fanout=f) for f in (0, 2, 255)]
        single += [dict(depth=d) for d in (2, 255)]
        single += [dict(leaf_size=n) for n in (1, 4096, 2**32 - 1)]
        single += [dict(node_offset=n) for n in (1, 2**32, 2**off_bits - 1)]
        single += [dict(node_depth=n) for n in (1, 255)]
        single += [dict(inner_size=n) for n in (1, out)]
        single += [dict(last_node=True)]
        for kw in single:
            for m in (msgs[2], msgs[5]):
                print(line(algo, m, **kw))
        print(f"# {algo}: random combinations")
        for _ in range(150):
            kw = dict(
                digest_size=rng.randint(1, out),
                key=bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 0, rng.randint(1, out)]))),
                salt=bytes(rng.getrandbits(8) for _ in range(rng.randint(0, salt))),
                person=bytes(rng.getrandbits(8) for _ in range(rng.randint(0, salt))),
                fanout=rng.randint(0, 255), depth=rng.randint(1, 255), leaf_size=rng.getrandbits(32),
                node_offset=rng.getrandbits(off_bits), node_depth=rng.randint(0, 255), inner_size=rng.randint(0, out),
                last_node=rng.random() < 0.5)
            print(line(algo, rng.choice(msgs), **kw))


main()
