/* The sha256d nonce search's per-nonce work, written once for every GPU backend (src/cuda's and
 * src/opencl's kernels include it) and checked on the host against kiln_sha256d_job_hash.
 *
 * Per nonce the work is the second block of the header (rounds 3..63, the first three are the
 * job's) and the hash of the 32-byte digest (rounds 0..60: only digest word 7 is tested, and it is
 * e after round 60 plus IV7). Everything that does not depend on the nonce is folded on the host
 * into kiln_sha256d_folded, passed to the kernel by value; what depends on nothing at all (round
 * constants, padding words, the IV of the second hash) becomes instruction immediates, the round
 * constants through a local constant table indexed only by unrolled loop counters. The derivation
 * of each folded term is in docs/perf-sha256d.md.
 *
 * The instruction mix: SHA-256 is mostly logic and shifts, which on NVIDIA GPUs share the integer
 * ALU pipe (a warp instruction every second clock) while the multiply pipe idles. Two-input
 * additions of variables are therefore written as a * one + b with `one` a kernel argument the
 * compiler cannot fold (KILN_SD_ADD2): an IMAD on the multiply pipe (on CUDA by inline PTX, so that
 * ptxas keeps it). Additions of constants stay plain. KILN_SHA256D_ADDS 0 turns that off. */
#ifndef KILN_CORE_SHA256D_NONCE_H
#define KILN_CORE_SHA256D_NONCE_H

#include "sha256d_job.h"

#ifndef KILN_SHA256D_ADDS
#define KILN_SHA256D_ADDS 1
#endif

#if defined(__CUDA_ARCH__)
#define KILN_SD_UNROLL _Pragma("unroll")
#elif defined(KILN_OPENCL_C)
#define KILN_SD_UNROLL _Pragma("unroll")
#else
#define KILN_SD_UNROLL
#endif

/* Nonce-independent values of one job. Names follow the second header block: Wt its schedule,
 * a3..h3 the state after the job's rounds 0..2. */
typedef struct kiln_sha256d_folded {
    uint32_t mid[8]; /* midstate, added back after round 63 */
    uint32_t a3, b3, c3, e3, f3; /* state words that are still live in rounds 4..6 */
    uint32_t a4c, e4c; /* a4 = W3 + a4c, e4 = W3 + e4c: round 3 with W3 left out */
    uint32_t hkw4, hkw5, hkw6; /* h + K + W of rounds 4..6, where h is still a job constant */
    uint32_t kw16, kw17; /* K + W of rounds 16, 17 */
    uint32_t c18, c19; /* W18 = ss0(W3) + c18, W19 = W3 + c19 */
    uint32_t c31, c32; /* constant parts of W31 and W32 */
    uint32_t w16, w17;
    uint32_t target7; /* most significant target word: the early test */
    uint32_t a1c, e1c; /* the second hash's round 0 from the IV without W0: constants, kept here so
                          that no device compiler has to fold rotations of them */
    uint32_t one; /* 1, opaque to the compiler: the multiply-pipe additions */
} kiln_sha256d_folded;

KILN_HD void kiln_sha256d_fold(kiln_sha256d_folded *c, const kiln_sha256d_job *j)
{
    for (int i = 0; i < 8; i++) c->mid[i] = j->midstate[i];
    const uint32_t a3 = j->state3[0], b3 = j->state3[1], c3 = j->state3[2], d3 = j->state3[3];
    const uint32_t e3 = j->state3[4], f3 = j->state3[5], g3 = j->state3[6], h3 = j->state3[7];
    c->a3 = a3, c->b3 = b3, c->c3 = c3, c->e3 = e3, c->f3 = f3;
    const uint32_t t1 = h3 + kiln_sha256_bsig1(e3) + kiln_sha256_ch(e3, f3, g3) + kiln_sha256_kt(3); /* + W3 */
    c->a4c = t1 + kiln_sha256_bsig0(a3) + kiln_sha256_maj(a3, b3, c3);
    c->e4c = t1 + d3;
    c->hkw4 = g3 + kiln_sha256_kt(4) + 0x80000000u; /* W4: the padding bit */
    c->hkw5 = f3 + kiln_sha256_kt(5); /* W5, W6 = 0 */
    c->hkw6 = e3 + kiln_sha256_kt(6);
    c->w16 = j->w16;
    c->w17 = j->w17;
    c->kw16 = kiln_sha256_kt(16) + j->w16;
    c->kw17 = kiln_sha256_kt(17) + j->w17;
    c->c18 = kiln_sha256_ssig1(j->w16) + j->tail[2]; /* W11 = 0 */
    c->c19 = kiln_sha256_ssig1(j->w17) + kiln_sha256_ssig0(0x80000000u); /* W12 = 0 */
    c->c31 = kiln_sha256_ssig0(j->w16) + 640u; /* W15 */
    c->c32 = kiln_sha256_ssig0(j->w17) + j->w16;
    c->target7 = j->target[7];
    const uint32_t t1c = KILN_SHA256_IV7 + kiln_sha256_bsig1(KILN_SHA256_IV4) +
                         kiln_sha256_ch(KILN_SHA256_IV4, KILN_SHA256_IV5, KILN_SHA256_IV6) + kiln_sha256_kt(0);
    c->a1c = t1c + kiln_sha256_bsig0(KILN_SHA256_IV0) + kiln_sha256_maj(KILN_SHA256_IV0, KILN_SHA256_IV1, KILN_SHA256_IV2);
    c->e1c = t1c + KILN_SHA256_IV3;
    c->one = 1;
}

