/* The Keccak lanes kernel (kiln_keccak_lanes_impl's hash), written once for any vector width:
 * word k of every vector belongs to message k, so LANES equal-length messages go through one
 * sponge side by side, the round being keccak_rounds.h's. Messages of one length share the block
 * count and the padding position, so no lane waits. An instantiation (keccak4_avx2.c,
 * keccak8_avx512.c) defines before including:
 *   LANES, LANES_FN, TARGET   messages per vector, the kernel's name, its target attribute
 *   vec                       a vector of LANES 64-bit words on which ^, ~ and & work
 *   ROL(x, n), RC(r)          rotation left by n in 1..63, round r's constant broadcast
 *   SET_WORDS(w)              the vector of the LANES words w[0..LANES)
 *   ZERO, STORE(dst, v)       the zero vector; the LANES words of v to dst */
#include <string.h>

#include "../prim/keccak.h"
#include "keccak_rounds.h"

TARGET static void permute_lanes(vec s[KILN_KECCAK_LANES])
{
    vec A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16, A17, A18, A19, A20, A21, A22, A23,
        A24;
    vec E0, E1, E2, E3, E4, E5, E6, E7, E8, E9, E10, E11, E12, E13, E14, E15, E16, E17, E18, E19, E20, E21, E22, E23,
        E24;
    vec C0, C1, C2, C3, C4, D0, D1, D2, D3, D4, B0, B1, B2, B3, B4;
    A0 = s[0], A1 = s[1], A2 = s[2], A3 = s[3], A4 = s[4], A5 = s[5], A6 = s[6], A7 = s[7], A8 = s[8];
    A9 = s[9], A10 = s[10], A11 = s[11], A12 = s[12], A13 = s[13], A14 = s[14], A15 = s[15], A16 = s[16];
    A17 = s[17], A18 = s[18], A19 = s[19], A20 = s[20], A21 = s[21], A22 = s[22], A23 = s[23], A24 = s[24];
    for (int r = 0; r < KILN_KECCAK_ROUNDS; r += 2) {
        ROUND(A, E, RC(r));
        ROUND(E, A, RC(r + 1));
    }
    s[0] = A0, s[1] = A1, s[2] = A2, s[3] = A3, s[4] = A4, s[5] = A5, s[6] = A6, s[7] = A7, s[8] = A8;
    s[9] = A9, s[10] = A10, s[11] = A11, s[12] = A12, s[13] = A13, s[14] = A14, s[15] = A15, s[16] = A16;
    s[17] = A17, s[18] = A18, s[19] = A19, s[20] = A20, s[21] = A21, s[22] = A22, s[23] = A23, s[24] = A24;
}

/* XORs the rate-byte block at offset off of each message into its state's lanes (little-endian
 * words, as FIPS 202 reads them: x86-64's own order). */
TARGET static inline void absorb_lanes(vec s[KILN_KECCAK_LANES], const uint8_t *const m[LANES], size_t off,
                                       unsigned rate)
{
    long long w[LANES];
    for (unsigned i = 0; i < rate / 8; i++) {
        for (int k = 0; k < LANES; k++) memcpy(&w[k], m[k] + off + 8 * i, 8);
        s[i] ^= SET_WORDS(w);
    }
}

TARGET void LANES_FN(const uint8_t *const *msg, size_t len, unsigned rate, uint8_t domain, uint8_t *const *out,
                     size_t outlen)
{
    vec s[KILN_KECCAK_LANES];
    for (int i = 0; i < KILN_KECCAK_LANES; i++) s[i] = ZERO;
    size_t off = 0;
    for (; len - off >= rate; off += rate) {
        absorb_lanes(s, msg, off, rate);
        permute_lanes(s);
    }
    /* the last, padded block of each message (FIPS 202's pad10*1 after the domain bits) */
    uint8_t last[LANES][KILN_KECCAK_STATE_BYTES];
    const uint8_t *lp[LANES];
    const size_t tail = len - off;
    for (int k = 0; k < LANES; k++) {
        memset(last[k], 0, rate);
        if (tail) memcpy(last[k], msg[k] + off, tail);
        last[k][tail] ^= domain;
        last[k][rate - 1] ^= 0x80;
        lp[k] = last[k];
    }
    absorb_lanes(s, lp, 0, rate);
    permute_lanes(s);
    uint64_t w[LANES];
    for (size_t i = 0; 8 * i < outlen; i++) {
        STORE(w, s[i]);
        const size_t take = outlen - 8 * i < 8 ? outlen - 8 * i : 8;
        for (int k = 0; k < LANES; k++) memcpy(out[k] + 8 * i, &w[k], take);
    }
}
