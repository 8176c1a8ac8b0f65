#!/usr/bin/env bash
# Large regular files, read ahead of the hashing and parsing on a thread (cli/common/file_ahead.h,
# issue 38.2), against external answers:
# - `kiln hash` of a 24 MiB file gives sha256sum's and sha3-256 (Python's hashlib) digests, the
#   same as through a pipe;
# - `kiln merkle --leaves` of a 36 MiB file of hashes (comments, blank lines, CRLF lines, no final
#   LF; lines across the edges of the 16 MiB read-ahead blocks and of the parsing threads' shares)
#   gives the sha256d root Python computes, the same through a pipe; an error in it names the
#   same line as through a pipe;
# - a file cut short while it is read ends with exit 2 and "shrank while being read", never a
#   digest or root of half a file nor a crash (SIGBUS);
# - SIGINT while a large file is read ends kiln within 1.5 s with exit 130.
# usage: test_cli_large_file.sh KILN DATA_DIR
set -u
kiln=$1
. "$(dirname "$0")/cli_util.sh"
. "$(dirname "$0")/signal_util.sh"
tmp=$TMP # signal_util's checks read $tmp
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
[ -d /proc/self/fdinfo ] || { echo "SKIP: no /proc/PID/fdinfo to watch a read's progress"; exit 77; }

