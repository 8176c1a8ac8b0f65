/* Original ids -> dense vertex indices. The distinct ids, ascending, become 0..n-1, so output in
 * index order is output in id order. Ids up to a few times the edge count are mapped through a
 * direct table; sparse ids (hashes, 64-bit user ids) through a sorted copy and binary search. */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

/* LSD radix sort of 64-bit keys, 16 bits a pass, skipping passes where every key agrees. */
static int radix_sort_u64(uint64_t *a, uint64_t n)
{
    uint64_t *tmp = malloc(n * sizeof *tmp);
    size_t *count = malloc(65536 * sizeof *count);
    if (!tmp || !count) {
        free(tmp);
        free(count);
        return -1;
    }
    uint64_t *from = a, *to = tmp;
    for (int shift = 0; shift < 64; shift += 16) {
        memset(count, 0, 65536 * sizeof *count);
        for (uint64_t i = 0; i < n; i++) count[(from[i] >> shift) & 0xFFFF]++;
        if (n && count[(from[0] >> shift) & 0xFFFF] == n) continue;
        size_t s = 0;
        for (int d = 0; d < 65536; d++) {
            size_t c = count[d];
            count[d] = s;
            s += c;
        }
        for (uint64_t i = 0; i < n; i++) to[count[(from[i] >> shift) & 0xFFFF]++] = from[i];
        uint64_t *t = from;
        from = to;
        to = t;
    }
    if (from != a) memcpy(a, from, n * sizeof *a);
    free(tmp);
    free(count);
    return 0;
}

static uint32_t lookup(const uint64_t *ids, uint64_t n, uint64_t id)
{
    uint64_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (ids[mid] <= id) lo = mid;
        else hi = mid;
    }
    return (uint32_t)lo;
}

kiln_status kiln_ids_remap(kiln_ctx *ctx, kiln_raw_edges *raw, kiln_edges *out, uint64_t **ids_out)
{
    const int threads = kiln_graph_threads_bulk(ctx, raw->count);
    const int64_t count = (int64_t)raw->count;
    memset(out, 0, sizeof *out);
    *ids_out = NULL;
    out->src = malloc((raw->count ? raw->count : 1) * sizeof *out->src);
    out->dst = malloc((raw->count ? raw->count : 1) * sizeof *out->dst);
    if (!out->src || !out->dst) {
        kiln_edges_free(out);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu edges", (unsigned long long)raw->count);
    }
    out->count = raw->count;
    uint64_t max_id = 0;
#pragma omp parallel for num_threads(threads) reduction(max : max_id)
    for (int64_t i = 0; i < count; i++) {
        if (raw->src[i] > max_id) max_id = raw->src[i];
        if (raw->dst[i] > max_id) max_id = raw->dst[i];
    }
    uint64_t *ids = NULL, n = 0;
    /* the largest id is found; the numbering and translation follow (two more passes) */
    kiln_ctx_report(ctx, "id map", "passes", 1, 3);
    if (kiln_ctx_interrupt_requested(ctx)) {
        kiln_edges_free(out);
        return kiln_interrupted(ctx);
    }
    if (count > 0 && max_id < UINT64_C(0xFFFFFFFF) && max_id <= 4 * (uint64_t)count + 65536) {
        /* direct table: mark, number in id order, translate */
        uint32_t *map = calloc(max_id + 1, sizeof *map);
        if (!map) goto oom;
#pragma omp parallel for num_threads(threads)
        for (int64_t i = 0; i < count; i++) {
#pragma omp atomic write
            map[raw->src[i]] = 1;
#pragma omp atomic write
            map[raw->dst[i]] = 1;
        }
        for (uint64_t v = 0; v <= max_id; v++) {
            uint32_t present = map[v];
            map[v] = (uint32_t)n;
            n += present;
        }
        if (n != max_id + 1) {
            ids = malloc(n * sizeof *ids);
            if (!ids) {
                free(map);
                goto oom;
            }
            /* map[v] is v's index when v is present; a present v is where map steps up */
            uint64_t k = 0;
            for (uint64_t v = 0; v <= max_id && k < n; v++)
                if ((v < max_id ? map[v + 1] : n) != map[v]) ids[k++] = v;
        }
#pragma omp parallel for num_threads(threads)
        for (int64_t i = 0; i < count; i++) {
            out->src[i] = map[raw->src[i]];
            out->dst[i] = map[raw->dst[i]];
        }
        free(map);
    } else if (count > 0) {
        uint64_t total = 2 * (uint64_t)count;
        uint64_t *all = malloc(total * sizeof *all);
        if (!all) goto oom;
        memcpy(all, raw->src, (size_t)count * sizeof *all);
        memcpy(all + count, raw->dst, (size_t)count * sizeof *all);
        if (radix_sort_u64(all, total) != 0) {
            free(all);
            goto oom;
        }
        for (uint64_t i = 0; i < total; i++)
            if (n == 0 || all[i] != all[n - 1]) all[n++] = all[i];
        if (n > KILN_GRAPH_MAX_NODES) {
            free(all);
            kiln_edges_free(out);
            return kiln_fail(ctx, KILN_ERR_INPUT, "%llu distinct vertices is more than kiln handles (%llu)",
                             (unsigned long long)n, (unsigned long long)KILN_GRAPH_MAX_NODES);
        }
        uint64_t *shrunk = realloc(all, n * sizeof *all);
        ids = shrunk ? shrunk : all;
#pragma omp parallel for num_threads(threads)
        for (int64_t i = 0; i < count; i++) {
            out->src[i] = lookup(ids, n, raw->src[i]);
            out->dst[i] = lookup(ids, n, raw->dst[i]);
        }
    }
    out->n = n;
    *ids_out = ids;
    kiln_raw_edges_free(raw);
    return KILN_OK;
oom:
    kiln_edges_free(out);
    return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory remapping vertex ids");
}
