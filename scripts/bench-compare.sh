#!/usr/bin/env bash
# Speed of two builds side by side, in one run: every bench of `kiln bench` (--algo all, then the
# scrypt KDF, the Merkle trees and PageRank) on one device, the two builds taking turns for
# ROUNDS rounds so that clock and thermal drift fall on both; the median rate per algorithm of
# each build and their ratio are printed as a table.
#   usage: scripts/bench-compare.sh OLD_KILN NEW_KILN DEVICE [ROUNDS]
# SPECS overrides the list of --algo values; BENCH_ARGS adds arguments to every bench (e.g.
# "--threads 1"); STAT=max reports each build's best run instead of the median (on a shared
# machine, where other tenants only ever slow a run down). Logs the JSON rows to
# $OUT/bench-compare-DEVICE.jsonl.
set -u
old=$1 new=$2 device=$3 rounds=${4:-3}
log=${OUT:-/tmp}/bench-compare-$device.jsonl
: >"$log"
specs=${SPECS:-"all scrypt-kdf merkle-sha256d merkle-sha256 merkle-rp64 pagerank"}
for r in $(seq "$rounds"); do
    for spec in $specs; do
        for which in old new; do
            bin=$old
            [ "$which" = new ] && bin=$new
            "$bin" bench --algo "$spec" --device "$device" ${BENCH_ARGS:-} --json 2>/dev/null |
                python3 -c '
import json, sys
which = sys.argv[1]
for line in sys.stdin:
    line = line.strip()
    if not line.startswith("{"): continue
    doc = json.loads(line)
    rows = doc.get("results", [])
    rows = rows if rows and all("algo" in r for r in rows) else [doc]
    for row in rows:
        print(json.dumps({"build": which, "algo": row["algo"], "rate": row["rate"], "unit": row.get("unit", "")}))
' "$which" >>"$log"
        done
    done
done
python3 - "$log" "$device" "${STAT:-median}" <<'PY'
import json, statistics, sys
stat = max if sys.argv[3] == "max" else statistics.median
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
algos = []
for r in rows:
    if r["algo"] not in algos: algos.append(r["algo"])
print(f"device {sys.argv[2]}: {sys.argv[3]} of each build's runs (rates per second)")
print(f"{'algo':<16} {'unit':<9} {'old':>14} {'new':>14} {'new/old':>8}")
for a in algos:
    o = [r["rate"] for r in rows if r["algo"] == a and r["build"] == "old"]
    n = [r["rate"] for r in rows if r["algo"] == a and r["build"] == "new"]
    unit = next(r["unit"] for r in rows if r["algo"] == a)
    if not o or not n:
        print(f"{a:<16} {unit:<9} {'-' if not o else stat(o):>14} {'-' if not n else stat(n):>14}")
        continue
    mo, mn = stat(o), stat(n)
    print(f"{a:<16} {unit:<9} {mo:>14.4g} {mn:>14.4g} {mn / mo:>8.3f}")
PY
