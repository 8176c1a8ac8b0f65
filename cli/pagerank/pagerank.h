/* kiln pagerank's pieces (cli/pagerank/): the parsed arguments (pr_args.c), the output files
 * (pr_outputs.c), the report (pr_report.c); cmd_pagerank.c runs them in order, every step agreed
 * between the processes of an MPI run (pr_dist.h). */
#ifndef KILN_CLI_PAGERANK_H
#define KILN_CLI_PAGERANK_H

#include <stdint.h>

#include "common/opts.h"
#include "kiln.h"

#define PR_CMD "pagerank"

typedef struct pr_args {
    const char *graph, *output, *save_csr, *device;
    const char *personalization, *nstart, *dangling; /* vector files, or NULL */
    int rmat_scale, edge_factor, top, threads; /* rmat_scale -1: a graph file; top -1: not given */
    cli_output out;
    uint64_t seed;
    unsigned flags;
    kiln_graph_format format;
    kiln_pagerank_options opt;
} pr_args;

/* Parses and checks argv into a. 0, CLI_HELP, or the exit code after one line. */
int pr_parse_args(int argc, char **argv, pr_args *a);

/* The output files of a run (--output, --save-csr), opened before any work so that a path that
 * cannot be written is reported at once, and committed together at the end: a failed or
 * interrupted run replaces none of them. */
typedef struct pr_outputs {
    kiln_output_file ranks, csr;
    int have_ranks, have_csr;
} pr_outputs;
int pr_outputs_open(kiln_ctx *ctx, const pr_args *a, pr_outputs *o);
/* Writes the ranks (node<TAB>score in fmt) and the CSR cache, then renames both in place. 0 or
 * the exit code. */
int pr_outputs_commit(kiln_ctx *ctx, pr_outputs *o, const kiln_graph *g, const double *ranks, uint64_t n,
                      const char *fmt);
void pr_outputs_discard(pr_outputs *o);

/* What a finished run reports. */
typedef struct pr_result {
    const kiln_graph *g;
    kiln_graph_info info;
    const double *ranks;
    kiln_pagerank_result res;
    double load_s; /* reading or generating the graph */
} pr_result;
/* Prints the top a->top ranks and the summary: one JSON object, or the ranks on stdout and a line
 * on stderr. 0 or the exit code (out of memory). */
int pr_report(kiln_ctx *ctx, const pr_args *a, const pr_result *r);
/* The printf format of a score in the precision the ranks were computed in. */
const char *pr_score_format(const kiln_pagerank_result *res);

#endif
