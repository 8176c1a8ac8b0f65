#!/bin/bash
# Solo mining against the loopback node (tests/node/mock_node.py), whose templates are two real
# segwit blocks' transactions: for each address type (P2PKH, P2SH, P2WPKH, P2WSH, P2TR, on the
# networks whose prefixes they carry), with the node's default_witness_commitment and without it
# (kiln computes it), every block kiln submits must pass the node's own full check and pay the
# address's scriptPubKey (from bitcoinjs-lib's address fixture and BIP 350's vectors).
kiln=$1
data=$2
source "$(dirname "$0")/node/node_util.sh"

# address, its scriptPubKey (external), chain, block, height, extra node options
cases=(
    "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH|76a914751e76e8199196d454941c45d1b3a323f1433bd688ac|main|block542213.hex|542213|"
    "2NByiBUaEXrhmqAsg7BbLpcQSAQs1EDwt5w|a914cd7b44d0b03f2d026d1e586d7ae18903b0d385f687|regtest|testnet3_block_000000000000045e.raw|17|--no-default-commitment"
    "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4|0014751e76e8199196d454941c45d1b3a323f1433bd6|main|block542213.hex|542213|--no-default-commitment"
    "bcrt1qjh3dnrafy8f2zszh5sdqn6c3ycfljh930yza9nt72v30dkw8mlvscn82zx|002095e2d98fa921d2a14057a41a09eb112613f95cb17905d2cd7e5322f6d9c7dfd9|regtest|testnet3_block_000000000000045e.raw|5|"
    "bc1p3efq8ujsj0qr5xvms7mv89p8cz0crqdtuxe9ms6grqgxc9sgsntslthf6w|51208e5203f25093c03a199b87b6c39427c09f8181abe1b25dc34818106c160884d7|main|block542213.hex|542213|"
    "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c|5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433|signet|testnet3_block_000000000000045e.raw|200|--no-default-commitment"
)
for c in "${cases[@]}"; do
    IFS='|' read -r addr script chain block height extra <<< "$c"
    # shellcheck disable=SC2086
    start_node --block "$data/$block" --height "$height" --chain "$chain" --payout "$script" $extra
    kiln_mine --rpc "$url" --rpc-user kiln --rpc-pass sesame --coinbase-addr "$addr" "${dev[@]}" --blocks 2
    if [ $rc -eq 0 ] && verdicts 2 && [ "$(grep -c ' accepted$' <<< "$out")" -eq 2 ]; then
        ok "$chain $addr ($block${extra:+, $extra}): 2 blocks accepted"
    else
        bad "$chain $addr ($block${extra:+, $extra}): rc=$rc"
    fi
done

p2wpkh=0014751e76e8199196d454941c45d1b3a323f1433bd6
# --json: one document with every block and the node's answer
start_node --block "$data/block542213.hex" --height 542213 --chain main --payout 0014751e76e8199196d454941c45d1b3a323f1433bd6
kiln_mine --rpc "$url" --rpc-user kiln --rpc-pass sesame --coinbase-addr BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4 \
    "${dev[@]}" --blocks 2 --json
if [ $rc -eq 0 ] && python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
assert d["address_type"] == "p2wpkh" and d["chain"] == "main", d
assert [b["accepted"] for b in d["blocks"]] == [True, True], d
assert [b["height"] for b in d["blocks"]] == [542213, 542214], d
assert d["accepted"] == 2 and d["rejected"] == 0 and d["hashes"] > 0, d
' <<< "$out" && verdicts 2; then
    ok "--json lists both blocks, heights 542213 and 542214"
else
    bad "--json"
fi

# a BIP 22 workid goes back with submitblock
start_node --block "$data/block542213.hex" --height 542213 --chain main --payout $p2wpkh --workid 'w"7\\x'
kiln_mine --rpc "$url" --rpc-user kiln --rpc-pass sesame --coinbase-addr BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4 "${dev[@]}" --blocks 2
if [ $rc -eq 0 ] && verdicts 2; then ok "workid sent back"; else bad "workid"; fi

# cookie authentication (the node writes .cookie as Bitcoin Core does)
start_node --block "$data/block542213.hex" --height 542213 --chain main --cookie \
    --payout 51208e5203f25093c03a199b87b6c39427c09f8181abe1b25dc34818106c160884d7
kiln_mine --rpc "$url" --rpc-cookie "$nd/.cookie" --coinbase-addr bc1p3efq8ujsj0qr5xvms7mv89p8cz0crqdtuxe9ms6grqgxc9sgsntslthf6w \
    "${dev[@]}" --blocks 1
if [ $rc -eq 0 ] && verdicts 1; then ok "--rpc-cookie"; else bad "--rpc-cookie"; fi

# the monitoring endpoint while mining for the node: /status names the node and counts the blocks
# the node accepted (its verdicts file is the reference), /metrics has the device's rate. The
# checks poll until the endpoint shows hashes and a rate, then end kiln (SIGTERM): no fixed window
# of mining on every core (it was 4 s, 2.5 s of it before the first look)
if ! "$kiln" mine --demo --count 1 --device cpu --api-listen 0 2>&1 | grep -q "needs kiln built with libjansson"; then
    start_node --block "$data/block542213.hex" --height 542213 --chain main --payout $p2wpkh
    one=()
    [ "${GBT_DEVICE:-cpu}" = cpu ] && one=(--threads 1)
    timeout 60 "$kiln" mine --rpc "$url" --rpc-user kiln --rpc-pass sesame --coinbase-addr \
        BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4 "${dev[@]}" "${one[@]}" --duration 60 --api-listen 0 > "$nd/out" 2> "$nd/log" &
    kpid=$!
    if python3 - "$nd/log" "$url" "$nd/verdicts.jsonl" <<'PY'; then ok "--api-listen while mining for a node"; else bad "--api-listen with --rpc"; fi
import json, re, sys, time, urllib.request
log, url, verdicts = sys.argv[1:4]
port = None
for _ in range(200):
    m = re.search(r"monitoring endpoint on http://127\.0\.0\.1:(\d+)/", open(log).read())
    if m:
        port = int(m.group(1))
        break
    time.sleep(0.05)
assert port, open(log).read()
# until the endpoint has counted hashes and has a rate (50 s at most: kiln's timeout is 60 s)
end = time.monotonic() + 50
while True:
    d = json.load(urllib.request.urlopen("http://127.0.0.1:%d/status" % port, timeout=5))
    if (d["hashes"] > 0 and d["rate_5s"] > 0) or time.monotonic() > end:
        break
    time.sleep(0.1)
import os
accepted = sum(1 for l in open(verdicts) if json.loads(l)["verdict"] is None) if os.path.exists(verdicts) else 0
assert d["mode"] == "solo" and d["source"] == url, d
assert d["hashes"] > 0 and d["rate_5s"] > 0, d
# kiln counts a block once the node has answered: never more than the node accepted
assert 0 <= d["shares"]["accepted"] <= accepted and d["shares"]["rejected"] == 0, (d["shares"], accepted)
assert d["job"].startswith("height 5422"), d["job"]
body = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=5).read().decode()
assert re.search(r'^kiln_hashrate_hps\{device="[a-z:0-9]+",window="5s"\} [0-9.e+]+$', body, re.M), body[:500]
PY
    kill -TERM "$kpid" 2> /dev/null
    wait "$kpid"
fi

[ $fails -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all passed"