# ---- kiln hash: a file past the read-ahead threshold (8 MiB), regular and through a pipe
head -c $((24 << 20)) /dev/urandom >"$tmp/big.bin"
want=$(sha256sum <"$tmp/big.bin" | cut -d' ' -f1)
got=$("$kiln" hash --algo sha256 "$tmp/big.bin")
[ "$got" = "$want  $tmp/big.bin" ] && ok || bad "hash of a regular file: $got, want $want"
got=$(cat "$tmp/big.bin" | "$kiln" hash --algo sha256)
[ "$got" = "$want  -" ] && ok || bad "hash through a pipe: $got, want $want"
want=$(python3 -c 'import hashlib, sys; print(hashlib.sha3_256(open(sys.argv[1], "rb").read()).hexdigest())' "$tmp/big.bin")
got=$("$kiln" hash --algo sha3-256 "$tmp/big.bin" "$tmp/big.bin")
[ "$got" = "$want  $tmp/big.bin
$want  $tmp/big.bin" ] && ok || bad "sha3-256 of a file twice: $got, want $want"

# ---- kiln merkle: 36 MiB of hashes with everything a list may hold, and Python's root
python3 - "$tmp/leaves.txt" "$tmp/root.txt" <<'EOF'
import hashlib, os, sys
def d(b): return hashlib.sha256(hashlib.sha256(b).digest()).digest()
rng = 1
lines, nodes, size = [], [], 0
while size < 36 << 20:
    rng = (rng * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    h = hashlib.sha256(rng.to_bytes(8, "little")).digest()
    kind = rng >> 60
    text = h.hex()
    if kind == 0: line = "# a comment of some length " + "x" * (rng % 300)
    elif kind == 1: line = ""
    elif kind == 2: line = "  \t" + text.upper() + " \r"
    else: line = text
    if kind >= 2: nodes.append(h[::-1])
    lines.append(line)
    size += len(line) + 1
open(sys.argv[1], "w", newline="").write("\n".join(lines))  # no LF after the last line
while len(nodes) > 1:
    if len(nodes) % 2: nodes.append(nodes[-1])
    nodes = [d(nodes[i] + nodes[i + 1]) for i in range(0, len(nodes), 2)]
open(sys.argv[2], "w").write(nodes[0][::-1].hex() + "\n")
EOF
root=$(cat "$tmp/root.txt")
got=$("$kiln" merkle --leaves "$tmp/leaves.txt" --device cpu 2>&1)
[ "$got" = "$root" ] && ok || bad "merkle root of a regular file: $got, want $root"
got=$("$kiln" merkle --leaves "$tmp/leaves.txt" --device cpu --threads 1 2>&1) # read ahead, parsed by one thread
[ "$got" = "$root" ] && ok || bad "merkle root of a regular file, --threads 1: $got, want $root"
got=$(cat "$tmp/leaves.txt" | "$kiln" merkle --leaves - --device cpu 2>&1)
[ "$got" = "$root" ] && ok || bad "merkle root through a pipe: $got, want $root"
# a bad line deep in the file (a short one, a long one, one not hex): the same message, naming the
# same line, either way
line=$(($(grep -c '' <"$tmp/leaves.txt") + 3001))
for bad in zz "$(printf '%01100d' 0)" "$(printf '%063dg' 0)"; do
    { cat "$tmp/leaves.txt"; printf '\n'; head -n 3000 "$tmp/leaves.txt"; printf '%s\n' "$bad"; cat "$tmp/leaves.txt"; } >"$tmp/badline.txt"
    "$kiln" merkle --leaves "$tmp/badline.txt" --device cpu >/dev/null 2>"$tmp/err1"
    rc=$?
    cat "$tmp/badline.txt" | "$kiln" merkle --leaves - --device cpu >/dev/null 2>"$tmp/err2"
    [ "$rc" = 2 ] && grep -q "badline.txt line $line: \(expected 64 hex digits\|longer than 1024\|not a hex hash\)" "$tmp/err1" &&
        ok || bad "bad line $line (${bad:0:70}): exit $rc, $(cat "$tmp/err1")"
    [ "$(sed 's/^.*line //' "$tmp/err1")" = "$(sed 's/^.*line //' "$tmp/err2")" ] && ok ||
        bad "bad line through a pipe: $(cat "$tmp/err2"), as a file: $(cat "$tmp/err1")"
done

# ---- a file cut short while read: wait until kiln's reader is 16 MiB in, then truncate it
# watch_and_cut PID FILE SIZE: truncates FILE to SIZE once PID's descriptor on it is past 16 MiB
watch_and_cut() {
    local pid=$1 file=$2 size=$3 end=$((SECONDS + 20)) fd pos real
    real=$(readlink -f "$file")
    while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $end ]; do
        for fd in /proc/"$pid"/fd/*; do
            [ "$(readlink "$fd" 2>/dev/null)" = "$real" ] || continue
            pos=$(awk '/^pos:/ { print $2 }' /proc/"$pid"/fdinfo/"${fd##*/}" 2>/dev/null)
            if [ "${pos:-0}" -gt $((16 << 20)) ]; then
                truncate -s "$size" "$file"
                return 0
            fi
        done
        sleep 0.01
    done
    return 1
}
# cut_short WHAT FILE SIZE ARGS...: kiln ARGS, FILE cut to SIZE bytes once kiln is 16 MiB into it,
# must end with exit 2 naming FILE, and print nothing on stdout
cut_short() {
    local what=$1 file=$2 size=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    watch_and_cut "$pid" "$file" "$size" && ok || bad "$what never got 16 MiB into the file"
    wait "$pid"
    rc=$?
    [ "$rc" = 2 ] && grep -q "${file##*/}: the file shrank while being read" "$tmp/err" && [ ! -s "$tmp/out" ] && ok ||
        bad "$what of a file cut short: exit $rc, $(cat "$tmp/out" "$tmp/err")"
}
# one core for kiln where taskset is found: its parsing threads then take seconds over the blank
# lines below, however many cores the machine has
one_core=
command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null && one_core="taskset -c 0"
# a sparse 8 GiB file (no disk used): sha3-512 takes many seconds over it, the cut comes at once
truncate -s 8G "$tmp/sparse.bin"
cut_short "kiln hash" "$tmp/sparse.bin" 1048576 "$kiln" hash --algo sha3-512 "$tmp/sparse.bin"
# 256 MiB of blank lines and one hash: slow to parse (a line a byte), cut to that one hash
blank() { { head -c 64 "$tmp/root.txt"; printf '\n'; head -c $((256 << 20)) /dev/zero | tr '\0' '\n'; } >"$tmp/blank.txt"; }
blank
cut_short "kiln merkle" "$tmp/blank.txt" 65 $one_core "$kiln" merkle --leaves "$tmp/blank.txt" --device cpu

# ---- SIGINT while a large file is read ahead
truncate -s 8G "$tmp/sparse.bin"
signal_run INT 0.5 "$tmp/out" "$tmp/err" "$kiln" hash --algo sha3-512 "$tmp/sparse.bin"
interrupted hash INT
blank
signal_run INT 0.3 "$tmp/out" "$tmp/err" $one_core "$kiln" merkle --leaves "$tmp/blank.txt" --device cpu
interrupted merkle INT

finish
