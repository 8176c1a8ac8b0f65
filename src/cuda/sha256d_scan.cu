/* sha256d nonce search on the GPU.
 *
 * Per nonce the work is the second block of the header (rounds 3..63, the first three are the
 * job's) and the hash of the 32-byte digest (rounds 0..60: only digest word 7 is tested, and it is
 * e after round 60 plus IV7). Everything that does not depend on the nonce is folded on the host
 * into sha256d_consts, passed by value, or, when it depends on nothing at all (round constants,
 * padding words, the IV of the second hash), into instruction immediates by the compiler. The
 * derivation of each folded term is in docs/perf-sha256d.md. */
#include "cuda_state.h"

/* The per-nonce code is host+device so that it can be checked against the reference on a machine
 * without a GPU; only the device copy needs unrolling. */
#if defined(__CUDA_ARCH__)
#define KILN_UNROLL _Pragma("unroll")
#else
#define KILN_UNROLL
#endif

namespace {

/* Round constants as a compile-time function: with every round unrolled, each K becomes an
 * immediate operand rather than a constant-memory load. */
__host__ __device__ constexpr uint32_t kk(int t)
{
    constexpr uint32_t k[64] = {KILN_SHA256_K_LIST};
    return k[t];
}

/* Plain shifts, so constants fold at compile time; on values the compiler emits a funnel shift. */
__host__ __device__ constexpr uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
__host__ __device__ constexpr uint32_t bs0(uint32_t x) { return ror(x, 2) ^ ror(x, 13) ^ ror(x, 22); }
__host__ __device__ constexpr uint32_t bs1(uint32_t x) { return ror(x, 6) ^ ror(x, 11) ^ ror(x, 25); }
__host__ __device__ constexpr uint32_t ss0(uint32_t x) { return ror(x, 7) ^ ror(x, 18) ^ (x >> 3); }
__host__ __device__ constexpr uint32_t ss1(uint32_t x) { return ror(x, 17) ^ ror(x, 19) ^ (x >> 10); }
__host__ __device__ constexpr uint32_t ch(uint32_t e, uint32_t f, uint32_t g) { return g ^ (e & (f ^ g)); }
__host__ __device__ constexpr uint32_t maj(uint32_t a, uint32_t b, uint32_t c) { return (a & b) | (c & (a | b)); }

/* Build-time knobs of the instruction mix (docs/perf-sha256d.md has the measurements behind the
 * defaults). The SM issues one warp instruction per scheduler per clock, but the integer ALU pipe
 * (LOP3, SHF, IADD3) takes a warp instruction only every second clock; the multiply pipe (IMAD)
 * likewise, beside it. SHA-256 is mostly LOP3 and SHF, so left alone the ALU pipe is the limit
 * while the multiply pipe idles. Moving two-input additions, and some shifts, to IMAD balances
 * the two pipes.
 *   KILN_SHA256D_ADDS 1: two-input additions of variables as IMAD by an opaque 1 (a kernel
 *     parameter the compiler cannot fold), 0: the compiler's choice (mostly IADD3); 2: as 1 but
 *     a = T1 + Maj + Sigma0 as one IADD3, 3: as 1 but T1 = hkw + Ch + Sigma1 as one IADD3.
 *   KILN_SHA256D_MULROT bit mask: 1 one rotation of Sigma1 per round, 2 one of Sigma0, 4 the
 *     shift right of sigma0 in the schedule, 32 that of sigma1, 8 one rotation of sigma1, 16 one
 *     of sigma0, computed on the multiply pipe (x * 2^(32-n): low word x << (32-n), high word
 *     x >> n; the high word costs IMAD.HI, a quarter-rate instruction).
 *   KILN_SHA256D_ILP: nonces interleaved per thread (1 or 2).
 *   KILN_SHA256D_KW: how round constants are added: 0 the compiler's choice (VIADD), 1 IMAD
 *     (one * K + x), 2 h + W + K as one three-input add (IADD3).
 *   KILN_SHA256D_MAXNREG: register cap per thread (0: only __launch_bounds__(1024); the kernel
 *     takes 43). At 32 every SM holds 64 warps instead of 40 and the thread's nonce and offset
 *     go to local memory; that was 0.5% slower (the ALU pipe is already 94% busy). */
#ifndef KILN_SHA256D_ADDS
#define KILN_SHA256D_ADDS 1
#endif
#ifndef KILN_SHA256D_MULROT
#define KILN_SHA256D_MULROT 0
#endif
#ifndef KILN_SHA256D_ILP
#define KILN_SHA256D_ILP 1
#endif
#ifndef KILN_SHA256D_MAXNREG
#define KILN_SHA256D_MAXNREG 0
#endif
#ifndef KILN_SHA256D_KW
#define KILN_SHA256D_KW 0
#endif

/* Opaque multipliers: 1 and powers of two, read from the kernel parameters so that ptxas keeps
 * the multiplications (on the multiply pipe) instead of turning them back into ALU adds/shifts. */
struct mulk {
    uint32_t one;
    uint32_t m25, m22, m19, m18, m10, m3; /* 2^(32-n) for the rotation or shift by n */
};

/* Nonce-independent values of one job, computed once per launch on the host. Names follow the
 * second header block: Wt its schedule, a3..h3 the state after the job's rounds 0..2. */
struct sha256d_consts {
    uint32_t mid[8]; /* midstate, added back after round 63 */
    uint32_t a3, b3, c3, e3, f3; /* state words that are still live in rounds 4..6 */
    uint32_t a4c, e4c; /* a4 = W3 + a4c, e4 = W3 + e4c: round 3 with W3 left out */
    uint32_t hkw4, hkw5, hkw6; /* h + K + W of rounds 4..6, where h is still a job constant */
    uint32_t kw16, kw17; /* K + W of rounds 16, 17 */
    uint32_t c18, c19; /* W18 = ss0(W3) + c18, W19 = W3 + c19 */
    uint32_t c31, c32; /* constant parts of W31 and W32 */
    uint32_t w16, w17;
    uint32_t target7; /* most significant target word: the early test */
    mulk m;
};

sha256d_consts make_consts(const kiln_sha256d_job &j)
{
    sha256d_consts c;
    for (int i = 0; i < 8; i++) c.mid[i] = j.midstate[i];
    const uint32_t a3 = j.state3[0], b3 = j.state3[1], c3 = j.state3[2], d3 = j.state3[3];
    const uint32_t e3 = j.state3[4], f3 = j.state3[5], g3 = j.state3[6], h3 = j.state3[7];
    c.a3 = a3, c.b3 = b3, c.c3 = c3, c.e3 = e3, c.f3 = f3;
    const uint32_t t1 = h3 + bs1(e3) + ch(e3, f3, g3) + kk(3); /* + W3 */
    c.a4c = t1 + bs0(a3) + maj(a3, b3, c3);
    c.e4c = t1 + d3;
    c.hkw4 = g3 + kk(4) + 0x80000000u; /* W4: the padding bit */
    c.hkw5 = f3 + kk(5); /* W5, W6 = 0 */
    c.hkw6 = e3 + kk(6);
    c.w16 = j.w16;
    c.w17 = j.w17;
    c.kw16 = kk(16) + j.w16;
    c.kw17 = kk(17) + j.w17;
    c.c18 = ss1(j.w16) + j.tail[2]; /* W11 = 0 */
    c.c19 = ss1(j.w17) + ss0(0x80000000u); /* W12 = 0 */
    c.c31 = ss0(j.w16) + 640u; /* W15 */
    c.c32 = ss0(j.w17) + j.w16;
    c.target7 = j.target[7];
    c.m = {1u, 1u << 7, 1u << 10, 1u << 13, 1u << 14, 1u << 22, 1u << 29};
    return c;
}

__host__ __device__ __forceinline__ uint32_t bswap(uint32_t x)
{
#if defined(__CUDA_ARCH__)
    return __byte_perm(x, 0, 0x0123);
#else
    return kiln_bswap32(x);
#endif
}

/* a + b on the multiply pipe; only for operands that are not compile-time constants. */
__host__ __device__ __forceinline__ uint32_t add2(const mulk &m, uint32_t a, uint32_t b)
{
#if KILN_SHA256D_ADDS != 0 && defined(__CUDA_ARCH__)
    uint32_t d;
    asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(m.one), "r"(b));
    return d;
#else
    (void)m;
    return a + b;
#endif
}

