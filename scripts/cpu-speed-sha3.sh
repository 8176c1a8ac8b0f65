#!/usr/bin/env bash
# CPU streaming SHA3-256 and SHAKE128 against OpenSSL and Python's hashlib on this machine, side by
# side: alternating runs of experiments/sha3_speed.c (built against build/src/libkiln.a), `openssl speed
# -evp`, and hashlib's one-shot digests, all divided by CPU time, at 8 KiB blocks.
# Usage: scripts/cpu-speed-sha3.sh [ROUNDS] [BUILD]
set -eu
rounds=${1:-3}
B=${2:-build}
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude experiments/sha3_speed.c "$B/src/libkiln.a" -fopenmp -lm -o /tmp/sha3_speed
hashlib_speed() { # ALGO: MB/s of hashlib's one-shot digests of 8 KiB, over CPU time
    python3 - "$1" <<'PY'
import hashlib, sys, time
algo = sys.argv[1]
buf = bytes(8192)
f = (lambda: hashlib.shake_128(buf).digest(16)) if algo == "shake128" else (lambda: hashlib.sha3_256(buf).digest())
n, t0 = 0, time.process_time()
while time.process_time() - t0 < 3:
    for _ in range(256): f()
    n += 256
print("hashlib %s %.1f MB/s" % (algo, n * len(buf) / (time.process_time() - t0) / 1e6))
PY
}
for i in $(seq "$rounds"); do
    for a in sha3-256 shake128; do
        /tmp/sha3_speed 8192 3 "$a"
        openssl speed -evp "$a" -bytes 8192 -seconds 3 2> /dev/null | awk -v a="$a" '$1 == a {printf "openssl %s\n", $0}'
        hashlib_speed "$a"
    done
done
echo "$(openssl version); Python $(python3 -c 'import sys; print(sys.version.split()[0])'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
