#!/usr/bin/env bash
# `kiln version` names a commit only when the source tree is itself a git checkout of kiln: the
# build's share/git_describe.cmake, run as the build runs it, on (a) kiln's tree exported (git
# archive, else copied) into a folder of another repository with a commit of its own, as Debian
# packaging repositories hold upstream trees: no commit, that repository's least of all; (b) that
# same tree made a checkout of its own: `git describe` of it, as git prints it; (c) a plain folder
# outside any repository: no commit. Skipped (77) without git.
# Usage: test_version_git.sh KILN DATA_DIR
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
command -v git >/dev/null || { echo "no git: skipped"; exit 77; }
. "$(dirname "$0")/cli_util.sh"
T=$TMP
same() { if [ "$1" = "$2" ]; then ok; else bad "$3: got [$1] want [$2]"; fi; }
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
export GIT_CONFIG_NOSYSTEM=1 HOME=$T/home GIT_CEILING_DIRECTORIES=$T # no repository above $T counts
mkdir "$T/home"
g() { git -c user.name=kiln-test -c user.email=kiln-test@example.invalid -c init.defaultBranch=main "$@"; }
# the KILN_GIT_DESCRIBE the build would compile in for source tree $1
describe() {
    cmake -DSOURCE_DIR="$1" -DOUT="$T/kiln_git.h" -P "$1/share/git_describe.cmake" >"$T/log" 2>&1 || { cat "$T/log" >&2; return 1; }
    sed -n 's/^#define KILN_GIT_DESCRIBE "\(.*\)"$/\1/p' "$T/kiln_git.h"
}
# kiln's tree as a release exports it: git archive where src is a checkout, else a copy of share/
export_tree() {
    mkdir -p "$1"
    if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
        git -C "$src" archive HEAD share CMakeLists.txt | tar -x -C "$1"
    fi
    # the script under test as it is now (HEAD's may be older)
    mkdir -p "$1/share" && cp "$src/share/git_describe.cmake" "$1/share/"
}

# (a) inside another repository, with a commit
g init -q "$T/outer"
echo packaging >"$T/outer/README"
g -C "$T/outer" add README && g -C "$T/outer" commit -q -m outer
outer=$(git -C "$T/outer" rev-parse --short HEAD)
export_tree "$T/outer/kiln-0.1"
g -C "$T/outer" add kiln-0.1 && g -C "$T/outer" commit -q -m "upstream tree"
same "$(describe "$T/outer/kiln-0.1")" "" "the tree inside another repository (whose HEAD is $outer)"

# (b) the same tree, a checkout of its own
export_tree "$T/own"
g init -q "$T/own"
g -C "$T/own" add -A && g -C "$T/own" commit -q -m own
want=$(git -C "$T/own" describe --always --dirty --tags)
same "$(describe "$T/own")" "$want" "a checkout of its own"

# (c) outside any repository
export_tree "$T/plain"
same "$(describe "$T/plain")" "" "a tree outside any repository"

finish
