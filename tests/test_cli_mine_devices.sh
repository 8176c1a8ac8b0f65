#!/bin/bash
# kiln mine on a device set, one GPU enough: two logical devices of GPU 0 (cuda:0,0, the
# documented testing aid). The demo block's real nonce is found (block 840000, a known answer),
# the devices' counts add up to the range asked for (--all searches all of it) in --json and in
# the text summary, and the endpoint's /status and /metrics carry one entry and one series per
# device, under distinct ids, their hashes adding up to the total. Skipped (77) without a GPU.
# usage: test_cli_mine_devices.sh KILN [DATA_DIR]
set -u
kiln=$1
here=$(cd "$(dirname "$0")" && pwd)
if ! "$kiln" devices 2> /dev/null | grep -q '^cuda:0'; then
    echo "no CUDA GPU: skipping"
    exit 77
fi
command -v python3 > /dev/null || { echo "python3 not found: skipping"; exit 77; }
. "$(dirname "$0")/cli_util.sh"
tmp=$TMP

# 2^28 nonces around the real one (3932395645), every hit reported: the whole range is searched
start=3900000000 count=268435456
"$kiln" mine --demo --device cuda:0,0 --start $start --count $count --all --json > "$tmp/json" 2> "$tmp/err" &&
    python3 - "$tmp/json" $count << 'EOF' && ok || bad "mine --json on cuda:0,0: $(head -c 800 "$tmp/json") $(cat "$tmp/err")"
import json, sys
d, count = json.load(open(sys.argv[1])), int(sys.argv[2])
e = d["devices"]
assert 3932395645 in [f["nonce"] for f in d["found"]], d["found"]
assert d["hashes"] == count and [x["id"] for x in e] == ["cuda:0#0", "cuda:0#1"], (d["hashes"], e)
assert sum(x["hashes"] for x in e) == count and all(abs(x["hashes"] - count / 2) <= count / 50 for x in e), e
assert all(x["ordinal"] == 0 and 0 < x["seconds"] <= d["seconds"] and x["rate"] > 0 and "source" in x["health"] for x in e), e
EOF
"$kiln" mine --demo --device cuda:0,0 --start $start --count $count --all > "$tmp/text" 2> "$tmp/err" &&
    python3 - "$tmp/text" $count << 'EOF' && ok || bad "mine on cuda:0,0, text: $(cat "$tmp/text" "$tmp/err")"
import re, sys
text, count = open(sys.argv[1]).read(), int(sys.argv[2])
dev = re.findall(r"^device=(\S+) hashes=(\d+) seconds=\S+ rate=\d+$", text, re.M)
assert "nonce=3932395645 " in text and re.search(r"^hashes=%d " % count, text, re.M), text
assert [i for i, _ in dev] == ["cuda:0#0", "cuda:0#1"] and sum(int(h) for _, h in dev) == count, dev
EOF

# the endpoint: a target nothing meets, read while mining (scrypt: a GPU would search all 2^32
# sha256d nonces within a second); a kiln built without libjansson has none, and says so
if "$kiln" mine --demo --count 1 --device cpu --api-listen 0 2>&1 | grep -q "needs kiln built with libjansson"; then
    echo "kiln built without libjansson: the endpoint is not checked"
else
python3 - "$kiln" "$here/monitor" "$tmp" << 'EOF' && ok || bad "the endpoint on cuda:0,0"
import json, os, signal, subprocess, sys, time
kiln, mon, tmp = sys.argv[1:4]
sys.path.insert(0, mon)
import probe
err = os.path.join(tmp, "api.err")
p = subprocess.Popen([kiln, "mine", "--algo", "scrypt", "--header", probe.HEADER, "--target", "0" * 63 + "1", "--device", "cuda:0,0",
                      "--duration", "20", "--api-listen", "0", "--json", "--quiet"], stdout=subprocess.PIPE,
                     stderr=open(err, "w"))
try:
    port = probe.wait_port(err, p)
    time.sleep(2.5)
    d = probe.status_json(port)
    s = probe.parse_metrics(probe.get(port, "/metrics")[2].decode())
finally:
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
e = d["devices"]
assert [x["id"] for x in e] == ["cuda:0#0", "cuda:0#1"] and sum(x["hashes"] for x in e) == d["hashes"] > 0, d
assert all(x["busy_seconds"] > 0 and x["rate_5s"] > 0 for x in e), e
for x in e:
    assert probe.metric(s, "kiln_hashes_total", device=x["id"]) is not None, x["id"]
    assert probe.metric(s, "kiln_hashrate_hps", device=x["id"], window="5s") is not None, x["id"]
    assert probe.metric(s, "kiln_device_busy_seconds_total", device=x["id"]) > 0, x["id"]
assert sorted(dict(l)["device"] for (n, l) in s if n == "kiln_hashes_total") == ["cuda:0#0", "cuda:0#1"], s
summary = json.loads(out)
assert p.returncode == 0 and sum(x["hashes"] for x in summary["devices"]) == summary["hashes"], (p.returncode, out)
EOF
fi
finish "test_cli_mine_devices"
