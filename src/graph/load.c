/* The graph layer's load sequence: one open, one reader, the format told from the first bytes
 * that reader will parse anyway. Nothing is reopened or rewound, because a pipe or a FIFO cannot
 * give its bytes twice. */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "reader.h"

#define MTX_BANNER "%%MatrixMarket"

static kiln_status detect(kiln_ctx *ctx, kiln_reader *r, kiln_graph_format *format)
{
    const char *head;
    size_t len;
    kiln_status st = kiln_reader_peek(ctx, r, sizeof MTX_BANNER - 1, &head, &len);
    if (st != KILN_OK) return st;
    if (kiln_csr_cache_sniff((const unsigned char *)head, len)) *format = KILN_GRAPH_CSR;
    else if (len == sizeof MTX_BANNER - 1 && memcmp(head, MTX_BANNER, len) == 0) *format = KILN_GRAPH_MTX;
    else *format = KILN_GRAPH_SNAP;
    return KILN_OK;
}

/* Edges of a text input, as vertex indices, and their weights (*w, with KILN_GRAPH_WEIGHTED). */
static kiln_status parse_text(kiln_ctx *ctx, kiln_reader *r, kiln_graph_format format, unsigned *flags,
                              kiln_edges *e, double **w, kiln_graph *g)
{
    *w = NULL;
    if (format == KILN_GRAPH_MTX) {
        kiln_status st = kiln_parse_mtx(ctx, r, flags, e, w);
        if (st == KILN_OK) g->id_base = 1;
        return st;
    }
    kiln_raw_edges raw;
    memset(&raw, 0, sizeof raw);
    kiln_status st = kiln_parse_snap(ctx, r, *flags, &raw);
    if (st == KILN_OK && raw.count == 0) st = kiln_fail(ctx, KILN_ERR_INPUT, "%s: no edges", r->path);
    if (st == KILN_OK) {
        /* the remap keeps the edges' order, so the weights stay aligned with them */
        *w = raw.w;
        raw.w = NULL;
        st = kiln_ids_remap(ctx, &raw, e, &g->ids);
    }
    kiln_raw_edges_free(&raw);
    return st;
}

kiln_status kiln_graph_load_input(kiln_ctx *ctx, const char *path, kiln_graph_format format, unsigned flags,
                                  kiln_csr_build_fn build, kiln_graph *g)
{
    kiln_reader *r;
    kiln_status st = kiln_reader_open(ctx, path, &r);
    if (st == KILN_OK && format == KILN_GRAPH_AUTO) st = detect(ctx, r, &format);
    if (st != KILN_OK) {
        kiln_reader_close(r);
        return st;
    }
    if (format == KILN_GRAPH_CSR) {
        /* the structure is as saved; only whether its weights are used is asked */
        if (flags & ~KILN_GRAPH_WEIGHTED)
            st = kiln_fail(ctx, KILN_ERR_INPUT,
                           "%s: a CSR cache is loaded as it was saved (no graph flags but the weighted one)", r->path);
        else st = kiln_csr_cache_read(ctx, r, (flags & KILN_GRAPH_WEIGHTED) != 0, g);
        kiln_reader_close(r);
        return st;
    }
    kiln_edges e;
    double *w;
    memset(&e, 0, sizeof e);
    st = parse_text(ctx, r, format, &flags, &e, &w, g);
    /* the input is done with before the build, which may need all the memory there is */
    kiln_reader_close(r);
    if (st == KILN_OK) st = build(ctx, &e, w, flags, g);
    kiln_edges_free(&e);
    free(w);
    return st;
}
