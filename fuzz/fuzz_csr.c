/* kiln's binary CSR cache through kiln_graph_load. Each input is loaded as given, then again with
 * its checksum field recomputed (and the sources' padding cleared), so that the structural checks
 * behind the checksum (offsets, sources, ids) are fuzzed too, not only the header's. */
#include "fuzz_util.h"
#include "fuzz_graph.h"
#include "prim/rmat.h"

#define HEADER 128u
#define CHECKSUM_AT 72u
#define GOLDEN 0x9E3779B97F4A7C15ull

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The file's checksum as the format defines it (csr_cache.c): over its 64-bit words, the last one
 * zero-padded, each mixed with its index, the checksum word itself counted as 0. */
static uint64_t file_sum(const uint8_t *p, size_t len)
{
    uint64_t h = 0;
    for (size_t i = 0; i * 8 < len; i++) {
        uint64_t w = 0;
        if (i != CHECKSUM_AT / 8) memcpy(&w, p + 8 * i, len - 8 * i < 8 ? len - 8 * i : 8);
        h += kiln_splitmix64(w + (uint64_t)i * GOLDEN);
    }
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_load_graph(data, size, KILN_GRAPH_CSR, 0);
    if (size < HEADER) return 0;
    uint8_t *fixed = malloc(size);
    if (!fixed) abort();
    memcpy(fixed, data, size);
    uint64_t n = get_u64(fixed + 24), m = get_u64(fixed + 32);
    if (n < size && m < size && m % 2) {
        size_t pad = HEADER + (size_t)(n + 1) * 8 + (size_t)m * 4;
        if (pad + 4 <= size) memset(fixed + pad, 0, 4);
    }
    uint64_t sum = file_sum(fixed, size);
    memcpy(fixed + CHECKSUM_AT, &sum, 8);
    fuzz_load_graph(fixed, size, KILN_GRAPH_CSR, 0);
    free(fixed);
    return 0;
}
