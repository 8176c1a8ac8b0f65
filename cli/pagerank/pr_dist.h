/* kiln pagerank under an MPI launcher (mpirun, srun): the process group, what the processes other
 * than 0 print (nothing: it is kept for the message of a failure), and agreeing on exit codes. */
#ifndef KILN_CLI_PR_DIST_H
#define KILN_CLI_PR_DIST_H

#include "kiln.h"

/* *d NULL when no launcher started this process (kiln then runs alone, as always); else joins the
 * group, and a process other than 0 stops printing. 0, or the exit code after a message. */
int pr_dist_start(const char *cmd, kiln_dist **d);
/* Every process passes its exit code; each returns the code of the lowest-numbered failing one
 * (0 when none), process 0 printing that process's last message when it was another. d NULL:
 * code itself. */
int pr_dist_agree(const char *cmd, kiln_dist *d, int code);
/* Process 0 prints and writes the results; the others only compute. */
int pr_dist_root(const kiln_dist *d);
void pr_dist_end(kiln_dist *d);

#endif
