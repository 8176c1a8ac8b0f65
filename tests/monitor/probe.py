#!/usr/bin/env python3
"""Drives `kiln mine --api-listen` (solo and against the test pool) and checks its endpoint from
outside, with the Python standard library only: /status parsed as JSON, /metrics parsed as
Prometheus' text exposition format (version 0.0.4, the rules of
https://prometheus.io/docs/instrumenting/exposition_formats/), the status codes of RFC 9110 for
what the endpoint refuses, and hostile clients (a slowloris holding every slot, one connection
more, an oversized head, a connection flood) that must not stall mining.

--temp-limit is driven through KILN_HEALTH_FAKE (include/kiln.h): the fake temperature is
rewritten while kiln mines and the device must pause above the limit and resume 5 C under it.

Usage: probe.py KILN POOL_SERVER_PY WORKDIR. Exit 0 when every check holds."""
import json
import math
import os
import re
import signal
import socket
import subprocess
import sys
import time

FAILED = []
HEADER = ("0100000081cd02ab7e569e8bcd9317e2fe99f2de44d49ab2b8851ba4a308000000000000e320b6c2fffc8d750423db8b1eb942ae7"
          "10e951ed797f7affc8892b0f1fc122bc7f5d74df2b9441a42a14695")


T0 = time.time()


def check(cond, what):
    print("[%5.1fs] %s: %s" % (time.time() - T0, "ok" if cond else "FAIL", what), flush=True)
    if not cond:
        FAILED.append(what)
    return cond


def wait_port(errpath, proc, limit=30):
    t = time.time() + limit
    while time.time() < t:
        m = re.search(r"monitoring endpoint on http://127\.0\.0\.1:(\d+)/", open(errpath).read())
        if m:
            return int(m.group(1))
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    print(open(errpath).read())
    raise SystemExit("kiln did not announce its endpoint")


