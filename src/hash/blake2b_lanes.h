/* The BLAKE2b lane kernel (kiln_blake2b_lanes_fn): blake2s_lanes.h's scheme with 64-bit words,
 * 128-byte blocks and 12 rounds. Lane k of every vector belongs to message k, so LANES
 * equal-length messages, unkeyed with the default parameter block (the batch path's), go through
 * RFC 7693's compression side by side; the rounds are src/prim/blake2.h's (KILN_BLAKE2_R) with a
 * vector G. An instantiation (blake2bx4_avx2.c, blake2bx8_avx512.c) defines before including:
 *   LANES, LANES_FN           messages per vector and the kernel's name
 *   vec                       a vector of LANES 64-bit words
 *   C(x) ADD XOR              broadcast, add, xor
 *   ROR32 ROR24 ROR16 ROR63   rotations right
 *   load_block(w, p)          w[j] = little-endian word j of the 128-byte blocks p[0..LANES)
 *   STORE(dst, v)             the LANES words of v to dst
 * Messages of one length share the block count, the counter and the last-block flag, so those
 * are broadcast scalars and no lane waits. */
#include <string.h>

#include "../prim/blake2.h"
#include "blake2_host.h"

#define LANES_G(v, a, b, c, d, x, y)                  \
    do {                                              \
        v[a] = ADD(ADD(v[a], v[b]), (x));             \
        v[d] = ROR32(XOR(v[d], v[a]));                \
        v[c] = ADD(v[c], v[d]);                       \
        v[b] = ROR24(XOR(v[b], v[c]));                \
        v[a] = ADD(ADD(v[a], v[b]), (y));             \
        v[d] = ROR16(XOR(v[d], v[a]));                \
        v[c] = ADD(v[c], v[d]);                       \
        v[b] = ROR63(XOR(v[b], v[c]));                \
    } while (0)

/* F with the byte counter t (its high word is 0: a size_t counts the bytes) and the last-block
 * flag f0 (f1, the last-node flag, is 0) */
static inline void lanes_compress(vec h[8], const vec m[16], uint64_t t, uint64_t f0)
{
    static const uint64_t iv[8] = {KILN_BLAKE2B_IV_LIST};
    vec v[16];
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[8 + i] = C(iv[i]);
    }
    v[12] = C(iv[4] ^ t);
    v[14] = C(iv[6] ^ f0);
    KILN_BLAKE2_R(LANES_G, v, m, KILN_BLAKE2_SIGMA0);
    KILN_BLAKE2_R(LANES_G, v, m, KILN_BLAKE2_SIGMA1);
    KILN_BLAKE2_R(LANES_G, v, m, KILN_BLAKE2_SIGMA2);
    KILN_BLAKE2_R(LANES_G, v, m, KILN_BLAKE2_SIGMA3);
    KILN_BLAKE2_R(LANES_G, v, m, KILN_BLAKE2_SIGMA4);
    KILN_BLAKE2_R(LANES_G, v, m, KILN_BLAKE2_SIGMA5);
    KILN_BLAKE2_R(LANES_G, v, m, KILN_BLAKE2_SIGMA6);
    KILN_BLAKE2_R(LANES_G, v, m, KILN_BLAKE2_SIGMA7);
    KILN_BLAKE2_R(LANES_G, v, m, KILN_BLAKE2_SIGMA8);
    KILN_BLAKE2_R(LANES_G, v, m, KILN_BLAKE2_SIGMA9);
    KILN_BLAKE2_R(LANES_G, v, m, KILN_BLAKE2_SIGMA0);
    KILN_BLAKE2_R(LANES_G, v, m, KILN_BLAKE2_SIGMA1);
    for (int i = 0; i < 8; i++) h[i] = XOR(h[i], XOR(v[i], v[8 + i]));
}

void LANES_FN(unsigned outlen, const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    vec h[8], m[16];
    const uint8_t *p[LANES];
    uint64_t h0[8];
    kiln_blake2b_init_default(h0, outlen);
    for (int i = 0; i < 8; i++) h[i] = C(h0[i]);
    /* every block but the last straight from the messages; the last, whole or not (an empty
     * message's is all zeros), zero-padded and flagged */
    size_t before = len ? (len - 1) / KILN_BLAKE2B_BLOCK : 0;
    for (size_t blk = 0; blk < before; blk++) {
        for (int k = 0; k < LANES; k++) p[k] = msg[k] + blk * KILN_BLAKE2B_BLOCK;
        load_block(m, p);
        lanes_compress(h, m, (uint64_t)(blk + 1) * KILN_BLAKE2B_BLOCK, 0);
    }
    size_t rem = len - before * KILN_BLAKE2B_BLOCK;
    _Alignas(64) uint8_t tail[LANES][KILN_BLAKE2B_BLOCK];
    memset(tail, 0, sizeof tail);
    for (int k = 0; k < LANES; k++) {
        if (rem) memcpy(tail[k], msg[k] + before * KILN_BLAKE2B_BLOCK, rem);
        p[k] = tail[k];
    }
    load_block(m, p);
    lanes_compress(h, m, (uint64_t)len, ~UINT64_C(0));
    uint64_t words[8][LANES];
    uint8_t full[KILN_BLAKE2B_OUT];
    for (int i = 0; i < 8; i++) STORE(words[i], h[i]);
    for (int k = 0; k < LANES; k++) {
        for (int i = 0; i < 8; i++) {
            kiln_store_le32(full + 8 * i, (uint32_t)words[i][k]);
            kiln_store_le32(full + 8 * i + 4, (uint32_t)(words[i][k] >> 32));
        }
        memcpy(out[k], full, outlen);
    }
}
