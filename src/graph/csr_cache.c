/* kiln's binary CSR cache: a 128-byte header, then the arrays as they sit in memory, so a reload
 * is a few large reads. Little-endian 64-bit hosts only (the header records the byte order).
 *
 *   0  "KILNCSR\0"          8  u32 version (3)      12 u32 0x01020304 (byte order)
 *   16 u32 header bytes (128)  20 u32 flags (1: ids present, 2: weights present)
 *   24 u64 nodes   32 u64 edges   40 u64 id_base   48 u64 edges_read
 *   56 u64 self loops removed     64 u64 duplicates removed
 *   72 u64 checksum of the whole file: the sum of splitmix64(word + index * golden) over its 64-bit
 *          words, index counted from the file's start, this word counted as 0
 *   80 zeros to 128
 *   payload: offsets[nodes+1] u64, sources[edges] u32 (zero-padded to 8 bytes), ids[nodes] u64,
 *            weights[edges] f64 (aligned with sources)
 * Version 1 had no weights; version 2's checksum covered the payload only, so a changed id base
 * renamed every node unseen. Their files are refused with a request to rebuild them.
 *
 * Out-degrees and out-weights are recomputed on load, and every structural property the rest of
 * kiln relies on (offsets rising from 0 to edges, sources below nodes and ascending within a row,
 * ids ascending, weights finite and >= 0) is checked, so a damaged or hand-made file is refused
 * rather than trusted. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/mem_limit.h"
#include "parse_util.h"
#include "reader.h"
#include "../core/clock.h"

#define CACHE_MAGIC "KILNCSR"
#define CACHE_VERSION 3u
#define FLAG_IDS 1u
#define FLAG_WEIGHTS 2u
#define CACHE_HEADER 128u
#define GOLDEN 0x9E3779B97F4A7C15ull

typedef struct cache_header {
    char magic[8];
    uint32_t version, byte_order, header_bytes, flags;
    uint64_t n, m, id_base, edges_read, loops_removed, dups_removed, checksum;
    unsigned char pad[CACHE_HEADER - 80];
} cache_header;

int kiln_csr_cache_sniff(const unsigned char *head, size_t len)
{
    return len >= 8 && memcmp(head, CACHE_MAGIC, 8) == 0;
}

/* Checksum of `words` 64-bit words starting at word index `first` of the payload. */
static uint64_t checksum_words(const void *data, uint64_t bytes, uint64_t first, int threads)
{
    const unsigned char *p = data;
    const int64_t words = (int64_t)(bytes / 8);
    uint64_t h = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : h) schedule(static, 65536)
    for (int64_t i = 0; i < words; i++) {
        uint64_t w;
        memcpy(&w, p + 8 * i, 8);
        h += kiln_splitmix64(w + ((uint64_t)i + first) * GOLDEN);
    }
    if (bytes % 8) {
        uint64_t w = 0;
        memcpy(&w, p + 8 * (uint64_t)words, bytes % 8);
        h += kiln_splitmix64(w + ((uint64_t)words + first) * GOLDEN);
    }
    return h;
}

static uint64_t pad8(uint64_t b) { return (b + 7) & ~(uint64_t)7; }

/* The checksum of the file that holds header h (its checksum field counted as 0) and g's arrays. */
static uint64_t file_checksum(const cache_header *hdr, const kiln_graph *g, int threads)
{
    cache_header zeroed = *hdr;
    zeroed.checksum = 0;
    uint64_t w = CACHE_HEADER / 8, h = checksum_words(&zeroed, sizeof zeroed, 0, 1), b;
    b = (g->n + 1) * 8;
    h += checksum_words(g->offsets, b, w, threads);
    w += pad8(b) / 8;
    b = g->m * 4;
    h += checksum_words(g->sources, b, w, threads);
    w += pad8(b) / 8;
    if (g->ids) {
        h += checksum_words(g->ids, g->n * 8, w, threads);
        w += g->n;
    }
    if (g->weights) h += checksum_words(g->weights, g->m * 8, w, threads);
    return h;
}

