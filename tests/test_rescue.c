/* Goldilocks arithmetic and Rescue Prime Rp64_256 against Winterfell's published permutation
 * vector (authoritative), the parameter file's MDS matrix, and the derived cross-check vectors;
 * field operations against plain 128-bit remainders. */
#include "check.h"
#include "kiln.h"
#include "prim/merkle_merge.h"
#include "prim/rescue.h"
#include "test_data_files.h"

#define P KILN_GL_P

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 u128;
static uint64_t ref_mul(uint64_t a, uint64_t b) { return (uint64_t)(((u128)a * b) % P); }
static uint64_t ref_add(uint64_t a, uint64_t b) { return (uint64_t)(((u128)a + b) % P); }
#endif

static void field_ops(void)
{
    static const uint64_t edge[] = {0, 1, 2, P - 1, P - 2, UINT64_C(0xFFFFFFFF), UINT64_C(0x100000000),
                                    UINT64_C(0xFFFFFFFF00000000), UINT64_C(1) << 63, (P - 1) / 2};
    unsigned long long seed = 11;
    uint64_t vals[200];
    int nv = 0;
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) vals[nv++] = edge[i];
    while (nv < 200) vals[nv++] = test_rand(&seed) % P;
    int bad_mul = 0, bad_add = 0, bad_sub = 0, bad_inv = 0;
    for (int i = 0; i < nv; i++) {
        for (int j = 0; j < nv; j++) {
            uint64_t a = vals[i], b = vals[j];
#if defined(__SIZEOF_INT128__)
            bad_mul += kiln_gl_mul(a, b) != ref_mul(a, b);
            bad_add += kiln_gl_add(a, b) != ref_add(a, b);
#endif
            bad_sub += kiln_gl_add(kiln_gl_sub(a, b), b) != a;
        }
        if (vals[i]) bad_inv += kiln_gl_mul(vals[i], kiln_gl_inv(vals[i])) != 1;
    }
    CHECK(bad_mul == 0, "%d products differ from the 128-bit remainder", bad_mul);
    CHECK(bad_add == 0, "%d sums differ", bad_add);
    CHECK(bad_sub == 0, "%d differences do not add back", bad_sub);
    CHECK(bad_inv == 0, "%d inverses wrong", bad_inv);
    /* non-canonical inputs to mul: 2^64 - 1 = 2^32 - 2 (mod p) */
    CHECK(kiln_gl_mul(UINT64_MAX, 1) == UINT64_C(0xFFFFFFFE), "reduction of 2^64 - 1");
    CHECK(kiln_gl_mul(UINT64_MAX, UINT64_MAX) == kiln_gl_mul(UINT64_C(0xFFFFFFFE), UINT64_C(0xFFFFFFFE)),
          "square of 2^64 - 1");
    /* 2^96 = -1 */
    CHECK(kiln_gl_mul(UINT64_C(1) << 48, UINT64_C(1) << 48) == P - 1, "2^96 = -1");
}

static void sboxes(void)
{
    static const uint64_t inv_alpha = UINT64_C(10540996611094048183);
    unsigned long long seed = 5;
    int bad = 0, bad_pow = 0;
    for (int i = 0; i < 300; i++) {
        uint64_t x = i < 3 ? (uint64_t)i : test_rand(&seed) % P;
        bad += kiln_rp64_pow_inv7(kiln_rp64_pow7(x)) != x || kiln_rp64_pow7(kiln_rp64_pow_inv7(x)) != x;
        bad_pow += kiln_rp64_pow_inv7(x) != kiln_gl_pow(x, inv_alpha) || kiln_rp64_pow7(x) != kiln_gl_pow(x, 7);
    }
    CHECK(bad == 0, "%d S-box round trips fail", bad);
    CHECK(bad_pow == 0, "%d addition-chain results differ from square-and-multiply", bad_pow);
}

static void parameters(const char *json)
{
    uint64_t mds[144], ark[84];
    CHECK(json_u64_matrix(json, "MDS", mds, 12, 12) == 144, "MDS matrix in the parameter file");
    int bad = 0;
    for (int j = 0; j < 12; j++) {
        uint64_t s[12] = {0};
        s[j] = 1; /* column j of the matrix */
        kiln_rp64_mds(s);
        for (int i = 0; i < 12; i++) bad += s[i] != mds[12 * i + j];
    }
    CHECK(bad == 0, "%d MDS entries differ from the parameter file", bad);
    for (int which = 0; which < 2; which++) {
        CHECK(json_u64_matrix(json, which ? "ARK2" : "ARK1", ark, 7, 12) == 84, "ARK%d in the parameter file",
              which + 1);
        int diff = 0;
        for (int i = 0; i < 84; i++) diff += kiln_rp64_ark(which, i) != ark[i];
        CHECK(diff == 0, "%d ARK%d constants differ from the parameter file", diff, which + 1);
    }
}

