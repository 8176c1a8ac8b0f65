/* The Litecoin scrypt lane kernel written once over a vector type: LANES nonces at a time, every
 * step (SHA-256 of PBKDF2, Salsa20/8, ROMix) on whole vectors. Included by scrypt_avx512.c and
 * scrypt_avx2.c after they define:
 *   LANES, vec, LANES_FN (the function's name)
 *   v_set1(u32) v_add v_xor v_and v_or v_rol(x, n) v_shr(x, n) v_xor3 v_ch v_maj v_bswap
 *   v_load(p) v_store(p, v) (unaligned), v_le_mask(a, b): bit l set when a <= b (unsigned) in lane l
 *   v_transpose(vec m[LANES]): m[i] lane l <-> m[l] lane i
 *
 * Scratchpad layout: row j of lane l (32 words) at V + (j * LANES + l) * 32, so the random reads of
 * ROMix's second loop touch two cache lines per lane; the registers hold word-major vectors (word
 * k of every lane), and rows are transposed on their way to and from V. */
#include "scrypt_cpu.h"

static inline vec bsig0(vec x) { return v_xor3(v_rol(x, 30), v_rol(x, 19), v_rol(x, 10)); }
static inline vec bsig1(vec x) { return v_xor3(v_rol(x, 26), v_rol(x, 21), v_rol(x, 7)); }
static inline vec ssig0(vec x) { return v_xor3(v_rol(x, 25), v_rol(x, 14), v_shr(x, 3)); }
static inline vec ssig1(vec x) { return v_xor3(v_rol(x, 15), v_rol(x, 13), v_shr(x, 10)); }

/* SHA-256 compression of one block per lane. */
static inline void vsha256(vec s[8], const vec in[16])
{
    vec w[16];
    for (int t = 0; t < 16; t++) w[t] = in[t];
    vec a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    for (int t = 0; t < 64; t++) {
        if (t >= 16)
            w[t & 15] = v_add(v_add(ssig1(w[(t - 2) & 15]), w[(t - 7) & 15]), v_add(ssig0(w[(t - 15) & 15]), w[t & 15]));
        vec t1 = v_add(v_add(h, bsig1(e)), v_add(v_ch(e, f, g), v_add(v_set1(kiln_sha256_k_host[t]), w[t & 15])));
        vec t2 = v_add(bsig0(a), v_maj(a, b, c));
        h = g, g = f, f = e, e = v_add(d, t1), d = c, c = b, b = a, a = v_add(t1, t2);
    }
    s[0] = v_add(s[0], a), s[1] = v_add(s[1], b), s[2] = v_add(s[2], c), s[3] = v_add(s[3], d);
    s[4] = v_add(s[4], e), s[5] = v_add(s[5], f), s[6] = v_add(s[6], g), s[7] = v_add(s[7], h);
}

/* A block of 16 words: the first n given, then 0x80000000 padding, zeros, and the bit length. */
static inline void padded(vec blk[16], const vec *first, int n, uint32_t bits)
{
    for (int i = 0; i < n; i++) blk[i] = first[i];
    blk[n] = v_set1(0x80000000u);
    for (int i = n + 1; i < 15; i++) blk[i] = v_set1(0);
    blk[15] = v_set1(bits);
}

#define VQR(y0, y1, y2, y3)                   \
    do {                                      \
        y1 = v_xor(y1, v_rol(v_add(y0, y3), 7));  \
        y2 = v_xor(y2, v_rol(v_add(y1, y0), 9));  \
        y3 = v_xor(y3, v_rol(v_add(y2, y1), 13)); \
        y0 = v_xor(y0, v_rol(v_add(y3, y2), 18)); \
    } while (0)

/* B = Salsa20/8(B ^ Bx) */
static inline void vsalsa_xor(vec B[16], const vec Bx[16])
{
    for (int i = 0; i < 16; i++) B[i] = v_xor(B[i], Bx[i]);
    vec x0 = B[0], x1 = B[1], x2 = B[2], x3 = B[3], x4 = B[4], x5 = B[5], x6 = B[6], x7 = B[7];
    vec x8 = B[8], x9 = B[9], x10 = B[10], x11 = B[11], x12 = B[12], x13 = B[13], x14 = B[14], x15 = B[15];
    for (int i = 0; i < 4; i++) {
        VQR(x0, x4, x8, x12);
        VQR(x5, x9, x13, x1);
        VQR(x10, x14, x2, x6);
        VQR(x15, x3, x7, x11);
        VQR(x0, x1, x2, x3);
        VQR(x5, x6, x7, x4);
        VQR(x10, x11, x8, x9);
        VQR(x15, x12, x13, x14);
    }
    B[0] = v_add(B[0], x0), B[1] = v_add(B[1], x1), B[2] = v_add(B[2], x2), B[3] = v_add(B[3], x3);
    B[4] = v_add(B[4], x4), B[5] = v_add(B[5], x5), B[6] = v_add(B[6], x6), B[7] = v_add(B[7], x7);
    B[8] = v_add(B[8], x8), B[9] = v_add(B[9], x9), B[10] = v_add(B[10], x10), B[11] = v_add(B[11], x11);
    B[12] = v_add(B[12], x12), B[13] = v_add(B[13], x13), B[14] = v_add(B[14], x14), B[15] = v_add(B[15], x15);
}

