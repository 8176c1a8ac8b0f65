/* poseidon2_goldilocks12, miden-crypto's Poseidon2::merge, against miden-crypto's published
 * EMPTY_SUBTREES (tests/data/miden_poseidon2_empty_roots.txt: the root of 2^d zero leaves for d =
 * 0..255, each the merge of two copies of the previous): every one as a chain of kiln_merkle_merge
 * calls, and d = 1..12 as kiln_merkle_build of 2^d zero leaves; the permutation of 0..11 as miden's
 * permutation_test_vector states it; the name, and a non-canonical node refused. */
#include <inttypes.h>

#include "check.h"
#include "kiln.h"
#include "prim/poseidon2_goldilocks.h"

#define DEPTHS 256

static uint64_t roots[DEPTHS][4];

static int load_roots(void)
{
    FILE *f = fopen(test_data("miden_poseidon2_empty_roots.txt"), "r");
    if (!f) return 0;
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        int d;
        uint64_t e[4];
        if (line[0] == '#') continue;
        if (sscanf(line, "%d %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64, &d, &e[0], &e[1], &e[2], &e[3]) != 5 ||
            d != n || n >= DEPTHS)
            break;
        memcpy(roots[n++], e, sizeof e);
    }
    fclose(f);
    return n;
}

static void put(uint8_t *node, const uint64_t e[4])
{
    for (int i = 0; i < 4; i++)
        for (int b = 0; b < 8; b++) node[8 * i + b] = (uint8_t)(e[i] >> (8 * b));
}

static void permutation(void)
{
    static const uint64_t want[12] = {0xf292ab67c0f14b03, 0x0a32f1b37656544c, 0x053c61ab895498de, 0x02ff92e55b196ffb,
                                      0x58176e8f6f58cab2, 0xb0aa1206e7aec0f8, 0xe90c13f3dce83ca4, 0xf4da15333edf39c2,
                                      0x23b701c053c2ca6c, 0xd233d593dcdfbf58, 0x4effa5f9516fb52e, 0x0aaf4489f1f40166};
    uint64_t s[12];
    for (int i = 0; i < 12; i++) s[i] = (uint64_t)i;
    kiln_poseidon2_gl12(s);
    CHECK(memcmp(s, want, sizeof s) == 0, "miden's permutation_test_vector");
}

static void empty_roots(kiln_ctx *ctx)
{
    const int n = load_roots();
    CHECK(n == DEPTHS, "%s: %d of %d roots read", test_data("miden_poseidon2_empty_roots.txt"), n, DEPTHS);
    if (n != DEPTHS) return;
    uint8_t node[32], want[32];
    put(node, roots[0]);
    int bad = 0, first_bad = -1;
    for (int d = 1; d < DEPTHS; d++) {
        uint8_t parent[32];
        if (kiln_merkle_merge(ctx, KILN_MERKLE_POSEIDON2_GOLDILOCKS12, node, node, parent) != KILN_OK) {
            CHECK(0, "merge at depth %d: %s", d, kiln_last_error(ctx));
            return;
        }
        put(want, roots[d]);
        if (memcmp(parent, want, 32) != 0 && bad++ == 0) first_bad = d;
        memcpy(node, want, 32); /* the next depth from miden's value, so one error is counted once */
    }
    CHECK(bad == 0, "%d of 255 empty-subtree roots differ from miden's, the first at depth %d", bad, first_bad);

    static uint8_t zeros[(1 << 12) * 32];
    for (int d = 1; d <= 12; d++) {
        uint8_t root[32];
        put(want, roots[d]);
        CHECK(kiln_merkle_build(ctx, KILN_MERKLE_POSEIDON2_GOLDILOCKS12, zeros, UINT64_C(1) << d, NULL, root, NULL) ==
                      KILN_OK &&
                  memcmp(root, want, 32) == 0,
              "the root of 2^%d zero leaves: %s", d, kiln_last_error(ctx));
    }
}

static void api(kiln_ctx *ctx)
{
    kiln_merkle_algo algo = KILN_MERKLE_SHA256D;
    CHECK(kiln_merkle_algo_from_name(ctx, "poseidon2_goldilocks12", &algo) == KILN_OK &&
              algo == KILN_MERKLE_POSEIDON2_GOLDILOCKS12,
          "name parses");
    CHECK_STR(kiln_merkle_algo_name(KILN_MERKLE_POSEIDON2_GOLDILOCKS12), "poseidon2_goldilocks12");
    uint8_t l[32], r[32] = {0}, o[32];
    memset(l, 0xff, sizeof l);
    CHECK(kiln_merkle_merge(ctx, KILN_MERKLE_POSEIDON2_GOLDILOCKS12, l, r, o) == KILN_ERR_INPUT,
          "a non-canonical node is refused");
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(ctx != NULL, "context");
    if (!ctx) return check_summary();
    permutation();
    empty_roots(ctx);
    api(ctx);
    kiln_ctx_free(ctx);
    return check_summary();
}
