/* The sha256d lane kernel, written once for any vector width; sha256d_avx2.c and sha256d_avx512.c
 * instantiate it. Before including this file an instantiation defines:
 *   LANES, LANES_FN            nonces per vector and the kernel's name
 *   vec, lane_mask             the vector type and the type of a per-lane bit mask
 *   C ADD SHR ROR XOR3 CH      broadcast, 32-bit add, shift right, rotate right, a ^ b ^ c, e ? f : g
 *   MAJ, or MAJ_FROM_BC with XOR and AND (see ROUND_HK)
 *   LANE_INDEX, BSWAP_BYTES    the vectors 0, 1, .., LANES-1 and the byte-reversing shuffle pattern
 *   SHUFFLE8(x, m), LE_MASK(a, b)  byte shuffle within 128-bit lanes; bit i set where a[i] <= b[i]
 *
 * Work per nonce is cut to what depends on the nonce. The header's second block enters at round 3
 * (job->state3) with W3 = byte-swapped nonce; W4..W15 are padding constants and W16, W17 are
 * per-job, so the constant parts of round 3 and of W18..W33 are summed once per call (struct pre).
 * The second hash's block is 8 varying words then constant padding, which folds the same way into
 * round 0 and W16..W31. The second hash stops after round 60: digest word 7 is h after round 63,
 * which is e after round 60 plus IV7, so rounds 57..60 compute only e and IV7 rides in round 60's
 * constant. */
#include "sha256d_simd.h"

#define ADD3(a, b, c) ADD(ADD((a), (b)), (c))
#define BSIG0(x) XOR3(ROR((x), 2), ROR((x), 13), ROR((x), 22))
#define BSIG1(x) XOR3(ROR((x), 6), ROR((x), 11), ROR((x), 25))
#define SSIG0(x) XOR3(ROR((x), 7), ROR((x), 18), SHR((x), 3))
#define SSIG1(x) XOR3(ROR((x), 17), ROR((x), 19), SHR((x), 10))

/* The eight working variables live in s[] and are renamed, not moved: at round t, variable i
 * (a = 0 .. h = 7) is s[(i - t) mod 8]. A round writes only d (the next e) and h (the next a). */
#define V(i, t) s[((i) + 64 - (t)) & 7]

/* One round given hk = h + K[t] + W[t]. Without a three-input MAJ the instantiation defines
 * MAJ_FROM_BC: Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)), reusing the previous round's a ^ b (this
 * round's b ^ c), carried in bc. */
#if defined(MAJ_FROM_BC)
#define ROUND_MAJ(t)                                                                           \
    vec ab_ = XOR(V(0, t), V(1, t));                                                           \
    vec maj_ = XOR(V(1, t), AND(ab_, bc));                                                     \
    bc = ab_
#define MAJ_OF(t) maj_
#define BC_DECL(init) , bc = (init)
#define BC_SET(v) bc = (v)
#else
#define ROUND_MAJ(t) (void)0
#define MAJ_OF(t) MAJ(V(0, t), V(1, t), V(2, t))
#define BC_DECL(init)
#define BC_SET(v) (void)0
#endif
#define ROUND_HK(t, hk)                                                                        \
    do {                                                                                       \
        vec t1_ = ADD3((hk), BSIG1(V(4, t)), CH(V(4, t), V(5, t), V(6, t)));                  \
        ROUND_MAJ(t);                                                                          \
        V(3, t) = ADD(V(3, t), t1_);                                                           \
        V(7, t) = ADD3(t1_, BSIG0(V(0, t)), MAJ_OF(t));                                        \
    } while (0)
/* A round whose new a is never read again: only the new e. */
#define ROUND_E_HK(t, hk) V(3, t) = ADD(V(3, t), ADD3((hk), BSIG1(V(4, t)), CH(V(4, t), V(5, t), V(6, t))))

#define K(t) kiln_sha256_k_host[t]
#define ROUND_W(t, w) ROUND_HK(t, ADD3(V(7, t), (w), p->k[t]))
#define ROUND_KW(t, kw) ROUND_HK(t, ADD(V(7, t), (kw)))
#define EXPAND(w, t) w[t] = ADD(ADD(SSIG1(w[(t) - 2]), w[(t) - 7]), ADD(SSIG0(w[(t) - 15]), w[(t) - 16]))
/* schedule word t given as an expression, then round t */
#define W_ROUND(t, wt) \
    w[t] = (wt);       \
    ROUND_W(t, w[t])