/* x + k for a compile-time constant k. */
__host__ __device__ __forceinline__ uint32_t addk(const mulk &m, uint32_t x, uint32_t k)
{
#if KILN_SHA256D_KW == 1 && defined(__CUDA_ARCH__)
    uint32_t d;
    asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(m.one), "r"(k), "r"(x));
    return d;
#else
    (void)m;
    return x + k;
#endif
}

/* x rotated right by n, on the multiply pipe: mul = 2^(32-n); high word (x >> n) first, then
 * the low word (x << (32-n)) added to it, two IMADs. */
__host__ __device__ __forceinline__ uint32_t ror_mul(uint32_t x, uint32_t mul)
{
#if defined(__CUDA_ARCH__)
    uint32_t hi, r;
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(hi) : "r"(x), "r"(mul));
    asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(mul), "r"(hi));
    return r;
#else
    return (uint32_t)(((uint64_t)x * mul) >> 32) + x * mul;
#endif
}

__host__ __device__ __forceinline__ uint32_t shr_mul(uint32_t x, uint32_t mul)
{
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(mul));
    return r;
#else
    return (uint32_t)(((uint64_t)x * mul) >> 32);
#endif
}

constexpr int kMulrot = KILN_SHA256D_MULROT;

__host__ __device__ __forceinline__ uint32_t dbs1(const mulk &m, uint32_t x)
{
    return ror(x, 6) ^ ror(x, 11) ^ ((kMulrot & 1) ? ror_mul(x, m.m25) : ror(x, 25));
}
__host__ __device__ __forceinline__ uint32_t dbs0(const mulk &m, uint32_t x)
{
    return ror(x, 2) ^ ror(x, 13) ^ ((kMulrot & 2) ? ror_mul(x, m.m22) : ror(x, 22));
}
__host__ __device__ __forceinline__ uint32_t dss0(const mulk &m, uint32_t x)
{
    return ror(x, 7) ^ ((kMulrot & 16) ? ror_mul(x, m.m18) : ror(x, 18)) ^ ((kMulrot & 4) ? shr_mul(x, m.m3) : x >> 3);
}
__host__ __device__ __forceinline__ uint32_t dss1(const mulk &m, uint32_t x)
{
    return ror(x, 17) ^ ((kMulrot & 8) ? ror_mul(x, m.m19) : ror(x, 19)) ^
           ((kMulrot & 32) ? shr_mul(x, m.m10) : x >> 10);
}