/* scryptBlockMix with r = 1: (X0, X1) -> (H(X0 ^ X1), H(H(X0 ^ X1) ^ X1)) */
static inline void vblockmix(vec X[32])
{
    vsalsa_xor(X, X + 16);
    vsalsa_xor(X + 16, X);
}

static void vromix(vec X[32], uint32_t *V)
{
    for (uint32_t j = 0; j < KILN_SCRYPT_LTC_N; j++) {
        uint32_t *row = V + (size_t)j * LANES * 32;
        for (int c = 0; c < 32 / LANES; c++) {
            vec m[LANES];
            for (int k = 0; k < LANES; k++) m[k] = X[c * LANES + k];
            v_transpose(m);
            for (int l = 0; l < LANES; l++) v_store(row + l * 32 + c * LANES, m[l]);
        }
        vblockmix(X);
    }
    uint32_t idx[LANES];
    for (uint32_t i = 0; i < KILN_SCRYPT_LTC_N; i++) {
        v_store(idx, X[16]);
        const uint32_t *rows[LANES];
        for (int l = 0; l < LANES; l++) rows[l] = V + ((size_t)(idx[l] & (KILN_SCRYPT_LTC_N - 1)) * LANES + l) * 32;
        for (int c = 0; c < 32 / LANES; c++) {
            vec m[LANES];
            for (int l = 0; l < LANES; l++) m[l] = v_load(rows[l] + c * LANES);
            v_transpose(m);
            for (int k = 0; k < LANES; k++) X[c * LANES + k] = v_xor(X[c * LANES + k], m[k]);
        }
        vblockmix(X);
    }
}

uint64_t LANES_FN(const kiln_scrypt_job *job, uint32_t start, uint32_t count, uint32_t *cand, uint32_t cap,
                  uint32_t *V)
{
    uint32_t lane_index[LANES];
    for (int l = 0; l < LANES; l++) lane_index[l] = (uint32_t)l;
    const vec lanes = v_load(lane_index);
    uint32_t iv[8];
    kiln_sha256_iv(iv);
    uint64_t n = 0;
    for (uint64_t base = 0; base < count; base += LANES) {
        vec nonce_be = v_bswap(v_add(v_set1(start + (uint32_t)base), lanes));
        vec blk[16], key[8], inner[8], outer[8], in64[8], st[8], u[8], X[32], tmp[8];

        /* K = SHA-256(header): the second block from the per-job midstate */
        for (int i = 0; i < 8; i++) key[i] = v_set1(job->mid[i]);
        vec tail[5] = {v_set1(job->head[16]), v_set1(job->head[17]), v_set1(job->head[18]), nonce_be, v_set1(0)};
        padded(blk, tail, 4, 640);
        vsha256(key, blk);
        /* HMAC pad states */
        for (int i = 0; i < 8; i++) blk[i] = v_xor(key[i], v_set1(0x36363636u));
        for (int i = 8; i < 16; i++) blk[i] = v_set1(0x36363636u);
        for (int i = 0; i < 8; i++) inner[i] = v_set1(iv[i]);
        for (int i = 0; i < 8; i++) outer[i] = inner[i];
        vsha256(inner, blk);
        for (int i = 0; i < 8; i++) blk[i] = v_xor(key[i], v_set1(0x5c5c5c5cu));
        for (int i = 8; i < 16; i++) blk[i] = v_set1(0x5c5c5c5cu);
        vsha256(outer, blk);
        /* B = PBKDF2(header, header, 1, 128): four blocks sharing the inner state after the header's first 64 bytes */
        for (int i = 0; i < 8; i++) in64[i] = inner[i];
        for (int i = 0; i < 16; i++) blk[i] = v_set1(job->head[i]);
        vsha256(in64, blk);
        for (uint32_t b = 0; b < 4; b++) {
            for (int i = 0; i < 8; i++) st[i] = in64[i];
            tail[4] = v_set1(b + 1);
            padded(blk, tail, 5, 1184);
            vsha256(st, blk);
            for (int i = 0; i < 8; i++) u[i] = outer[i];
            padded(blk, st, 8, 768);
            vsha256(u, blk);
            for (int i = 0; i < 8; i++) X[8 * b + i] = v_bswap(u[i]);
        }

        vromix(X, V);

        /* HMAC(K, B' || INT(1)): only the digest's last word decides a candidate */
        for (int i = 0; i < 8; i++) st[i] = inner[i];
        for (int i = 0; i < 16; i++) blk[i] = v_bswap(X[i]);
        vsha256(st, blk);
        for (int i = 0; i < 16; i++) blk[i] = v_bswap(X[16 + i]);
        vsha256(st, blk);
        tmp[0] = v_set1(1);
        padded(blk, tmp, 1, 1568);
        vsha256(st, blk);
        for (int i = 0; i < 8; i++) u[i] = outer[i];
        padded(blk, st, 8, 768);
        vsha256(u, blk);
        unsigned mask = (unsigned)v_le_mask(v_bswap(u[7]), v_set1(job->target_top));
        for (int l = 0; l < LANES && mask; l++, mask >>= 1) {
            if ((mask & 1) && base + (uint64_t)l < count) {
                if (n < cap) cand[n] = start + (uint32_t)base + (uint32_t)l;
                n++;
            }
        }
    }
    return n;
}
