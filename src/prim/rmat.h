/* The Graph500-style Kronecker (RMAT) edge generator, counter based so that any edge can be drawn
 * on its own: the CPU threads, the CUDA kernel and the cuSPARSE anchor script
 * (shared/anchors/pagerank_cupy.py) produce the same graph bit for bit for the same seed.
 *
 * Edge e, level l draws u = splitmix64(edge_base + 64*e + l) >> 11, a 53-bit uniform number, and
 * compares it with the initiator's cumulative probabilities scaled by 2^53: below A the edge stays
 * in the top-left quadrant, below A+B it takes the destination bit, below A+B+C the source bit,
 * else both. Vertex labels are then permuted: new label of raw vertex r = perm[r], where perm
 * lists the vertices in ascending order of splitmix64(perm_base + v). */
#ifndef KILN_PRIM_RMAT_H
#define KILN_PRIM_RMAT_H

#include "kiln_hd.h" /* the fixed-width types, also in OpenCL C (no <stdint.h> there) */

#define KILN_RMAT_A 0.57
#define KILN_RMAT_B 0.19
#define KILN_RMAT_C 0.19

typedef struct kiln_rmat_spec {
    int scale; /* 2^scale vertices */
    int edge_factor; /* edges = edge_factor << scale */
    uint64_t edge_base, perm_base;
    uint64_t ta, tab, tabc; /* A, A+B, A+B+C times 2^53 */
} kiln_rmat_spec;

KILN_HD uint64_t kiln_splitmix64(uint64_t x)
{
    uint64_t z = x + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

KILN_HD void kiln_rmat_spec_init(kiln_rmat_spec *s, int scale, int edge_factor, uint64_t seed)
{
    const double two53 = 9007199254740992.0;
    s->scale = scale;
    s->edge_factor = edge_factor;
    s->edge_base = kiln_splitmix64(2 * seed + 1);
    s->perm_base = kiln_splitmix64(2 * seed + 2);
    /* the same double sums as the anchor script: (A + B) + C, then truncation */
    s->ta = (uint64_t)(KILN_RMAT_A * two53);
    s->tab = (uint64_t)((KILN_RMAT_A + KILN_RMAT_B) * two53);
    s->tabc = (uint64_t)((KILN_RMAT_A + KILN_RMAT_B + KILN_RMAT_C) * two53);
}

/* Raw (unpermuted) endpoints of edge e. */
KILN_HD void kiln_rmat_edge(const kiln_rmat_spec *s, uint64_t e, uint32_t *src, uint32_t *dst)
{
    const uint64_t base = (e << 6) + s->edge_base;
    uint32_t a = 0, b = 0;
    for (int l = 0; l < s->scale; l++) {
        const uint64_t u = kiln_splitmix64(base + (uint64_t)l) >> 11;
        const uint32_t sb = u >= s->tab ? 1u : 0u;
        const uint32_t db = ((u >= s->ta && u < s->tab) || u >= s->tabc) ? 1u : 0u;
        a |= sb << l;
        b |= db << l;
    }
    *src = a;
    *dst = b;
}

/* The key that orders vertices for the label permutation. */
KILN_HD uint64_t kiln_rmat_perm_key(const kiln_rmat_spec *s, uint64_t v) { return kiln_splitmix64(s->perm_base + v); }

#endif