#define EXPAND_ROUND(t) \
    EXPAND(w, t);       \
    ROUND_W(t, w[t])
#define EXPAND_ROUND4(t) \
    EXPAND_ROUND(t);     \
    EXPAND_ROUND((t) + 1); \
    EXPAND_ROUND((t) + 2); \
    EXPAND_ROUND((t) + 3)
#define EXPAND_ROUND8(t) \
    EXPAND_ROUND4(t);    \
    EXPAND_ROUND4((t) + 4)
#define EXPAND_ROUND16(t) \
    EXPAND_ROUND8(t);     \
    EXPAND_ROUND8((t) + 8)
#define EXPAND_ROUND_E(t) \
    EXPAND(w, t);         \
    ROUND_E_HK(t, ADD3(V(7, t), w[t], p->k[t]))
#define ROUND_KW4(t, kw)        \
    ROUND_KW(t, kw[t]);         \
    ROUND_KW((t) + 1, kw[(t) + 1]); \
    ROUND_KW((t) + 2, kw[(t) + 2]); \
    ROUND_KW((t) + 3, kw[(t) + 3])
/* second hash, W18..W21: W[t-7] is a zero padding word */
#define W2_EARLY_ROUND(t) W_ROUND(t, ADD3(SSIG1(w[(t) - 2]), SSIG0(w[(t) - 15]), w[(t) - 16]))
/* W25..W29 of either hash: W[t-15] and W[t-16] are zero padding words */
#define ZERO_PAD_ROUND(t) W_ROUND(t, ADD(SSIG1(w[(t) - 2]), w[(t) - 7]))
#define ZERO_PAD_ROUNDS_25_29 \
    ZERO_PAD_ROUND(25);       \
    ZERO_PAD_ROUND(26);       \
    ZERO_PAD_ROUND(27);       \
    ZERO_PAD_ROUND(28);       \
    ZERO_PAD_ROUND(29)

/* Nonce-independent values of one job, broadcast once per call: every constant the rounds add
 * is then a plain memory operand, not a broadcast from a general register on the vector ports. */
typedef struct pre {
    vec k[64]; /* round constants */
    vec s3[8]; /* state before round 3 of the header's second block */
    vec a4, e4; /* round 3 yields a = nonce word + a4, e = nonce word + e4 */
    vec hk[18]; /* rounds 4..17: h + K + W where constant (h only for 4..6), else K + W */
    vec c18, c19; /* W18 = c18 + ssig0(W3), W19 = c19 + W3 */
    vec w16, w17, s0_640, c31, c32; /* W30 = ... + s0_640, W31 = ... + c31, W32 = ... + c32 */
    vec mid[8]; /* first hash = mid + state after round 63 */
    /* second hash: round 0 from the IV gives a = W0 + a1, e = W0 + e1; rounds 1..3 add an IV word
     * as h (hk1..3); padding W8 = 0x80000000, W15 = 256 */
    vec a1, e1, hk1, hk2, hk3, kw8, kw15, s1_256, s0_pad, s0_256, k60iv;
    vec iv[8], pad, len1, len2; /* the IV, 0x80000000, 640, 256 */
#if defined(MAJ_FROM_BC)
    vec bc4, bc1; /* b ^ c entering round 4 of the first hash and round 1 of the second */
#endif
} pre;

