/* SNAP edge lists ("src dst" lines, '#' comments) through kiln_graph_load, as given and with the
 * undirected and self-loop-dropping flags, and weighted ("src dst [weight]"), directed and
 * undirected; gzip input is undone by the same reader. The chunked parser (a regular file's) is
 * also run with small chunks against the serial one, which must agree on every edge, weight and
 * message. */
#include "fuzz_util.h"
#include "fuzz_graph.h"

#include "graph/reader.h"
#include "graph/snap.h"

typedef struct parsed {
    kiln_status st;
    char msg[512];
    kiln_raw_edges raw;
} parsed;

/* chunk 0: the serial parser. 0 when the input is not one the chunked parser takes (gzip). */
static int parse_raw(const char *path, unsigned flags, size_t chunk, parsed *out)
{
    kiln_ctx *ctx = fuzz_ctx();
    memset(out, 0, sizeof *out);
    kiln_reader *r;
    out->st = kiln_reader_open(ctx, path, &r);
    if (out->st == KILN_OK && !kiln_snap_can_chunk(r)) {
        kiln_reader_close(r);
        return 0;
    }
    if (out->st == KILN_OK)
        out->st = chunk ? kiln_parse_snap_chunked(ctx, r, flags, chunk, &out->raw)
                        : kiln_parse_snap_serial(ctx, r, flags, &out->raw);
    if (out->st != KILN_OK) snprintf(out->msg, sizeof out->msg, "%s", kiln_last_error(ctx));
    kiln_reader_close(r);
    return 1;
}

/* Chunks of about a 64th of the input, the fuzzer's last byte moving their ends. */
static void fuzz_compare_chunked(const uint8_t *data, size_t size, unsigned flags)
{
    char path[64];
    int fd = fuzz_memfd(data, size, path);
    parsed a, b;
    const size_t chunk = 1 + size / 64 + (size ? data[size - 1] % 8 : 0);
    if (parse_raw(path, flags, 0, &a)) {
        FUZZ_CHECK(parse_raw(path, flags, chunk, &b));
        FUZZ_CHECK(a.st == b.st && strcmp(a.msg, b.msg) == 0);
        if (a.st == KILN_OK) {
            const size_t n = a.raw.count;
            FUZZ_CHECK(n == b.raw.count);
            FUZZ_CHECK(n == 0 || (memcmp(a.raw.src, b.raw.src, n * 8) == 0 && memcmp(a.raw.dst, b.raw.dst, n * 8) == 0));
            FUZZ_CHECK(n == 0 || !(flags & KILN_GRAPH_WEIGHTED) || memcmp(a.raw.w, b.raw.w, n * sizeof(double)) == 0);
        }
        kiln_raw_edges_free(&a.raw);
        kiln_raw_edges_free(&b.raw);
    }
    close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_load_graph(data, size, KILN_GRAPH_SNAP, 0);
    fuzz_load_graph(data, size, KILN_GRAPH_SNAP, KILN_GRAPH_UNDIRECTED | KILN_GRAPH_DROP_SELF_LOOPS);
    fuzz_load_graph(data, size, KILN_GRAPH_SNAP, KILN_GRAPH_WEIGHTED);
    fuzz_load_graph(data, size, KILN_GRAPH_SNAP, KILN_GRAPH_WEIGHTED | KILN_GRAPH_UNDIRECTED);
    fuzz_compare_chunked(data, size, 0);
    fuzz_compare_chunked(data, size, KILN_GRAPH_WEIGHTED);
    return 0;
}
