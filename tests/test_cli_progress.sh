#!/usr/bin/env bash
# The progress line of every long job, seen through a pseudo-terminal as a user sees it: it is
# drawn on stderr with '\r' while the job runs (hashing, PageRank, a Merkle build, scrypt with a
# large N, mining, bench), erased at the end so that the terminal shows only the results and the
# messages, and never reaches stdout, whose results are those of a run without it. It is absent
# when stderr is a pipe or a file, or with --quiet; --progress draws it on a pipe too.
# usage: test_cli_progress.sh KILN DATA_DIR
set -u
kiln=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP

# on_pty CMD: runs the shell command CMD with its stdin, stdout and stderr on a pseudo-terminal of
# 200 columns (CMD redirects stdout to a file itself); what the terminal received goes to
# $tmp/pty, the exit status to $code.
on_pty() {
    python3 - "$tmp/pty" "$1" <<'EOF'
import fcntl, os, pty, select, struct, sys, termios, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh", "-c", sys.argv[2]])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
data, end = b"", time.time() + 120
while time.time() < end:
    if select.select([fd], [], [], 1)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        data += chunk
else:
    os.kill(pid, 9)
open(sys.argv[1], "wb").write(data)
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
EOF
    code=$?
}

# drawn WHAT PATTERN: the terminal got at least one progress line matching the Python regular
# expression PATTERN (after a '\r'), and what it shows at the end (carriage returns and
# overwrites played as a terminal plays them) holds no progress line: it was erased, and no
# message or result was written over a line still up.
drawn() {
    python3 - "$tmp/pty" "$2" <<'EOF' && ok || bad "$1: $(head -c 400 "$tmp/pty" | cat -v)"
import re, sys
data = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
lines = re.findall(r"\r([^\r\n]+)", data)
if not any(re.match(sys.argv[2], l) for l in lines):
    sys.exit("no progress line matches")
screen, line, col = [], [], 0
for ch in data:
    if ch == "\r":
        col = 0
    elif ch == "\n":
        screen.append("".join(line).rstrip())
        line, col = [], 0
    else:
        line[col:col + 1] = [ch]
        col += 1
screen.append("".join(line).rstrip())
left = [s for s in screen if re.search(sys.argv[2], s)]
if left:
    sys.exit("left on the terminal: %r" % left)
EOF
}
no_cr() { # FILE WHAT: FILE holds no carriage return
    if grep -q $'\r' "$1"; then bad "$2: a carriage return in $(head -c 200 "$1" | cat -v)"; else ok; fi
}
same_file() { cmp -s "$1" "$2" && ok || bad "$3: $(head -c 200 "$1") vs $(head -c 200 "$2")"; }

# ---------------------------------------------------------------- hash
# stdin from a writer that pauses: the job lasts a second whatever the machine's speed
head -c 5000000 /dev/urandom >"$tmp/f"
slow="(head -c 20000000 /dev/zero; sleep 1; head -c 20000000 /dev/zero)"
on_pty "$slow | '$kiln' hash --algo sha256 - '$tmp/f' >'$tmp/out'"
[ "$code" = 0 ] && ok || bad "hash on a terminal: exit $code"
drawn "hash" '^hash \[1/2\] -: [0-9.]+ MiB; all: [0-9.]+ MiB; [0-9.]+ [KMG]?i?B/s'
printf '%s  -\n%s  %s\n' "$(head -c 40000000 /dev/zero | sha256sum | cut -c1-64)" \
    "$(sha256sum <"$tmp/f" | cut -c1-64)" "$tmp/f" >"$tmp/want"
