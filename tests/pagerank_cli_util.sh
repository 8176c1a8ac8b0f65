# Shared by the kiln pagerank CLI tests (test_pagerank_cli.sh, test_pagerank_vectors_cli.sh):
# sourced after KILN and DATA are set. Gives $TMP (removed on exit), pass/fail counters, and
# expect_rc WANT NAME COMMAND...: runs the command with its stdout in $TMP/out and its stderr in
# $TMP/err and counts whether it exited WANT.
. "$(dirname "${BASH_SOURCE[0]}")/cli_util.sh"
expect_rc() {
    local want=$1 what=$2
    shift 2
    "$@" >"$TMP/out" 2>"$TMP/err"
    local rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else bad "$what: exit $rc, want $want ($(head -c 300 "$TMP/err"))"; fi
}
