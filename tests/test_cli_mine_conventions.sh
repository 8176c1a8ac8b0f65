#!/usr/bin/env bash
# kiln mine takes what cpuminer and cgminer users type (issue 25.5). cpuminer's documented options
# (its --help: -a/--algo, -o/--url, -u/--user, -p/--pass, -t/--threads, -x/--proxy, -r/--retries,
# -c/--config FILE of JSON, --benchmark) are each parsed here: the short names, --benchmark (hash
# without a pool, print the rate), a JSON configuration whose keys are the long option names (and
# cgminer's "pools" array), -x refused in one line (kiln has no proxy), and a pool that does not
# answer retried for the whole run unless --retries says otherwise.
# Usage: test_cli_mine_conventions.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
cd "$T" || exit 1
k() { "$KILN" mine "$@"; }

# --- --help, and so the manual page and the completions, name the short options
help=$(k --help)
for o in "-a, --algo" "-o, --pool" "-u, --user" "-p, --pass" "-t, --threads" "-x, --proxy" "-r, --retries" \
    "-c, --config" "--benchmark"; do
    printf '%s\n' "$help" | grep -q -- "^  $o\b" && ok || bad "mine --help lacks $o"
done

# --- --benchmark: no pool, no header; the rate is the result
out=$(k --benchmark -a sha256d -t 1 --duration 0.3 2> err)
expect_eq "$?" 0 "--benchmark exit"
[[ $out =~ ^hashes=[1-9][0-9]*\ seconds=[0-9.]+\ rate=[1-9][0-9]*$ ]] && ok || bad "--benchmark output: $out"
grep -q "benchmark: sha256d" err && ok || bad "--benchmark says what it runs: $(cat err)"
out=$(k --benchmark -a scrypt -t1 --duration 0.3 --json 2> /dev/null)
[[ $out == *'"rate": '[1-9]* ]] && ok || bad "--benchmark -a scrypt -t1 --json: $out"
k --benchmark --demo > /dev/null 2> err
expect_eq "$?" 2 "--benchmark with --demo"

# --- -x: refused in one line, exit 2
k -x http://proxy:3128 -o stratum+tcp://127.0.0.1:1 -u w > /dev/null 2> err
expect_eq "$?:$(wc -l < err | tr -d ' ')" "2:1" "-x refused in one line"
grep -q "no proxy support" err && ok || bad "-x message: $(cat err)"

# --- -c FILE without jansson: one line
if k --pool none --user x 2>&1 | grep -q "without pool support"; then
    printf '{"benchmark": true}' > b.json
    k -c b.json > /dev/null 2> err
    expect_eq "$?:$(wc -l < err | tr -d ' ')" "2:1" "-c without jansson: one line"
    finish
    exit
fi

# --- -c FILE: the long option names as keys; the command line wins
printf '{"benchmark": true, "threads": 1, "duration": 0.3, "algo": "sha256d"}\n' > b.json
out=$(k -c b.json 2> /dev/null)
expect_eq "$?" 0 "-c with benchmark settings"
[[ $out == hashes=* ]] && ok || bad "-c benchmark output: $out"
printf '{"benchmark": true, "threads": 1, "duration": 600}\n' > long.json
start=$(date +%s)
k --config long.json --duration 0.3 > /dev/null 2>&1
expect_eq "$?:$(($(date +%s) - start < 30))" "0:1" "--duration on the command line wins over the file's"
printf '{"bogus": 1}' > x.json
k -c x.json > /dev/null 2> err
expect_eq "$?" 2 "unknown key"
grep -q 'x.json: unknown setting "bogus"' err && ok || bad "unknown key message: $(cat err)"
printf '{"url": "stratum+tcp://127.0.0.1:1",' > broken.json
k -c broken.json > /dev/null 2> err
expect_eq "$?:$(wc -l < err | tr -d ' ')" "2:1" "malformed JSON: one line"
printf '{"benchmark": 1}' > flag.json
k -c flag.json > /dev/null 2> err
expect_eq "$?" 2 "a switch given a number"
k -c nofile.json > /dev/null 2> err
expect_eq "$?" 2 "a missing configuration file"

# --- a pool that does not answer: --retries bounds the tries, else the whole run
port=1 # nothing listens on port 1 of the loopback
printf '{"url": "stratum+tcp://127.0.0.1:%s", "user": "w", "pass": "x", "threads": 1, "retries": 0}\n' $port > dead.json
start=$(date +%s%N)
k -c dead.json > /dev/null 2> err
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
expect_eq "$rc" 3 "-c with a dead pool and retries 0: exit 3"
[ "$ms" -lt 10000 ] && ok || bad "retries 0 gives up at once (${ms} ms)"
grep -q "cannot connect to any pool" err && ok || bad "dead pool message: $(tail -1 err)"
printf '{"pools": [{"url": "stratum+tcp://127.0.0.1:1", "user": "w", "pass": "x"}, {"url": "stratum+tcp://127.0.0.1:2", "user": "w"}], "retries": 1}\n' > cg.json
k -c cg.json -t 1 > /dev/null 2> err
expect_eq "$?" 3 "cgminer's pools array, retries 1: exit 3"
expect_eq "$(grep -c 'cannot connect to stratum' err)" 4 "two tries of each of the two pools"
# no --retries: retried with backoff until --duration, not given up after 1.5 s
start=$(date +%s%N)
k -o stratum+tcp://127.0.0.1:$port -u w -p x -t 1 --duration 5 > /dev/null 2> err
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
expect_eq "$rc" 3 "a dead pool for the whole run: exit 3 (no pool gave work)"
[ "$ms" -ge 4500 ] && ok || bad "retried until --duration (ended after ${ms} ms)"
n=$(grep -c 'cannot connect to stratum' err)
[ "$n" -ge 4 ] && ok || bad "retried more than 3 times ($n)"
grep -q "retrying in 4.0 s" err && ok || bad "the wait grows: $(grep retrying err | tr '\n' ' ')"
finish
