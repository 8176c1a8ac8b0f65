/* Pool difficulties and share targets: target = floor(diff1 / difficulty), computed exactly. */
#include <math.h>
#include <string.h>

#include "../core/ctx.h"

kiln_status kiln_algo_diff1_target(kiln_algo algo, uint8_t target[32])
{
    switch (algo) {
    case KILN_ALGO_SHA256D: return kiln_target_from_bits(NULL, 0x1d00ffffu, target);
    case KILN_ALGO_SCRYPT: return kiln_target_from_bits(NULL, 0x1f00ffffu, target); /* Litecoin-style pools */
    }
    memset(target, 0, 32);
    return KILN_ERR_INPUT;
}

static int bit_of(const uint8_t v[32], int i) { return i >= 0 && i < 256 ? (v[i >> 3] >> (i & 7)) & 1 : 0; }

kiln_status kiln_target_from_difficulty(kiln_ctx *ctx, kiln_algo algo, double difficulty, uint8_t target[32])
{
    uint8_t d1[32];
    memset(target, 0, 32);
    if (!(difficulty > 0) || !isfinite(difficulty))
        return kiln_fail(ctx, KILN_ERR_INPUT, "pool difficulty %g is not a finite number > 0", difficulty);
    if (kiln_algo_diff1_target(algo, d1) != KILN_OK)
        return kiln_fail(ctx, KILN_ERR_INPUT, "unknown algorithm %d", (int)algo);

    /* difficulty = m * 2^e exactly, with m an odd integer below 2^53 */
    int e;
    double frac = frexp(difficulty, &e);
    uint64_t m = (uint64_t)ldexp(frac, 53);
    e -= 53;
    while (!(m & 1)) {
        m >>= 1;
        e++;
    }
    /* target = floor((diff1 / 2^e) / m): bit i of the dividend is bit i + e of diff1 (a
     * right shift's floor commutes with the division). Quotients past 2^256 clamp; the
     * dividend has at most 256 - e bits, so only e > -(256 + 64) needs dividing. */
    int top = 255;
    while (top >= 0 && !bit_of(d1, top)) top--;
    if (top - e - 53 >= 256) {
        memset(target, 0xff, 32);
        return KILN_OK;
    }
    uint64_t rem = 0;
    for (int i = top - e; i >= 0; i--) { /* binary long division; rem < m < 2^53 */
        rem = rem << 1 | (uint64_t)bit_of(d1, i + e);
        if (rem >= m) {
            rem -= m;
            if (i >= 256) {
                memset(target, 0xff, 32);
                return KILN_OK;
            }
            target[i >> 3] |= (uint8_t)(1u << (i & 7));
        }
    }
    return KILN_OK;
}
