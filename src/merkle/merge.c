/* The table of merge kinds (from the list, prim/merkle_merges.h) and the one-merge entry point. */
#include <string.h>

#include "../core/ctx.h"
#include "../hash/blake3_host.h"
#include "../hash/keccak_host.h"
#include "../prim/keccak.h"
#include "../prim/merkle_merge.h"
#include "../prim/merkle_merges.h"
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

/* The merge kinds of KILN_MERKLE_MERGES (prim/merkle_merges.h), by kiln_merkle_algo value. */
#define KIND(ID, KERNEL, MERGE, NODE, PAIRS, NAME, SHORT, HELP, SELFTEST) [ID] = {MERGE, NODE, PAIRS},
static const kiln_merkle_kind kinds[KILN_MERKLE_ALGO_COUNT] = {KILN_MERKLE_MERGES(KIND)};
#undef KIND
#define ONE(ID, KERNEL, MERGE, NODE, PAIRS, NAME, SHORT, HELP, SELFTEST) +1
_Static_assert(0 KILN_MERKLE_MERGES(ONE) == KILN_MERKLE_ALGO_COUNT,
               "a kiln_merkle_algo without its line in merkle_merges.h");
#undef ONE

kiln_status kiln_merkle_kind_get(kiln_ctx *ctx, kiln_merkle_algo algo, const kiln_merkle_kind **kind)
{
    if ((unsigned)algo >= KILN_MERKLE_ALGO_COUNT)
        return kiln_fail(ctx, KILN_ERR_INPUT, "unknown merkle algorithm %d", (int)algo);
    *kind = &kinds[algo];
    return KILN_OK;
}

/* The first element of node w that is not canonical for `field`, or -1. */
static int bad_element(const uint32_t w[KILN_NODE_WORDS], int field)
{
    if (kiln_node_canonical(w, field)) return -1;
    const int words = field == KILN_NODE_GOLDILOCKS ? 2 : 1;
    for (int e = 0; e < KILN_NODE_WORDS / words; e++) {
        uint32_t one[KILN_NODE_WORDS] = {0};
        for (int k = 0; k < words; k++) one[k] = w[words * e + k];
        if (!kiln_node_canonical(one, field)) return e;
    }
    return 0;
}

static const char *field_bound(int field)
{
    switch (field) {
    case KILN_NODE_GOLDILOCKS: return "2^64 - 2^32 + 1";
    case KILN_NODE_BABYBEAR: return "2^31 - 2^27 + 1";
    default: return "2^31 - 2^24 + 1";
    }
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
        uint32_t w[KILN_NODE_WORDS];
        kiln_node_load(nodes + 32 * i, w);
        const int e = bad_element(w, kind->field_elements);
        if (e >= 0)
            return kiln_fail(ctx, KILN_ERR_INPUT,
                             "%s %llu: element %d is not a canonical field element (must be below %s)", what,
                             (unsigned long long)i, e, field_bound(kind->field_elements));
    }
    return KILN_OK;
}

int kiln_merkle_nodes_valid(const kiln_merkle_kind *kind, const uint8_t *nodes, uint64_t n)
{
    if (!kind->field_elements) return 1;
    int ok = 1;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t w[KILN_NODE_WORDS];
        kiln_node_load(nodes + 32 * i, w);
        ok &= kiln_node_canonical(w, kind->field_elements);
    }
    return ok;
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
