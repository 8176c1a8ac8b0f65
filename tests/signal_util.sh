# Sourced by the signal tests: runs a command, signals it, and times how long it takes to end.

# wait_catching PID SIG: waits (at most 20 s) until process PID catches SIG (its handler installed:
# /proc/PID/status SigCgt). A shell's background job starts with SIGINT ignored, and kiln installs
# its handler only once it is loaded and its main runs; on a busy machine that took longer than a
# fixed half second, the SIGINT was lost and the command ran on (a 64 GiB file hashed, killed 5 s
# later). Returns at once where /proc is absent.
wait_catching() {
    local pid=$1 bit=$((1 << ($(kill -l "$2") - 1))) mask _
    [ -r "/proc/$pid/status" ] || return 0
    for _ in $(seq 400); do
        mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
        [ -z "$mask" ] && return 0 # the process has ended
        (((0x$mask & bit) != 0)) && return 0
        sleep 0.05
    done
}
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
    # DELAY counts from the moment the command catches SIG, not from its start
    wait_catching "$pid" "$sig"
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

# signal_at_line SIG PATTERN OUT ERR CMD...: starts CMD (stdin /dev/null, stdout to OUT, stderr
# copied to ERR as it comes) and sends SIG 0.1 s after PATTERN (a Python regular expression) first
# shows on its stderr, progress lines ('\r') included; SIG "none" sends nothing. Sets $code (the exit status,
# 128 + N when a signal N ended it, as the shell gives) and $took (seconds from the signal, or from
# PATTERN with "none", to its end; -1 when PATTERN never showed). A command still running 300 s
# after it started is killed, so a test never hangs.
signal_at_line() {
    local out
    out=$(python3 - "$@" <<'PY'
import os, re, select, signal, subprocess, sys, time
sig, pattern, out, err, cmd = sys.argv[1], re.compile(sys.argv[2].encode()), sys.argv[3], sys.argv[4], sys.argv[5:]
with open(out, "wb") as o, open(err, "wb") as e:
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=o, stderr=subprocess.PIPE)
    start, seen, sent, buf = time.monotonic(), None, None, b""
    fd = p.stderr.fileno()
    while True:
        now = time.monotonic()
        if now - start > 300:
            p.kill()
        if seen is not None and sent is None and now - seen >= 0.1:
            sent = now
            if sig != "none":
                p.send_signal(getattr(signal, "SIG" + sig))
        timeout = 0.01 if seen is not None and sent is None else 1.0
        r, _, _ = select.select([fd], [], [], timeout)
        if not r:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        e.write(chunk)
        buf = (buf + chunk)[-4096:]
        if seen is None and pattern.search(buf):
            seen = time.monotonic()
            if sig == "none":
                sent = seen
    code = p.wait()
    end = time.monotonic()
print(128 - code if code < 0 else code, "%.3f" % (end - sent) if sent is not None else "-1")
PY
    )
    read -r code took <<<"$out"
}

# kill_one_rank OUT ERR WAIT CMD...: starts CMD (an mpirun, or a wrapper of one; stdout to OUT,
# stderr to ERR), waits until a PageRank iteration shows on its stderr, SIGKILLs one of mpirun's
# processes (the command it wraps, where each runs under a wrapper such as rank_end.sh) and waits
# for the run to end (killed after WAIT seconds, so a test never hangs). Sets $victim (the pid
# killed, empty when none was found), $code and $took (seconds from the kill).
kill_one_rank() {
    local out=$1 err=$2 wait_s=$3
    shift 3
    "$@" >"$out" 2>"$err" &
    local job=$! dog t0
    for _ in $(seq 1200); do grep -Eq "pagerank: iteration [1-9]" "$err" && break; sleep 0.1; done
    victim=$(pgrep -P "$(pgrep -P "$job" -x mpirun || echo "$job")" | tail -1)
    local inner
    [ -n "$victim" ] && inner=$(pgrep -P "$victim" | tail -1) && [ -n "$inner" ] && victim=$inner
    t0=$(date +%s%N)
    [ -n "$victim" ] && kill -KILL "$victim"
    (sleep "$wait_s"; kill -KILL "$job" 2>/dev/null) &
    dog=$!
    wait "$job"
    code=$?
    took=$((($(date +%s%N) - t0) / 1000000))
    took=$(printf '%d.%03d' $((took / 1000)) $((took % 1000)))
    kill "$dog" 2>/dev/null
}
