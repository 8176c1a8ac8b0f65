#!/usr/bin/env bash
# Ctrl-C ends kiln hash within a second, whatever it is doing: a read blocked on a pipe that never
# ends, an open of a FIFO with no writer, a huge file being hashed, a check list that never comes.
# Each ends with "kiln hash: interrupted by SIGINT" and exit 130, and prints no result for the
# input it was reading.
# Usage: test_hash_interrupt.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
. "$(dirname "$0")/signal_util.sh"
cd "$T" || exit 1
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# interrupt WHAT [ARGS...]: runs kiln hash ARGS (stdin from $IN), sends SIGINT 0.5 s after kiln
# catches it (signal_util.sh's wait_catching: this background job starts with SIGINT ignored, and a
# SIGINT sent a fixed 0.5 s after the start was lost on a busy machine) and checks the exit code,
# the time to end (at most 1.5 s), the message and that nothing was printed. A kiln still running
# 5 s after the signal is killed (polled: a killed watchdog subshell could run this script's EXIT
# trap).
interrupt() {
    local what=$1
    shift
    "$KILN" hash "$@" < "$IN" 3>&- > out 2> err &
    local p=$! i
    wait_catching $p INT
    sleep 0.5
    local t0
    t0=$(now_ms)
    kill -INT $p
    for i in $(seq 100); do kill -0 $p 2> /dev/null || break; sleep 0.05; done
    kill -KILL $p 2> /dev/null
    wait $p
    local rc=$? took=$(($(now_ms) - t0))
    expect_eq "$rc" 130 "$what: exit"
    [ "$took" -le 1500 ] && ok || bad "$what: ended $took ms after SIGINT"
    expect_eq "$(cat err)" "kiln hash: interrupted by SIGINT" "$what: message"
    expect_eq "$(cat out)" "" "$what: no result"
}

# a pipe whose writer never writes nor closes: this shell holds its write end (a read-write open
# does not block) and kiln does not inherit it
mkfifo fifo
exec 3<> fifo
IN=fifo interrupt "stdin blocked on a pipe" --algo sha256
IN=/dev/null interrupt "--check on a silent pipe" --algo sha256 --check fifo
exec 3>&-
# a FIFO named as FILE, no writer at all: the open itself blocks
IN=/dev/null interrupt "open of a FIFO" --algo sha3-256 fifo
# a huge (sparse) file: reads never block, the flag is looked at every chunk
if truncate -s 64G huge 2> /dev/null; then
    IN=/dev/null interrupt "a 64 GiB file" --algo sha256 --device cpu huge
    printf '%064d  huge\n' 0 > sums
    IN=/dev/null interrupt "a 64 GiB file in a check list" --algo sha256 --device cpu --check sums
fi

finish
