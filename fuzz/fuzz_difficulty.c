/* Pool difficulty -> share target (kiln_target_from_difficulty) for every double, NaN, infinities
 * and denormals included: the input's first 8 bytes as a raw double, and the input as text
 * through strtod (as a JSON difficulty arrives). Properties:
 *  - refused (KILN_ERR_INPUT, zero target) exactly when the difficulty is not finite and > 0;
 *  - target = floor(diff1 / d): checked in long double within rounding, and exactly through
 *    floor(floor(x) / 2) = floor(x / 2): doubling d halves the target, dropping its low bit;
 *  - a larger difficulty never gives a larger target. */
#include "fuzz_util.h"

#include <math.h>

static long double value(const uint8_t t[32])
{
    long double v = 0;
    for (int i = 31; i >= 0; i--) v = v * 256 + t[i];
    return v;
}

static int all(const uint8_t t[32], uint8_t b)
{
    for (int i = 0; i < 32; i++)
        if (t[i] != b) return 0;
    return 1;
}

static void shift_right1(const uint8_t in[32], uint8_t out[32])
{
    for (int i = 0; i < 32; i++) out[i] = (uint8_t)(in[i] >> 1 | (i < 31 ? in[i + 1] << 7 : 0));
}

static void check(kiln_ctx *ctx, kiln_algo algo, double d)
{
    uint8_t t[32], d1[32];
    FUZZ_CHECK(kiln_algo_diff1_target(algo, d1) == KILN_OK);
    kiln_status st = kiln_target_from_difficulty(ctx, algo, d, t);
    if (!(d > 0) || !isfinite(d)) {
        FUZZ_CHECK(st == KILN_ERR_INPUT && all(t, 0));
        return;
    }
    FUZZ_CHECK(st == KILN_OK);
    if (d == 1) FUZZ_CHECK(memcmp(t, d1, 32) == 0);

    const long double eps = 1e-15L, q = value(d1) / (long double)d, tv = value(t);
    if (all(t, 0xff)) FUZZ_CHECK(q >= ldexpl(1, 256) * (1 - eps)); /* clamped */
    else FUZZ_CHECK(tv <= q * (1 + eps) && q < (tv + 1) * (1 + eps));

    if (!all(t, 0xff) && isfinite(2 * d)) {
        uint8_t half[32], t2[32];
        FUZZ_CHECK(kiln_target_from_difficulty(ctx, algo, 2 * d, t2) == KILN_OK);
        shift_right1(t, half);
        FUZZ_CHECK(memcmp(t2, half, 32) == 0);
    }
    double up = nextafter(d, INFINITY);
    if (isfinite(up)) {
        uint8_t t3[32];
        FUZZ_CHECK(kiln_target_from_difficulty(ctx, algo, up, t3) == KILN_OK);
        FUZZ_CHECK(value(t3) <= tv);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kiln_ctx *ctx = fuzz_ctx();
    kiln_algo algos[] = {KILN_ALGO_SHA256D, KILN_ALGO_SCRYPT};
    if (size >= 8) {
        double d;
        memcpy(&d, data, sizeof d);
        for (int a = 0; a < 2; a++) check(ctx, algos[a], d);
    }
    char *s = fuzz_cstr(data, size);
    double d = strtod(s, NULL);
    for (int a = 0; a < 2; a++) check(ctx, algos[a], d);
    uint8_t t[32];
    FUZZ_CHECK(kiln_target_from_difficulty(ctx, (kiln_algo)7, 1, t) == KILN_ERR_INPUT);
    free(s);
    return 0;
}
