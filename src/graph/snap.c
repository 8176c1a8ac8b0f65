/* SNAP edge lists: one "src dst" pair of non-negative decimal ids per line, separated by spaces or
 * tabs, LF or CRLF line ends, '#' (and KONECT's '%') comment lines, blank lines ignored. With
 * KILN_GRAPH_WEIGHTED a line may add a third column, the edge's weight (decimal or exponent
 * notation, finite and >= 0); a line without one weighs 1, the weight NetworkX gives an edge that
 * has no weight attribute. Anything else on a line is an error naming the line, and so is a line
 * longer than the reader's limit. The edge count is bounded by what the host can hold
 * (mem_limit.h). A regular uncompressed file is parsed in chunks on all threads (snap_chunked.c),
 * to the same edges and errors; gzip input, pipes and standard input are read here, line by line. */
#include <stdio.h>
#include <string.h>

#include "../core/mem_limit.h"
#include "snap.h"
#include "snap_line.h"

static kiln_status parse_lines(kiln_ctx *ctx, kiln_reader *r, int weighted, kiln_raw_edges *raw)
{
    const double edge_bytes = KILN_SNAP_EDGE_BYTES + (weighted ? KILN_GRAPH_WEIGHT_ARC_BYTES : 0);
    const char *line;
    size_t len;
    int got;
    while ((got = kiln_reader_next(ctx, r, &line, &len)) == 1) {
        uint64_t a, b;
        double w;
        const char *why = NULL;
        const int kind = kiln_snap_line(line, len, weighted, &a, &b, &w, &why);
        if (kind == 0) continue;
        if (kind < 0) {
            char shown[64];
            kiln_show_line(line, len, shown, sizeof shown);
            return kiln_fail(ctx, KILN_ERR_INPUT, "%s:%llu: %s: \"%s\"", r->path, (unsigned long long)r->line, why,
                             shown);
        }
        /* before the arrays double (to 32 bytes an edge), the edges so far must fit what their
         * load needs: the doubled arrays then fit too */
        if (raw->count == raw->cap && raw->count > 0 &&
            kiln_mem_check(ctx, (double)raw->count * edge_bytes, "%s:%llu: %llu edges so far",
                           r->path, (unsigned long long)r->line, (unsigned long long)raw->count) != KILN_OK)
            return KILN_ERR_INPUT;
        if (kiln_raw_edges_push(raw, a, b) != 0 || (weighted && kiln_weights_reserve(&raw->w, &raw->wcap, raw->cap) != 0))
            return kiln_fail(ctx, KILN_ERR_DEVICE, "%s:%llu: out of memory", r->path, (unsigned long long)r->line);
        if (weighted) raw->w[raw->count - 1] = w;
    }
    return got < 0 ? r->status : KILN_OK;
}

kiln_status kiln_parse_snap_serial(kiln_ctx *ctx, kiln_reader *r, unsigned flags, kiln_raw_edges *raw)
{
    if (!(flags & KILN_GRAPH_WEIGHTED)) return parse_lines(ctx, r, 0, raw);
    kiln_c_numeric cn;
    kiln_status st = kiln_c_numeric_enter(ctx, &cn);
    if (st != KILN_OK) return st;
    st = parse_lines(ctx, r, 1, raw);
    kiln_c_numeric_leave(&cn);
    return st;
}

kiln_status kiln_parse_snap(kiln_ctx *ctx, kiln_reader *r, unsigned flags, kiln_raw_edges *raw)
{
    if (kiln_snap_can_chunk(r)) return kiln_parse_snap_chunked(ctx, r, flags, 0, raw);
    return kiln_parse_snap_serial(ctx, r, flags, raw);
}
