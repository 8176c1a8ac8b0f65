/* Leaves from the rows of a matrix: each row's elements hashed into one 32-byte node by a leaf
 * hash of a Poseidon2 merge (kiln_merkle_leaf_hash: Plonky3's PaddingFreeSponge at the merge's
 * width or, over BabyBear and KoalaBear, at width 24; miden-crypto's hash_elements for
 * poseidon2_goldilocks12), the first digest layer of Plonky3's MerkleTree over one matrix. Rows are
 * checked canonical first, then hashed on the context's GPU where its backend can
 * (src/cuda/merkle_rows.cu, src/opencl/kernels/merkle_rows.cl), else on the CPU's threads. */
#include <stdio.h>
#include <string.h>

#include "../core/ctx.h"
#include "../core/gpu.h"
#include "../core/par.h"
#include "../prim/merkle_merge.h"
#include "../core/leaf_sponge.h"
#include "merkle_internal.h"

#define ROWS_PER_RUN 64
#define RUNS_PER_POLL 256
#define MAX_ROW_ELEMS (UINT64_C(1) << 24) /* a sanity bound: 128 MiB of Goldilocks elements a row */

typedef struct rows_job {
    int sponge;
    const uint8_t *rows;
    uint64_t n, first;
    size_t row_elems, elem_size;
    uint8_t *leaves;
} rows_job;

static uint64_t load_le(const uint8_t *p, size_t size)
{
    uint64_t v = 0;
    for (size_t b = size; b-- > 0;) v = v << 8 | p[b];
    return v;
}

/* The leaf of one row, a block of the sponge's rate at a time (the absorb steps of
 * src/prim/poseidon2_sponge.h, which the GPU kernels run too). F and W are constants where
 * hash_row calls these, so the permutation is specialized. */
static inline __attribute__((always_inline)) void row_m31(const uint8_t *row, size_t elems, int f, int w,
                                                          uint32_t out[8])
{
    uint32_t s[24] = {0}, blk[16];
    const int rate = w - 8;
    for (size_t i = 0; i < elems; i += (size_t)rate) {
        const int k = elems - i < (size_t)rate ? (int)(elems - i) : rate;
        for (int j = 0; j < k; j++) blk[j] = (uint32_t)load_le(row + 4 * (i + (size_t)j), 4);
        kiln_p2_m31_absorb(s, blk, k, f, w);
    }
    kiln_p2_m31_squeeze16(s, out, f);
}

static inline __attribute__((always_inline)) void row_gl(const uint8_t *row, size_t elems, int id, uint32_t out[8])
{
    uint64_t s[12], blk[8];
    const int rate = kiln_p2s_rate(id);
    kiln_p2_gl_sponge_init(s, id, elems);
    for (size_t i = 0; i < elems; i += (size_t)rate) {
        const int k = elems - i < (size_t)rate ? (int)(elems - i) : rate;
        for (int j = 0; j < k; j++) blk[j] = load_le(row + 8 * (i + (size_t)j), 8);
        kiln_p2_gl_absorb(s, blk, k, id);
    }
    kiln_elements_to_node(s, out);
}

static void hash_row(int id, const uint8_t *row, size_t elems, uint8_t out[32])
{
    uint32_t w[KILN_NODE_WORDS];
    switch (id) {
    case KILN_P2S_BB16: row_m31(row, elems, KILN_P2_BABYBEAR, 16, w); break;
    case KILN_P2S_KB16: row_m31(row, elems, KILN_P2_KOALABEAR, 16, w); break;
    case KILN_P2S_BB24: row_m31(row, elems, KILN_P2_BABYBEAR, 24, w); break;
    case KILN_P2S_KB24: row_m31(row, elems, KILN_P2_KOALABEAR, 24, w); break;
    case KILN_P2S_GL8: row_gl(row, elems, KILN_P2S_GL8, w); break;
    case KILN_P2S_GL12: row_gl(row, elems, KILN_P2S_GL12, w); break;
    default: row_gl(row, elems, KILN_P2S_GL12_MIDEN, w); break;
    }
    kiln_node_store(out, w);
}