/* State a..h as v[0..7]; a round shifts it, the compiler renames instead of moving. */
struct st8 {
    uint32_t v[8];
};

/* One round given h + K + W already summed (a variable). DCONST: d is a compile-time constant. */
template <bool DCONST = false>
__host__ __device__ __forceinline__ void round_hkw(const mulk &m, st8 &s, uint32_t hkw)
{
#if KILN_SHA256D_ADDS == 3
    const uint32_t t1 = hkw + ch(s.v[4], s.v[5], s.v[6]) + dbs1(m, s.v[4]);
#else
    const uint32_t t1 = add2(m, add2(m, hkw, ch(s.v[4], s.v[5], s.v[6])), dbs1(m, s.v[4]));
#endif
#if KILN_SHA256D_ADDS == 2
    const uint32_t a = t1 + maj(s.v[0], s.v[1], s.v[2]) + dbs0(m, s.v[0]);
#else
    const uint32_t a = add2(m, add2(m, t1, maj(s.v[0], s.v[1], s.v[2])), dbs0(m, s.v[0]));
#endif
    s.v[7] = s.v[6];
    s.v[6] = s.v[5];
    s.v[5] = s.v[4];
    s.v[4] = DCONST ? s.v[3] + t1 : add2(m, s.v[3], t1);
    s.v[3] = s.v[2];
    s.v[2] = s.v[1];
    s.v[1] = s.v[0];
    s.v[0] = a;
}

