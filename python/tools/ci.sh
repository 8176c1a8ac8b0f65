#!/usr/bin/env bash
# CI of the Python package (a few minutes on 2 cores; the library compiled twice: the wheel, the
# sdist), from a fresh virtual environment in WORK
# (default build-py): install it as a user does (`pip install ./python`), run its tests and
# NetworkX's own PageRank tests on the backend, then build a wheel and an sdist and install each
# into a fresh environment of its own. With BUILD, a build directory of the project (CI's build/,
# kiln built there too), also install it as a user does after make, linking that build's libkiln.a
# (KILN_BUILD_DIR), into a fresh environment, and run the READMEs' Python examples on it.
# Usage: ci.sh [WORK [BUILD]]
#
# Build isolation stays on: pip fetches scikit-build-core into a throwaway environment, as it does
# on a user's machine, so CI checks the user's path (pyproject's build requirements included)
# rather than one that works only with what this script preinstalled. CUDA is off here: the CUDA
# kernels take minutes to compile, the CI machine has no GPU, and `make check` already builds them.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
work=$(realpath -m "${1:-build-py}")
build=${2:+$(realpath "$2")}
cfg=(--config-settings=cmake.define.KILN_CUDA=OFF --config-settings=cmake.define.KILN_WERROR=ON)
rm -rf "$work"
python3 -m venv "$work/venv"
py=$work/venv/bin/python
"$py" -m pip install -q pytest networkx scipy build

# pip install ./python builds this same wheel (in an isolated environment) and installs it: the wheel
# is built once and installed here, not compiled a second time for the wheel check below
echo "python: the wheel of ./python, installed as pip install ./python does"
"$py" -m pip wheel -q --no-deps -w "$work/dist" "${cfg[@]}" ./python
"$py" -m pip install -q "$work"/dist/kiln-*.whl
"$py" -m pytest -q -p no:cacheprovider python/tests
echo "python: NetworkX's own link-analysis tests on the kiln backend"
(cd "$work" && NETWORKX_TEST_BACKEND=kiln NETWORKX_FALLBACK_TO_NX=True \
    "$py" -m pytest -q -p no:cacheprovider --pyargs networkx.algorithms.link_analysis)

echo "python: wheel and sdist, each installed into a fresh environment"
PYTHON=$py bash python/tools/sdist.sh "$work/dist"
check='import hashlib, kiln, networkx as nx
assert kiln.sha3_256(b"abc").digest() == hashlib.sha3_256(b"abc").digest()
G = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 3)])
assert abs(sum(nx.pagerank(G, backend="kiln").values()) - 1) < 1e-9
print("installed", kiln.__version__, kiln.__file__)'
for what in "$work"/dist/kiln-*.whl "$work"/dist/kiln-*.tar.gz; do
    rm -rf "$work/fresh"
    python3 -m venv "$work/fresh"
    "$work/fresh/bin/pip" install -q "${cfg[@]}" networkx "$what"
    (cd "$work" && "$work/fresh/bin/python" -c "$check")
done
if [ -n "$build" ]; then
    echo "python: KILN_BUILD_DIR=$build pip install ./python (that build's libkiln.a), the READMEs' examples"
    rm -rf "$work/fresh"
    python3 -m venv "$work/fresh"
    KILN_BUILD_DIR=$build "$work/fresh/bin/pip" install -q --config-settings=cmake.define.KILN_WERROR=ON networkx ./python
    (cd "$work" && "$work/fresh/bin/python" -c "$check")
    KILN_PYTHON=$work/fresh/bin/python bash tests/test_readme_examples.sh "$build/kiln" tests/data
fi
