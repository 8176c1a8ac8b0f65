/* What kiln_pagerank (pagerank.c) and kiln_pagerank_device (pagerank_device.c) check alike. */
#ifndef KILN_API_PAGERANK_CHECKS_H
#define KILN_API_PAGERANK_CHECKS_H

#include "../graph/graph.h"

/* KILN_ERR_INPUT naming the node whose out-weight sum PageRank cannot divide by; KILN_OK for an
 * unweighted graph. */
kiln_status kiln_pagerank_check_out_weights(kiln_ctx *ctx, const kiln_graph *g);
/* The scalar options: damping, tol, max_iter, precision, kernel (not the vectors). */
kiln_status kiln_pagerank_check_options(kiln_ctx *ctx, const kiln_pagerank_options *opt);

#endif