/* One round of a variable message word w and round constant k; h is a variable. */
__host__ __device__ __forceinline__ void round_wk(const mulk &m, st8 &s, uint32_t w, uint32_t k)
{
#if KILN_SHA256D_KW == 2
    round_hkw(m, s, s.v[7] + w + k);
#else
    round_hkw(m, s, add2(m, s.v[7], addk(m, w, k)));
#endif
}

/* One round whose message word is a constant too: h + (K + W). */
__host__ __device__ __forceinline__ void round_k(const mulk &m, st8 &s, uint32_t kw) { round_hkw(m, s, addk(m, s.v[7], kw)); }

__host__ __device__ __forceinline__ uint32_t expand(const mulk &m, const uint32_t *w, int t)
{
    return add2(m, add2(m, add2(m, dss1(m, w[t - 2]), w[t - 7]), dss0(m, w[t - 15])), w[t - 16]);
}

/* The second hash's block is the digest (words 0..7) and constant padding (8..15): terms of
 * its schedule that fall on padding words are summed as constants (zeros vanish). */
__host__ __device__ __forceinline__ uint32_t expand2(const mulk &m, const uint32_t *x, int t)
{
    auto pad = [](int i) { return i >= 8 && i < 16; };
    uint32_t v = 0, k = 0;
    bool have = false;
    auto addv = [&](uint32_t y) {
        v = have ? add2(m, v, y) : y;
        have = true;
    };
    if (pad(t - 2)) k += ss1(x[t - 2]);
    else addv(dss1(m, x[t - 2]));
    if (pad(t - 7)) k += x[t - 7];
    else addv(x[t - 7]);
    if (pad(t - 15)) k += ss0(x[t - 15]);
    else addv(dss0(m, x[t - 15]));
    if (pad(t - 16)) k += x[t - 16];
    else addv(x[t - 16]);
    return k ? addk(m, v, k) : v;
}

/* Byte-swapped digest word 7 of sha256d(header with nonce): the 32 most significant bits of the
 * hash read as a little-endian number. */
