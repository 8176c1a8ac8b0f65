"""Merkle trees, raw Bitcoin blocks and nonce search: kiln.merkle_root / merkle_tree /
merkle_proof / merkle_verify, kiln.parse_block and kiln.scan (re-exported by kiln)."""
from __future__ import annotations

import dataclasses
from typing import Optional

import numpy as np

from . import _kiln

__all__ = ["Block", "merkle_proof", "merkle_root", "merkle_tree", "merkle_verify", "parse_block", "scan",
           "merkle_leaves_from_rows"]


def _nodes(leaves) -> memoryview:
    """Leaves as one buffer of 32-byte nodes: a bytes-like object of n * 32 bytes or an (n, 32)
    uint8 array (read in place), or a list of 32-byte objects (joined once)."""
    if isinstance(leaves, (list, tuple)):
        if any(memoryview(x).nbytes != 32 for x in leaves):
            raise ValueError("every leaf must be 32 bytes")
        return memoryview(b"".join(leaves))
    if isinstance(leaves, np.ndarray):
        if leaves.dtype != np.uint8 or leaves.ndim != 2 or leaves.shape[1] != 32:
            raise ValueError("an array of leaves must be (n, 32) uint8")
        leaves = np.ascontiguousarray(leaves)
    return memoryview(leaves).cast("B")


def merkle_root(leaves, algo: str = "sha256d", device: str = "auto") -> bytes:
    """The root (32 bytes) of the Merkle tree over `leaves` (n >= 1 nodes of 32 bytes, raw byte
    order; Bitcoin's txids as sha256d gives them, not the reversed display hex). A level of odd
    size pairs its last node with itself (Bitcoin's rule). `algo`: sha256d, sha256, sha3-256,
    keccak256, rp64_256, blake2s, blake2s-stwo, blake3, rpo256 or a Poseidon2 merge (poseidon2_babybear16,
    poseidon2_koalabear16, poseidon2_goldilocks8, poseidon2_goldilocks12). On a GPU the CPU re-checks the top
    levels and a sample below."""
    root = bytearray(32)
    _kiln._merkle_build(_nodes(leaves), algo, device, root, None)
    return bytes(root)


def merkle_tree(leaves, algo: str = "sha256d", device: str = "auto") -> np.ndarray:
    """The whole tree as a (nodes, 32) uint8 array: every level one after the other, the leaves
    first and the root last (about 2n nodes)."""
    buf = _nodes(leaves)
    n = buf.nbytes // 32
    tree = np.empty((_kiln._merkle_tree_size(n), 32), dtype=np.uint8)
    _kiln._merkle_build(buf, algo, device, bytearray(32), tree)
    return tree


def merkle_proof(leaves, index: int, algo: str = "sha256d", device: str = "auto", *,
                 tree: Optional[np.ndarray] = None) -> list[bytes]:
    """The inclusion proof of leaf `index`: the sibling of each node on its path to the root, the
    leaf level first (a node paired with itself is its own sibling). Pass `tree` (merkle_tree of
    the same leaves) to make many proofs without rebuilding it."""
    buf = _nodes(leaves)
    n = buf.nbytes // 32
    if tree is None:
        tree = merkle_tree(buf, algo, device)
    raw = _kiln._merkle_proof(np.ascontiguousarray(tree, dtype=np.uint8), n, index)
    return [raw[i:i + 32] for i in range(0, len(raw), 32)]


def merkle_verify(leaf, index: int, proof, root, algo: str = "sha256d", n: int = 0) -> bool:
    """True when hashing `leaf` up the `proof` (merkle_proof's list, or its nodes joined) from
    position `index` gives `root`, False when it does not. With `n` (the leaf count) the proof
    must also fit a tree of n leaves (else False); malformed arguments raise ValueError."""
    siblings = b"".join(proof) if isinstance(proof, (list, tuple)) else proof
    return _kiln._merkle_verify(algo, leaf, index, n, siblings, root)


def _bytes_arg(x, size: int, what: str) -> bytes:
    """A hex string (as printed: the natural order of the bytes) or a bytes-like object."""
    if isinstance(x, str):
        try:
            b = bytes.fromhex(x)
        except ValueError:
            raise ValueError(f"{what}: not a hex string") from None
    else:
        b = bytes(memoryview(x).cast("B"))
    if len(b) != size:
        raise ValueError(f"{what} must be {size} bytes ({2 * size} hex digits), not {len(b)}")
    return b


