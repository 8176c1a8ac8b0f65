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

[ $fails -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all passed"
