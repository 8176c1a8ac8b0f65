"""The module's version, devices and typing files."""
import pathlib
import re

import kiln

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_version_is_the_librarys_and_the_projects():
    cmake = (ROOT / "CMakeLists.txt").read_text()
    project_version = re.search(r"project\(kiln VERSION (\S+)", cmake).group(1)
    assert kiln.__version__ == project_version


def test_devices_start_with_the_cpu():
    devs = kiln.devices()
    assert devs[0]["device"] == "cpu" and devs[0]["kind"] == "cpu" and devs[0]["units"] >= 1
    for i, d in enumerate(devs[1:]):
        assert d["device"] == f"cuda:{i}" and d["memory_bytes"] > 0


def test_stubs_and_docstrings_ship_with_the_package():
    pkg = pathlib.Path(kiln.__file__).parent
    assert (pkg / "py.typed").exists() and (pkg / "_kiln.pyi").exists()
    for name in kiln.__all__:
        obj = getattr(kiln, name)
        if callable(obj) and name != "__version__":
            assert obj.__doc__, name
