#!/bin/bash
# Device health in `kiln devices`: the CPU has no reading; each GPU's comes from NVML when the
# driver's libnvidia-ml.so.1 is there, and then agrees with nvidia-smi (the same driver, another
# program): the temperature within 5 C, the enforced power limit to the watt, the clocks above 0.
# Without a GPU or without NVML it reports "n/a" for the GPU part and checks the rest. The CLI's
# rendering of a reading is checked through KILN_HEALTH_FAKE.
# Usage: test_devices_health.sh KILN DATA_DIR
set -u
kiln=$1
command -v python3 > /dev/null || { echo "python3 not found: skipping"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
unset KILN_HEALTH_FAKE
# nvidia-smi read before and after kiln: other work on the GPU (the suite's other tests) can heat it
# by several degrees within a second, so kiln's reading is held against the two readings around it
smi_read() {
    nvidia-smi --query-gpu=index,temperature.gpu,enforced.power.limit,clocks.sm,clocks.mem \
        --format=csv,noheader,nounits > "$1" 2> /dev/null
}
smi=""
command -v nvidia-smi > /dev/null && smi_read "$T/smi0.csv" && smi="$T/smi0.csv"
"$kiln" devices --json > "$T/devices.json" || { echo "FAIL: kiln devices --json"; exit 1; }
[ -n "$smi" ] && { smi_read "$T/smi1.csv" || smi=""; }
printf '0 temp=61.5 power=95.25 power_limit=120 sm_clock=1500 mem_clock=2600 fan=30 util=97\n' > "$T/fake"
KILN_HEALTH_FAKE="$T/fake" "$kiln" devices --json > "$T/fake.json" || { echo "FAIL: kiln devices --json (fake)"; exit 1; }
python3 - "$T/devices.json" "$T/fake.json" "$smi" <<'PY'
import ctypes, json, sys
devs, fake, smi = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
failed = []
def check(cond, what):
    print("%s: %s" % ("ok" if cond else "FAIL", what))
    if not cond:
        failed.append(what)
check(devs[0]["device"] == "cpu" and devs[0]["health"] == {"source": "unavailable"}, "the CPU: no health reading")
check(fake[0]["health"] == {"source": "fake", "temperature_c": 61.5, "power_w": 95.25, "power_limit_w": 120.0,
                            "sm_clock_mhz": 1500, "mem_clock_mhz": 2600, "fan_percent": 30, "utilization_percent": 97},
      "KILN_HEALTH_FAKE: every reading printed as given")
gpus = [d for d in devs if d["device"] == "cuda"]
try:
    ctypes.CDLL("libnvidia-ml.so.1")
    nvml = True
except OSError:
    nvml = False
if not gpus:
    print("n/a: no GPU (NVML %s)" % ("present" if nvml else "absent"))
for g in gpus:
    h = g["health"]
    print("cuda:%d %s: %s" % (g["index"], g["name"], json.dumps(h)))
    if not nvml:
        check(h == {"source": "unavailable"}, "cuda:%d without NVML: unavailable" % g["index"])
        continue
    check(h.get("source") == "nvml", "cuda:%d read through NVML" % g["index"])
    check(0 < h.get("temperature_c", -1) < 120 and h.get("power_w", -1) > 0 and h.get("sm_clock_mhz", -1) > 0
          and h.get("mem_clock_mhz", -1) > 0, "cuda:%d readings in range" % g["index"])
    if smi:
        def smi_rows(path):
            return {int(r[0]): r for r in (l.split(", ") for l in open(path).read().strip().split("\n"))}
        r, r1 = smi_rows(smi).get(g["index"]), smi_rows(smi.replace("smi0", "smi1")).get(g["index"])
        if r and r1:
            lo, hi = min(float(r[1]), float(r1[1])), max(float(r[1]), float(r1[1]))
            t = h.get("temperature_c", -100)
            check(lo - 5 <= t <= hi + 5, "cuda:%d temperature %s, nvidia-smi %s before and %s after"
                  % (g["index"], t, r[1], r1[1]))
            check(abs(float(r[2]) - h.get("power_limit_w", -100)) < 1, "cuda:%d power limit %s W, nvidia-smi %s W"
                  % (g["index"], h.get("power_limit_w"), r[2]))
sys.exit(1 if failed else 0)
PY
