/* PageRank over row parts on GPUs (pagerank_parts.c): used by src/api/pagerank.c for a context
 * with several devices and for a GPU process of a split. */
#ifndef KILN_API_PAGERANK_PARTS_H
#define KILN_API_PAGERANK_PARTS_H

#include "../graph/graph.h"

/* The iterations of prob on the context's devices (split NULL) or on its first GPU for rows
 * [split->v0, split->v1) with split->exchange between the processes; ranks receives the whole x,
 * stats the loop (seconds: the median of `repeat` runs from the first vector). */
kiln_status kiln_pagerank_gpu_parts(kiln_ctx *ctx, const kiln_graph *g, const kiln_pr_problem *prob, int use_double,
                                    int repeat, const kiln_pr_split *split, double *ranks, kiln_pr_cpu_stats *stats);

#endif
