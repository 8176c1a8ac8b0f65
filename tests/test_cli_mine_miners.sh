#!/usr/bin/env bash
# kiln mine takes cpuminer's and cgminer's configuration keys and options that mean something in
# kiln (issue 39.4), each mapped, and refuses the others naming the key and why; -c on a directory
# or an interrupted FIFO (issue 36.13). The semantics mapped are those of cpuminer's --help
# (pooler/cpuminer cpu-miner.c: -O U:P, -T network timeout, -R retry pause, -q no hash meter,
# --cert) and cgminer's README, API-README and example.conf ("pools" with per-pool "user"/"pass",
# "api-listen": true, "api-port" default 4028, "api-allow" W:IP/prefix lists).
# Usage: test_cli_mine_miners.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
cd "$T" || exit 1
k() { "$KILN" mine "$@"; }
if k --pool none --user x 2>&1 | grep -q "without pool support"; then
    echo "kiln built without pool support: skipping"
    exit 77
fi
dead=stratum+tcp://127.0.0.1:1 # nothing listens on port 1 of the loopback: refused at once
dead2=stratum+tcp://127.0.0.1:2

# --- --help (and so the manual and completions, made from the same table) names the mapping
help=$(k --help)
for o in "-o, --pool" "--url" "-O, --userpass" "-u, --user" "-p, --pass" "-q, --quiet" "-T, --timeout" \
    "-R, --retry-pause" "-r, --retries" "-t, --threads" "-a, --algo" "--api-listen"; do
    printf '%s\n' "$help" | grep -q -- "^  $o\b" && ok || bad "mine --help lacks $o"
done
for w in '"pools"' '"api-listen": true' '"api-port"' '"api-allow"' '"cert"' 'refused with the reason'; do
    printf '%s\n' "$help" | grep -q -- "$w" && ok || bad "mine --help does not explain $w"
done

# --- cpuminer's keys: url, userpass, timeout, retries, retry-pause, threads, algo, quiet
printf '{"url": "%s", "userpass": "w:x", "timeout": 5, "retries": 0, "retry-pause": 1, "threads": 1, "algo": "sha256d", "quiet": true}\n' \
    $dead > cpu.json
k -c cpu.json > /dev/null 2> err
expect_eq "$?" 3 "cpuminer's keys: a dead pool, retries 0: exit 3 ($(tail -1 err))"
grep -q "as 'w'" err && ok || bad "userpass's user: $(cat err)"
grep -q "cannot connect to any pool (worker 'w')" err && ok || bad "cpuminer config message: $(tail -1 err)"

# --- cgminer's: pools with their own users, api-listen true, api-port, api-allow of loopback
printf '{"pools": [{"url": "%s", "user": "a", "pass": "x"}, {"url": "%s", "user": "b", "pass": "y"}],
  "api-listen": true, "api-port": "0", "api-allow": "W:127.0.0.1", "retries": 0, "threads": 1}\n' $dead $dead2 > cg.json
k -c cg.json > /dev/null 2> err
expect_eq "$?" 3 "cgminer's keys: exit 3 ($(tail -1 err))"
grep -q "monitoring endpoint on http://127.0.0.1:[1-9]" err && ok || bad "api-listen true on loopback: $(head -2 err)"
grep -q "as 'a'" err && ok || bad "pool 1's own user: $(cat err)"
grep -q "failing over to $dead2" err && ok || bad "failed over to pool 2: $(cat err)"
printf '{"url": "%s", "user": "w", "retries": 0, "threads": 1, "api-listen": true, "api-port": 0, "api-network": true}\n' \
    $dead > net.json
k -c net.json > /dev/null 2> err
grep -q "monitoring endpoint on http://0.0.0.0:[1-9]" err && ok || bad "api-network: every address: $(head -2 err)"
printf '{"url": "%s", "user": "w", "retries": 0, "threads": 1, "api-listen": "127.0.0.1:0"}\n' $dead > kapi.json
k -c kapi.json > /dev/null 2> err
grep -q "monitoring endpoint on http://127.0.0.1:[1-9]" err && ok || bad "kiln's api-listen string: $(head -2 err)"
# the command line's --pool replaces the file's pools with their users; its --user the file's
k -c cg.json -o $dead -u cl > /dev/null 2> err
grep -q "as 'cl'" err && ! grep -q "failing over" err && ok || bad "command line over the file's pools: $(cat err)"

# --- keys with no meaning in kiln: refused in one line naming the key and why
refuse() { # NAME JSON PATTERN
    printf '%s\n' "$2" > r.json
    k -c r.json > /dev/null 2> err
    expect_eq "$?:$(wc -l < err | tr -d ' ')" "2:1" "$1 refused in one line ($(cat err))"
    grep -q -- "$3" err && ok || bad "$1: $(cat err)"
}
refuse proxy '{"proxy": "socks5://h:1"}' '"proxy": kiln connects to the pool itself'
refuse debug '{"debug": true}' '"debug": kiln has no debug log'
refuse background '{"background": true}' '"background": kiln does not fork'
refuse scantime '{"scantime": 5}' '"scantime": .*no getwork scan time'
refuse load-balance '{"load-balance": true}' '"load-balance": .*only multipool strategy is failover'
refuse quota '{"pools": [{"quota": "2;h:1", "user": "u"}]}' '"quota" (in "pools"): .*failover'
refuse api-allow '{"api-listen": true, "api-allow": "W:192.168.1.0/24,W:127.0.0.1"}' \
    '"api-allow": kiln.s endpoint has no allow-list.*"W:192.168.1.0/24"'
