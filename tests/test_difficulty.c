/* Pool difficulty -> share target. Expected targets were computed with exact rational
 * arithmetic (Python fractions: floor(0xffff * 2^208 / Fraction(d))); the Bitcoin rows are
 * the published getdifficulty of real nBits values. */
#include <math.h>

#include "check.h"
#include "kiln.h"
#include "real_headers.h"

static const struct {
    double difficulty;
    const char *target; /* most significant first */
} table[] = {
    {1, "00000000ffff0000000000000000000000000000000000000000000000000000"},
    {0.5, "00000001fffe0000000000000000000000000000000000000000000000000000"},
    {1024, "00000000003fffc0000000000000000000000000000000000000000000000000"},
    {4294967296.0, "0000000000000000ffff00000000000000000000000000000000000000000000"},
    {1.0 / 65536, "0000ffff00000000000000000000000000000000000000000000000000000000"},
    {3, "0000000055550000000000000000000000000000000000000000000000000000"},
    {0.1, "00000009fff5ffffffffd80028000000009fff5ffffffffd80028000000009ff"},
    {0.001, "000003e7fc17fffffffa2405dc00000008c9f735fffffff2d10d2f00000013c6"},
    {65536.5, "000000000000fffe8000bfffa0002fffe8000bfffa0002fffe8000bfffa0002f"},
    {2.3283064365386963e-10, "ffff000000000000000000000000000000000000000000000000000000000000"}, /* 2^-32 */
    {1.1641532182693481e-10, "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"}, /* clamps */
    {1e-80, "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"},
    {1e300, "0000000000000000000000000000000000000000000000000000000000000000"},
};

static void be_hex(const uint8_t t[32], char out[65])
{
    kiln_hex_encode(t, 32, 1, out);
}

/* a 256-bit target as a double, for relative comparisons */
static double as_double(const uint8_t t[32])
{
    double v = 0;
    for (int i = 31; i >= 0; i--) v = v * 256 + t[i];
    return v;
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    uint8_t t[32], want[32];
    char hex[65];

    CHECK(kiln_algo_diff1_target(KILN_ALGO_SHA256D, t) == KILN_OK, "diff1");
    be_hex(t, hex);
    CHECK_STR(hex, "00000000ffff0000000000000000000000000000000000000000000000000000");
    CHECK(kiln_algo_diff1_target((kiln_algo)99, t) == KILN_ERR_INPUT, "unknown algo");

    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        kiln_status st = kiln_target_from_difficulty(ctx, KILN_ALGO_SHA256D, table[i].difficulty, t);
        CHECK(st == KILN_OK, "difficulty %g: %s", table[i].difficulty, kiln_last_error(ctx));
        be_hex(t, hex);
        CHECK(strcmp(hex, table[i].target) == 0, "difficulty %.17g: got %s want %s", table[i].difficulty, hex,
              table[i].target);
    }

    /* difficulty 1 is nBits 1d00ffff */
    CHECK(kiln_target_from_bits(ctx, 0x1d00ffffu, want) == KILN_OK, "bits");
    kiln_target_from_difficulty(ctx, KILN_ALGO_SHA256D, 1.0, t);
    CHECK(memcmp(t, want, 32) == 0, "difficulty 1 != nBits 1d00ffff");

    /* block 125552: nBits 1a44b9f2, getdifficulty 244112.49 */
    CHECK(kiln_target_from_bits(ctx, 0x1a44b9f2u, want) == KILN_OK, "bits");
    double diff = 65535.0 / (double)0x44b9f2 * 16777216.0; /* diff1 / target, both mantissa * 256^k */
    CHECK(fabs(diff - 244112.49) < 0.005, "difficulty of 1a44b9f2 = %.4f, want 244112.49", diff);
    kiln_target_from_difficulty(ctx, KILN_ALGO_SHA256D, diff, t);
    double a = as_double(t), b = as_double(want);
    CHECK(fabs(a - b) / b < 1e-12, "target of getdifficulty(1a44b9f2) is %g, nBits target %g", a, b);

    /* every real header: difficulty = diff1 / target(nBits) as a double, back to a target within
     * the double's precision; and kiln_pow_hash of the header is its block hash */
    for (size_t i = 0; i < sizeof real_headers / sizeof real_headers[0]; i++) {
        const real_header *h = &real_headers[i];
        uint8_t d1[32], header[80], hash[32];
        kiln_algo_diff1_target(KILN_ALGO_SHA256D, d1);
        CHECK(kiln_target_from_bits(ctx, h->bits, want) == KILN_OK, "%s bits", h->name);
        double d = as_double(d1) / as_double(want);
        CHECK(kiln_target_from_difficulty(ctx, KILN_ALGO_SHA256D, d, t) == KILN_OK, "%s", h->name);
        CHECK(fabs(as_double(t) - as_double(want)) / as_double(want) < 1e-12, "%s: difficulty %g", h->name, d);
        CHECK(kiln_header_from_hex(ctx, h->header_hex, header) == KILN_OK, "%s header", h->name);
        CHECK(kiln_pow_hash(KILN_ALGO_SHA256D, header, hash) == KILN_OK, "pow hash");
        kiln_hex_encode(hash, 32, 1, hex);
        CHECK_STR(hex, h->block_hash);
    }
    uint8_t zero[80] = {0}, h32[32];
    CHECK(kiln_pow_hash((kiln_algo)99, zero, h32) == KILN_ERR_INPUT, "pow hash of an unknown algorithm");

    /* bad difficulties */
    const double bad[] = {0, -1, INFINITY, -INFINITY, NAN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(kiln_target_from_difficulty(ctx, KILN_ALGO_SHA256D, bad[i], t) == KILN_ERR_INPUT, "bad %g accepted",
              bad[i]);
    CHECK(kiln_target_from_difficulty(NULL, KILN_ALGO_SHA256D, -2, t) == KILN_ERR_INPUT, "NULL ctx");

    /* monotone: a larger difficulty never gives a larger target */
    unsigned long long seed = 7;
    uint8_t prev[32];
    kiln_target_from_difficulty(ctx, KILN_ALGO_SHA256D, 1e-6, prev);
    double d = 1e-6;
    for (int i = 0; i < 2000; i++) {
        d *= 1.0 + (double)(test_rand(&seed) % 1000) / 10000.0;
        kiln_target_from_difficulty(ctx, KILN_ALGO_SHA256D, d, t);
        int le = 1;
        for (int k = 31; k >= 0; k--) {
            if (t[k] != prev[k]) {
                le = t[k] < prev[k];
                break;
            }
        }
        CHECK(le, "target grew at difficulty %.17g", d);
        memcpy(prev, t, 32);
    }
    kiln_ctx_free(ctx);
    return check_summary();
}