def _target(header: bytes, target, bits) -> bytes:
    """The 32-byte little-endian target from target (an int, 64 hex digits most significant first
    as explorers print it, or 32 bytes little-endian) or bits (nBits as an int or 8 hex digits);
    neither: the header's nBits."""
    if target is not None and bits is not None:
        raise ValueError("give target or bits, not both")
    if target is not None:
        if isinstance(target, int):
            if not 0 < target < 1 << 256:
                raise ValueError("target must be in 1 .. 2^256 - 1")
            return target.to_bytes(32, "little")
        if isinstance(target, str):
            return _bytes_arg(target, 32, "target")[::-1]
        return _bytes_arg(target, 32, "target")
    if bits is None:
        bits = int.from_bytes(header[72:76], "little")
    elif isinstance(bits, str):
        bits = int.from_bytes(_bytes_arg(bits, 4, "bits"), "big")
    return _kiln._target_from_bits(bits)


def scan(header, target=None, *, bits=None, start: int = 0, count: Optional[int] = None, algo: str = "sha256d",
         device: str = "auto", find_all: bool = True) -> list[int]:
    """The nonces in [start, start + count) whose proof-of-work hash of `header` (80 bytes or 160
    hex digits; its nonce is ignored) meets the target, ascending; each one re-checked on the CPU.

    The target: `target` (an int, 64 hex digits as explorers print it, or 32 bytes as a
    little-endian number) or `bits` (nBits: an int or 8 hex digits); neither: the header's nBits.
    `count` defaults to the rest of the 32-bit nonce space. `algo`: sha256d (Bitcoin) or scrypt
    (Litecoin). find_all=False stops at the first launch that finds any and returns its lowest
    nonce alone. Ctrl-C stops the search at the end of a launch (about 50 ms; 0.3 s for scrypt on
    a GPU) with KeyboardInterrupt.
    """
    header = _bytes_arg(header, 80, "header")
    if not 0 <= start < 1 << 32:
        raise ValueError("start must be a 32-bit nonce")
    if count is None:
        count = (1 << 32) - start
    if count < 0:
        raise ValueError("count must be >= 0")
    return _kiln._scan(header, _target(header, target, bits), start, count, algo, device, find_all)


@dataclasses.dataclass(frozen=True)
class Block:
    """A parsed Bitcoin block. Hashes are raw bytes (sha256d output order); explorers print them
    reversed: ``block.hash``, ``txid_hex(i)`` give that display form."""
    header: bytes
    #: (n_tx, 32) uint8: the sha256d of each transaction without its witness
    txids: np.ndarray
    #: (n_tx, 32) uint8: with its witness (BIP 141); equal to the txid for a legacy transaction
    wtxids: np.ndarray
    n_segwit: int
    #: the Merkle root of the txids, and whether it equals the header's
    merkle_root: bytes
    root_ok: bool
    #: sha256d of the header, the target of its nBits, and whether the hash meets it
    pow_hash: bytes
    target: bytes
    pow_ok: bool
    #: BIP 141's commitment to the wtxids in the coinbase: True/False when the coinbase has one,
    #: None when it has none (a block without witness data need not)
    witness_commitment_ok: Optional[bool]

    @property
    def hash(self) -> str:
        """The block hash as explorers print it."""
        return self.pow_hash[::-1].hex()

    @property
    def n_tx(self) -> int:
        return len(self.txids)

    def txid_hex(self, i: int) -> str:
        return self.txids[i].tobytes()[::-1].hex()


class _Reader:
    """Transaction boundaries of a block the library has already parsed and checked (so every read
    is within bounds): what the library does not return, the witness serialization's extent."""

    def __init__(self, raw: memoryview, pos: int):
        self.raw, self.pos = raw, pos

    def varint(self) -> int:
        b = self.raw[self.pos]
        size = {0xFD: 2, 0xFE: 4, 0xFF: 8}.get(b, 0)
        if not size:
            self.pos += 1
            return b
        v = int.from_bytes(self.raw[self.pos + 1:self.pos + 1 + size], "little")
        self.pos += 1 + size
        return v

    def skip(self, n: int) -> memoryview:
        s = self.raw[self.pos:self.pos + n]
        self.pos += n
        return s


def _transactions(raw: memoryview, n_tx: int):
    """Per transaction: (start, end, segwit, outputs' scripts, first witness stack)."""
    r = _Reader(raw, 80)
    r.varint()
    for _ in range(n_tx):
        start = r.pos
        r.skip(4)
        segwit = raw[r.pos] == 0 and raw[r.pos + 1] != 0
        if segwit:
            r.skip(2)
        n_in = r.varint()
        for _ in range(n_in):
            r.skip(36)
            r.skip(r.varint())
            r.skip(4)
        scripts = []
        for _ in range(r.varint()):
            r.skip(8)
            scripts.append(bytes(r.skip(r.varint())))
        stack0 = []
        if segwit:
            for i in range(n_in):
                items = [bytes(r.skip(r.varint())) for _ in range(r.varint())]
                if i == 0:
                    stack0 = items
        r.skip(4)
        yield start, r.pos, segwit, scripts, stack0


