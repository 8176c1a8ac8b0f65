#!/bin/bash
# Solo mining's failures name their cause: a bad or foreign address, a wrong RPC password, a
# missing cookie file, an unreachable node, a template whose txid does not match its data, a node
# that rejects kiln's blocks (its reason printed, exit 1), and option misuse (exit 2).
kiln=$1
data=$2
source "$(dirname "$0")/node/node_util.sh"
p2wpkh=0014751e76e8199196d454941c45d1b3a323f1433bd6
wpkh=BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4
expect() { # expect RC PATTERN WHAT: the last kiln_mine exited RC and its stderr matches PATTERN
    if [ $rc -eq "$1" ] && grep -q -- "$2" <<< "$log"; then ok "$3: exit $rc, $(head -1 <<< "$log")"; else bad "$3 (rc=$rc, want $1 and /$2/)"; fi
}
start_node --block "$data/block542213.hex" --height 542213 --chain regtest --payout $p2wpkh
auth=(--rpc-user kiln --rpc-pass sesame)
kiln_mine --rpc "$url" "${auth[@]}" --coinbase-addr bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5 --device cpu
expect 2 "bad --coinbase-addr.*checksum" "bad bech32 checksum"
kiln_mine --rpc "$url" "${auth[@]}" --coinbase-addr 1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMJ --device cpu
expect 2 "base58check checksum" "bad base58check checksum"
kiln_mine --rpc "$url" "${auth[@]}" --coinbase-addr $wpkh --device cpu
expect 2 "not an address of the node's chain 'regtest'" "mainnet address on a regtest node"
kiln_mine --rpc "$url" "${auth[@]}" --coinbase-addr bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs --device cpu
expect 2 "segwit version 2" "segwit v2 address"
kiln_mine --rpc "$url" --rpc-user kiln --rpc-pass wrong --coinbase-addr bcrt1qjh3dnrafy8f2zszh5sdqn6c3ycfljh930yza9nt72v30dkw8mlvscn82zx --device cpu
expect 2 "HTTP status 401.*credentials" "wrong RPC password"
kiln_mine --rpc "$url" --rpc-cookie "$dir/no-such-cookie" --coinbase-addr bcrt1qjh3dnrafy8f2zszh5sdqn6c3ycfljh930yza9nt72v30dkw8mlvscn82zx --device cpu
expect 2 "cannot read --rpc-cookie" "missing cookie file"
kiln_mine --rpc http://127.0.0.1:1 "${auth[@]}" --coinbase-addr $wpkh --device cpu
expect 3 "getblockchaininfo: connect to http://127.0.0.1:1 failed" "unreachable node"
kiln_mine --rpc "$url" "${auth[@]}" --coinbase-addr $wpkh --pool stratum+tcp://127.0.0.1:1 --user x
expect 2 "exclude each other" "--rpc with --pool"
kiln_mine --rpc "$url" "${auth[@]}" --device cpu
expect 2 "needs --coinbase-addr" "no --coinbase-addr"
kiln_mine --rpc "$url" --rpc-user kiln --coinbase-addr $wpkh
expect 2 "together" "--rpc-user without --rpc-pass"
kiln_mine --rpc "$url" "${auth[@]}" --rpc-cookie x --coinbase-addr $wpkh
expect 2 "exclude each other" "--rpc-cookie with --rpc-user"
kiln_mine --rpc "$url" "${auth[@]}" --coinbase-addr $wpkh --header 00
expect 2 "does not apply" "--header with --rpc"
kiln_mine --header 00 --blocks 1
expect 2 "does not apply" "--blocks without --rpc"

start_node --block "$data/block542213.hex" --height 542213 --chain main --payout $p2wpkh --corrupt-txid
kiln_mine --rpc "$url" "${auth[@]}" --coinbase-addr $wpkh --device cpu
expect 3 "transactions\[0\].txid .* is not the txid of its data" "template with a wrong txid"

# the node expects another payee: it rejects each block, kiln reports the reason and exits 1
start_node --block "$data/block542213.hex" --height 542213 --chain main --payout 76a914751e76e8199196d454941c45d1b3a323f1433bd688ac
kiln_mine --rpc "$url" "${auth[@]}" --coinbase-addr $wpkh --device cpu --blocks 2
if [ $rc -eq 1 ] && [ "$(grep -c 'rejected: bad-cb-payee' <<< "$out")" -eq 2 ] && grep -q "rejected 2 of 2 blocks" <<< "$log"; then
    ok "rejected blocks: reasons printed, exit 1"
else
    bad "rejected blocks"
fi
[ $fails -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all passed"