static void precompute(const kiln_sha256d_job *job, pre *p)
{
    const uint32_t *s = job->state3;
    for (int t = 0; t < 64; t++) p->k[t] = C(K(t));
    for (int i = 0; i < 8; i++) p->s3[i] = C(s[i]), p->mid[i] = C(job->midstate[i]);
    uint32_t t1 = s[7] + kiln_sha256_bsig1(s[4]) + kiln_sha256_ch(s[4], s[5], s[6]) + K(3);
    p->e4 = C(s[3] + t1);
    p->a4 = C(t1 + kiln_sha256_bsig0(s[0]) + kiln_sha256_maj(s[0], s[1], s[2]));
    uint32_t w[18] = {0};
    w[4] = 0x80000000u;
    w[15] = 640u;
    w[16] = job->w16;
    w[17] = job->w17;
    /* in rounds 4..6, h is still g, f, e of state3 */
    w[4] += s[6];
    w[5] += s[5];
    w[6] += s[4];
    for (int t = 4; t < 18; t++) p->hk[t] = C(K(t) + w[t]);
    p->c18 = C(kiln_sha256_ssig1(job->w16) + job->tail[2]);
    p->c19 = C(kiln_sha256_ssig1(job->w17) + kiln_sha256_ssig0(0x80000000u));
    p->w16 = C(job->w16);
    p->w17 = C(job->w17);
    p->s0_640 = C(kiln_sha256_ssig0(640u));
    p->c31 = C(kiln_sha256_ssig0(job->w16) + 640u);
    p->c32 = C(kiln_sha256_ssig0(job->w17) + job->w16);

    uint32_t iv[8];
    kiln_sha256_iv(iv);
    for (int i = 0; i < 8; i++) p->iv[i] = C(iv[i]);
#if defined(MAJ_FROM_BC)
    p->bc4 = C(s[0] ^ s[1]);
    p->bc1 = C(iv[0] ^ iv[1]);
#endif
    uint32_t t1iv = iv[7] + kiln_sha256_bsig1(iv[4]) + kiln_sha256_ch(iv[4], iv[5], iv[6]) + K(0);
    p->a1 = C(t1iv + kiln_sha256_bsig0(iv[0]) + kiln_sha256_maj(iv[0], iv[1], iv[2]));
    p->e1 = C(t1iv + iv[3]);
    p->hk1 = C(K(1) + iv[6]);
    p->hk2 = C(K(2) + iv[5]);
    p->hk3 = C(K(3) + iv[4]);
    p->kw8 = C(K(8) + 0x80000000u);
    p->kw15 = C(K(15) + 256u);
    p->s1_256 = C(kiln_sha256_ssig1(256u));
    p->s0_pad = C(kiln_sha256_ssig0(0x80000000u));
    p->s0_256 = C(kiln_sha256_ssig0(256u));
    p->k60iv = C(K(60) + iv[7]);
    p->pad = C(0x80000000u);
    p->len1 = C(640u);
    p->len2 = C(256u);
}

/* The state entering round t, after a round t - 1 that made a = x + a_k and e = x + e_k from the
 * state `prev` (its a, b, c and e, f, g move down to b, c, d and f, g, h). */
#define ENTER_ROUND(t, x, a_k, e_k, prev) \
    V(0, t) = ADD((x), (a_k));            \
    V(1, t) = (prev)[0];                  \
    V(2, t) = (prev)[1];                  \
    V(3, t) = (prev)[2];                  \
    V(4, t) = ADD((x), (e_k));            \
    V(5, t) = (prev)[4];                  \
    V(6, t) = (prev)[5];                  \
    V(7, t) = (prev)[6]

