/* The table of merge kinds and the one-merge entry point. */
#include <string.h>

#include "../core/ctx.h"
#include "../hash/blake3_host.h"
#include "../hash/keccak_host.h"
#include "../prim/keccak.h"
#include "../prim/merkle_merge.h"
#include "merkle_internal.h"

#define POLL_MASK ((UINT64_C(1) << 20) - 1) /* leaves checked between interrupt polls */

/* A Keccak merge is the sponge of the 64-byte message left || right (prim/merkle_merge.h), so a
 * level's pairs are a batch of 64-byte messages for the Keccak lanes kernels. */
static void pairs_sha3_256(const uint8_t *in, uint64_t n, uint8_t *out)
{
    kiln_keccak_batch(136, KILN_KECCAK_DOMAIN_SHA3, in, 2 * KILN_MERKLE_NODE_SIZE, (size_t)n, out,
                      KILN_MERKLE_NODE_SIZE);
}

static void pairs_keccak256(const uint8_t *in, uint64_t n, uint8_t *out)
{
    kiln_keccak_batch(136, KILN_KECCAK_DOMAIN_KECCAK, in, 2 * KILN_MERKLE_NODE_SIZE, (size_t)n, out,
                      KILN_MERKLE_NODE_SIZE);
}

/* A BLAKE3 merge is a one-block message, so a level's pairs go through the SIMD lanes that hash
 * chunks (kiln_blake3_batch). */
static void pairs_blake3(const uint8_t *in, uint64_t n, uint8_t *out)
{
    kiln_blake3_batch(in, 2 * KILN_MERKLE_NODE_SIZE, (size_t)n, out);
}

static const kiln_merkle_kind kinds[KILN_MERKLE_ALGO_COUNT] = {
    [KILN_MERKLE_SHA256D] = {kiln_merge_sha256d, 0, NULL},
    [KILN_MERKLE_SHA256] = {kiln_merge_sha256, 0, NULL},
    [KILN_MERKLE_SHA3_256] = {kiln_merge_sha3_256, 0, pairs_sha3_256},
    [KILN_MERKLE_KECCAK256] = {kiln_merge_keccak256, 0, pairs_keccak256},
    [KILN_MERKLE_RP64_256] = {kiln_merge_rp64, 1, NULL},
    [KILN_MERKLE_BLAKE2S] = {kiln_merge_blake2s, 0, NULL},
    [KILN_MERKLE_BLAKE2S_STWO] = {kiln_merge_blake2s_stwo, 0, NULL},
    [KILN_MERKLE_BLAKE3] = {kiln_merge_blake3, 0, pairs_blake3},
    [KILN_MERKLE_RPO256] = {kiln_merge_rpo256, 1, NULL},
};

kiln_status kiln_merkle_kind_get(kiln_ctx *ctx, kiln_merkle_algo algo, const kiln_merkle_kind **kind)
{
    if ((unsigned)algo >= KILN_MERKLE_ALGO_COUNT)
        return kiln_fail(ctx, KILN_ERR_INPUT, "unknown merkle algorithm %d", (int)algo);
    *kind = &kinds[algo];
    return KILN_OK;
}

static uint64_t load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

kiln_status kiln_merkle_check_nodes(kiln_ctx *ctx, const kiln_merkle_kind *kind, const uint8_t *nodes, uint64_t n,
                                    const char *what)
{
    if (!kind->field_elements) return KILN_OK;
    for (uint64_t i = 0; i < n; i++) {
        if ((i & POLL_MASK) == POLL_MASK) {
            kiln_ctx_report(ctx, "leaf check", "leaves", i, n);
            if (kiln_ctx_interrupt_requested(ctx)) return kiln_interrupted(ctx);
        }
        for (int e = 0; e < 4; e++) {
            if (load_le64(nodes + 32 * i + 8 * e) >= KILN_GL_P)
                return kiln_fail(ctx, KILN_ERR_INPUT,
                                 "%s %llu: element %d is not a canonical field element (must be below 2^64 - 2^32 + 1)",
                                 what, (unsigned long long)i, e);
        }
    }
    return KILN_OK;
}

int kiln_merkle_nodes_valid(const kiln_merkle_kind *kind, const uint8_t *nodes, uint64_t n)
{
    if (!kind->field_elements) return 1;
    int over = 0;
    for (uint64_t i = 0; i < 4 * n; i++) over |= load_le64(nodes + 8 * i) >= KILN_GL_P;
    return !over;
}

void kiln_merkle_merge_bytes(const kiln_merkle_kind *kind, const uint8_t *left, const uint8_t *right, uint8_t *out)
{
    uint32_t l[8], r[8], o[8];
    kiln_node_load(left, l);
    kiln_node_load(right, r);
    kind->merge(l, r, o);
    kiln_node_store(out, o);
}

kiln_status kiln_merkle_merge(kiln_ctx *ctx, kiln_merkle_algo algo, const uint8_t left[32], const uint8_t right[32],
                              uint8_t out[32])
{
    const kiln_merkle_kind *kind = NULL;
    kiln_status st = kiln_merkle_kind_get(ctx, algo, &kind);
    if (st != KILN_OK) return st;
    if (!left || !right || !out) return kiln_fail(ctx, KILN_ERR_INPUT, "missing node");
    if ((st = kiln_merkle_check_nodes(ctx, kind, left, 1, "left node")) != KILN_OK) return st;
    if ((st = kiln_merkle_check_nodes(ctx, kind, right, 1, "right node")) != KILN_OK) return st;
    kiln_merkle_merge_bytes(kind, left, right, out);
    return KILN_OK;
}
