"""CPython's own Lib/test/test_hashlib.py, run against kiln.

The test code is not copied here: it is imported at run time from the interpreter's standard
library (``test.test_hashlib``; skipped where the interpreter ships without its test suite, as
Debian's python3 without libpython3-testsuite). Its HashLibTestCase and KDFTests are subclassed so
that

* ``constructors_to_test`` holds, for each algorithm kiln implements, kiln's constructor
  (``kiln.sha256``...) and ``kiln.new`` called as the test calls ``hashlib.new``;
* the name ``hashlib`` inside ``test.test_hashlib`` is, while each test runs, a module made of
  kiln's hashlib-compatible functions (``new``, ``file_digest``, ``scrypt``, the constructors,
  ``algorithms_available``/``algorithms_guaranteed``), so ``hashlib.new("SHA256")`` or
  ``hashlib.file_digest(f, "sha256")`` in CPython's test code call kiln.

Every test method CPython defines is either run (APPLY) or reported as skipped with the reason
(EXCLUDED); methods a newer CPython adds are skipped as unclassified until listed here.
"""
import os
import sys
import types

import pytest

import kiln

cpy = pytest.importorskip("test.test_hashlib",
                          reason="this Python ships without its test suite (test.test_hashlib)")
from test.support import os_helper  # noqa: E402  (present whenever test.test_hashlib is)

# hashlib's guaranteed algorithms: kiln has every one
ALGORITHMS = tuple(sorted(kiln.algorithms_guaranteed))

OPENSSL_ONLY = "OpenSSL's _hashlib module (its HASH types, its FIPS flag), nothing a hashlib stand-in provides"
EXCLUDED = {
    # HashLibTestCase
    "test_get_builtin_constructor": "hashlib's private __get_builtin_constructor and CPython's _md5 module",
    "test_get_fips_mode": OPENSSL_ONLY,
    "test_hash_disallow_instantiation": OPENSSL_ONLY,
    # KDFTests
    "test_pbkdf2_hmac_c": "pbkdf2_hmac of OpenSSL's _hashlib (c_hashlib); kiln's runs as test_pbkdf2_hmac_py",
}

# every other method of 3.11's test_hashlib runs on kiln; the vector tests fetch their files from
# pythontest.net and are skipped by CPython's own code when offline
APPLY = {name for cls in (cpy.HashLibTestCase, cpy.KDFTests) for name in dir(cls)
         if name.startswith("test") and name not in EXCLUDED}


def _kiln_as_hashlib(**extra):
    """A stand-in for the hashlib module made of kiln's functions."""
    mod = types.ModuleType("kiln_as_hashlib")
    for name in ALGORITHMS:
        setattr(mod, name, getattr(kiln, name))
    mod.new = kiln.new
    mod.file_digest = kiln.file_digest
    mod.scrypt = kiln.scrypt
    mod.pbkdf2_hmac = kiln.pbkdf2_hmac
    mod.algorithms_available = kiln.algorithms_available
    mod.algorithms_guaranteed = kiln.algorithms_guaranteed
    mod.__dict__.update(extra)
    return mod


# Extra names a test needs beyond the module's: test_pbkdf2_hmac_py calls builtin_hashlib.pbkdf2_hmac
# for the names in builtin_hashes (both set for it in setUp).
EXTRA = {}


def _via_new(algorithm):
    def via_kiln_new(data=None, _alg=algorithm, **kwargs):
        if data is None:
            return kiln.new(_alg, **kwargs)
        return kiln.new(_alg, data, **kwargs)
    return via_kiln_new


def _assert_kiln(obj):
    assert type(obj) is kiln.Hash and type(obj).__module__ == "kiln", f"{obj!r} is not a kiln hash object"


class _OnKiln:
    """setUp: `hashlib` in test.test_hashlib is kiln (restored after the test), cwd a temp dir."""

    def setUp(self):
        shim = _kiln_as_hashlib(**EXTRA.get(self._testMethodName, {}))
        saved = cpy.hashlib
        cpy.hashlib = shim
        self.addCleanup(setattr, cpy, "hashlib", saved)
        for name, value in (("builtin_hashlib", shim), ("builtin_hashes", set(ALGORITHMS))):
            self.addCleanup(setattr, cpy, name, getattr(cpy, name))
            setattr(cpy, name, value)
        cwd = os_helper.temp_cwd()  # check_file_digest writes os_helper.TESTFN in the cwd
        cwd.__enter__()
        self.addCleanup(cwd.__exit__, None, None, None)
        super().setUp()

    def test_runs_kiln(self):
        """Not CPython's: the tests above really hash with kiln."""
        assert cpy.hashlib.new is kiln.new and cpy.hashlib.file_digest is kiln.file_digest
        for name, cons in getattr(self, "constructors_to_test", {}).items():
            for c in cons:
                h = c(b"abc", usedforsecurity=False)
                _assert_kiln(h)
                assert h.name == name


def _classify(base, attrs):
    """attrs plus, for each test method of base not in APPLY, a skip with its reason."""
    for name in dir(base):
        if not name.startswith("test") or name in attrs:
            continue
        if name in EXCLUDED:
            reason = EXCLUDED[name]
        elif name in APPLY:
            continue
        else:
            reason = f"not yet classified for kiln (new in Python {sys.version_info[0]}.{sys.version_info[1]}?)"

        def skipped(self, _reason=reason):
            self.skipTest(_reason)
        skipped.__name__ = name
        attrs[name] = skipped
    return attrs


def _hashlib_init(self, *args, **kwargs):
    # HashLibTestCase.__init__ collects hashlib's, OpenSSL's and the builtin constructors: not called.
    cpy.unittest.TestCase.__init__(self, *args, **kwargs)
    self._hashlib = None  # OpenSSL's _hashlib: the md5 lines of the usedforsecurity tests use it
    self.constructors_to_test = {name: {getattr(kiln, name), _via_new(name)} for name in ALGORITHMS}
    for cons in self.hash_constructors:
        _assert_kiln(cons())


KilnHashLibTestCase = type("KilnHashLibTestCase", (_OnKiln, cpy.HashLibTestCase), _classify(cpy.HashLibTestCase, {
    "__init__": _hashlib_init,
    # test_algorithms_guaranteed checks hashlib.algorithms_guaranteed against these (lower case)
    "supported_hash_names": ALGORITHMS + ("SHA256",),
}))

KilnKDFTests = type("KilnKDFTests", (_OnKiln, cpy.KDFTests), _classify(cpy.KDFTests, {}))


def test_every_cpython_method_classified():
    """Each test method of this Python's test_hashlib is run or excluded with a reason; none of the
    names listed is missing from 3.11's file (a typo would silently skip nothing)."""
    methods = {n for cls in (cpy.HashLibTestCase, cpy.KDFTests) for n in dir(cls) if n.startswith("test")}
    assert not APPLY & set(EXCLUDED)
    if sys.version_info[:2] == (3, 11):
        assert methods == APPLY | set(EXCLUDED), (methods - APPLY - set(EXCLUDED), APPLY | set(EXCLUDED) - methods)
    else:
        assert APPLY & methods, "no CPython test_hashlib method applies: the runner runs nothing"
