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
    # then the CUDA GPUs, then every OpenCL device, each backend numbered from 0
    seen = {"cuda": 0, "opencl": 0}
    for d in devs[1:]:
        backend = d["device"].split(":")[0]
        assert backend in seen and (backend == "opencl" or seen["opencl"] == 0), d
        assert d["device"] == f"{backend}:{seen[backend]}" and d["memory_bytes"] > 0
        seen[backend] += 1


def test_stubs_and_docstrings_ship_with_the_package():
    pkg = pathlib.Path(kiln.__file__).parent
    assert (pkg / "py.typed").exists() and (pkg / "_kiln.pyi").exists()
    for name in kiln.__all__:
        obj = getattr(kiln, name)
        if callable(obj) and name != "__version__":
            assert obj.__doc__, name