def parse_block(raw) -> Block:
    """Parses a serialized block (legacy or segwit) and checks it: every txid and wtxid, the
    Merkle root against the header's, the proof of work against its nBits and, when the coinbase
    carries one, BIP 141's witness commitment. Malformed input raises ValueError naming the byte
    offset (the library's parser); a block that parses but fails a check is returned with the
    check False."""
    from . import hash_batch

    raw = memoryview(raw).cast("B")
    header, txids, n_segwit = _kiln._parse_block(raw)
    n = len(txids) // 32
    txids = np.frombuffer(txids, dtype=np.uint8).reshape(n, 32)
    spans = list(_transactions(raw, n))
    if spans[-1][1] != len(raw):
        raise AssertionError("transaction walk disagrees with the library's parse")
    wtxids = txids.copy()
    seg = [i for i, s in enumerate(spans) if s[2]]
    if seg:
        offsets = np.array([0] + [spans[i][1] - spans[i][0] for i in seg], dtype=np.uint64).cumsum()
        joined = b"".join(raw[spans[i][0]:spans[i][1]] for i in seg)
        wtxids[seg] = hash_batch(joined, "sha256d", "cpu", offsets=offsets)
    root = merkle_root(txids, "sha256d", "cpu")
    pow_hash = _kiln.new("sha256d", header).digest()
    target = _kiln._target_from_bits(int.from_bytes(header[72:76], "little"))
    commitment = None
    coinbase_scripts, coinbase_stack = spans[0][3], spans[0][4]
    tagged = [s for s in coinbase_scripts if len(s) >= 38 and s[:6] == b"\x6a\x24\xaa\x21\xa9\xed"]
    if tagged:
        # BIP 141: the last such output commits to sha256d(witness root || reserved value), the
        # witness root over the wtxids with the coinbase's taken as zero.
        leaves = wtxids.copy()
        leaves[0] = 0
        reserved = coinbase_stack[0] if len(coinbase_stack) == 1 and len(coinbase_stack[0]) == 32 else None
        commitment = reserved is not None and _kiln.new(
            "sha256d", merkle_root(leaves, "sha256d", "cpu") + reserved).digest() == tagged[-1][6:38]
    return Block(header=header, txids=txids, wtxids=wtxids, n_segwit=n_segwit, merkle_root=root,
                 root_ok=root == header[36:68], pow_hash=pow_hash, target=target,
                 pow_ok=int.from_bytes(pow_hash, "little") <= int.from_bytes(target, "little"),
                 witness_commitment_ok=commitment)


def merkle_leaves_from_rows(rows, algo: str, leaf_hash: str = "sponge", device: str = "auto") -> np.ndarray:
    """The leaves of a matrix's rows for a Poseidon2 merge, as an (n, 32) uint8 array (what
    merkle_root takes): each row's elements hashed into one node, as Plonky3's MerkleTree over one
    matrix hashes its rows (docs/MERKLE.md). `rows`: an (n, width) array of canonical field
    elements (or anything np.asarray makes one of), uint32 for poseidon2_babybear16 and
    poseidon2_koalabear16, uint64 for poseidon2_goldilocks8 and poseidon2_goldilocks12. `leaf_hash`:
    "sponge" (Plonky3's PaddingFreeSponge at the merge's width), "sponge24" (BabyBear, KoalaBear:
    the width-24 sponge, rate 16) or "miden" (poseidon2_goldilocks12: miden-crypto's
    hash_elements). On a GPU a sample of the leaves is re-checked on the CPU."""
    # the merge's element size, from the library (0 for a merge without rows: refused below, with why)
    dtype = np.uint64 if _kiln._merkle_row_element_bytes(algo) == 8 else np.uint32
    bad = ValueError(f"rows of {algo} must be integers that fit {np.dtype(dtype).name}")
    if isinstance(rows, np.ndarray):
        arr = rows
        if arr.dtype != dtype:
            if arr.dtype.kind not in "ui" or (arr.size and (arr.min() < 0 or arr.max() > np.iinfo(dtype).max)):
                raise bad
            arr = arr.astype(dtype)
    else:  # nested sequences of Python ints, converted exactly (np.asarray would make floats of big ones)
        try:
            arr = np.array(rows, dtype=dtype)
        except (OverflowError, TypeError, ValueError):
            raise bad from None
    if arr.ndim != 2:
        raise ValueError("rows must be a 2-D array: one row of field elements a line")
    arr = np.ascontiguousarray(arr, dtype=np.dtype(dtype).newbyteorder("<"))
    n, width = arr.shape
    leaves = np.empty((n, 32), dtype=np.uint8)
    _kiln._merkle_leaves_from_rows(memoryview(arr).cast("B"), n, width, algo, leaf_hash, device, leaves)
    return leaves