same_file "$tmp/out" "$tmp/want" "hash stdout against sha256sum"
# stderr a pipe: nothing but the results
eval "$slow" | "$kiln" hash --algo sha256 - "$tmp/f" 2>&1 >"$tmp/out2" | cat >"$tmp/err"
[ ! -s "$tmp/err" ] && ok || bad "hash, stderr a pipe: $(head -c 200 "$tmp/err" | cat -v)"
same_file "$tmp/out2" "$tmp/want" "hash stdout, stderr a pipe"
# --progress: drawn on the pipe too
eval "$slow" | "$kiln" hash --algo sha256 --progress - 2>&1 >/dev/null | cat >"$tmp/err"
grep -q $'\rhash \\[1/1\\] -: ' "$tmp/err" && ok || bad "hash --progress on a pipe: $(head -c 200 "$tmp/err" | cat -v)"
# --quiet: nothing on the terminal
on_pty "$slow | '$kiln' hash --algo sha256 --quiet - >'$tmp/out'"
[ ! -s "$tmp/pty" ] && ok || bad "hash --quiet on a terminal: $(head -c 200 "$tmp/pty" | cat -v)"

# regular files: each one's size, percent and ETA, and the whole run's (sparse files of zeros:
# no disk used, the hash is the work)
truncate -s 150M "$tmp/z1" "$tmp/z2"
on_pty "'$kiln' hash --algo sha3-512 '$tmp/z1' '$tmp/z2' >'$tmp/out'"
[ "$code" = 0 ] && ok || bad "hash of files on a terminal: exit $code"
drawn "hash of files" \
    '^hash \[[12]/2\] \S*z[12]: [0-9.]+ [KM]iB/150 MiB \([0-9]+%\), ETA [0-9]+ s; all: [0-9.]+ [KM]iB/300 MiB \([0-9]+%\), ETA [0-9]+ s; [0-9.]+ [KMG]?i?B/s'
python3 -c 'import hashlib, sys
want = hashlib.sha3_512(bytes(150 << 20)).hexdigest()
sys.exit(open(sys.argv[1]).read() != "%s  %s\n%s  %s\n" % (want, sys.argv[2], want, sys.argv[3]))' "$tmp/out" "$tmp/z1" "$tmp/z2" &&
    ok || bad "hash of files: stdout against hashlib"

# ---------------------------------------------------------------- pagerank
on_pty "'$kiln' pagerank --rmat 15 --device cpu --tol 0 --max-iter 1000 --threads 1 --top 3 >'$tmp/out'"
[ "$code" = 0 ] && ok || bad "pagerank on a terminal: exit $code"
drawn "pagerank" '^pagerank: iteration [0-9]+ of 1000, L1 change [0-9.e+-]+, [0-9.]+ ms/iteration'
grep -q 'kiln pagerank: 32768 nodes' "$tmp/pty" && ok || bad "pagerank summary on the terminal"
"$kiln" pagerank --rmat 15 --device cpu --tol 0 --max-iter 1000 --threads 1 --top 3 >"$tmp/out2" 2>"$tmp/err"
same_file "$tmp/out" "$tmp/out2" "pagerank stdout with and without the line"
no_cr "$tmp/err" "pagerank, stderr a file"
grep -q 'pagerank: iteration' "$tmp/err" && bad "pagerank, stderr a file: a progress line" || ok

# ---------------------------------------------------------------- merkle: Rescue Prime, 2^15 leaves
python3 -c 'import random; r = random.Random(1)
print("\n".join("%064x" % r.getrandbits(255) for _ in range(1 << 15)))' >"$tmp/leaves"
on_pty "'$kiln' merkle --algo rp64_256 --leaves '$tmp/leaves' --device cpu --threads 1 >'$tmp/out'"
[ "$code" = 0 ] && ok || bad "merkle on a terminal: exit $code"
drawn "merkle" '^merkle: [0-9.]+ k/32\.77 k merges \([0-9]+%\), [0-9.]+ k merges/s, ETA'
"$kiln" merkle --algo rp64_256 --leaves "$tmp/leaves" --device cpu --threads 1 >"$tmp/out2" 2>"$tmp/err"
same_file "$tmp/out" "$tmp/out2" "merkle stdout with and without the line"
[ ! -s "$tmp/err" ] && ok || bad "merkle, stderr a file: $(head -c 200 "$tmp/err" | cat -v)"