/* The sigmas with plain shifts, as FIPS 180-4 writes them: every compiler folds them on constants,
 * and on variables emits its rotate (a funnel shift on NVIDIA GPUs), where a rotate intrinsic
 * might not fold. */
#define KILN_SD_ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define KILN_SD_BSIG0(x) (KILN_SD_ROTR(x, 2) ^ KILN_SD_ROTR(x, 13) ^ KILN_SD_ROTR(x, 22))
#define KILN_SD_BSIG1(x) (KILN_SD_ROTR(x, 6) ^ KILN_SD_ROTR(x, 11) ^ KILN_SD_ROTR(x, 25))
#define KILN_SD_SSIG0(x) (KILN_SD_ROTR(x, 7) ^ KILN_SD_ROTR(x, 18) ^ ((x) >> 3))
#define KILN_SD_SSIG1(x) (KILN_SD_ROTR(x, 17) ^ KILN_SD_ROTR(x, 19) ^ ((x) >> 10))

/* a + b for two variables, on the multiply pipe */
KILN_HD uint32_t kiln_sd_add2(uint32_t one, uint32_t a, uint32_t b)
{
#if KILN_SHA256D_ADDS != 0 && defined(__CUDA_ARCH__)
    uint32_t d;
    asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(one), "r"(b));
    return d;
#elif KILN_SHA256D_ADDS != 0 && defined(KILN_OPENCL_C)
    return a * one + b;
#else
    (void)one;
    return a + b;
#endif
}
#define KILN_SD_ADD2(a, b) kiln_sd_add2(one, (a), (b))

/* One round given h + K + W already summed (a variable), state a..h in s[0..7]; the shifts
 * become renames once unrolled. dconst: d is a compile-time constant (a plain add). */
KILN_HD void kiln_sd_round_hkw(uint32_t one, uint32_t s[8], uint32_t hkw, int dconst)
{
    const uint32_t t1 = KILN_SD_ADD2(KILN_SD_ADD2(hkw, kiln_sha256_ch(s[4], s[5], s[6])), KILN_SD_BSIG1(s[4]));
    const uint32_t a = KILN_SD_ADD2(KILN_SD_ADD2(t1, kiln_sha256_maj(s[0], s[1], s[2])), KILN_SD_BSIG0(s[0]));
    s[7] = s[6];
    s[6] = s[5];
    s[5] = s[4];
    s[4] = dconst ? s[3] + t1 : KILN_SD_ADD2(s[3], t1);
    s[3] = s[2];
    s[2] = s[1];
    s[1] = s[0];
    s[0] = a;
}

/* W[t] of the second hash's block, the digest (words 0..7) then constant padding (8..15): terms
 * on padding words are summed as constants (zeros vanish), the rest on the multiply pipe. */
