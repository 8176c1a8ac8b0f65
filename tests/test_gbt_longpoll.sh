#!/bin/bash
# A new block elsewhere switches kiln's work within one launch: the node's first template has a
# target no device meets in the test's time (nBits 1b00ffff, 2^48 hashes a block); after 1.5 s "another
# miner" moves the node's tip and the new template has an easy target. kiln must learn of it
# through the longpoll (or, when the node offers none, by polling with --rpc-poll) and submit a
# block on the new tip, which the node accepts; the time from the new tip to the block is bounded.
kiln=$1
data=$2
source "$(dirname "$0")/node/node_util.sh"
p2wpkh=0014751e76e8199196d454941c45d1b3a323f1433bd6
for mode in longpoll poll; do
    extra=()
    [ $mode = poll ] && extra=(--no-longpoll)
    start_node --block "$data/block542213.hex" --height 542213 --chain main --payout $p2wpkh --bits 1b00ffff \
        --new-tip-after 1.5 --bits-after 207fffff "${extra[@]}"
    kiln_mine --rpc "$url" --rpc-user kiln --rpc-pass sesame --coinbase-addr BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4 \
        "${dev[@]}" --blocks 1 --rpc-poll 0.3 --duration 20
    if [ $rc -eq 0 ] && verdicts 1 && grep -q "block height=542214 .* accepted" <<< "$out" &&
        grep -q "template height 542214.*($mode)" <<< "$log" &&
        python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][0]
limit = 3.0 if sys.argv[2] == "longpoll" else 4.0
assert r["after_tip_s"] < limit, "block %.2f s after the new tip" % r["after_tip_s"]
print("block %.2f s after the new tip" % r["after_tip_s"])
' "$nd/verdicts.jsonl" $mode; then
        ok "$mode: work switched to the new tip, block at 542214 accepted"
    else
        bad "$mode"
    fi
done
# the node is busy (HTTP 503) when kiln asks for the next template after its block: kiln mines
# nothing on the stale template and takes the next one from the longpoll
start_node --block "$data/block542213.hex" --height 542213 --chain main --payout $p2wpkh --busy-after-block
kiln_mine --rpc "$url" --rpc-user kiln --rpc-pass sesame --coinbase-addr BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4 \
    "${dev[@]}" --blocks 3 --duration 20
if [ $rc -eq 0 ] && verdicts 3 && [ "$(grep -c "HTTP status 503" <<< "$log")" -eq 3 ] &&
    [ "$(grep -c "(longpoll)" <<< "$log")" -ge 2 ]; then
    ok "busy node after each block: the longpoll's template mined, 3 blocks accepted"
else
    bad "busy node after a block"
fi
[ $fails -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all passed"