def request(port, raw, timeout=5.0, head_only=False):
    """Sends raw bytes, returns (status, headers dict, body) of the answer."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(raw)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    finally:
        s.close()
    return parse_answer(data, head_only)


def parse_answer(data, head_only=False):
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    m = re.match(r"HTTP/1\.1 (\d{3}) ", lines[0] + " ")
    status = int(m.group(1)) if m else None
    headers = {}
    for l in lines[1:]:
        k, _, v = l.partition(":")
        headers[k.strip().lower()] = v.strip()
    if "content-length" in headers and len(body) != int(headers["content-length"]) and not head_only:
        status = ("bad length", status)
    return status, headers, body


def get(port, path, method="GET"):
    return request(port, ("%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % (method, path)).encode(),
                   head_only=method == "HEAD")


def status_json(port):
    t = time.time() + 10
    st, h, body = get(port, "/status")
    while st == 503 and time.time() < t:  # mining has not started yet (the device is measured first)
        time.sleep(0.1)
        st, h, body = get(port, "/status")
    assert st == 200 and h.get("content-type") == "application/json", (st, h)
    return json.loads(body)


# ---- a small parser of the Prometheus text format (0.0.4)
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"'
SAMPLE = re.compile(r"^(%s)(?:\{((?:%s)(?:,%s)*)?\})? (\S+)(?: (-?\d+))?$" % (NAME, LABEL, LABEL))


def parse_metrics(text):
    """{(name, frozenset(labels)): value}, checking every line; raises ValueError on a bad one."""
    if not text.endswith("\n"):
        raise ValueError("the last line must end with a line feed")
    types, helps, samples = {}, {}, {}
    for line in text.split("\n")[:-1]:
        if line.startswith("# HELP "):
            name = line.split(" ")[2]
            if not re.fullmatch(NAME, name) or name in helps:
                raise ValueError("bad or repeated HELP: %r" % line)
            helps[name] = True
        elif line.startswith("# TYPE "):
            parts = line.split(" ")
            if len(parts) != 4 or not re.fullmatch(NAME, parts[2]) or parts[3] not in (
                    "counter", "gauge", "histogram", "summary", "untyped") or parts[2] in types:
                raise ValueError("bad TYPE line: %r" % line)
            types[parts[2]] = parts[3]
        elif line.startswith("#") or line == "":
            continue
        else:
            m = SAMPLE.match(line)
            if not m:
                raise ValueError("bad sample line: %r" % line)
            name = m.group(1)
            if name not in types:
                raise ValueError("sample before its TYPE: %r" % line)
            labels = frozenset(re.findall(LABEL, m.group(2) or ""))
            value = float(m.group(7))  # accepts NaN, +Inf as the format does
            if types[name] == "counter" and (value < 0 or math.isnan(value)):
                raise ValueError("a counter below 0: %r" % line)
            if (name, labels) in samples:
                raise ValueError("repeated series: %r" % line)
            samples[(name, labels)] = value
    return samples


def metric(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())))


def check_status_doc(d, mode):
    check(isinstance(d.get("uptime"), float) and d["uptime"] >= 0, "%s /status: uptime" % mode)
    check(d.get("mode") == mode, "%s /status: mode %s" % (mode, d.get("mode")))
    check(isinstance(d.get("hashes"), int) and d["hashes"] > 0, "%s /status: hashes counted (%s)" % (mode, d.get("hashes")))
    check(d.get("rate_5s", 0) > 0 and d.get("rate_60s", 0) > 0, "%s /status: 5 s and 60 s rates" % mode)
    sh = d.get("shares", {})
    check(all(isinstance(sh.get(k), int) for k in ("found", "sent", "accepted", "rejected", "stale", "blocks")) and
          isinstance(sh.get("rejected_reasons"), dict) and isinstance(sh.get("stale_reasons"), dict),
          "%s /status: share counts and reasons" % mode)
    devs = d.get("devices", [])
    check(len(devs) == 1 and devs[0].get("id") == "cpu" and devs[0].get("hashes") == d["hashes"] and
          isinstance(devs[0].get("health"), dict), "%s /status: the device, its hashes and health" % mode)
    check(len(devs) == 1 and devs[0].get("ordinal") == -1 and isinstance(devs[0].get("busy_seconds"), float) and
          0 < devs[0]["busy_seconds"] <= d["uptime"], "%s /status: the device's ordinal and busy seconds" % mode)
    return devs[0] if devs else {}


def check_metrics(port, mode, hashes_before):
    st, h, body = get(port, "/metrics")
    check(st == 200 and h.get("content-type", "").startswith("text/plain; version=0.0.4"),
          "%s /metrics: 200 text/plain version 0.0.4" % mode)
    try:
        s = parse_metrics(body.decode("utf-8"))
    except ValueError as e:
        check(False, "%s /metrics parses: %s" % (mode, e))
        return {}
    check(True, "%s /metrics parses (%d series)" % (mode, len(s)))
    check((metric(s, "kiln_hashrate_hps", device="cpu", window="5s") or 0) > 0 and
          metric(s, "kiln_hashrate_hps", device="cpu", window="60s") is not None, "%s /metrics: per-device rates" % mode)
    check((metric(s, "kiln_hashes_total", device="cpu") or 0) >= hashes_before, "%s /metrics: hashes_total grows" % mode)
    # each device's series carries the device label alone (the total rate has its own family)
    busy = [(l, v) for (n, l), v in s.items() if n == "kiln_device_busy_seconds_total"]
    check(busy == [(frozenset({("device", "cpu")}), busy[0][1] if busy else None)] and busy[0][1] > 0,
          "%s /metrics: kiln_device_busy_seconds_total{device=\"cpu\"} (%s)" % (mode, busy))
    check(all(l == frozenset({("device", "cpu")}) for (n, l) in s if n == "kiln_hashes_total") and
          metric(s, "kiln_hashrate_total_hps", window="5s") is not None, "%s /metrics: per-device and total series" % mode)
    for r in ("found", "accepted", "rejected", "stale"):
        check(metric(s, "kiln_shares_total", result=r) is not None, "%s /metrics: kiln_shares_total{result=%s}" % (mode, r))
    return s


def solo(kiln, work):
    fake = os.path.join(work, "health")
    with open(fake, "w") as f:
        f.write("0 temp=60 power=95.5 sm_clock=1500 mem_clock=2600 fan=30\n")
    err = os.path.join(work, "solo.err")
    env = dict(os.environ, KILN_HEALTH_FAKE=fake)
    # a target no hash meets: kiln searches until the signal
    p = subprocess.Popen([kiln, "mine", "--header", HEADER, "--target", "0" * 63 + "1", "--device", "cpu", "--threads", "1",
                          "--duration", "30", "--api-listen", "0", "--temp-limit", "80", "--json", "--quiet"],
                         stdout=subprocess.PIPE, stderr=open(err, "w"), env=env)
    try:
        port = wait_port(err, p)
        time.sleep(0.6)
        d = status_json(port)
        dev = check_status_doc(d, "solo")
        hl = dev.get("health", {})
        check(hl.get("source") == "fake" and hl.get("temperature_c") == 60 and hl.get("power_w") == 95.5 and
              hl.get("fan_percent") == 30 and d.get("temp_limit") == 80, "solo /status: the fake health and the limit")
        s = check_metrics(port, "solo", d["hashes"])
        check(metric(s, "kiln_gpu_temperature_celsius", device="cpu") == 60, "solo /metrics: the temperature")
        check(metric(s, "kiln_device_paused", device="cpu") == 0, "solo /metrics: not paused")

        # --temp-limit 80: 90 pauses; 77 (under the limit, not 5 under) stays paused; 74 resumes
        with open(fake, "w") as f:
            f.write("0 temp=90\n")
        t = time.time() + 3
        while time.time() < t and not status_json(port)["devices"][0]["paused"]:
            time.sleep(0.1)
        a = status_json(port)
        time.sleep(1.2)
        b = status_json(port)
        check(a["devices"][0]["paused"] and b["devices"][0]["paused"], "paused above --temp-limit")
        check(a["hashes"] == b["hashes"], "no hashing while paused (%d then %d)" % (a["hashes"], b["hashes"]))
        with open(fake, "w") as f:
            f.write("0 temp=77\n")
        time.sleep(1.5)
        c = status_json(port)
        check(c["devices"][0]["paused"] and c["hashes"] == b["hashes"], "77 C, 3 under the limit: still paused")
        with open(fake, "w") as f:
            f.write("0 temp=74\n")
        t = time.time() + 3
        while time.time() < t and status_json(port)["devices"][0]["paused"]:
            time.sleep(0.1)
        time.sleep(0.5)
        e = status_json(port)
        check(not e["devices"][0]["paused"] and e["hashes"] > c["hashes"], "resumed at 74 C, hashing again")
    finally:
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=20)
    log = open(err).read()
    check(p.returncode == 0, "solo: exit 0 after SIGINT (%s)" % p.returncode)
    check("above --temp-limit 80 C: paused" in log and "under --temp-limit 80 C: resumed" in log,
          "solo: pause and resume logged")
    try:
        summary = json.loads(out)
    except ValueError:
        summary = {}
    check(summary.get("health", {}).get("source") == "fake", "solo --json: the health object")
    devs = summary.get("devices", [])
    check(len(devs) == 1 and devs[0].get("id") == "cpu" and devs[0].get("hashes") == summary.get("hashes") and
          devs[0].get("health", {}).get("source") == "fake", "solo --json: one device, its count the total")


def hostile(port):
    """Attacks for about 3 s; returns when every slot is free again."""
    # every slot held by a slowloris client (a byte now and then, never the blank line)
    slow = []
    for _ in range(16):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET /status HTTP/1.1\r\nX-a: ")
        slow.append(s)
    time.sleep(0.3)
    t = time.time()
    st, _, _ = request(port, b"GET /status HTTP/1.1\r\n\r\n")
    check(st == 503 and time.time() - t < 1.0, "a 17th connection: 503 at once (%s)" % (st,))
    t0 = time.time()
    for _ in range(3):
        for s in slow:
            try:
                s.sendall(b"a")
            except OSError:
                pass
        time.sleep(0.4)
    codes = []
    for s in slow:
        data = b""
        try:
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
        codes.append(parse_answer(data)[0])
        s.close()
    took = time.time() - t0
    check(codes == [408] * 16 and took < 4, "slow heads cut off with 408 at the deadline (%.1f s)" % took)
    # an oversized head, methods and paths it refuses
    big = b"GET /status HTTP/1.1\r\n" + b"X-Pad: " + b"a" * 9000 + b"\r\n\r\n"
    check(request(port, big)[0] == 431, "a 9 KiB head: 431")
    check(request(port, b"GET /" + b"a" * 300 + b" HTTP/1.1\r\n\r\n")[0] == 414, "a 300-byte path: 414")
    for method in ("POST", "PUT", "DELETE", "OPTIONS"):
        st, h, _ = get(port, "/status", method)
        check(st == 405 and h.get("allow") == "GET, HEAD", "%s /status: 405 with Allow" % method)
    check(get(port, "/")[0] == 404 and get(port, "/status/x")[0] == 404, "other paths: 404")
    check(request(port, b"GET /status HTTP/2.0\r\n\r\n")[0] == 505, "HTTP/2.0: 505")
    check(request(port, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n")[0] == 400, "a TLS hello: 400")
    st, h, body = get(port, "/status", "HEAD")
    check(st == 200 and body == b"" and int(h.get("content-length", 0)) > 0, "HEAD /status: the head only")
    # a flood of connections opened and dropped
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
        except OSError:
            pass


def pool(kiln, server, work):
    pdir = os.path.join(work, "pool")
    os.mkdir(pdir)
    srv = subprocess.Popen([sys.executable, server, "--scenario", "reject", "--dir", pdir, "--time-limit", "60",
                            "--kiln", kiln], stdout=open(os.path.join(pdir, "server.out"), "w"), stderr=subprocess.STDOUT)
    t = time.time() + 30
    while time.time() < t and not os.path.exists(os.path.join(pdir, "args")):
        time.sleep(0.05)
    time.sleep(0.1)
    args = open(os.path.join(pdir, "args")).read().split("\n")[:-1]
    args[args.index("--duration") + 1] = "20"  # room for the attack and the pause (ended by SIGINT)
    args += ["--api-listen", "127.0.0.1:0", "--stats-interval", "1", "--temp-limit", "80"]
    fake = os.path.join(work, "pool_health")
    with open(fake, "w") as f:
        f.write("1 temp=50\n")  # a line for another device: the CPU starts without a reading
    env = dict(os.environ, KILN_HEALTH_FAKE=fake)
    err = os.path.join(pdir, "kiln.log")
    t_start = time.time()
    p = subprocess.Popen([kiln, "mine"] + args, stdout=open(os.path.join(pdir, "kiln.json"), "w"), stderr=open(err, "w"),
                         env=env)
    try:
        port = wait_port(err, p)
        t = time.time() + 5
        while time.time() < t and status_json(port)["shares"]["accepted"] < 1:
            time.sleep(0.1)
        time.sleep(1.0)
        a, ta = status_json(port), time.time()
        check_status_doc(a, "pool")
        check(a.get("source", "").startswith("stratum+tcp://127.0.0.1:") and a.get("online") is True and
              a.get("job") and a.get("difficulty", 0) > 0 and a["shares"]["accepted"] >= 1,
              "pool /status: the pool, the job, its difficulty, accepted shares")
        check(a["devices"][0]["health"] == {"source": "unavailable"}, "pool /status: health unavailable, no readings")
        time.sleep(1.0)
        b, tb = status_json(port), time.time()
        before = (b["hashes"] - a["hashes"]) / (tb - ta)
        hostile(port)
        c, tc = status_json(port), time.time()
        during = (c["hashes"] - b["hashes"]) / (tc - tb)
        check(during >= 0.4 * before, "hash rate under attack %.0f H/s, before %.0f H/s" % (during, before))
        check(c["shares"]["accepted"] > b["shares"]["accepted"], "shares accepted during the attack (%d -> %d)"
              % (b["shares"]["accepted"], c["shares"]["accepted"]))
        s = check_metrics(port, "pool", c["hashes"])
        rr = c["shares"]["rejected_reasons"]
        check(c["shares"]["rejected"] >= 1 and sum(rr.values()) == c["shares"]["rejected"] and
              any("Low difficulty share" in k for k in rr), "pool /status: rejections by reason %s" % rr)
        check(sum(v for (n, l), v in s.items() if n == "kiln_shares_reason_total" and ("result", "rejected") in l) ==
              metric(s, "kiln_shares_total", result="rejected"), "pool /metrics: reasons add up to the rejections")
        # --temp-limit in the pool loop: a reading appears above the limit, then one 10 under it
        with open(fake, "w") as f:
            f.write("0 temp=95 power=100\n")
        t = time.time() + 3
        while time.time() < t and not status_json(port)["devices"][0]["paused"]:
            time.sleep(0.1)
        time.sleep(0.3)  # the launch under way ends
        d = status_json(port)
        time.sleep(1.0)
        e = status_json(port)
        check(d["devices"][0]["paused"] and e["devices"][0]["paused"] and d["hashes"] == e["hashes"] and e["online"],
              "pool: paused above --temp-limit, no hashing, still online (%d then %d hashes)" % (d["hashes"], e["hashes"]))
        with open(fake, "w") as f:
            f.write("0 temp=70\n")
        t = time.time() + 3
        while time.time() < t and status_json(port)["devices"][0]["paused"]:
            time.sleep(0.1)
        time.sleep(0.5)
        g = status_json(port)
        check(not g["devices"][0]["paused"] and g["hashes"] > e["hashes"], "pool: resumed at 70 C")
        p.send_signal(signal.SIGINT)  # done: a signal ends pool mining as --duration does
        p.wait(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        print("".join(open(err).readlines()[-15:]))
        for name, value in (("rc", p.returncode), ("elapsed_ms", int((time.time() - t_start) * 1000))):
            with open(os.path.join(pdir, name), "w") as f:
                f.write("%d\n" % value)
        srv.send_signal(signal.SIGTERM)
        srv.wait(timeout=30)
    print(open(os.path.join(pdir, "server.out")).read())
    check(p.returncode == 0, "pool: kiln exit 0 (%s)" % p.returncode)
    log = open(err).read()
    check("--temp-limit 80: cpu has no temperature reading" in log and "cpu at 95 C, above --temp-limit 80 C: paused" in log
          and "cpu at 70 C, 5 C under --temp-limit 80 C: resumed" in log, "pool: the missing reading, pause and resume logged")
    check(re.search(r"H/s \| accepted .* online \| 95 C 100 W \| PAUSED", log) is not None, "pool: health in the statistics line")
    try:
        summary = json.loads(open(os.path.join(pdir, "kiln.json")).read())
    except ValueError:
        summary = {}
    health = summary.get("health")
    check(health == {"source": "fake", "temperature_c": 70.0}, "pool --json: the last health reading (%s)" % health)
    devs = summary.get("devices", [])
    check(len(devs) == 1 and devs[0].get("id") == "cpu" and devs[0].get("ordinal") == -1 and
          devs[0].get("hashes") == summary.get("hashes") and devs[0].get("health") == health and
          devs[0].get("seconds", 0) > 0, "pool --json: one device, its count the total (%s)" % devs)
    check(srv.returncode == 0, "the test pool's own checks of every share hold")


def main():
    kiln, server, work = sys.argv[1:4]
    solo(kiln, work)
    pool(kiln, server, work)
    print("%d failed" % len(FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
