"""Merkle trees, parse_block and scan against real Bitcoin and Litecoin data (tests/data, sources in
tests/data/SOURCES.md) and trees rebuilt here with hashlib."""
import hashlib
import json

import numpy as np
import pytest

import kiln


def sha256d(b):
    return hashlib.sha256(hashlib.sha256(b).digest()).digest()


MERGE = {"sha256d": sha256d, "sha256": lambda b: hashlib.sha256(b).digest(),
         "sha3-256": lambda b: hashlib.sha3_256(b).digest()}


def reference_levels(leaves, merge):
    """Bitcoin's tree: an odd level pairs its last node with itself."""
    levels = [list(leaves)]
    while len(levels[-1]) > 1:
        lv = levels[-1] + ([levels[-1][-1]] if len(levels[-1]) % 2 else [])
        levels.append([merge(lv[i] + lv[i + 1]) for i in range(0, len(lv), 2)])
    return levels


@pytest.fixture(scope="module")
def block413567(data_dir):
    meta = json.loads((data_dir / "block413567.json").read_text())
    txids = [bytes.fromhex(line.split()[1]) for line in (data_dir / "block413567.txids.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    return (data_dir / "block413567.raw").read_bytes(), meta, txids


def test_merkle_root_of_a_real_block(block413567):
    raw, meta, txids = block413567
    want = bytes.fromhex(meta["merkle_root_internal_hex"])
    assert kiln.merkle_root(txids, device="cpu") == want
    arr = np.frombuffer(b"".join(txids), dtype=np.uint8).reshape(-1, 32)
    assert kiln.merkle_root(arr, "sha256d", "cpu") == want
    assert kiln.merkle_root(b"".join(txids)) == want


@pytest.mark.parametrize("algo", sorted(MERGE))
def test_tree_and_root_equal_hashlib(algo):
    rng = np.random.default_rng(5)
    for n in list(range(1, 18)) + [100, 257]:
        leaves = [rng.bytes(32) for _ in range(n)]
        levels = reference_levels(leaves, MERGE[algo])
        assert kiln.merkle_root(leaves, algo, "cpu") == levels[-1][0]
        tree = kiln.merkle_tree(leaves, algo, "cpu")
        assert [bytes(x) for x in tree] == [x for lv in levels for x in lv]


def test_proof_of_the_coinbase_is_the_stratum_branch(block413567, data_dir):
    _, meta, txids = block413567
    branch = [bytes.fromhex(line.split()[1]) for line in (data_dir / "block413567_stratum.txt").read_text().splitlines()
              if line.startswith("branch ")]
    proof = kiln.merkle_proof(txids, 0, device="cpu")
    assert proof == branch
    root = bytes.fromhex(meta["merkle_root_internal_hex"])
    assert kiln.merkle_verify(txids[0], 0, proof, root, n=len(txids))
    assert not kiln.merkle_verify(txids[1], 0, proof, root)


def test_every_proof_verifies_and_tampering_fails():
    rng = np.random.default_rng(9)
    leaves = [rng.bytes(32) for _ in range(13)]
    tree = kiln.merkle_tree(leaves, "sha256", "cpu")
    root = bytes(tree[-1])
    for i, leaf in enumerate(leaves):
        proof = kiln.merkle_proof(leaves, i, "sha256", tree=tree)
        assert kiln.merkle_verify(leaf, i, proof, root, "sha256", n=13)
        if i != 12:  # leaf 12 is its own sibling: from position 13 the path hashes the same
            assert not kiln.merkle_verify(leaf, i ^ 1, proof, root, "sha256")
        bad = list(proof)
        bad[-1] = bytes(32)
        assert not kiln.merkle_verify(leaf, i, bad, root, "sha256")
    proof = kiln.merkle_proof(leaves, 0, "sha256", tree=tree)
    assert kiln.merkle_verify(leaves[0], 0, proof, root, "sha256")
    assert not kiln.merkle_verify(leaves[0], 0, proof[:3], root, "sha256", n=13)  # 13 leaves: 4 siblings
    assert not kiln.merkle_verify(leaves[0], 13, proof, root, "sha256", n=13)
    with pytest.raises(ValueError):
        kiln.merkle_verify(leaves[0], 0, proof * 17, root, "sha256")


def test_merkle_bad_input():
    with pytest.raises(ValueError):
        kiln.merkle_root([], "sha256d")
    with pytest.raises(ValueError):
        kiln.merkle_root([b"short"], "sha256d")
    with pytest.raises(ValueError, match="md5"):
        kiln.merkle_root([bytes(32)], "md5")
    with pytest.raises(ValueError):
        kiln.merkle_proof([bytes(32)] * 3, 3)


def test_parse_a_real_legacy_block(block413567):
    raw, meta, txids = block413567
    b = kiln.parse_block(raw)
    assert b.n_tx == meta["n_tx"] == len(txids) and b.n_segwit == 0
    assert [bytes(t) for t in b.txids] == txids
    assert np.array_equal(b.wtxids, b.txids)
    assert b.hash == meta["block_hash"] and b.header.hex() == meta["header_hex"]
    assert b.root_ok and b.pow_ok and b.witness_commitment_ok is None
    assert b.merkle_root.hex() == meta["merkle_root_internal_hex"]


def test_parse_a_real_segwit_block(data_dir):
    """A testnet3 block whose coinbase is in the witness serialization: its wtxid differs from its
    txid, and the coinbase's BIP 141 commitment (external data) checks the witness root."""
    path = data_dir / "testnet3_block_000000000000045e.raw"
    b = kiln.parse_block(path.read_bytes())
    assert b.hash == "000000000000045e0b1660b6445b5e5c5ab63c9a4f956be7e1e69be04fa4497b"
    assert b.n_tx == 15 and b.n_segwit == 1
    assert b.root_ok and b.pow_ok and b.witness_commitment_ok is True
    assert not np.array_equal(b.wtxids[0], b.txids[0]) and np.array_equal(b.wtxids[1:], b.txids[1:])


def test_tampered_blocks(block413567):
    raw, _, _ = block413567
    b = bytearray(raw)
    b[-10] ^= 1  # inside the last transaction: its txid and the root change
    assert not kiln.parse_block(bytes(b)).root_ok
    b = bytearray(raw)
    b[76] ^= 0x80  # the nonce
    assert not kiln.parse_block(bytes(b)).pow_ok
    with pytest.raises(ValueError, match="offset"):
        kiln.parse_block(raw[:-1])
    with pytest.raises(ValueError):
        kiln.parse_block(raw + b"\0")


@pytest.fixture(scope="module")
def headers(data_dir):
    return json.loads((data_dir / "headers.json").read_text())["headers"]


def test_scan_finds_the_real_nonces(headers):
    for h in headers:
        nonce = h["nonce"]
        start = max(0, nonce - 20000)
        assert nonce in kiln.scan(h["header_hex"], start=start, count=40000, device="cpu"), h["name"]
        # a window without it finds nothing at the real target
        assert kiln.scan(h["header_hex"], bits=h["bits"], start=start, count=nonce - start, device="cpu") == []


def test_scan_target_forms_agree(headers):
    h = headers[0]  # genesis
    header = bytes.fromhex(h["header_hex"])
    target = int(h["target_hex"], 16)
    forms = [dict(bits=h["bits"]), dict(bits=int(h["bits"], 16)), dict(target=target), dict(target=h["target_hex"]),
             dict(target=target.to_bytes(32, "little")), {}]
    for kw in forms:
        assert kiln.scan(header, start=h["nonce"] - 5, count=10, device="cpu", **kw) == [h["nonce"]], kw
    # an easy target: every found nonce meets it, checked here with hashlib
    easy = 1 << 250
    got = kiln.scan(header, easy, start=0, count=5000, device="cpu")
    want = [n for n in range(5000)
            if int.from_bytes(sha256d(header[:76] + n.to_bytes(4, "little")), "little") <= easy]
    assert got == want and len(want) > 50


def test_scan_scrypt_finds_litecoin_nonces(data_dir):
    for v in json.loads((data_dir / "litecoin_pow.json").read_text())["vectors"]:
        nonce = v["nonce"]
        start = max(0, nonce - 30)
        assert nonce in kiln.scan(v["header_hex"], bits=v["bits"], start=start, count=60, algo="scrypt", device="cpu")


def test_scan_bad_input(headers):
    h = headers[0]["header_hex"]
    for kw in (dict(target=5, bits=0x1d00ffff), dict(bits="1d00ff"), dict(bits=0x01800001), dict(start=2**32),
               dict(start=2**32 - 5, count=10), dict(algo="x11"), dict(device="tpu"), dict(target="zz")):
        with pytest.raises(ValueError):
            kiln.scan(h, count=1, **kw) if "count" not in kw else kiln.scan(h, **kw)
    with pytest.raises(ValueError):
        kiln.scan(h[:-2], count=1)


def test_scan_first_hit_only():
    header = bytes(80)
    easy = 1 << 252
    every = kiln.scan(header, easy, start=0, count=2000, device="cpu")
    assert len(every) > 10
    assert kiln.scan(header, easy, start=0, count=2000, device="cpu", find_all=False) == every[:1]


def test_scan_and_merkle_run_without_the_gil():
    from conftest import run_beside_python

    header = bytes(80)
    found, duration, max_gap = run_beside_python(lambda: kiln.scan(header, 1, count=20_000_000, device="cpu"))
    assert found == [] and duration > 0.05 and max_gap < duration / 4, (duration, max_gap)
    leaves = np.random.default_rng(1).integers(0, 256, (1 << 20, 32), dtype=np.uint8)
    root, duration, max_gap = run_beside_python(lambda: kiln.merkle_root(leaves, "sha3-256", "cpu"))
    assert len(root) == 32 and duration > 0.05 and max_gap < duration / 4, (duration, max_gap)