kiln_status kiln_csr_cache_write_to(kiln_ctx *ctx, const kiln_graph *g, kiln_output_file *f)
{
    cache_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, CACHE_MAGIC, 8);
    h.version = CACHE_VERSION;
    h.byte_order = 0x01020304u;
    h.header_bytes = CACHE_HEADER;
    h.flags = (g->ids ? FLAG_IDS : 0u) | (g->weights ? FLAG_WEIGHTS : 0u);
    h.n = g->n;
    h.m = g->m;
    h.id_base = g->id_base;
    h.edges_read = g->info.edges_read;
    h.loops_removed = g->info.self_loops_removed;
    h.dups_removed = g->info.duplicates_removed;
    h.checksum = file_checksum(&h, g, kiln_graph_threads_bulk(ctx, g->n + g->m));
    FILE *fp = f->fp;
    static const unsigned char zeros[8];
    errno = 0;
    int ok = fwrite(&h, sizeof h, 1, fp) == 1;
    ok = ok && fwrite(g->offsets, 8, g->n + 1, fp) == g->n + 1;
    ok = ok && fwrite(g->sources, 4, g->m, fp) == g->m;
    ok = ok && (g->m % 2 == 0 || fwrite(zeros, 4, 1, fp) == 1);
    ok = ok && (!g->ids || fwrite(g->ids, 8, g->n, fp) == g->n);
    ok = ok && (!g->weights || fwrite(g->weights, 8, g->m, fp) == g->m);
    return kiln_output_finish(ctx, f, ok, errno);
}

kiln_status kiln_csr_cache_write(kiln_ctx *ctx, const kiln_graph *g, const char *path)
{
    kiln_output_file f;
    kiln_status st = kiln_output_open(ctx, path, &f);
    if (st == KILN_OK) st = kiln_csr_cache_write_to(ctx, g, &f);
    if (st != KILN_OK) return st;
    kiln_output_file *one[1] = {&f};
    return kiln_output_commit_all(ctx, one, 1);
}

#define REFUSE(...) KILN_FAIL_INPUT(__VA_ARGS__)

/* The next `bytes` of the input in a fresh block (at least 8 bytes). Unless the file's size already
 * vouched for the header, the block grows only as data arrives, so a damaged header on a pipe
 * cannot claim memory that the input does not hold. */
static kiln_status read_block(kiln_ctx *ctx, kiln_reader *r, uint64_t bytes, uint64_t total, void **out)
{
    unsigned char *p = NULL;
    uint64_t have = 0, cap = 0;
    *out = NULL;
    while (have < bytes || cap == 0) {
        uint64_t ncap = r->size >= 0 ? bytes : cap ? cap * 2 : UINT64_C(64) << 20;
        if (ncap > bytes) ncap = bytes;
        if (ncap < 8) ncap = 8;
        unsigned char *q = realloc(p, ncap);
        if (!q) {
            free(p);
            return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory loading %s", r->path);
        }
        p = q;
        cap = ncap;
        size_t want = (size_t)((cap < bytes ? cap : bytes) - have), got;
        kiln_status st = kiln_reader_read(ctx, r, p + have, want, &got);
        if (st == KILN_OK && got < want)
            st = kiln_fail(ctx, KILN_ERR_INPUT, "%s: CSR cache ends before the %llu bytes its header describes: truncated",
                           r->path, (unsigned long long)total);
        if (st != KILN_OK) {
            free(p);
            return st;
        }
        have += got;
    }
    *out = p;
    return KILN_OK;
}

