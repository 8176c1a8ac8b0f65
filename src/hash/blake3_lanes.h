/* BLAKE3's many-inputs kernel as a template over a SIMD width: one input a lane, the 16 state
 * words and 16 message words each a vector whose lane k belongs to input k, so that the rounds are
 * the scalar rounds on vectors. Included by blake3_avx2.c (8 lanes) and blake3_avx512.c (16),
 * which first define:
 *   V, LANES                  the vector type and its 32-bit lanes
 *   VADD(a, b), VXOR(a, b), VSET1(x)
 *   VROR16, VROR12, VROR8, VROR7   rotations right
 *   load_message(p, off, m)   word w of lane k's block (p[k] + off) to m[w][k]
 *   store_cvs(cv, out)        lane k's 8 words (cv[w][k]) to out + 32 * k
 *   counters(counter, increment, lo, hi)   lane k's counter: counter (+ k when increment)
 * and then name the group function KILN_BLAKE3_GROUP. */
#ifndef KILN_HASH_BLAKE3_LANES_H
#define KILN_HASH_BLAKE3_LANES_H

#include <string.h>

#include "blake3_host.h"

#define KILN_INLINE static inline __attribute__((always_inline))

/* Round r's message words: the permutation of the specification applied r times to 0..15. */
static const uint8_t blake3_schedule[7][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8},
    {3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1}, {10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6},
    {12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4}, {9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7},
    {11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13},
};

#endif

#define BLAKE3_VG(a, b, c, d, x, y)                                                                                    \
    do {                                                                                                               \
        v[a] = VADD(VADD(v[a], v[b]), x);                                                                              \
        v[d] = VROR16(VXOR(v[d], v[a]));                                                                               \
        v[c] = VADD(v[c], v[d]);                                                                                       \
        v[b] = VROR12(VXOR(v[b], v[c]));                                                                               \
        v[a] = VADD(VADD(v[a], v[b]), y);                                                                              \
        v[d] = VROR8(VXOR(v[d], v[a]));                                                                                \
        v[c] = VADD(v[c], v[d]);                                                                                       \
        v[b] = VROR7(VXOR(v[b], v[c]));                                                                                \
    } while (0)

/* The G calls of a round, interleaved column by column: four independent chains give the
 * out-of-order core work while each waits on its own adds. */
KILN_INLINE void KILN_BLAKE3_ROUND(V v[16], const V m[16], int r)
{
    const uint8_t *s = blake3_schedule[r];
    BLAKE3_VG(0, 4, 8, 12, m[s[0]], m[s[1]]);
    BLAKE3_VG(1, 5, 9, 13, m[s[2]], m[s[3]]);
    BLAKE3_VG(2, 6, 10, 14, m[s[4]], m[s[5]]);
    BLAKE3_VG(3, 7, 11, 15, m[s[6]], m[s[7]]);
    BLAKE3_VG(0, 5, 10, 15, m[s[8]], m[s[9]]);
    BLAKE3_VG(1, 6, 11, 12, m[s[10]], m[s[11]]);
    BLAKE3_VG(2, 7, 8, 13, m[s[12]], m[s[13]]);
    BLAKE3_VG(3, 4, 9, 14, m[s[14]], m[s[15]]);
}

/* n (1..LANES) inputs of the kernel's contract (blake3_host.h), one a lane; lanes past n hash the
 * last input again, their results dropped: a short group costs a full one, still much less than
 * hashing its inputs one at a time. */
static void KILN_BLAKE3_GROUP(const uint8_t *in, size_t stride, size_t n, size_t blocks, uint32_t last_len,
                              const uint32_t key[8], uint64_t counter, int increment, uint32_t flags,
                              uint32_t flags_start, uint32_t flags_end, uint8_t *out)
{
    const uint8_t *p[LANES];
    for (size_t k = 0; k < LANES; k++) p[k] = in + (k < n ? k : n - 1) * stride;
    V cv[8], lo, hi;
    for (int i = 0; i < 8; i++) cv[i] = VSET1(key[i]);
    counters(counter, increment, &lo, &hi);
    for (size_t b = 0; b < blocks; b++) {
        V m[16], v[16];
        load_message(p, KILN_BLAKE3_BLOCK * b, m);
        uint32_t f = flags | (b == 0 ? flags_start : 0) | (b + 1 == blocks ? flags_end : 0);
        for (int i = 0; i < 8; i++) v[i] = cv[i];
        v[8] = VSET1(KILN_SHA256_IV0);
        v[9] = VSET1(KILN_SHA256_IV1);
        v[10] = VSET1(KILN_SHA256_IV2);
        v[11] = VSET1(KILN_SHA256_IV3);
        v[12] = lo;
        v[13] = hi;
        v[14] = VSET1(b + 1 == blocks ? last_len : KILN_BLAKE3_BLOCK);
        v[15] = VSET1(f);
        KILN_BLAKE3_ROUND(v, m, 0);
        KILN_BLAKE3_ROUND(v, m, 1);
        KILN_BLAKE3_ROUND(v, m, 2);
        KILN_BLAKE3_ROUND(v, m, 3);
        KILN_BLAKE3_ROUND(v, m, 4);
        KILN_BLAKE3_ROUND(v, m, 5);
        KILN_BLAKE3_ROUND(v, m, 6);
        for (int i = 0; i < 8; i++) cv[i] = VXOR(v[i], v[i + 8]);
    }
    if (n == LANES) {
        store_cvs(cv, out);
        return;
    }
    uint8_t all[32 * LANES];
    store_cvs(cv, all);
    memcpy(out, all, 32 * n);
}
