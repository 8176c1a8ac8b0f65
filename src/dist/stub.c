/* kiln built without MPI: the kiln_dist_* functions exist and refuse, so the API is the same. */
#include "../graph/graph.h"

static kiln_status no_mpi(kiln_ctx *ctx)
{
    return kiln_fail(ctx, KILN_ERR_DEVICE, "kiln was built without MPI (install libopenmpi-dev and rebuild)");
}

int kiln_dist_launched(void) { return 0; }
kiln_status kiln_dist_open(kiln_ctx *ctx, kiln_dist **out)
{
    if (out) *out = NULL;
    return no_mpi(ctx);
}
int kiln_dist_rank(const kiln_dist *d)
{
    (void)d;
    return 0;
}
int kiln_dist_local_rank(const kiln_dist *d)
{
    (void)d;
    return 0;
}

int kiln_dist_size(const kiln_dist *d)
{
    (void)d;
    return 1;
}
kiln_status kiln_dist_agree(kiln_dist *d, kiln_status st, const char *why, char *msg, size_t cap)
{
    (void)d;
    (void)why;
    if (msg && cap) msg[0] = '\0';
    return st;
}
kiln_status kiln_dist_graph_rmat(kiln_ctx *ctx, kiln_dist *d, int scale, int edge_factor, uint64_t seed,
                                 unsigned flags, kiln_graph **out)
{
    (void)d, (void)scale, (void)edge_factor, (void)seed, (void)flags;
    if (out) *out = NULL;
    return no_mpi(ctx);
}
kiln_status kiln_dist_graph_load(kiln_ctx *ctx, kiln_dist *d, const char *path, kiln_graph_format format,
                                 unsigned flags, kiln_graph **out)
{
    (void)d, (void)path, (void)format, (void)flags;
    if (out) *out = NULL;
    return no_mpi(ctx);
}
kiln_status kiln_dist_pagerank(kiln_ctx *ctx, kiln_dist *d, const kiln_graph *g, const kiln_pagerank_options *opt,
                               double *ranks, kiln_pagerank_result *result)
{
    (void)d, (void)g, (void)opt, (void)ranks, (void)result;
    return no_mpi(ctx);
}
void kiln_dist_close(kiln_dist *d) { (void)d; }
