"""kiln.merkle_root over poseidon2_goldilocks12 (miden-crypto's Poseidon2::merge) against miden's
published empty-subtree roots (tests/data/miden_poseidon2_empty_roots.txt: the root of 2^d zero
leaves)."""
import kiln


def _roots(data_dir):
    rows = [line.split() for line in (data_dir / "miden_poseidon2_empty_roots.txt").read_text().splitlines()
            if line and not line.startswith("#")]
    return [b"".join(int(v, 16).to_bytes(8, "little") for v in r[1:]) for r in rows]


def test_empty_roots(data_dir):
    roots = _roots(data_dir)
    assert len(roots) == 256 and roots[0] == bytes(32)
    for d in range(1, 11):
        assert kiln.merkle_root([bytes(32)] * (1 << d), "poseidon2_goldilocks12", device="cpu") == roots[d], d
    tree = kiln.merkle_tree([bytes(32)] * 8, "poseidon2_goldilocks12", device="cpu")
    assert bytes(tree[-1]) == roots[3]
