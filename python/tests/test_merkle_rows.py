"""kiln.merkle_leaves_from_rows: the roots of its leaves against the independent Python reference
tests/poseidon2_ref.py (which first checks its permutations against Plonky3's known answers and its
width-12 merge against miden-crypto's published roots), every leaf hash, on the CPU and on each GPU
device kiln lists (their rows kernels)."""
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import kiln

ROOT = pathlib.Path(__file__).resolve().parents[2]
REF = [sys.executable, str(ROOT / "tests" / "poseidon2_ref.py"), str(ROOT / "src"), str(ROOT / "tests" / "data")]
P = {"babybear": 2**31 - 2**27 + 1, "koalabear": 2**31 - 2**24 + 1, "goldilocks": 2**64 - 2**32 + 1}
CASES = [("babybear", "poseidon2_babybear16", "sponge", "sponge"),
         ("babybear", "poseidon2_babybear16", "sponge24", "sponge24"),
         ("koalabear", "poseidon2_koalabear16", "sponge24", "sponge24"),
         ("goldilocks", "poseidon2_goldilocks8", "sponge", "sponge"),
         ("goldilocks", "poseidon2_goldilocks12", "sponge", "gl12"),
         ("goldilocks", "poseidon2_goldilocks12", "miden", "gl12-miden")]


def _devices():
    return ["cpu"] + [d["device"] for d in kiln.devices() if d["device"] in ("cuda:0", "opencl:0")]


def test_selfcheck():
    subprocess.run(REF + ["selfcheck"], check=True)


@pytest.mark.parametrize("field,algo,leaf,scheme", CASES)
def test_roots(tmp_path, field, algo, leaf, scheme):
    rng = np.random.default_rng(41)
    for width in (1, 9, 17):
        rows = [[int(v) for v in rng.integers(0, P[field], size=width, dtype=np.uint64)] for _ in range(8)]
        path = tmp_path / "rows"
        path.write_text("".join(" ".join(map(str, r)) + "\n" for r in rows))
        want = subprocess.run(REF + ["root", field, "plonky3", str(path), scheme], check=True,
                              capture_output=True, text=True).stdout.strip()
        for device in _devices():
            leaves = kiln.merkle_leaves_from_rows(rows, algo, leaf, device=device)
            assert leaves.shape == (8, 32)
            assert kiln.merkle_root(leaves, algo, device="cpu").hex() == want, (device, width)


def test_refusals():
    with pytest.raises(ValueError):
        kiln.merkle_leaves_from_rows([[P["babybear"]]], "poseidon2_babybear16", device="cpu")  # not canonical
    with pytest.raises(ValueError):
        kiln.merkle_leaves_from_rows([[1, 2]], "poseidon2_goldilocks8", "miden", device="cpu")
    with pytest.raises(ValueError):
        kiln.merkle_leaves_from_rows([1, 2], "poseidon2_babybear16", device="cpu")
    with pytest.raises(ValueError):
        kiln.merkle_leaves_from_rows([[-1]], "poseidon2_babybear16", device="cpu")
    with pytest.raises(ValueError, match="unknown leaf hash"):
        kiln.merkle_leaves_from_rows([[1]], "poseidon2_babybear16", "wide", device="cpu")
    with pytest.raises(ValueError, match="Poseidon2"):
        kiln.merkle_leaves_from_rows([[1]], "sha256", device="cpu")
