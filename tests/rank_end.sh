#!/bin/sh
# rank_end.sh FILE CMD...: runs CMD as one of mpirun's processes and appends "RANK STATUS" to FILE
# once it ends. Open MPI ends a job with SIGTERM to each process's group, then SIGKILL. This shell
# outlives the SIGTERM (its trap runs once CMD has ended, $? kept), so a process that ended at the
# SIGTERM leaves its line, and one that lived to the SIGKILL, this shell killed with it, none.
file=$1
shift
trap : TERM
"$@"
status=$?
echo "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-?}} $status" >>"$file"
exit "$status"