# ---------------------------------------------------------------- scrypt, N = 2^18
on_pty "'$kiln' scrypt --password p --salt s -N 262144 -r 8 -p 1 --threads 1 >'$tmp/out'"
[ "$code" = 0 ] && ok || bad "scrypt on a terminal: exit $code"
drawn "scrypt" '^scrypt: [0-9.]+ k/524\.29 k steps \([0-9]+%\), [0-9.]+ k steps/s, ETA'
python3 -c 'import hashlib, sys
want = hashlib.scrypt(b"p", salt=b"s", n=1 << 18, r=8, p=1, maxmem=300 << 20, dklen=64).hex()
sys.exit(open(sys.argv[1]).read() != want + "\n")' "$tmp/out" && ok || bad "scrypt stdout against hashlib"

# ---------------------------------------------------------------- mine, for 1.5 s
on_pty "'$kiln' mine --demo --device cpu --threads 1 --duration 1.5 >'$tmp/out'"
[ "$code" = 0 ] && ok || bad "mine on a terminal: exit $code"
drawn "mine" '^scan: [0-9.]+ [kM]?/16\.78 M nonces \([0-9]+%\), [0-9.]+ [kM]H/s, ETA'
grep -q '^hashes=' "$tmp/out" && ok || bad "mine stdout: $(cat "$tmp/out")"
no_cr "$tmp/out" "mine stdout"

# ---------------------------------------------------------------- bench
# --seconds is the bench's time however fast one batch hashes (sha256 hashes its batch in a few
# ms): the line is drawn after 0.25 s, so a bench that ended early drew nothing
t0=$(date +%s.%N)
on_pty "'$kiln' bench --algo sha256 --device cpu --threads 1 --seconds 1 >'$tmp/out'"
python3 -c 'import sys; sys.exit(float(sys.argv[2]) - float(sys.argv[1]) < 0.9)' "$t0" "$(date +%s.%N)" &&
    ok || bad "bench --seconds 1 ended before 0.9 s"
[ "$code" = 0 ] && ok || bad "bench on a terminal: exit $code"
drawn "bench" '^bench: 1 of 1, sha256: [0-9.]+ s'
grep -q '^sha256/32B ' "$tmp/out" && ok || bad "bench stdout: $(cat "$tmp/out")"
no_cr "$tmp/out" "bench stdout"

# ---------------------------------------------------------------- the GPU host loops (with a GPU)
# PageRank's loop and a GPU bench report from the CUDA backend's own host loops (the scrypt KDF's,
# through the library: test_progress_hook); without a GPU this section is not run.
if "$kiln" devices 2>/dev/null | grep -q '^cuda:0'; then
    on_pty "'$kiln' pagerank --rmat 22 --device cuda --tol 0 --max-iter 2000 --top 3 >'$tmp/out'"
    [ "$code" = 0 ] && ok || bad "GPU pagerank on a terminal: exit $code"
    drawn "GPU pagerank" '^pagerank: iteration [0-9]+ of 2000'
    on_pty "'$kiln' pagerank --rmat 22 --device cuda --tol 1e-30 --max-iter 2000 --top 3 >'$tmp/out'"
    drawn "GPU pagerank with a residual" '^pagerank: iteration [0-9]+ of 2000, L1 change [0-9.e+-]+'
    on_pty "'$kiln' bench --algo sha256d --device cuda --seconds 1 >'$tmp/out'"
    [ "$code" = 0 ] && ok || bad "GPU bench on a terminal: exit $code"
    drawn "GPU bench" '^bench: '
fi

# ---------------------------------------------------------------- the options
"$kiln" hash --algo sha256 --quiet --progress "$tmp/f" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'kiln hash: --quiet and --progress exclude each other' "$tmp/err" && ok ||
    bad "--quiet with --progress: $(cat "$tmp/err")"
for c in hash merkle scrypt pagerank mine bench tune; do
    "$kiln" $c --help >"$tmp/help"
    grep -q -- '--quiet ' "$tmp/help" && grep -q -- '--progress ' "$tmp/help" && ok || bad "kiln $c --help lacks --quiet, --progress"
done
# tune sweeps GPU shapes (tests/test_cuda_* and scripts/device.sh run it): here only its options
"$kiln" tune --quiet --progress --device cpu >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'exclude each other' "$tmp/err" && ok || bad "tune --quiet --progress: $(cat "$tmp/err")"

finish
