#!/usr/bin/env bash
# kiln bench --algo merkle-* --whole-build (and any Merkle bench on a device set): the bench leaves
# as its documentation defines them (splitmix64 from seed 1, canonical field elements for rp64_256),
# rebuilt here in Python, give the root the bench prints: sha256d against hashlib's Bitcoin tree
# (1000 and 1025 leaves: odd levels, a lone last node), rp64_256 against `kiln merkle` on the same
# leaves written out; with a GPU, cuda:0 and the set cuda:0,0 (a subtree each, the top on the CPU)
# print the same roots. Bad use: --whole-build outside the tree kind, one leaf.
# usage: test_bench_merkle_whole.sh KILN DATA_DIR
set -u
KILN=$1
. "$(dirname "$0")/cli_util.sh"

# prints the leaves' hex (in `kiln merkle`'s order) to $3 and the sha256d root
leaves() {
    python3 - "$1" "$2" "$3" <<'EOF'
import hashlib, sys
n, algo, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
M, G, P = (1 << 64) - 1, 0x9E3779B97F4A7C15, 0xFFFFFFFF00000001
def splitmix(x):
    z = (x + G) & M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)
nodes = []
for i in range(n):
    words = [splitmix((1 + (4 * i + j) * G) & M) for j in range(4)]
    if algo == "rp64_256":
        words = [w - P if w >= P else w for w in words]
    nodes.append(b"".join(w.to_bytes(8, "little") for w in words))
rev = algo == "sha256d"
with open(path, "w") as f:
    f.write("".join((x[::-1] if rev else x).hex() + "\n" for x in nodes))
level = nodes
while len(level) > 1:
    if len(level) % 2: level = level + [level[-1]]
    level = [hashlib.sha256(hashlib.sha256(level[i] + level[i + 1]).digest()).digest() for i in range(0, len(level), 2)]
print(level[0][::-1].hex())
EOF
}
root_of() { python3 -c 'import json,sys; print(json.load(sys.stdin)["root"])'; }
bench() { "$KILN" bench --algo "$1" --leaves "$2" --device "$3" --whole-build --reps 1 --json 2>"$TMP/err" | root_of; }

for n in 1000 1025; do
    want=$(leaves "$n" sha256d "$TMP/sha256d.$n")
    got=$(bench merkle-sha256d "$n" cpu)
    [ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "sha256d $n leaves on the CPU: root $got, hashlib $want $(cat "$TMP/err")"
done
leaves 300 rp64_256 "$TMP/rp64" >/dev/null
want=$("$KILN" merkle --algo rp64_256 --leaves "$TMP/rp64" --device cpu)
got=$(bench merkle-rp64 300 cpu)
[ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "rp64_256 300 leaves: bench root $got, kiln merkle $want $(cat "$TMP/err")"

# the text row names the whole build and prints the root
"$KILN" bench --algo merkle-sha256d --leaves 1000 --device cpu --whole-build --reps 1 >"$TMP/text" 2>&1 &&
    grep -q "the whole build" "$TMP/text" && grep -q "$(leaves 1000 sha256d /dev/null)" "$TMP/text" && ok ||
    bad "text row: $(cat "$TMP/text")"

"$KILN" bench --algo sha256d --whole-build >/dev/null 2>"$TMP/err"
[ $? = 2 ] && [ "$(grep -c . "$TMP/err")" = 1 ] && grep -q -- "--whole-build" "$TMP/err" && ok ||
    bad "--whole-build on a search: $(cat "$TMP/err")"
"$KILN" bench --algo merkle-sha256d --leaves 1 --whole-build --device cpu >/dev/null 2>"$TMP/err"
[ $? = 2 ] && grep -q -- "--leaves" "$TMP/err" && ok || bad "one leaf: $(cat "$TMP/err")"

if "$KILN" devices 2>/dev/null | grep -q '^cuda:0'; then
    for algo in sha256d rp64; do
        n=$([ $algo = rp64 ] && echo 300 || echo 100003)
        cpu=$(bench merkle-$algo $n cpu)
        one=$(bench merkle-$algo $n cuda:0)
        set=$(bench merkle-$algo $n cuda:0,0)
        [ -n "$cpu" ] && [ "$one" = "$cpu" ] && [ "$set" = "$cpu" ] && ok ||
            bad "$algo $n leaves: cpu $cpu, cuda:0 $one, cuda:0,0 $set $(cat "$TMP/err")"
    done
    "$KILN" bench --algo merkle-sha256d --leaves 2^16 --device cuda:0,0 --reps 2 --json >"$TMP/set.json" 2>"$TMP/err" &&
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["devices"] == 2 and d["whole_build"] and d["rate"] > 0))' "$TMP/set.json" &&
        ok || bad "a set without --whole-build: $(cat "$TMP/set.json" "$TMP/err")"
fi

finish "bench --whole-build"
