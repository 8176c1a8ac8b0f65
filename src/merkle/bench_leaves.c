/* The leaves the Merkle benches build (src/api/bench_merkle.c, merkle.c), the same as the device
 * makes them in place (merkle_random, src/cuda/merkle.cu). Here, below src/api, because the
 * declaration is this folder's (merkle_internal.h): a header of a lower layer declares only what
 * its own layer or one below it defines. */
#include "../prim/merkle_merge.h"
#include "../prim/rmat.h"
#include "merkle_internal.h"

/* Each draw depends on i alone: threads split the words. */
void kiln_merkle_bench_leaves(uint8_t *leaves, uint64_t n, int field)
{
    const int64_t words = (int64_t)(4 * n);
#pragma omp parallel for schedule(static, 65536)
    for (int64_t i = 0; i < words; i++) {
        uint64_t v = kiln_splitmix64(1 + (uint64_t)i * UINT64_C(0x9E3779B97F4A7C15));
        v = kiln_node_canon_draw(v, field);
        for (int b = 0; b < 8; b++) leaves[8 * i + b] = (uint8_t)(v >> (8 * b));
    }
}
