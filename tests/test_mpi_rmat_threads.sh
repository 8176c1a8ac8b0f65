#!/usr/bin/env bash
# The RMAT graph generated in shares under mpirun with several threads a process (the owners, the
# shuffle's count and pack in chunks, one a thread, the out-degrees; test_mpi_pagerank.sh runs one
# thread): its counts are the reference generator's (tests/data/rmat_digests.txt, scale 12 seed
# 1), the ranks those of one process within 1e-12 L1 and the dangling nodes the same, for 2 and 3
# chunks over 2 and 3 processes, directed and undirected weighted (the second copies of each
# edge). Skipped (77) without MPI or mpirun.
# usage: test_mpi_rmat_threads.sh KILN DATA_DIR
set -u
KILN=$1
DATA=$2
. "$(dirname "$0")/pagerank_cli_util.sh"
. "$(dirname "$0")/mpi_test_util.sh"
dangling() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dangling_nodes"])' "$1" 2>&1; }
counts() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(*(d[k] for k in ("edges","edges_read","self_loops_removed","duplicates_removed")))' "$1"; }

read -r _ gen loops dups nnz _ < <(grep '^12 ' "$DATA/rmat_digests.txt")
for t in 2 3; do
    for np in 2 3; do
        expect_rc 0 "rmat 12 -np $np --threads $t" "${MPIRUN[@]}" -np $np "$KILN" pagerank --rmat 12 --device cpu --threads $t --json
        [ "$(counts "$TMP/out" 2>&1)" = "$nnz $gen $loops $dups" ] && ok ||
            bad "rmat 12 -np $np --threads $t: counts $(counts "$TMP/out" 2>&1) vs the reference's $nnz $gen $loops $dups"
    done
done

# the ranks (which read the out-degrees the processes count and sum) and the dangling nodes
for kind in directed "undirected weighted"; do
    args=(--rmat 12 --device cpu --tol 1e-12 --max-iter 300)
    [ "$kind" = directed ] || args+=(--undirected --weighted)
    expect_rc 0 "$kind, one process" "$KILN" pagerank "${args[@]}" --threads 1 --output "$TMP/one.tsv" --json
    cp "$TMP/out" "$TMP/one.json"
    for np in 2 3; do
        expect_rc 0 "$kind -np $np" "${MPIRUN[@]}" -np $np "$KILN" pagerank "${args[@]}" --threads 3 --output "$TMP/np.tsv" --json
        d=$(l1 "$TMP/one.tsv" "$TMP/np.tsv")
        [ -n "$d" ] && awk -v d="$d" 'BEGIN { exit !(d != "ids" && d + 0 <= 1e-12) }' && ok || bad "$kind -np $np: L1 '$d'"
        [ "$(counts "$TMP/out" 2>&1) $(dangling "$TMP/out")" = "$(counts "$TMP/one.json") $(dangling "$TMP/one.json")" ] && ok ||
            bad "$kind -np $np: counts $(counts "$TMP/out" 2>&1) $(dangling "$TMP/out") vs one process's $(counts "$TMP/one.json") $(dangling "$TMP/one.json")"
    done
done

echo "mpi rmat threads: $pass passed, $fail failed"
[ "$fail" = 0 ]
