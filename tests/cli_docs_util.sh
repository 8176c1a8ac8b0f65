# Shared by the tests of what kiln writes about itself (test_cli_version.sh, test_cli_man*.sh,
# test_cli_completion*.sh), sourced with the test's arguments (KILN DATA_DIR): gives $KILN
# (absolute), $SRC (the source tree), a scratch directory $T removed on exit, pass/fail counters with
# ok, bad and expect_eq, and finish.
export LC_ALL=C
KILN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect_eq() { if [ "$1" == "$2" ]; then ok; else bad "$3: got [$1] want [$2]"; fi; }
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" == 0 ]
}
