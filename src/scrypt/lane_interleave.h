/* The first two stages of the lane kernels' LANES x LANES transposes of 32-bit words
 * (scrypt_avx2.c, 8 x 8; scrypt_avx512.c, 16 x 16), which differ only in the intrinsics' prefix:
 * 32-bit interleaves of row pairs into t, then 64-bit interleaves of t's pairs into u, so that
 * u[4g + e]'s 128-bit block q holds rows 4g..4g+3 of column 4q + e. Each kernel then moves whole
 * 128-bit blocks its own way. A macro, not a function, so that each kernel compiles to the code
 * it had when the stages were written out in it. */
#ifndef KILN_SCRYPT_LANE_INTERLEAVE_H
#define KILN_SCRYPT_LANE_INTERLEAVE_H

#define KILN_LANE_INTERLEAVE(pfx, n, m, t, u)                          \
    do {                                                               \
        for (int i = 0; i < (n); i += 2) {                             \
            t[i] = pfx##_unpacklo_epi32(m[i], m[i + 1]);               \
            t[i + 1] = pfx##_unpackhi_epi32(m[i], m[i + 1]);           \
        }                                                              \
        for (int i = 0; i < (n); i += 4) {                             \
            u[i] = pfx##_unpacklo_epi64(t[i], t[i + 2]);               \
            u[i + 1] = pfx##_unpackhi_epi64(t[i], t[i + 2]);           \
            u[i + 2] = pfx##_unpacklo_epi64(t[i + 1], t[i + 3]);       \
            u[i + 3] = pfx##_unpackhi_epi64(t[i + 1], t[i + 3]);       \
        }                                                              \
    } while (0)

#endif
