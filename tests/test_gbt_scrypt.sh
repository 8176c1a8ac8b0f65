#!/bin/bash
# --algo scrypt against a Litecoin-style node: the same template format and loop, Litecoin address
# prefixes (bitcoinjs-lib's Litecoin fixtures), and the node checks the proof of work with
# hashlib.scrypt. A node with MWEB active (which demands the mweb rule) is refused with a message
# that says kiln cannot build MWEB blocks.
kiln=$1
data=$2
source "$(dirname "$0")/node/node_util.sh"
auth=(--rpc-user kiln --rpc-pass sesame)
start_node --block "$data/block542213.hex" --height 2000 --chain main --algo scrypt \
    --payout 76a9146ac624143d19a3c91d2ac5605f0aebdfeac5b82688ac
kiln_mine --rpc "$url" "${auth[@]}" --coinbase-addr LUxXFcwXFPpRZdMv4aYu6bDwPdC2skQ5YW --algo scrypt "${dev[@]}" --blocks 2
if [ $rc -eq 0 ] && verdicts 2; then ok "scrypt: 2 blocks to a Litecoin P2PKH accepted"; else bad "scrypt blocks"; fi
kiln_mine --rpc "$url" "${auth[@]}" --coinbase-addr 1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH --algo scrypt "${dev[@]}"
if [ $rc -eq 2 ] && grep -q "not a Litecoin address" <<< "$log"; then ok "a Bitcoin address refused for scrypt"; else bad "bitcoin address for scrypt"; fi
start_node --block "$data/block542213.hex" --height 2000 --chain main --algo scrypt --mweb \
    --payout a914332bdfb31f688c0be0137c7c038a6d0fea0de0b687
kiln_mine --rpc "$url" "${auth[@]}" --coinbase-addr MCZjFcwYJwwYqXAbd3bbnxaCVGs81cp43Z --algo scrypt "${dev[@]}" --blocks 1
if [ $rc -eq 3 ] && grep -q "mweb rule.*kiln cannot build MWEB blocks" <<< "$log"; then ok "MWEB node: $log"; else bad "MWEB refusal"; fi
[ $fails -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all passed"
