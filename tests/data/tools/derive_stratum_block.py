#!/usr/bin/env python3
"""Derives tests/data/block413567_stratum.txt from the real raw block 413567 (see SOURCES.md):
the 80-byte header, the block hash, the coinbase transaction, the offset of its scriptSig, and
the Merkle branch of transaction 0 (the siblings a Stratum pool sends in mining.notify).
Usage: derive_stratum_block.py block413567.raw > block413567_stratum.txt"""
import hashlib
import struct
import sys


def sha256d(b):
    return hashlib.sha256(hashlib.sha256(b).digest()).digest()


def varint(b, o):
    v = b[o]
    if v < 0xFD:
        return v, o + 1
    size = {0xFD: 2, 0xFE: 4, 0xFF: 8}[v]
    return int.from_bytes(b[o + 1:o + 1 + size], "little"), o + 1 + size


def tx_end(b, o):
    """Offset just past the legacy (non-segwit) transaction starting at o."""
    o += 4
    nin, o = varint(b, o)
    for _ in range(nin):
        o += 36
        sl, o = varint(b, o)
        o += sl + 4
    nout, o = varint(b, o)
    for _ in range(nout):
        o += 8
        sl, o = varint(b, o)
        o += sl
    return o + 4


raw = open(sys.argv[1], "rb").read()
header = raw[:80]
ntx, o = varint(raw, 80)
txids = []
coinbase = None
for i in range(ntx):
    end = tx_end(raw, o)
    if i == 0:
        coinbase = raw[o:end]
    txids.append(sha256d(raw[o:end]))
    o = end
assert o == len(raw), "trailing bytes"
# scriptSig offset inside the coinbase: version(4) + vin count(1) + prevout(36) + script length
script_len, script_off = varint(coinbase, 4 + 1 + 36)

branch = []
level = txids
while len(level) > 1:
    if len(level) % 2:
        level = level + [level[-1]]
    branch.append(level[1])
    level = [sha256d(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
assert level[0] == header[36:68], "Merkle root mismatch"

print("# Block 413567: header, block hash, coinbase tx, scriptSig offset/length, Merkle branch of tx 0")
print("# (internal byte order). Derived by tests/data/tools/derive_stratum_block.py from the raw block.")
print("header", header.hex())
print("block_hash", sha256d(header)[::-1].hex())
print("coinbase", coinbase.hex())
print("scriptsig", script_off, script_len)
for h in branch:
    print("branch", h.hex())
