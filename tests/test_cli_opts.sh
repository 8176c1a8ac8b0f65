#!/bin/bash
# The option parser of every command (cli/common/opts.c): unknown options, missing values, conflicting
# options and options that do not apply to the chosen mode exit 2 with exactly one line on
# stderr naming the problem; --help lists every option of the command's table.
# Usage: test_cli_opts.sh KILN DATA_DIR
kiln=$1
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
# usage error: exit 2, one stderr line matching the pattern
usage_error() {
    local pattern=$1
    shift
    "$@" > /dev/null 2> "$tmp/err"
    local rc=$? lines
    lines=$(grep -c . "$tmp/err")
    if [ $rc -eq 2 ] && [ "$lines" = 1 ] && grep -q -- "$pattern" "$tmp/err"; then ok
    else bad "$* -> exit $rc, $lines stderr lines: $(cat "$tmp/err") (want exit 2, one line /$pattern/)"; fi
}
genesis=0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c
# the two leaves 0x..01 and 0x..02
printf '%064x\n%064x\n' 1 2 > "$tmp/two.txt"

usage_error "unknown command 'badcmd'" "$kiln" badcmd
for c in mine devices selftest bench tune pagerank merkle hash scrypt; do
    usage_error "unknown option '--frobnicate'" "$kiln" $c --frobnicate
done
usage_error "option --device needs a value" "$kiln" selftest --device
usage_error "option --algo needs a value" "$kiln" bench --algo
usage_error "option -N needs a value" "$kiln" scrypt --password x --salt y -N
usage_error "option --json takes no value" "$kiln" devices --json=yes
usage_error "bad --count" "$kiln" mine --header "$genesis" --count=0
usage_error "bad --seconds" "$kiln" bench --seconds -1
usage_error "unexpected argument 'extra'" "$kiln" selftest extra
usage_error "--algo is required" "$kiln" hash abc.txt
usage_error "unknown hash algorithm 'md4'" "$kiln" hash --algo md4 abc.txt
usage_error "unknown device 'gpu'" "$kiln" selftest --device gpu
usage_error "unknown device 'gpu'" "$kiln" mine --header "$genesis" --device gpu
usage_error "unknown device 'gpu'" "$kiln" hash --algo sha256 --device gpu /dev/null
# conflicting options and options the chosen mode would ignore
usage_error "--tree does not apply to --verify" "$kiln" merkle --verify "$tmp/two.txt" --leaf "$(sed -n 1p "$tmp/two.txt")" --index 0 --tree
usage_error "--proof and --tree exclude each other" "$kiln" merkle --leaves "$tmp/two.txt" --proof 0 --tree
usage_error "GPUs only" "$kiln" merkle --leaves "$tmp/two.txt" --method subtrees --k 3 --graph --device cpu
usage_error "--size does not apply to --algo sha256d" "$kiln" bench --algo sha256d --size 64
usage_error "--layout applies to GPUs only" "$kiln" bench --algo keccakf1600 --layout lane --device cpu
usage_error "-N does not apply to --algo scrypt" "$kiln" tune --algo scrypt -N 1024
usage_error "--leaves does not apply to --algo sha256d" "$kiln" bench --algo sha256d --leaves 2^10
usage_error "zero" "$kiln" mine --header "$genesis" --target 0000000000000000000000000000000000000000000000000000000000000000 --device cpu
usage_error "zero target" "$kiln" mine --header "$genesis" --bits 00000000 --device cpu
usage_error "not both" "$kiln" mine --header "$genesis" --bits 1d00ffff --target 00ff
usage_error "--header does not apply to pool mining" "$kiln" mine --pool stratum+tcp://127.0.0.1:1 --user u --header "$genesis"
usage_error "--user does not apply to header mining" "$kiln" mine --header "$genesis" --user u
usage_error "--rpc-poll does not apply to header mining" "$kiln" mine --demo --rpc-poll 3
usage_error "--work-nonces does not apply to solo mining against a node" "$kiln" mine --rpc http://127.0.0.1:1 \
    --coinbase-addr 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 --work-nonces 5
usage_error "--all does not apply to pool mining" "$kiln" mine -o stratum+tcp://127.0.0.1:1 -u u --all
usage_error "--stats-interval does not apply to header mining" "$kiln" mine --demo --stats-interval 5
usage_error "--seed does not apply to a graph file" "$kiln" pagerank g.txt --seed 3
usage_error "too many arguments" "$kiln" pagerank a.txt b.txt
usage_error "bad --gpu-kernel 'fast' (expected auto, grid or persistent)" "$kiln" pagerank --rmat 4 --gpu-kernel fast
# the cluster kernel was removed (docs/PAGERANK.md): its name is refused like any unknown one
usage_error "bad --gpu-kernel 'cluster' (expected auto, grid or persistent)" "$kiln" pagerank --rmat 4 --gpu-kernel cluster
# a choice is one of the words of the table's value, whole ("float" is no prefix of one, "" none)
usage_error "bad --precision 'float' (expected float32 or float64)" "$kiln" pagerank --rmat 4 --precision float
usage_error "bad --format '' (expected auto, snap, mtx or csr)" "$kiln" pagerank g.txt --format ''
usage_error "bad --format 'snapx' (expected auto, snap, mtx or csr)" "$kiln" pagerank g.txt --format=snapx
usage_error "bad --method 'fast' (expected levels, subtrees, auto or all)" "$kiln" bench --algo merkle-sha256d --method fast
usage_error "bad --method 'all' (expected auto, levels or subtrees)" "$kiln" merkle --leaves g.txt --method all
usage_error "bad --leaves '1' (2^N with N <= 40, or a count >= 2)" "$kiln" tune --algo merkle-sha256d --leaves 1

# --help: exit 0 and every option of the command (its table) listed, the pool's in mine's
help_lists() {
    local c=$1
    shift
    local out
    out=$("$kiln" $c --help 2> /dev/null) || { bad "$c --help failed"; return; }
    for o in "$@"; do
        if printf '%s\n' "$out" | grep -Eq -- "^  (-[a-zA-Z], )?$o\b"; then ok; else bad "$c --help lacks $o"; fi
    done
}
help_lists mine --header --demo --bits --target --start --count --all --pool --user --pass --stats-interval \
    --no-version-rolling --work-nonces --algo --device --threads --duration --json
help_lists devices --json
help_lists selftest --device
help_lists bench --algo --device --threads --seconds --json --size --offsets --layout --in-registers -N -r -p \
    --leaves --method --k --threads-per-block --graph --reps
help_lists tune --algo --device --seconds -N -r -p --leaves --reps
help_lists pagerank --rmat --edge-factor --seed --format --undirected --drop-self-loops --damping --tol --max-iter \
    --top --output --save-csr --device --threads --precision --no-reorder --gpu-kernel --repeat --json
help_lists merkle --algo --leaves --block --verify --proof --tree --leaf --index --count --device --threads --method \
    --k --threads-per-block --graph
help_lists hash --algo --length --check --device
help_lists scrypt --password --password-file --salt --salt-hex -N -r -p --length --threads
# the algorithm lists come from the registry
"$kiln" hash --help | grep -q "keccak512" && ok || bad "hash --help lacks the hash algorithms"
"$kiln" bench --help | grep -q "merkle-rp64" && ok || bad "bench --help lacks the tree bench names"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