static void rows_run(void *arg, uint64_t run, int slot)
{
    const rows_job *j = arg;
    (void)slot;
    const uint64_t i0 = j->first + run * ROWS_PER_RUN, i1 = j->n - i0 < ROWS_PER_RUN ? j->n : i0 + ROWS_PER_RUN;
    const size_t row_bytes = j->row_elems * j->elem_size;
    for (uint64_t i = i0; i < i1; i++)
        hash_row(j->sponge, j->rows + row_bytes * i, j->row_elems, j->leaves + 32 * i);
}

/* The device's leaves of the first and last rows and of SAMPLE rows between (splitmix64 picks)
 * against the CPU's, as the device's trees are re-checked: KILN_ERR_DEVICE on a difference. */
#define SAMPLE 64
static kiln_status check_sample(kiln_ctx *ctx, int sponge, const uint8_t *rows, uint64_t n,
                                size_t row_elems, size_t size, const uint8_t *leaves)
{
    const size_t row_bytes = row_elems * size;
    uint64_t z = UINT64_C(0x6b696c6e);
    for (int k = 0; k < SAMPLE + 2; k++) {
        uint64_t i = k == 0 ? 0 : k == 1 ? n - 1 : 0;
        if (k > 1) {
            z += UINT64_C(0x9E3779B97F4A7C15);
            uint64_t x = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
            x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
            i = (x ^ (x >> 31)) % n;
        }
        uint8_t want[32];
        hash_row(sponge, rows + row_bytes * i, row_elems, want);
        if (memcmp(want, leaves + 32 * i, 32) != 0)
            return kiln_fail(ctx, KILN_ERR_DEVICE, "the device's leaf of row %llu differs from the CPU's",
                             (unsigned long long)i);
    }
    return KILN_OK;
}

const char *kiln_merkle_leaf_hash_name(kiln_merkle_leaf_hash leaf)
{
    switch (leaf) {
    case KILN_MERKLE_LEAF_SPONGE: return "sponge";
    case KILN_MERKLE_LEAF_SPONGE24: return "sponge24";
    case KILN_MERKLE_LEAF_MIDEN: return "miden";
    }
    return NULL;
}

kiln_status kiln_merkle_leaf_hash_from_name(kiln_ctx *ctx, const char *name, kiln_merkle_leaf_hash *leaf)
{
    for (int i = KILN_MERKLE_LEAF_SPONGE; i <= KILN_MERKLE_LEAF_MIDEN; i++)
        if (name && strcmp(name, kiln_merkle_leaf_hash_name((kiln_merkle_leaf_hash)i)) == 0) {
            *leaf = (kiln_merkle_leaf_hash)i;
            return KILN_OK;
        }
    return kiln_fail(ctx, KILN_ERR_INPUT, "unknown leaf hash %s (sponge, sponge24 or miden)", name ? name : "(null)");
}

size_t kiln_merkle_row_element_bytes(kiln_merkle_algo algo)
{
    const int sponge = kiln_leaf_sponge(algo, KILN_MERKLE_LEAF_SPONGE);
    return sponge < 0 ? 0 : kiln_leaf_sponge_elem_size(sponge);
}

kiln_status kiln_merkle_leaves_from_rows(kiln_ctx *ctx, kiln_merkle_algo algo, const uint8_t *rows, uint64_t n,
                                         size_t row_elems, uint8_t *leaves)
{
    return kiln_merkle_leaves_from_rows_with(ctx, algo, KILN_MERKLE_LEAF_SPONGE, rows, n, row_elems, leaves);
}