static void permutation_vectors(const char *json, const char *derived)
{
    uint64_t in[12], out[12], s[12];
    const char *pos = strstr(json, "\"permutation_vectors\"");
    CHECK(pos && json_u64s(&pos, "input", in, 12) == 12 && json_u64s(&pos, "output", out, 12) == 12,
          "published permutation vector");
    memcpy(s, in, sizeof s);
    kiln_rp64_permute(s);
    CHECK(memcmp(s, out, sizeof s) == 0, "Winterfell's permutation vector (input 0..11)");

    int count = 0;
    pos = strstr(derived, "\"permutation\"");
    while (pos && json_u64s(&pos, "input", in, 12) == 12 && json_u64s(&pos, "output", out, 12) == 12) {
        memcpy(s, in, sizeof s);
        kiln_rp64_permute(s);
        CHECK(memcmp(s, out, sizeof s) == 0, "derived permutation vector %d", count);
        count++;
        if (count == 3) break;
    }
    CHECK(count == 3, "read %d derived permutation vectors", count);
}

static void hashing_vectors(kiln_ctx *ctx, const char *derived)
{
    uint64_t e[64], d[4], got[4];
    const char *pos = strstr(derived, "\"hash_elements\"");
    int count = 0, n;
    const char *stop = strstr(derived, "\"merge\"");
    while (pos && (n = json_u64s(&pos, "elements", e, 64)) > 0 && pos < stop) {
        CHECK(json_u64s(&pos, "digest", d, 4) == 4, "digest of vector %d", count);
        kiln_rp64_hash_elements(e, (size_t)n, got);
        CHECK(memcmp(got, d, sizeof d) == 0, "hash_elements of %d elements", n);
        count++;
    }
    CHECK(count == 11, "read %d hash_elements vectors", count);

    uint64_t l[4], r[4];
    pos = stop;
    CHECK(json_u64s(&pos, "left", l, 4) == 4 && json_u64s(&pos, "right", r, 4) == 4 &&
              json_u64s(&pos, "digest", d, 4) == 4,
          "merge vector");
    kiln_rp64_merge(l, r, got);
    CHECK(memcmp(got, d, sizeof d) == 0, "merge vector");
    /* through the public byte interface: nodes are little-endian u64s */
    uint8_t lb[32], rb[32], ob[32];
    for (int i = 0; i < 32; i++) {
        lb[i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
        rb[i] = (uint8_t)(r[i / 8] >> (8 * (i % 8)));
    }
    CHECK(kiln_merkle_merge(ctx, KILN_MERKLE_RP64_256, lb, rb, ob) == KILN_OK, "public merge");
    int same = 1;
    for (int i = 0; i < 32; i++) same &= ob[i] == (uint8_t)(d[i / 8] >> (8 * (i % 8)));
    CHECK(same, "public rp64_256 merge bytes");

    /* Merkle roots over leaf[i] = hash_elements([i]) */
    pos = strstr(derived, "\"merkle_roots\"");
    count = 0;
    while (pos) {
        const char *k = strstr(pos, "\"num_leaves\"");
        if (!k) break;
        unsigned long nl = strtoul(strchr(k, ':') + 1, NULL, 10);
        pos = k + 1;
        if (json_u64s(&pos, "root", d, 4) != 4 || nl == 0 || nl > 64) break;
        uint8_t leaves[64 * 32], root[32];
        for (unsigned long i = 0; i < nl; i++) {
            uint64_t one = i, dig[4];
            kiln_rp64_hash_elements(&one, 1, dig);
            for (int b = 0; b < 32; b++) leaves[32 * i + (unsigned long)b] = (uint8_t)(dig[b / 8] >> (8 * (b % 8)));
        }
        CHECK(kiln_merkle_build(ctx, KILN_MERKLE_RP64_256, leaves, nl, NULL, root, NULL) == KILN_OK, "build %lu", nl);
        same = 1;
        for (int b = 0; b < 32; b++) same &= root[b] == (uint8_t)(d[b / 8] >> (8 * (b % 8)));
        CHECK(same, "Merkle root of %lu leaves", nl);
        count++;
    }
    CHECK(count == 4, "read %d Merkle root vectors", count);
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    char *json = (char *)slurp(test_data("rp64_256.json"), NULL);
    char *derived = (char *)slurp(test_data("rp64_256_derived.json"), NULL);
    CHECK(json && derived, "test data files");
    if (!json || !derived) return check_summary();
    field_ops();
    sboxes();
    parameters(json);
    permutation_vectors(json, derived);
    hashing_vectors(ctx, derived);
    /* non-canonical field elements are refused */
    uint8_t bad[32], ok[32] = {0}, out[32];
    memset(bad, 0xff, sizeof bad);
    CHECK(kiln_merkle_merge(ctx, KILN_MERKLE_RP64_256, bad, ok, out) == KILN_ERR_INPUT, "non-canonical node");
    CHECK(strstr(kiln_last_error(ctx), "canonical") != NULL, "message: %s", kiln_last_error(ctx));
    free(json);
    free(derived);
    kiln_ctx_free(ctx);
    return check_summary();
}