__host__ __device__ __forceinline__ uint32_t sha256d_top(const sha256d_consts &c, uint32_t nonce)
{
    const mulk &m = c.m;
    /* ---- first hash, second block: W0..W2 job words, W3 nonce, W4 padding, W15 = 640 */
    uint32_t w[64];
    w[3] = bswap(nonce);
    st8 s = {{add2(m, w[3], c.a4c), c.a3, c.b3, c.c3, add2(m, w[3], c.e4c), c.e3, c.f3, 0}};
    round_hkw(m, s, c.hkw4);
    round_hkw(m, s, c.hkw5);
    round_hkw(m, s, c.hkw6);
KILN_UNROLL
    for (int t = 7; t < 15; t++) round_k(m, s, kk(t));
    round_k(m, s, kk(15) + 640u);
    round_hkw(m, s, add2(m, s.v[7], c.kw16));
    round_hkw(m, s, add2(m, s.v[7], c.kw17));
    /* W4..W15 are constants and W16, W17 job words, so W18..W32 lose terms */
    w[16] = c.w16;
    w[17] = c.w17;
    w[18] = add2(m, dss0(m, w[3]), c.c18);
    w[19] = add2(m, w[3], c.c19);
    w[20] = addk(m, dss1(m, w[18]), 0x80000000u);
    w[21] = dss1(m, w[19]);
    w[22] = addk(m, dss1(m, w[20]), 640u);
    w[23] = add2(m, dss1(m, w[21]), c.w16);
    w[24] = add2(m, dss1(m, w[22]), c.w17);
KILN_UNROLL
    for (int t = 25; t < 30; t++) w[t] = add2(m, dss1(m, w[t - 2]), w[t - 7]);
    w[30] = addk(m, add2(m, dss1(m, w[28]), w[23]), ss0(640u));
    w[31] = add2(m, add2(m, dss1(m, w[29]), w[24]), c.c31);
    w[32] = add2(m, add2(m, dss1(m, w[30]), w[25]), c.c32);
KILN_UNROLL
    for (int t = 18; t < 33; t++) round_wk(m, s, w[t], kk(t));
KILN_UNROLL
    for (int t = 33; t < 64; t++) {
        w[t] = expand(m, w, t);
        round_wk(m, s, w[t], kk(t));
    }

    /* ---- second hash: one block of the 8 digest words, padding 0x80000000, length 256 */
    uint32_t x[61];
KILN_UNROLL
    for (int i = 0; i < 8; i++) x[i] = add2(m, c.mid[i], s.v[i]);
    x[8] = 0x80000000u;
KILN_UNROLL
    for (int t = 9; t < 15; t++) x[t] = 0;
    x[15] = 256u;
    /* round 0 from the IV is all constants but W0 */
    constexpr uint32_t t1c = KILN_SHA256_IV7 + bs1(KILN_SHA256_IV4) +
                             ch(KILN_SHA256_IV4, KILN_SHA256_IV5, KILN_SHA256_IV6) + kk(0);
    constexpr uint32_t a1c = t1c + bs0(KILN_SHA256_IV0) + maj(KILN_SHA256_IV0, KILN_SHA256_IV1, KILN_SHA256_IV2);
    constexpr uint32_t e1c = t1c + KILN_SHA256_IV3;
    st8 h = {{addk(m, x[0], a1c), KILN_SHA256_IV0, KILN_SHA256_IV1, KILN_SHA256_IV2, addk(m, x[0], e1c), KILN_SHA256_IV4,
              KILN_SHA256_IV5, KILN_SHA256_IV6}};
    /* rounds 1..3: h and d are still IV words */
KILN_UNROLL
    for (int t = 1; t < 4; t++) round_hkw<true>(m, h, addk(m, x[t], h.v[7] + kk(t)));
KILN_UNROLL
    for (int t = 4; t < 8; t++) round_wk(m, h, x[t], kk(t));
KILN_UNROLL
    for (int t = 8; t < 16; t++) round_k(m, h, x[t] + kk(t));
KILN_UNROLL
    for (int t = 16; t < 60; t++) {
        x[t] = expand2(m, x, t);
        round_wk(m, h, x[t], kk(t));
    }
    /* round 60 only for its e: digest word 7 = h64 + IV7 = e61 + IV7; the rounds' unused a
     * values are dropped by the compiler */
    x[60] = expand2(m, x, 60);
    const uint32_t t1 = add2(m, add2(m, add2(m, h.v[7], addk(m, x[60], kk(60))), ch(h.v[4], h.v[5], h.v[6])), dbs1(m, h.v[4]));
    const uint32_t e61 = add2(m, h.v[3], t1);
    return bswap(e61 + KILN_SHA256_IV7);
}

/* Each thread tries NPT nonces, G of them interleaved at a time for instruction-level
 * parallelism. Block b covers offsets [b*NPT*blockDim, (b+1)*NPT*blockDim) of the launch. */
#if KILN_SHA256D_MAXNREG
#define KILN_SHA256D_BOUNDS __maxnreg__(KILN_SHA256D_MAXNREG)
#else
#define KILN_SHA256D_BOUNDS __launch_bounds__(1024)
#endif

template <int NPT, int G>
__global__ void KILN_SHA256D_BOUNDS sha256d_scan_kernel(const __grid_constant__ sha256d_consts c,
                                                            uint32_t start, uint64_t count, uint32_t *cand,
                                                            unsigned long long *ncand)
{
    const uint64_t base = (uint64_t)blockIdx.x * blockDim.x * NPT + threadIdx.x;
#pragma unroll 1
    for (int i = 0; i < NPT; i += G) {
        uint32_t top[G];
KILN_UNROLL
        for (int j = 0; j < G; j++) top[j] = sha256d_top(c, start + (uint32_t)(base + (uint64_t)(i + j) * blockDim.x));
KILN_UNROLL
        for (int j = 0; j < G; j++) {
            if (top[j] <= c.target7) {
                const uint64_t off = base + (uint64_t)(i + j) * blockDim.x;
                if (off < count) {
                    const unsigned long long slot = atomicAdd(ncand, 1ull);
                    if (slot < KILN_CUDA_CAND_CAP) cand[slot] = start + (uint32_t)off;
                }
            }
        }
    }
}

