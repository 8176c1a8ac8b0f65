# Shared by the `kiln hash` CLI tests (test_hash_*.sh), sourced with the test's arguments: gives
# $KILN (absolute), a scratch directory $T removed on exit, pass/fail counters with ok, bad and
# expect_eq, and finish, which prints the tally and returns its status.
KILN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "${BASH_SOURCE[0]}")/cli_util.sh"
T=$TMP
