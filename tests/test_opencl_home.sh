#!/usr/bin/env bash
# Tests write only under the build tree and temporary folders, never into $HOME: an OpenCL test
# (test_opencl_cli, on PoCL: kiln's program cache and PoCL's kernel cache are what a run would
# leave in ~/.cache) runs as CTest runs it, with its command and the environment its properties
# give it (tests/CMakeLists.txt), from an environment without XDG_CACHE_HOME, POCL_CACHE_DIR,
# KILN_OPENCL_CACHE or CUDA_CACHE_PATH (NVIDIA's driver cache, ~/.nv) and with HOME an empty folder: it must pass and leave HOME empty. Skipped (77)
# without an OpenCL device unless KILN_REQUIRE_OPENCL is set.
# Usage: test_opencl_home.sh KILN DATA_DIR
set -u
build=$(cd "$(dirname "$1")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir "$T/home"
command -v python3 >/dev/null || { echo "python3 not found: skipping"; exit 77; }
ctest --test-dir "$build" --show-only=json-v1 >"$T/tests.json" 2>"$T/err" || { cat "$T/err"; exit 1; }
HOME=$T/home python3 - "$T/tests.json" test_opencl_cli >"$T/out" 2>&1 <<'PY'
import json, os, subprocess, sys
tests = {t["name"]: t for t in json.load(open(sys.argv[1]))["tests"]}
t = tests[sys.argv[2]]
props = {p["name"]: p["value"] for p in t.get("properties", [])}
env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "POCL_CACHE_DIR", "KILN_OPENCL_CACHE", "CUDA_CACHE_PATH")}
for kv in props.get("ENVIRONMENT", []):
    k, v = kv.split("=", 1)
    env[k] = v
for kv in props.get("ENVIRONMENT_MODIFICATION", []):
    k, op = kv.split("=", 1)
    op, v = op.split(":", 1)
    assert op == "set", kv  # the only operation tests/CMakeLists.txt uses
    env[k] = v
rc = subprocess.run(t["command"], env=env, cwd=props.get("WORKING_DIRECTORY")).returncode
sys.exit(rc)
PY
rc=$?
if [ "$rc" = 77 ]; then cat "$T/out"; echo "test_opencl_cli skipped: skipped"; exit 77; fi
fail=0
if [ "$rc" != 0 ]; then echo "FAIL: test_opencl_cli with HOME=$T/home: exit $rc" >&2; cat "$T/out" >&2; fail=1; fi
left=$(cd "$T/home" && find . -mindepth 1 | head -20)
if [ -n "$left" ]; then echo "FAIL: the test wrote into HOME: $left" >&2; fail=1; fi
echo "test_opencl_cli with an empty HOME: exit $rc, HOME left ${left:-empty}"
exit $fail
