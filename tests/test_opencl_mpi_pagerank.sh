#!/usr/bin/env bash
# kiln pagerank across processes on OpenCL (mpirun -np 2 and 3, every process on the device
# KILN_TEST_OPENCL_DEVICE names, default opencl:0: PoCL's CPU device in CI): row parts whose slices
# go through the host and MPI, against one process on the CPU in float64 (1e-9 L1) and float32
# (1e-5), plain, weighted and personalized; the JSON names the parts kernel and the host exchange;
# a device set under mpirun is refused. Skipped (77) when kiln has no MPI or mpirun is missing, and
# without an OpenCL device unless KILN_REQUIRE_OPENCL is set.
# usage: test_opencl_mpi_pagerank.sh KILN DATA_DIR
set -u
KILN=$1
DATA=$2
. "$(dirname "$0")/pagerank_cli_util.sh"
. "$(dirname "$0")/mpi_test_util.sh"
FB=$DATA/facebook_combined.txt
CPU="--device cpu --threads 1"

. "$(dirname "$0")/opencl_test_util.sh"
# OCL_ICD_FILENAMES, where set, names the drivers the loader reads: the GPU host sets
# "libpocl.so.2:libnvidia-opencl.so.1", and its ranks get only "libpocl.so.2" through mpirun, so
# the list goes on the ranks' command line, where nothing splits it
RANK=(env -u OCL_ICD_FILENAMES "$KILN")
[ -n "${OCL_ICD_FILENAMES+x}" ] && RANK=(env "OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES" "$KILN")
# the program built once here, so that the processes below load it from the cache
expect_rc 0 "warm-up" "$KILN" pagerank --rmat 8 --device "$OCLDEV" --quiet

json_field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2]))' "$1" "$2"; }

# ocl_compare NAME TOL NPS ARGS...: one CPU process against mpirun -np each of NPS on OpenCL
ocl_compare() {
    local name=$1 tol=$2 nps=$3
    shift 3
    expect_rc 0 "$name: one CPU process" "$KILN" pagerank "$@" $CPU --output "$TMP/one.tsv"
    for np in $nps; do
        expect_rc 0 "$name: -np $np on $OCLDEV" "${MPIRUN[@]}" -np "$np" "${RANK[@]}" pagerank "$@" --device "$OCLDEV" \
            --output "$TMP/np.tsv" --json
        [ "$(json_field "$TMP/out" kernel 2>&1)" = parts ] && ok || bad "$name -np $np: kernel $(head -c 300 "$TMP/out")"
        [ "$(json_field "$TMP/out" exchange 2>&1)" = host ] && ok || bad "$name -np $np: exchange $(head -c 300 "$TMP/out")"
        local d
        d=$(l1 "$TMP/one.tsv" "$TMP/np.tsv")
        [ -n "$d" ] && awk -v d="$d" -v t="$tol" 'BEGIN { exit !(d + 0 <= t && d != "ids") }' && ok ||
            bad "$name -np $np on $OCLDEV: L1 to one CPU process '$d' (tolerance $tol)"
    done
}

printf '1\t2\n7\t0.5\n100\t1\n4000\t3\n' >"$TMP/p.tsv"
printf '0\t1\n5\t1\n' >"$TMP/q.tsv"
ocl_compare "facebook float64" 1e-9 "2 3" "$FB" --undirected --tol 1e-12 --max-iter 300 --precision float64
ocl_compare "rmat 12 float32" 1e-5 "3" --rmat 12 --tol 0 --max-iter 40 --precision float32
ocl_compare "rmat 12 weighted personalized float64" 1e-9 "2" --rmat 12 --weighted --personalization "$TMP/p.tsv" \
    --dangling "$TMP/q.tsv" --tol 1e-12 --max-iter 300 --precision float64

# a set under mpirun: each process drives one device
"${MPIRUN[@]}" -np 2 "${RANK[@]}" pagerank --rmat 10 --device "$OCLDEV,${OCLDEV#*:}" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && ok || bad "a device set under mpirun: exit $rc"
[ "$(grep -c '^kiln pagerank: .*drives one device' "$TMP/err")" -ge 1 ] && ok || bad "a device set under mpirun: $(head -c 600 "$TMP/err")"

echo "test_opencl_mpi_pagerank: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