/* Digest word 7 (as SHA-256 outputs it, before byte swapping) of sha256d for LANES nonce words. */
static inline vec digest_word7(const pre *p, vec n)
{
    vec s[8], w[64] BC_DECL(p->bc4);

    /* ---- first hash: the header's second block, from round 3 ---- */
    ENTER_ROUND(4, n, p->a4, p->e4, p->s3);
    ROUND_HK(4, p->hk[4]);
    ROUND_HK(5, p->hk[5]);
    ROUND_HK(6, p->hk[6]);
    ROUND_KW(7, p->hk[7]);
    ROUND_KW4(8, p->hk);
    ROUND_KW4(12, p->hk);
    ROUND_KW(16, p->hk[16]);
    ROUND_KW(17, p->hk[17]);

    W_ROUND(18, ADD(p->c18, SSIG0(n)));
    W_ROUND(19, ADD(p->c19, n));
    W_ROUND(20, ADD(SSIG1(w[18]), p->pad));
    W_ROUND(21, SSIG1(w[19]));
    W_ROUND(22, ADD(SSIG1(w[20]), p->len1));
    W_ROUND(23, ADD(SSIG1(w[21]), p->w16));
    W_ROUND(24, ADD(SSIG1(w[22]), p->w17));
    ZERO_PAD_ROUNDS_25_29;
    W_ROUND(30, ADD3(SSIG1(w[28]), w[23], p->s0_640));
    W_ROUND(31, ADD3(SSIG1(w[29]), w[24], p->c31));
    W_ROUND(32, ADD3(SSIG1(w[30]), w[25], p->c32));
    W_ROUND(33, ADD(ADD(SSIG1(w[31]), w[26]), ADD(SSIG0(w[18]), p->w17)));
    EXPAND_ROUND16(34);
    EXPAND_ROUND8(50);
    EXPAND_ROUND4(58);
    EXPAND_ROUND(62);
    EXPAND_ROUND(63);

    /* ---- second hash: one block of the 8 digest words and constant padding ---- */
    /* after round 63, variable i is s[i] */
    w[0] = ADD(s[0], p->mid[0]);
    w[1] = ADD(s[1], p->mid[1]);
    w[2] = ADD(s[2], p->mid[2]);
    w[3] = ADD(s[3], p->mid[3]);
    w[4] = ADD(s[4], p->mid[4]);
    w[5] = ADD(s[5], p->mid[5]);
    w[6] = ADD(s[6], p->mid[6]);
    w[7] = ADD(s[7], p->mid[7]);
    /* round 0 from the IV: only W0 varies */
    ENTER_ROUND(1, w[0], p->a1, p->e1, p->iv);
    BC_SET(p->bc1);
    /* rounds 1..3: h is still an IV word */
    ROUND_HK(1, ADD(w[1], p->hk1));
    ROUND_HK(2, ADD(w[2], p->hk2));
    ROUND_HK(3, ADD(w[3], p->hk3));
    ROUND_W(4, w[4]);
    ROUND_W(5, w[5]);
    ROUND_W(6, w[6]);
    ROUND_W(7, w[7]);
    ROUND_KW(8, p->kw8);
    ROUND_KW(9, p->k[9]);
    ROUND_KW(10, p->k[10]);
    ROUND_KW(11, p->k[11]);
    ROUND_KW(12, p->k[12]);
    ROUND_KW(13, p->k[13]);
    ROUND_KW(14, p->k[14]);
    ROUND_KW(15, p->kw15);

    W_ROUND(16, ADD(SSIG0(w[1]), w[0]));
    W_ROUND(17, ADD3(SSIG0(w[2]), w[1], p->s1_256));
    W2_EARLY_ROUND(18);
    W2_EARLY_ROUND(19);
    W2_EARLY_ROUND(20);
    W2_EARLY_ROUND(21);
    W_ROUND(22, ADD(ADD(SSIG1(w[20]), p->len2), ADD(SSIG0(w[7]), w[6])));
    W_ROUND(23, ADD(ADD(SSIG1(w[21]), w[16]), ADD(w[7], p->s0_pad)));
    W_ROUND(24, ADD3(SSIG1(w[22]), w[17], p->pad));
    ZERO_PAD_ROUNDS_25_29;
    W_ROUND(30, ADD3(SSIG1(w[28]), w[23], p->s0_256));
    W_ROUND(31, ADD(ADD(SSIG1(w[29]), w[24]), ADD(SSIG0(w[16]), p->len2)));
    EXPAND_ROUND16(32);
    EXPAND_ROUND8(48);
    EXPAND_ROUND(56);
    EXPAND_ROUND_E(57);
    EXPAND_ROUND_E(58);
    EXPAND_ROUND_E(59);
    EXPAND(w, 60);
    ROUND_E_HK(60, ADD3(V(7, 60), w[60], p->k60iv));
    return V(3, 60);
}

uint64_t LANES_FN(const kiln_sha256d_job *job, uint32_t start, uint32_t count, uint32_t *cand, uint32_t cap)
{
    pre p;
    precompute(job, &p);
    const vec lane = LANE_INDEX;
    const vec bswap = BSWAP_BYTES;
    const vec target = C(job->target[7]);
    uint64_t found = 0;
    for (uint32_t i = 0; i < count; i += LANES) {
        uint32_t base = start + i; /* lanes past count may wrap; they are masked off below */
        vec nonce = ADD(C(base), lane);
        vec h7 = digest_word7(&p, SHUFFLE8(nonce, bswap));
        lane_mask hit = LE_MASK(SHUFFLE8(h7, bswap), target);
        if (count - i < LANES) hit &= (lane_mask)((1u << (count - i)) - 1);
        while (hit) {
            unsigned k = (unsigned)__builtin_ctz(hit);
            if (found < cap) cand[found] = base + k;
            found++;
            hit &= (lane_mask)(hit - 1);
        }
        if (count - i <= LANES) break; /* i + LANES could wrap past 2^32 */
    }
    return found;
}