#define KILN_SD_PAD(i) ((i) >= 8 && (i) < 16)
#define KILN_SD_TERM(i, term)                                                                                          \
    do {                                                                                                               \
        if (KILN_SD_PAD(i)) {                                                                                          \
            k += (term);                                                                                               \
        } else {                                                                                                       \
            v = have ? KILN_SD_ADD2(v, (term)) : (term);                                                               \
            have = 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

KILN_HD uint32_t kiln_sd_expand2(uint32_t one, const uint32_t *x, int t)
{
    uint32_t v = 0, k = 0;
    int have = 0;
    KILN_SD_TERM(t - 2, KILN_SD_SSIG1(x[t - 2]));
    KILN_SD_TERM(t - 7, x[t - 7]);
    KILN_SD_TERM(t - 15, KILN_SD_SSIG0(x[t - 15]));
    KILN_SD_TERM(t - 16, x[t - 16]);
    return k ? v + k : v;
}

/* Byte-swapped digest word 7 of sha256d(header with nonce): the 32 most significant bits of the
 * hash read as a little-endian number. */
KILN_HD uint32_t kiln_sha256d_top(const kiln_sha256d_folded *c, uint32_t nonce)
{
    const uint32_t K[64] = {KILN_SHA256_K_LIST};
    const uint32_t one = c->one;
    /* ---- first hash, second block: W0..W2 job words, W3 nonce, W4 padding, W15 = 640 */
    uint32_t w[64];
    w[3] = kiln_bswap32(nonce);
    uint32_t s[8] = {KILN_SD_ADD2(w[3], c->a4c), c->a3, c->b3, c->c3, KILN_SD_ADD2(w[3], c->e4c), c->e3, c->f3, 0};
    kiln_sd_round_hkw(one, s, c->hkw4, 0);
    kiln_sd_round_hkw(one, s, c->hkw5, 0);
    kiln_sd_round_hkw(one, s, c->hkw6, 0);
    KILN_SD_UNROLL
    for (int t = 7; t < 15; t++) kiln_sd_round_hkw(one, s, s[7] + K[t], 0);
    kiln_sd_round_hkw(one, s, s[7] + (K[15] + 640u), 0);
    kiln_sd_round_hkw(one, s, KILN_SD_ADD2(s[7], c->kw16), 0);
    kiln_sd_round_hkw(one, s, KILN_SD_ADD2(s[7], c->kw17), 0);
    /* W4..W15 are constants and W16, W17 job words, so W18..W32 lose terms */
    w[16] = c->w16;
    w[17] = c->w17;
    w[18] = KILN_SD_ADD2(KILN_SD_SSIG0(w[3]), c->c18);
    w[19] = KILN_SD_ADD2(w[3], c->c19);
    w[20] = KILN_SD_SSIG1(w[18]) + 0x80000000u;
    w[21] = KILN_SD_SSIG1(w[19]);
    w[22] = KILN_SD_SSIG1(w[20]) + 640u;
    w[23] = KILN_SD_ADD2(KILN_SD_SSIG1(w[21]), c->w16);
    w[24] = KILN_SD_ADD2(KILN_SD_SSIG1(w[22]), c->w17);
    KILN_SD_UNROLL
    for (int t = 25; t < 30; t++) w[t] = KILN_SD_ADD2(KILN_SD_SSIG1(w[t - 2]), w[t - 7]);
    w[30] = KILN_SD_ADD2(KILN_SD_SSIG1(w[28]), w[23]) + KILN_SD_SSIG0(640u);
    w[31] = KILN_SD_ADD2(KILN_SD_ADD2(KILN_SD_SSIG1(w[29]), w[24]), c->c31);
    w[32] = KILN_SD_ADD2(KILN_SD_ADD2(KILN_SD_SSIG1(w[30]), w[25]), c->c32);
    KILN_SD_UNROLL
    for (int t = 18; t < 33; t++) kiln_sd_round_hkw(one, s, KILN_SD_ADD2(s[7], w[t] + K[t]), 0);
    KILN_SD_UNROLL
    for (int t = 33; t < 64; t++) {
        w[t] = KILN_SD_ADD2(KILN_SD_ADD2(KILN_SD_ADD2(KILN_SD_SSIG1(w[t - 2]), w[t - 7]), KILN_SD_SSIG0(w[t - 15])),
                            w[t - 16]);
        kiln_sd_round_hkw(one, s, KILN_SD_ADD2(s[7], w[t] + K[t]), 0);
    }

    /* ---- second hash: one block of the 8 digest words, padding 0x80000000, length 256 */
    uint32_t x[61];
    KILN_SD_UNROLL
    for (int i = 0; i < 8; i++) x[i] = KILN_SD_ADD2(c->mid[i], s[i]);
    x[8] = 0x80000000u;
    KILN_SD_UNROLL
    for (int t = 9; t < 15; t++) x[t] = 0;
    x[15] = 256u;
    /* round 0 from the IV is all constants but W0 */
    uint32_t h[8] = {x[0] + c->a1c, KILN_SHA256_IV0, KILN_SHA256_IV1, KILN_SHA256_IV2,
                     x[0] + c->e1c, KILN_SHA256_IV4, KILN_SHA256_IV5, KILN_SHA256_IV6};
    /* rounds 1..3: h and d are still IV words */
    KILN_SD_UNROLL
    for (int t = 1; t < 4; t++) kiln_sd_round_hkw(one, h, x[t] + (h[7] + K[t]), 1);
    KILN_SD_UNROLL
    for (int t = 4; t < 8; t++) kiln_sd_round_hkw(one, h, KILN_SD_ADD2(h[7], x[t] + K[t]), 0);
    KILN_SD_UNROLL
    for (int t = 8; t < 16; t++) kiln_sd_round_hkw(one, h, h[7] + (x[t] + K[t]), 0);
    KILN_SD_UNROLL
    for (int t = 16; t < 60; t++) {
        x[t] = kiln_sd_expand2(one, x, t);
        kiln_sd_round_hkw(one, h, KILN_SD_ADD2(h[7], x[t] + K[t]), 0);
    }
    /* round 60 only for its e: digest word 7 = h64 + IV7 = e61 + IV7; the rounds' unused a
     * values are dropped by the compiler */
    x[60] = kiln_sd_expand2(one, x, 60);
    const uint32_t t1 = KILN_SD_ADD2(KILN_SD_ADD2(KILN_SD_ADD2(h[7], x[60] + K[60]), kiln_sha256_ch(h[4], h[5], h[6])),
                                     KILN_SD_BSIG1(h[4]));
    const uint32_t e61 = KILN_SD_ADD2(h[3], t1);
    return kiln_bswap32(e61 + KILN_SHA256_IV7);
}

#endif
