/* kiln_pagerank for one part of a split over processes: what src/dist, the layer above src/api,
 * runs in each process. Declared here, beside its definition (pagerank.c), not in src/graph,
 * which is below src/api and declares only what it or a layer under it defines. */
#ifndef KILN_API_PAGERANK_SPLIT_H
#define KILN_API_PAGERANK_SPLIT_H

#include "../graph/graph.h"

/* kiln_pagerank for one part of a split (NULL: kiln_pagerank itself): the same checks and
 * normalization, on the CPU or the context's first GPU (pagerank_parts.c); g->info.edges counts
 * every part's edges. */
kiln_status kiln_pagerank_part(kiln_ctx *ctx, const kiln_graph *g, const kiln_pagerank_options *opt,
                               const kiln_pr_split *split, double *ranks, kiln_pagerank_result *result);

#endif