kiln_status kiln_merkle_leaves_from_rows_with(kiln_ctx *ctx, kiln_merkle_algo algo, kiln_merkle_leaf_hash leaf,
                                              const uint8_t *rows, uint64_t n, size_t row_elems, uint8_t *leaves)
{
    const kiln_merkle_kind *kind = NULL;
    kiln_status st = kiln_merkle_kind_get(ctx, algo, &kind);
    if (st != KILN_OK) return st;
    const int sponge = kiln_leaf_sponge(algo, leaf);
    if (sponge < 0 && kiln_leaf_sponge(algo, KILN_MERKLE_LEAF_SPONGE) < 0)
        return kiln_fail(ctx, KILN_ERR_INPUT, "leaves from rows need a Poseidon2 merge (poseidon2_*)");
    if (sponge < 0) {
        char takes[64] = "";
        for (int l = KILN_MERKLE_LEAF_SPONGE; l <= KILN_MERKLE_LEAF_MIDEN; l++)
            if (kiln_leaf_sponge(algo, (kiln_merkle_leaf_hash)l) >= 0)
                snprintf(takes + strlen(takes), sizeof takes - strlen(takes), "%s%s", *takes ? " or " : "",
                         kiln_merkle_leaf_hash_name((kiln_merkle_leaf_hash)l));
        const char *name = kiln_merkle_leaf_hash_name(leaf);
        return kiln_fail(ctx, KILN_ERR_INPUT, "this merge has no leaf hash %s (it takes %s)", name ? name : "of that number",
                         takes);
    }
    if ((!rows && n && row_elems) || (!leaves && n)) return kiln_fail(ctx, KILN_ERR_INPUT, "missing rows or leaves");
    if ((uint64_t)row_elems > MAX_ROW_ELEMS)
        return kiln_fail(ctx, KILN_ERR_INPUT, "rows of %zu elements: at most 2^24", row_elems);
    const size_t size = kiln_leaf_sponge_elem_size(sponge); /* as kiln_merkle_row_element_bytes */
    const uint64_t p = kind->field_elements == KILN_NODE_GOLDILOCKS ? KILN_GL_P
                       : kind->field_elements == KILN_NODE_BABYBEAR  ? KILN_BB_P
                                                                     : KILN_KB_P;
    if (row_elems && n > UINT64_MAX / 8 / row_elems)
        return kiln_fail(ctx, KILN_ERR_INPUT, "%llu rows of %zu elements: too many", (unsigned long long)n, row_elems);
    const uint64_t elems = n * (uint64_t)row_elems;
    for (uint64_t i = 0; i < elems; i++) {
        if ((i & ((UINT64_C(1) << 22) - 1)) == 0 && i && kiln_ctx_interrupt_requested(ctx)) return kiln_interrupted(ctx);
        if (load_le(rows + size * i, size) >= p)
            return kiln_fail(ctx, KILN_ERR_INPUT, "row %llu: element %llu is not a canonical field element",
                             (unsigned long long)(i / row_elems), (unsigned long long)(i % row_elems));
    }
    /* on a GPU whose backend hashes rows (CUDA), its first device; else the CPU's threads */
    if (ctx && ctx->backend != KILN_BACKEND_CPU && ctx->gpu && ctx->gpu->tree && ctx->gpu->tree->rows && n) {
        kiln_gpu *g;
        if ((st = kiln_ctx_gpu(ctx, 0, &g)) != KILN_OK) return st;
        if ((st = ctx->gpu->tree->rows(g, algo, leaf, rows, n, row_elems, leaves)) != KILN_OK) return st;
        return check_sample(ctx, sponge, rows, n, row_elems, size, leaves);
    }
    const int threads = kiln_threads_auto(ctx ? ctx->threads : 0);
    const uint64_t slice = (uint64_t)ROWS_PER_RUN * RUNS_PER_POLL * (uint64_t)threads;
    for (uint64_t first = 0; first < n; first += slice) {
        if (first && kiln_ctx_interrupt_requested(ctx)) return kiln_interrupted(ctx);
        const uint64_t end = n - first < slice ? n : first + slice;
        rows_job j = {sponge, rows, end, first, row_elems, size, leaves};
        kiln_par_for(kiln_threads_for(threads, end - first, ROWS_PER_RUN), (end - first + ROWS_PER_RUN - 1) / ROWS_PER_RUN,
                     rows_run, &j);
    }
    return KILN_OK;
}
