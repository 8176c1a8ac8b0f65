#!/usr/bin/env bash
# Litecoin scrypt on this CPU, kiln beside cpuminer 2.5.1, run alternately so both see the same
# machine (on a shared host other jobs move both numbers; compare rounds pairwise and the medians).
# usage: scripts/cpu-scrypt-vs-cpuminer.sh [ROUNDS] (MINERD=path to cpuminer's minerd, KILN=path to kiln)
#   kiln: `kiln bench --algo scrypt --device cpu --seconds 5` (all cores)
#   cpuminer: `minerd --benchmark -a scrypt -t <cores>` for 14 s, the median of its "Total" lines
#             after the first
set -u
rounds=${1:-8}
kiln=${KILN:-build/kiln}
minerd=${MINERD:-/work/peers/cpuminer/minerd}
cores=$(nproc)
for i in $(seq 1 "$rounds"); do
    k=$("$kiln" bench --algo scrypt --device cpu --seconds 5 --json | sed 's/.*"rate": \([0-9]*\).*/\1/')
    c=$(timeout 14 "$minerd" --benchmark -a scrypt -t "$cores" 2>&1 | grep Total |
        awk 'NR > 1 {print $(NF-1) * 1000}' | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
    echo "round $i load $(cut -d' ' -f1 /proc/loadavg): kiln $k H/s  cpuminer $c H/s"
done
