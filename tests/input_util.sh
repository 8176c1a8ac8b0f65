# Shared by the tests of inputs read once (test_graph_inputs.sh, test_cli_merkle_inputs.sh):
# sourced after KILN is set. Gives $TMP (removed on exit) holding a FIFO $TMP/fifo, pass/fail
# counters, and helpers to feed the FIFO and to interrupt a background kiln.
TMP=$(mktemp -d)
writer=
cleanup() {
    [ -n "$writer" ] && kill "$writer" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
mkfifo "$TMP/fifo"
pass=0
fail=0
# An AddressSanitizer build reserves terabytes of shadow memory at start, so it cannot run under
# `ulimit -v` at all: there the limit is left out (the input limits under test do not depend on it)
# and the checks whose very subject is that limit are run by the plain build only.
asan=0
ldd "$KILN" 2>/dev/null | grep -q libasan && asan=1
vm_limit() { [ "$asan" = 1 ] || ulimit -v "$1"; }
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# expect WANT NAME PATTERN: the last run ($rc, $TMP/err) exited WANT with PATTERN on stderr
expect() {
    if [ "$rc" = "$1" ] && grep -q -- "$3" "$TMP/err"; then ok; else bad "$2: exit $rc (want $1), stderr: $(head -c 400 "$TMP/err")"; fi
}
# start_writer SCRIPT: runs the sh script in the background with its output to the FIFO (opened
# there, as opening waits for the reader), its pid in $writer; stop_writer ends it
start_writer() {
    sh -c "exec >'$TMP/fifo'; $1" &
    writer=$!
}
stop_writer() {
    kill "$writer" 2>/dev/null
    wait "$writer" 2>/dev/null
    writer=
}
# interrupt NAME: sends SIGINT to the kiln started in the background ($pid, output in $TMP/out and
# $TMP/err) 0.3 s after it has its SIGINT handler (a background job starts with SIGINT ignored: one
# sent before the handler, on a busy machine, was lost and kiln waited on its FIFO for ever); it
# must end within 1.5 s with exit 130, say so, and print nothing else on stdout nor any read or
# format error. One still running 5 s after the signal is killed (the test fails, never hangs).
interrupt() {
    local t0 t1 end=$((SECONDS + 60))
    # SigCgt's bit 1 (SIGINT) in /proc: the handler is in place
    until [ $((0x$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null || echo 0) & 2)) != 0 ] ||
        [ $SECONDS -ge $end ] || ! kill -0 "$pid" 2>/dev/null; do
        sleep 0.02
    done
    sleep 0.3
    t0=$(date +%s%N)
    kill -INT "$pid"
    end=$((SECONDS + 5))
    while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $end ]; do sleep 0.05; done
    t1=$(date +%s%N)
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    expect 130 "$1" "interrupted by SIGINT"
    [ $(((t1 - t0) / 1000000)) -lt 1500 ] && ok || bad "$1: ended $(((t1 - t0) / 1000000)) ms after SIGINT"
    [ ! -s "$TMP/out" ] && ok || bad "$1: wrote $(head -c 200 "$TMP/out")"
    if grep -q -i "read error\|malformed\|read failed\|no edges" "$TMP/err"; then bad "$1: $(cat "$TMP/err")"; else ok; fi
}
# interrupt_while NAME ARGS...: starts kiln ARGS in the background, on this function's standard
# input (named, or a background command would get /dev/null), and interrupts it
interrupt_while() {
    local name=$1
    shift
    "$KILN" "$@" <&0 >"$TMP/out" 2>"$TMP/err" &
    pid=$!
    interrupt "$name"
}
