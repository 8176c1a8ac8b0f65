/* Known answers for the Poseidon2 merges, on the context's device: Plonky3's own permutation tests
 * (test_default_babybear_poseidon2_width_16, ..._koalabear_..., ..._goldilocks_poseidon2_width_8,
 * Plonky3/Plonky3 at commit 5dc50e51; tests/data/poseidon2_plonky3.txt; the width-12 one as
 * miden-crypto's permutation_test_vector states it), then, on a GPU, a tree of
 * 1000 leaves built there (kiln_merkle_build re-checks the device's nodes on the CPU). */
#include <string.h>

#include "../core/ctx.h"
#include "../prim/poseidon2.h"
#include "../prim/poseidon2_goldilocks.h"
#include "registry_internal.h"

static const uint32_t in31[16] = {894848333, 1437655012, 1200606629, 1690012884, 71131202,   1749206695,
                                  1717947831, 120589055,  19776022,   42382981,   1831865506, 724844064,
                                  171220207,  1299207443, 227047920,  1783754913};
static const uint32_t bb16_out[16] = {516096821,  90309867,   1101817252, 1660784290, 360715097, 1789519026,
                                      1788910906, 563338433,  319524748,  1741414159, 1650859320, 894311162,
                                      1121347488, 1692793758, 1052633829, 1344246938};
static const uint32_t kb16_out[16] = {1934285469, 604889435,  133449501,  1026180808, 1830659359, 176667110,
                                      1391183747, 351743874,  1238264085, 1292768839, 2023573270, 1201586780,
                                      1360691759, 1230682461, 748270449,  651545025};
/* miden-crypto's permutation_test_vector (Plonky3's test_default_goldilocks_poseidon2_width_12): 0..11 in */
static const uint64_t gl12_out[12] = {0xf292ab67c0f14b03, 0x0a32f1b37656544c, 0x053c61ab895498de, 0x02ff92e55b196ffb,
                                      0x58176e8f6f58cab2, 0xb0aa1206e7aec0f8, 0xe90c13f3dce83ca4, 0xf4da15333edf39c2,
                                      0x23b701c053c2ca6c, 0xd233d593dcdfbf58, 0x4effa5f9516fb52e, 0x0aaf4489f1f40166};
static const uint64_t gl8_out[8] = {0x020cf04a1b214d14, 0x84e14aaaeacaed25, 0x1ae0f640e81c7457, 0xa4d204cbaeb0d8a5,
                                    0x0cf637b627b3a7ff, 0x788d304d948b486b, 0x7327133ea1949af4, 0xf415abb924da395b};

/* The permutation's known answer, then the device's tree. */
static kiln_status check(kiln_ctx *ctx, kiln_merkle_algo algo)
{
    int ok;
    if (algo == KILN_MERKLE_POSEIDON2_GOLDILOCKS12) {
        uint64_t s[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        kiln_poseidon2_gl12(s);
        ok = memcmp(s, gl12_out, sizeof s) == 0;
    } else if (algo == KILN_MERKLE_POSEIDON2_GOLDILOCKS8) {
        uint64_t s[8] = {0, 1, 2, 3, 4, 5, 6, 7};
        kiln_poseidon2_gl8(s);
        ok = memcmp(s, gl8_out, sizeof s) == 0;
    } else {
        uint32_t s[16];
        memcpy(s, in31, sizeof s);
        if (algo == KILN_MERKLE_POSEIDON2_BABYBEAR16) kiln_poseidon2_bb16(s);
        else kiln_poseidon2_kb16(s);
        ok = memcmp(s, algo == KILN_MERKLE_POSEIDON2_BABYBEAR16 ? bb16_out : kb16_out, sizeof s) == 0;
    }
    if (!ok)
        return kiln_fail(ctx, KILN_NOT_FOUND, "%s: the permutation's known answer failed", kiln_merkle_algo_name(algo));
    if (ctx->backend == KILN_BACKEND_CPU) return KILN_OK;
    enum { N = 1000 };
    static uint8_t leaves[N * KILN_MERKLE_NODE_SIZE];
    for (size_t i = 0; i < sizeof leaves; i++) leaves[i] = (uint8_t)(i * 131 % 251);
    for (size_t i = 3; i < sizeof leaves; i += 4) leaves[i] &= 0x3f; /* every u32 and u64 below p */
    uint8_t root[KILN_MERKLE_NODE_SIZE];
    return kiln_merkle_build(ctx, algo, leaves, N, NULL, root, NULL);
}

kiln_status kiln_selftest_poseidon2_babybear16(kiln_ctx *ctx) { return check(ctx, KILN_MERKLE_POSEIDON2_BABYBEAR16); }
kiln_status kiln_selftest_poseidon2_koalabear16(kiln_ctx *ctx) { return check(ctx, KILN_MERKLE_POSEIDON2_KOALABEAR16); }
kiln_status kiln_selftest_poseidon2_goldilocks8(kiln_ctx *ctx) { return check(ctx, KILN_MERKLE_POSEIDON2_GOLDILOCKS8); }
kiln_status kiln_selftest_poseidon2_goldilocks12(kiln_ctx *ctx) { return check(ctx, KILN_MERKLE_POSEIDON2_GOLDILOCKS12); }
