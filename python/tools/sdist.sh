#!/usr/bin/env bash
# Builds kiln's sdist into OUTDIR (default: dist): python/ with the project it builds against under
# project/ (python/CMakeLists.txt takes python/'s parent in the repository and project/ in an sdist),
# both as the working tree has their tracked files; tests/data (real data for the tests, 11 MB)
# stays out. Needs `build` (pip install build) in the Python running it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
outdir=$(realpath -m "${1:-dist}")
python=${PYTHON:-python3}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
git -C "$root" ls-files -z -- python | tar -C "$root" --null -T - -cf - | tar -C "$stage" -xf -
mkdir "$stage/python/project"
git -C "$root" ls-files -z -- . ':!:python' ':!:tests/data' | tar -C "$root" --null -T - -cf - |
    tar -C "$stage/python/project" -xf -
"$python" -m build --sdist --outdir "$outdir" "$stage/python"
