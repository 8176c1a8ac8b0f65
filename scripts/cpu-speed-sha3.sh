#!/usr/bin/env bash
# CPU streaming SHA3-256 against OpenSSL on this machine, side by side: alternating runs of
# scripts/sha3_speed.c (built against build/src/libkiln.a) and `openssl speed -evp sha3-256`,
# both divided by CPU time, at 8 KiB blocks. Usage: scripts/cpu-speed-sha3.sh [ROUNDS] [BUILD]
set -eu
rounds=${1:-3}
B=${2:-build}
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude scripts/sha3_speed.c "$B/src/libkiln.a" -fopenmp -lm -o /tmp/sha3_speed
for i in $(seq "$rounds"); do
    /tmp/sha3_speed 8192 3
    openssl speed -evp sha3-256 -bytes 8192 -seconds 3 2> /dev/null | awk '/^sha3-256/ {printf "openssl %s\n", $0}'
done
echo "$(openssl version); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
