# Shared by the `kiln hash` CLI tests (test_hash_*.sh), sourced with the test's arguments: gives
# $KILN (absolute), a scratch directory $T removed on exit, pass/fail counters with ok, bad and
# expect_eq, and finish, which prints the tally and returns its status.
KILN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
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