refuse unknown '{"bogus": 1}' 'unknown setting "bogus"'
refuse pool-key '{"pools": [{"url": "h:1", "bogus": "u"}]}' 'unknown setting "bogus" in "pools"'
refuse half-users '{"pools": [{"url": "h:1", "user": "a"}, {"url": "h:2"}]}' 'pool 2 of "pools" names no user'
refuse userpass-colon '{"userpass": "nocolon"}' '"userpass" is USER:PASS'

# --- the command line: --url, -O/--userpass, -q, -T, -R; per-pool users in their order
k --url $dead -O w:x -q -r 0 -t 1 -T 5 -R 1 > /dev/null 2> err
expect_eq "$?" 3 "--url -O -q -T -R: a dead pool, exit 3 ($(tail -1 err))"
grep -q "as 'w'" err && ok || bad "-O's user: $(cat err)"
k -o $dead -u a -p x -o $dead2 -u b -p y -r 0 -t 1 > /dev/null 2> err
expect_eq "$?" 3 "two pools, two users: exit 3"
grep -q "cannot connect to any pool: " err && ok || bad "two users: no one worker named: $(tail -1 err)"
k -o $dead -u a -o $dead2 -u b -o $dead -u c -o $dead2 -r 0 -t 1 > /dev/null 2> err
expect_eq "$?" 2 "four pools, three users"
grep -q "one per pool in their order" err && ok || bad "users/pools mismatch message: $(cat err)"
k --url $dead --pool $dead2 -u w > /dev/null 2> err
expect_eq "$?" 2 "--url with --pool"
k -o $dead -O nocolon > /dev/null 2> err
expect_eq "$?" 2 "-O without a colon"
grep -q "expected USER:PASS" err && ok || bad "-O message: $(cat err)"
k -o $dead -O a:b -u c > /dev/null 2> err
expect_eq "$?" 2 "-O with -u"
k -o $dead -u w -q --stats-interval 5 > /dev/null 2> err
expect_eq "$?" 2 "-q with --stats-interval"
# -R: cpuminer's fixed pause instead of the growing backoff
k -o $dead -u w -t 1 -R 2 --duration 4.5 > /dev/null 2> err
grep -q "retrying in 2.0 s" err && ! grep -q "retrying in [^2]" err && ok || bad "-R 2: $(grep retrying err | tr '\n' ' ')"

# --- -T: a pool silent that long is taken for gone (a pool that authorizes, then says nothing)
if command -v python3 > /dev/null; then
    python3 - > port.txt 2> /dev/null <<'PY' &
import json, socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
print(s.getsockname()[1], flush=True)
s.settimeout(60)
c, _ = s.accept(); f = c.makefile("rwb")
for line in f:
    m = json.loads(line)
    if m.get("method") == "mining.subscribe":
        f.write(json.dumps({"id": m["id"], "result": [[], "00000000", 4], "error": None}).encode() + b"\n")
    elif m.get("method") == "mining.authorize":
        f.write(json.dumps({"id": m["id"], "result": True, "error": None}).encode() + b"\n")
    else:
        continue
    f.flush()
time.sleep(30)
PY
    spid=$!
    for _ in $(seq 200); do [ -s port.txt ] && break; sleep 0.05; done
    k -o stratum+tcp://127.0.0.1:"$(cat port.txt)" -u w -t 1 -r 0 -T 1 > /dev/null 2> err
    expect_eq "$?" 3 "-T 1 on a silent pool: exit 3"
    grep -q "pool silent too long" err && ok || bad "-T: $(cat err)"
    kill "$spid" 2> /dev/null
    wait "$spid" 2> /dev/null
fi

# --- -c on a directory; -c on a FIFO interrupted by SIGINT: 130, not a read error
mkdir d
k -c d > /dev/null 2> err
expect_eq "$?:$(wc -l < err | tr -d ' ')" "2:1" "-c on a directory"
grep -q "d: is a directory" err && ok || bad "directory message: $(cat err)"
mkfifo fifo
"$KILN" mine -c fifo > /dev/null 2> err &
pid=$!
# SIGINT once kiln holds the FIFO open (its handler is installed by then)
for _ in $(seq 400); do ls -l /proc/$pid/fd 2> /dev/null | grep -q fifo && break; sleep 0.05; done
kill -INT $pid
wait $pid
expect_eq "$?" 130 "-c FIFO interrupted: exit 130 ($(cat err))"
grep -q "interrupted by SIGINT" err && ! grep -q "Interrupted system call" err && ok || bad "FIFO message: $(cat err)"
finish
