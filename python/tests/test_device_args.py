"""The device-memory functions' arguments, checked without a GPU or CuPy: a host array is refused
with a TypeError that names the argument, and so is a call that leaves out a required keyword
(scrypt_batch_device's n, r and p once raised SystemError from a malformed argument format, which
only the GPU tests reached)."""
import numpy as np
import pytest

import kiln


def test_host_arrays_refused():
    with pytest.raises(TypeError, match="messages"):
        kiln.hash_batch_device(np.zeros(64, dtype=np.uint8), "sha256", length=64)
    with pytest.raises(TypeError, match="leaves"):
        kiln.merkle_device(np.zeros((4, 32), dtype=np.uint8), "sha256d")
    b, o = np.zeros(4, dtype=np.uint8), np.array([0, 2, 4], dtype=np.uint64)
    with pytest.raises(TypeError, match="passwords"):
        kiln.scrypt_batch_device(b, o, b, o, n=1024, r=1, p=1)


def test_scrypt_needs_its_parameters():
    b, o = np.zeros(4, dtype=np.uint8), np.array([0, 2, 4], dtype=np.uint64)
    with pytest.raises(TypeError, match="n, r and p"):
        kiln.scrypt_batch_device(b, o, b, o, r=1, p=1)
    with pytest.raises(TypeError):
        kiln.scrypt_batch_device(b, o, b, o, 1024, 1, 1)  # keywords only
