#!/usr/bin/env bash
# A second signal ends kiln at once whatever its kind (issue 36.11): the handler reset only the kind
# it caught (SA_RESETHAND), so a SIGINT then `timeout`'s SIGTERM were both taken as requests to stop,
# and a command that was slow to stop went on. Here `kiln hash` waits on a FIFO that nothing writes;
# it is stopped (SIGSTOP), given two signals of different kinds, and resumed: it must die of the
# second delivered (killed by a signal), where the old handler exited on its own with 128 + the
# last one. One signal alone still ends it gracefully (exit 128 + N, its line).
# usage: test_cli_signals_second.sh KILN DATA_DIR
set -u
kiln=$1
tmp=$(mktemp -d)
trap 'exec 3>&-; rm -rf "$tmp"' EXIT
mkfifo "$tmp/fifo"
exec 3<>"$tmp/fifo" # a writer that never writes: kiln waits for data
python3 - "$kiln" "$tmp/fifo" <<'EOF'
import os, signal, subprocess, sys, time
kiln, fifo = sys.argv[1], sys.argv[2]
passed = failed = 0

def start():
    p = subprocess.Popen([kiln, "hash", "--algo", "sha256", fifo], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)  # in its wait on the FIFO
    return p

def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, file=sys.stderr)

# (two of one kind pending at once are one signal: a second of the same kind is SA_RESETHAND's
# case, and test_cli_signals' first one)
for first, second in (("INT", "TERM"), ("TERM", "HUP"), ("HUP", "INT")):
    p = start()
    os.kill(p.pid, signal.SIGSTOP)
    os.kill(p.pid, getattr(signal, "SIG" + first))
    os.kill(p.pid, getattr(signal, "SIG" + second))
    os.kill(p.pid, signal.SIGCONT)
    try:
        out, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    # both pending at once: whichever the kernel delivers second kills. Where a GPU driver's threads
    # take signals too (the H200 host), the two can land in two threads at once: the first one's
    # line may then be written before the second kills, but the end is still the second's kill
    want = (-getattr(signal, "SIG" + first), -getattr(signal, "SIG" + second))
    check(p.returncode in want,
          "SIG%s then SIG%s: returncode %d (want one of %s: killed), stderr %r" % (first, second, p.returncode, want, err))

for sig in ("INT", "TERM", "HUP"):
    p = start()
    os.kill(p.pid, getattr(signal, "SIG" + sig))
    out, err = p.communicate(timeout=10)
    n = getattr(signal, "SIG" + sig)
    check(p.returncode == 128 + n and err.decode().strip() == "kiln hash: interrupted by SIG" + sig,
          "SIG%s alone: returncode %d, stderr %r" % (sig, p.returncode, err))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
EOF
