# Shared by the tests of what kiln writes about itself (test_cli_version.sh, test_cli_man*.sh,
# test_cli_completion*.sh), sourced with the test's arguments (KILN DATA_DIR): gives $KILN
# (absolute), $SRC (the source tree), a scratch directory $T removed on exit, pass/fail counters with
# ok, bad and expect_eq, finish, and $SHARE: the manual pages and completions as the build wrote them
# for installation (KILN_SHARE_DIR, set by CTest), else written here by the same kiln help calls.
export LC_ALL=C
KILN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$(dirname "${BASH_SOURCE[0]}")/cli_util.sh"
T=$TMP
if [ -n "${KILN_SHARE_DIR:-}" ]; then
    SHARE=$KILN_SHARE_DIR
else
    SHARE=$T/share
    mkdir -p "$SHARE/man/man1" "$SHARE/bash-completion/completions" "$SHARE/zsh/site-functions"
    "$KILN" help --roff > "$SHARE/man/man1/kiln.1"
    for c in $("$KILN" help --commands); do "$KILN" help --roff "$c" > "$SHARE/man/man1/kiln-$c.1"; done
    "$KILN" help --completion bash > "$SHARE/bash-completion/completions/kiln"
    "$KILN" help --completion zsh > "$SHARE/zsh/site-functions/_kiln"
fi
# The commands `kiln --help` lists, one a line.
help_commands() { "$KILN" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p'; }
# The options `kiln CMD --help` lists ("--help, -h" gives both), sorted, one a line.
help_options() {
    "$KILN" "$1" --help | sed -n 's/^  \(-[^ ,]*\)\(, \(-[^ ]*\)\)\{0,1\}.*/\1 \3/p' | tr ' ' '\n' | sed '/^$/d' | sort
}
