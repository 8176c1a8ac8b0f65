# Shared by the tests of kiln pagerank under mpirun (test_mpi_pagerank.sh, test_mpi_rmat_threads.sh):
# sourced after pagerank_cli_util.sh with KILN set. Exits 77 (skipped) when kiln has no MPI or
# mpirun is missing; gives MPIRUN, the launcher to put before -np, and l1.

"$KILN" version | grep -q '^mpi: on' || { echo "kiln built without MPI: skipped"; exit 77; }
command -v mpirun >/dev/null || { echo "no mpirun: skipped"; exit 77; }

# Open MPI in a container: shared-memory transport without cross-memory attach, more processes
# than cores (unbound, so that the threads of one process spread), and root when the CI runs as
# root. Under AddressSanitizer (CI's second pass) Open MPI's own allocations outlive MPI_Finalize,
# in components it has unloaded by then (no frames to suppress them by): leak checks stay on for
# the single-process runs and off in the processes mpirun starts, whose memory errors ASan still
# stops.
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
MPIRUN=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" timeout 60 mpirun --oversubscribe --bind-to none --mca btl self,vader)
[ "$(id -u)" -eq 0 ] && MPIRUN+=(--allow-run-as-root)

# sum |a - b| over two node<TAB>score files, or "ids" when their node columns differ
l1() { paste "$1" "$2" | awk -F'\t' '$1 != $3 { print "ids"; exit } { d = $2 - $4; s += d < 0 ? -d : d } END { if (NR) printf "%.3g\n", s }'; }
