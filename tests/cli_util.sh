# Sourced first by the CLI tests (and by the helpers of a family of them): a scratch folder $TMP
# removed at exit, the counters with ok and bad, the checks below, and finish, which prints the
# tally ("N passed, N failed", after an optional label) and returns its status: the test's exit
# code. A test may define a check of its own of the same name after sourcing this.
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect_eq() { if [ "$1" == "$2" ]; then ok; else bad "$3: got [$1] want [$2]"; fi; }
same() { if [ "$1" = "$2" ]; then ok; else bad "$3: got '$1', want '$2'"; fi; }
# expect CODE CMD...: runs CMD, keeps its stdout in $out and its stderr in $err, checks the exit code
expect() {
    local want=$1
    shift
    out=$("$@" 2>"$TMP/err")
    local got=$?
    err=$(cat "$TMP/err")
    if [ "$got" = "$want" ]; then ok; else bad "exit $got (want $want): $*"; echo "$out" "$err" >&2; fi
}
# one_line_error WORDS: the last expect's stderr is one line naming WORDS
one_line_error() {
    if [ "$(printf '%s\n' "$err" | grep -c .)" = 1 ] && printf '%s' "$err" | grep -q -- "$1"; then ok
    else bad "stderr should be one line naming '$1', got: $err"; fi
}
finish() {
    echo "${1:+$1: }$pass passed, $fail failed"
    [ "$fail" = 0 ]
}
