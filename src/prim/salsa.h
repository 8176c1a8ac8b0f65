/* scrypt's mixing pieces (RFC 7914 sections 3-5): the Salsa20/8 core, scryptBlockMix and
 * scryptROMix, for host and device. Blocks are arrays of 32-bit words read little-endian from
 * the RFC's byte strings (word i = bytes 4i..4i+3). Pure functions; the caller owns V. */
#ifndef KILN_PRIM_SALSA_H
#define KILN_PRIM_SALSA_H

#include "bytes.h" /* kiln_rotl32 */

/* One Salsa20 quarter-round on (y0, y1, y2, y3), as the spec names them. */
#define KILN_SALSA_QR(y0, y1, y2, y3)          \
    do {                                       \
        (y1) ^= kiln_rotl32((y0) + (y3), 7);   \
        (y2) ^= kiln_rotl32((y1) + (y0), 9);   \
        (y3) ^= kiln_rotl32((y2) + (y1), 13);  \
        (y0) ^= kiln_rotl32((y3) + (y2), 18);  \
    } while (0)

/* B = Salsa20/8(B): four double rounds, then the input added back. */
KILN_HD void kiln_salsa20_8(uint32_t B[16])
{
    uint32_t x0 = B[0], x1 = B[1], x2 = B[2], x3 = B[3], x4 = B[4], x5 = B[5], x6 = B[6], x7 = B[7];
    uint32_t x8 = B[8], x9 = B[9], x10 = B[10], x11 = B[11], x12 = B[12], x13 = B[13], x14 = B[14], x15 = B[15];
    for (int i = 0; i < 4; i++) {
        KILN_SALSA_QR(x0, x4, x8, x12); /* columns */
        KILN_SALSA_QR(x5, x9, x13, x1);
        KILN_SALSA_QR(x10, x14, x2, x6);
        KILN_SALSA_QR(x15, x3, x7, x11);
        KILN_SALSA_QR(x0, x1, x2, x3); /* rows */
        KILN_SALSA_QR(x5, x6, x7, x4);
        KILN_SALSA_QR(x10, x11, x8, x9);
        KILN_SALSA_QR(x15, x12, x13, x14);
    }
    B[0] += x0, B[1] += x1, B[2] += x2, B[3] += x3, B[4] += x4, B[5] += x5, B[6] += x6, B[7] += x7;
    B[8] += x8, B[9] += x9, B[10] += x10, B[11] += x11, B[12] += x12, B[13] += x13, B[14] += x14, B[15] += x15;
}

/* scryptBlockMix with r: B and Y are 2r 64-byte blocks (32r words); Y must not overlap B.
 * Y receives the even-indexed outputs first, then the odd ones (RFC 7914 section 4). */
KILN_HD void kiln_scrypt_blockmix(const uint32_t *B, uint32_t *Y, uint32_t r)
{
    uint32_t X[16];
    for (int k = 0; k < 16; k++) X[k] = B[(2 * r - 1) * 16 + k];
    for (uint32_t i = 0; i < 2 * r; i++) {
        for (int k = 0; k < 16; k++) X[k] ^= B[i * 16 + k];
        kiln_salsa20_8(X);
        uint32_t *out = Y + ((i / 2) + (i & 1) * r) * 16;
        for (int k = 0; k < 16; k++) out[k] = X[k];
    }
}

/* Integerify(X) mod N for N a power of two: the first 64 bits of the last 64-byte block. */
KILN_HD uint64_t kiln_scrypt_integerify(const uint32_t *X, uint32_t r, uint64_t N)
{
    const uint32_t *last = X + (2 * r - 1) * 16;
    return (((uint64_t)last[1] << 32) | last[0]) & (N - 1);
}

/* ROMix's two loops over steps [from, to) of N, so a caller can stop between ranges (an interrupt
 * poll): the fill writes V[i] = X, X = BlockMix(X); the mix takes X = BlockMix(X ^ V[Integerify(X)]). */
KILN_HD void kiln_scrypt_romix_fill(uint32_t *X, uint32_t *V, uint32_t r, uint64_t from, uint64_t to)
{
    const uint64_t words = 32 * (uint64_t)r;
    for (uint64_t i = from; i < to; i++) {
        uint32_t *v = V + i * words;
        for (uint64_t k = 0; k < words; k++) v[k] = X[k];
        kiln_scrypt_blockmix(v, X, r);
    }
}

KILN_HD void kiln_scrypt_romix_mix(uint32_t *X, const uint32_t *V, uint32_t *Y, uint64_t N, uint32_t r, uint64_t from,
                                   uint64_t to)
{
    const uint64_t words = 32 * (uint64_t)r;
    for (uint64_t i = from; i < to; i++) {
        const uint32_t *v = V + kiln_scrypt_integerify(X, r, N) * words;
        for (uint64_t k = 0; k < words; k++) Y[k] = X[k] ^ v[k];
        kiln_scrypt_blockmix(Y, X, r);
    }
}

/* scryptROMix in place on X (32r words) with V (32r*N words) and Y (32r words) as scratch. */
KILN_HD void kiln_scrypt_romix(uint32_t *X, uint32_t *V, uint32_t *Y, uint64_t N, uint32_t r)
{
    kiln_scrypt_romix_fill(X, V, r, 0, N);
    kiln_scrypt_romix_mix(X, V, Y, N, r, 0, N);
}

#endif