constexpr int kInterleave = KILN_SHA256D_ILP;

template <int NPT>
cudaError_t launch(kiln_gpu *st, const sha256d_consts &c, uint32_t start, uint64_t count, int tpb)
{
    constexpr int G = NPT < kInterleave ? NPT : kInterleave;
    const uint64_t per_block = (uint64_t)tpb * NPT;
    const uint64_t blocks = (count + per_block - 1) / per_block;
    sha256d_scan_kernel<NPT, G><<<(unsigned)blocks, tpb, 0, st->stream>>>(c, start, count, st->d_cand, st->d_count);
    return cudaGetLastError();
}

} // namespace

kiln_status kiln_cuda_sha256d_scan(kiln_gpu *st, const kiln_sha256d_job *job, uint32_t start, uint64_t count,
                                   kiln_launch launch_shape, uint32_t *cand, uint32_t cap, uint64_t *ncand,
                                   float *gpu_ms)
{
    int tpb = launch_shape.threads_per_block, ipt = launch_shape.items_per_thread;
    *ncand = 0;
    *gpu_ms = 0;
    if (tpb <= 0) tpb = 512;
    if (ipt <= 0) ipt = 1;
    if (tpb < 32 || tpb > 1024 || tpb % 32 != 0) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "threads per block %d not a multiple of 32 in 32..1024", tpb);
    }
    if (count > (UINT64_C(1) << 32) - start) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "launch range runs past nonce 2^32 - 1");
    }
    if (count == 0) return KILN_OK;
    const sha256d_consts c = make_consts(*job);
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");

    KILN_CUDA_TRY(cudaMemsetAsync(st->d_count, 0, sizeof(unsigned long long), st->stream), "cudaMemsetAsync");
    KILN_CUDA_TRY(cudaEventRecord(st->ev_start, st->stream), "cudaEventRecord");
    cudaError_t e;
    switch (ipt) {
    case 1: e = launch<1>(st, c, start, count, tpb); break;
    case 2: e = launch<2>(st, c, start, count, tpb); break;
    case 4: e = launch<4>(st, c, start, count, tpb); break;
    case 8: e = launch<8>(st, c, start, count, tpb); break;
    case 16: e = launch<16>(st, c, start, count, tpb); break;
    default: return kiln_fail(st->ctx, KILN_ERR_INPUT, "nonces per thread %d not one of 1, 2, 4, 8, 16", ipt);
    }
    KILN_CUDA_TRY(e, "sha256d kernel launch");
    KILN_CUDA_TRY(cudaEventRecord(st->ev_stop, st->stream), "cudaEventRecord");
    KILN_CUDA_TRY(cudaMemcpyAsync(st->h_count, st->d_count, sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                  st->stream),
                  "cudaMemcpyAsync");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "sha256d kernel");
    const unsigned long long n = *st->h_count;
    unsigned long long copy = n < KILN_CUDA_CAND_CAP ? n : KILN_CUDA_CAND_CAP;
    if (copy > cap) copy = cap;
    if (copy) {
        KILN_CUDA_TRY(cudaMemcpyAsync(st->h_cand, st->d_cand, copy * sizeof(uint32_t), cudaMemcpyDeviceToHost,
                                      st->stream),
                      "cudaMemcpyAsync");
        KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "cudaStreamSynchronize");
        for (unsigned long long i = 0; i < copy; i++) cand[i] = st->h_cand[i];
    }
    /* a device buffer that overflowed is reported as more candidates than the caller can hold,
     * so the dispatcher splits the range */
    *ncand = n > KILN_CUDA_CAND_CAP && n <= cap ? (uint64_t)cap + 1 : n;
    KILN_CUDA_TRY(cudaEventElapsedTime(gpu_ms, st->ev_start, st->ev_stop), "cudaEventElapsedTime");
    return KILN_OK;
}
