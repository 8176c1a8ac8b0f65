/* kiln_graph_write_csr: the CSR cache into an output file the caller commits with its others. */
#include "../graph/graph.h"

kiln_status kiln_graph_write_csr(kiln_ctx *ctx, const kiln_graph *g, kiln_output_file *out)
{
    if (!out || !out->fp) return kiln_fail(ctx, KILN_ERR_INPUT, "missing output file");
    if (!g || g->part) {
        kiln_output_discard(out);
        return kiln_fail(ctx, KILN_ERR_INPUT, g ? "a graph split over processes cannot be saved as a CSR cache"
                                                : "missing graph");
    }
    return kiln_csr_cache_write_to(ctx, g, out);
}