kiln_status kiln_csr_cache_read(kiln_ctx *ctx, kiln_reader *r, int weighted, kiln_graph *g)
{
    kiln_status st = KILN_OK;
    const char *path = r->path;
    double t0 = kiln_now();
    cache_header h;
    size_t got;
    st = kiln_reader_read(ctx, r, &h, sizeof h, &got);
    if (st != KILN_OK) return st;
    if (got != sizeof h) REFUSE("%s: too short for a kiln CSR cache", path);
    if (memcmp(h.magic, CACHE_MAGIC, 8) != 0) REFUSE("%s: not a kiln CSR cache", path);
    if (h.byte_order != 0x01020304u) REFUSE("%s: CSR cache written on a machine of the other byte order", path);
    if (h.version != CACHE_VERSION)
        REFUSE("%s: CSR cache version %u, this kiln reads version %u: rebuild it from the graph file", path, h.version,
               CACHE_VERSION);
    if (h.header_bytes != CACHE_HEADER || h.flags > (FLAG_IDS | FLAG_WEIGHTS)) REFUSE("%s: damaged CSR cache header", path);
    for (size_t i = 0; i < sizeof h.pad; i++)
        if (h.pad[i]) REFUSE("%s: damaged CSR cache header (bytes 80-127 are not zero)", path);
    const int has_ids = (h.flags & FLAG_IDS) != 0, has_w = (h.flags & FLAG_WEIGHTS) != 0;
    if (weighted && !has_w)
        REFUSE("%s: CSR cache saved without edge weights: rebuild it from a weighted graph file", path);
    if (h.n > KILN_GRAPH_MAX_NODES || h.m > (UINT64_C(1) << 40)) REFUSE("%s: damaged CSR cache header (sizes)", path);
    /* without an ids array node i is id_base + i: the last id must not wrap past 2^64 */
    if (!has_ids && h.n && h.id_base > UINT64_MAX - (h.n - 1)) REFUSE("%s: damaged CSR cache header (node ids)", path);
    uint64_t want = CACHE_HEADER + (h.n + 1) * 8 + pad8(h.m * 4) + (has_ids ? h.n * 8 : 0) + (has_w ? h.m * 8 : 0);
    if (r->size >= 0 && (uint64_t)r->size != want)
        REFUSE("%s: CSR cache is %lld bytes, its header describes %llu: truncated or damaged", path, r->size,
               (unsigned long long)want);
    /* the arrays as stored, the out-degrees rebuilt here and the two rank vectors of a run; with
     * weights, the out-weights and their pass's scratch */
    double need = (double)want + (double)h.n * 20;
    if (has_w) need += (double)h.n * KILN_GRAPH_WEIGHT_NODE_BYTES + (double)h.m * 8;
    if ((st = kiln_mem_check(ctx, need, "%s: a CSR cache of %llu vertices and %llu edges",
                             path, (unsigned long long)h.n, (unsigned long long)h.m)) != KILN_OK)
        return st;
    g->n = h.n;
    g->m = h.m;
    g->id_base = h.id_base;
    const int threads = kiln_graph_threads_bulk(ctx, h.n + h.m);
    void *block;
    if ((st = read_block(ctx, r, (h.n + 1) * 8, want, &block)) != KILN_OK) goto fail;
    g->offsets = block;
    if ((st = read_block(ctx, r, pad8(h.m * 4), want, &block)) != KILN_OK) goto fail;
    g->sources = block;
    if (has_ids) {
        if ((st = read_block(ctx, r, h.n * 8, want, &block)) != KILN_OK) goto fail;
        g->ids = block;
    }
    if (has_w) {
        if ((st = read_block(ctx, r, h.m * 8, want, &block)) != KILN_OK) goto fail;
        g->weights = block;
    }
    const char *more;
    size_t extra;
    if ((st = kiln_reader_peek(ctx, r, 1, &more, &extra)) != KILN_OK) goto fail;
    if (extra) REFUSE("%s: CSR cache goes on past the %llu bytes its header describes: damaged", path, (unsigned long long)want);
    g->outdeg = calloc(h.n ? h.n : 1, 4);
    if (!g->outdeg) {
        st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory loading %s", path);
        goto fail;
    }
    if (file_checksum(&h, g, threads) != h.checksum) REFUSE("%s: CSR cache checksum mismatch: the file is damaged", path);

    /* structure */
    if (g->offsets[0] != 0 || g->offsets[h.n] != h.m) REFUSE("%s: CSR offsets do not span the edges", path);
    const int64_t n = (int64_t)h.n;
    int64_t bad = -1;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096) reduction(max : bad)
    for (int64_t v = 0; v < n; v++) {
        uint64_t lo = g->offsets[v], hi = g->offsets[v + 1];
        if (hi < lo || hi > h.m) {
            bad = v > bad ? v : bad;
            continue;
        }
        for (uint64_t j = lo; j < hi; j++)
            if (g->sources[j] >= h.n || (j > lo && g->sources[j] <= g->sources[j - 1])) {
                bad = v > bad ? v : bad;
                break;
            }
        if (g->ids && v > 0 && g->ids[v] <= g->ids[v - 1]) bad = v > bad ? v : bad;
        if (g->weights)
            for (uint64_t j = lo; j < hi; j++)
                if (!(g->weights[j] >= 0) || !isfinite(g->weights[j])) {
                    bad = v > bad ? v : bad;
                    break;
                }
    }
    if (bad >= 0) REFUSE("%s: CSR cache row %lld is malformed", path, (long long)bad);
#pragma omp parallel for num_threads(threads) schedule(static, 65536)
    for (int64_t j = 0; j < (int64_t)h.m; j++) {
#pragma omp atomic
        g->outdeg[g->sources[j]]++;
    }
    if (g->weights && !weighted) {
        /* the weights were checked with the rest; without KILN_GRAPH_WEIGHTED every edge weighs 1 */
        free(g->weights);
        g->weights = NULL;
    }
    if (g->weights && (st = kiln_graph_out_weights(ctx, g)) != KILN_OK) {
        if (st == KILN_ERR_INPUT) REFUSE("%s: CSR cache weights sum past the largest double: damaged", path);
        goto fail;
    }
    g->info.edges_read = h.edges_read;
    g->info.self_loops_removed = h.loops_removed;
    g->info.duplicates_removed = h.dups_removed;
    g->info.build_seconds = kiln_now() - t0;
    kiln_graph_finish_info(g, threads);
    return KILN_OK;
fail:
    kiln_graph_release(g);
    return st;
}
