# Sourced by the signal tests: runs a command, signals it, and times how long it takes to end.
# signal_run SIG DELAY OUT ERR CMD...: starts CMD (stdin the caller's, stdout to OUT, stderr to
# ERR), sends SIG after DELAY seconds, waits; sets $code (its exit status) and $took (seconds from
# the signal to its end). A command still running 20 s after it started is killed (code 137), so
# a test never hangs.
signal_run() {
    local sig=$1 delay=$2 out=$3 err=$4
    shift 4
    "$@" <&0 >"$out" 2>"$err" & # <&0: the caller's stdin, not the /dev/null of a background job
    local pid=$!
    # the watchdog takes its sleep with it when it is ended, and holds no pipe of the caller
    (
        trap 'kill $s; exit' TERM
        sleep 20 &
        s=$!
        wait $s
        kill -KILL "$pid"
    ) >/dev/null 2>&1 &
    local dog=$!
    sleep "$delay"
    local t0
    t0=$(date +%s%N)
    kill -"$sig" "$pid"
    wait "$pid"
    code=$?
    took=$((($(date +%s%N) - t0) / 1000000))
    took=$(printf '%d.%03d' $((took / 1000)) $((took % 1000)))
    kill "$dog" 2>/dev/null
    wait "$dog" 2>/dev/null
}

# within SECONDS: 0 when $took is at most SECONDS (a decimal).
within() { awk -v t="$took" -v m="$1" 'BEGIN { exit !(t <= m) }'; }

# interrupted CMD SIG [PRINTS]: checks (with the caller's ok and bad) that the last signal_run, with
# stdout and stderr in $tmp/out and $tmp/err, ended within 1.5 s, with exit 128 + SIG and the one
# line "kiln CMD: interrupted by SIG", and printed nothing on stdout (unless PRINTS is given: bench
# prints its table header first)
interrupted() {
    local cmd=$1 sig=$2 want=$((128 + $(kill -l "$2")))
    within 1.5 && ok || bad "$cmd took ${took}s after SIG$sig"
    [ "$code" = "$want" ] && ok || bad "$cmd on SIG$sig: exit $code, want $want; $(cat "$tmp/err")"
    [ "$(cat "$tmp/err")" = "kiln $cmd: interrupted by SIG$sig" ] && ok || bad "$cmd stderr: $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] || [ $# -gt 2 ] && ok || bad "$cmd printed a result: $(head -c 200 "$tmp/out")"
}
