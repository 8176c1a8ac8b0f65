/* Keccak-f[1600] (FIPS 202 section 3) and the sponge built on it, for host and device.
 *
 * The permutation is kept apart from the modes, as XKCP does: SHA3-*, SHAKE* and the original
 * Keccak-* differ only in the rate and in the domain byte that starts the padding, so one
 * absorb/pad/squeeze implementation serves all of them.
 *
 * The state is 25 64-bit lanes, lane (x, y) at index x + 5*y; bytes enter and leave the lanes
 * little-endian (FIPS 202's bit numbering). Pure functions: no allocation, no I/O. */
#ifndef KILN_PRIM_KECCAK_H
#define KILN_PRIM_KECCAK_H

#include "kiln_hd.h"

#define KILN_KECCAK_ROUNDS 24
#define KILN_KECCAK_LANES 25
#define KILN_KECCAK_STATE_BYTES 200

/* Round constants of iota (FIPS 202 algorithm 5, rc(t) packed per round). */
#define KILN_KECCAK_RC_LIST                                                                          \
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808Aull, 0x8000000080008000ull,      \
        0x000000000000808Bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,  \
        0x000000000000008Aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000Aull,  \
        0x000000008000808Bull, 0x800000000000008Bull, 0x8000000000008089ull, 0x8000000000008003ull,  \
        0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800Aull, 0x800000008000000Aull,  \
        0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull

/* Rotation offsets of rho, by lane index x + 5*y (FIPS 202 table 2). */
#define KILN_KECCAK_RHO_LIST                                                                          \
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14

/* pi moves lane (x, y) to (y, 2x + 3y); listed the other way round: the lane that lands at each
 * index. Output (X, Y) reads input (X + 3Y mod 5, X). */
#define KILN_KECCAK_PI_SRC_LIST                                                                       \
    0, 6, 12, 18, 24, 3, 9, 10, 16, 22, 1, 7, 13, 19, 20, 4, 5, 11, 17, 23, 2, 8, 14, 15, 21

KILN_TABLE uint64_t kiln_keccak_rc_host[KILN_KECCAK_ROUNDS] = {KILN_KECCAK_RC_LIST};
KILN_TABLE uint8_t kiln_keccak_rho_host[KILN_KECCAK_LANES] = {KILN_KECCAK_RHO_LIST};
KILN_TABLE uint8_t kiln_keccak_pi_src_host[KILN_KECCAK_LANES] = {KILN_KECCAK_PI_SRC_LIST};
#if defined(__CUDACC__)
static __device__ __constant__ uint64_t kiln_keccak_rc_dev[KILN_KECCAK_ROUNDS] = {KILN_KECCAK_RC_LIST};
static __device__ __constant__ uint8_t kiln_keccak_rho_dev[KILN_KECCAK_LANES] = {KILN_KECCAK_RHO_LIST};
static __device__ __constant__ uint8_t kiln_keccak_pi_src_dev[KILN_KECCAK_LANES] = {KILN_KECCAK_PI_SRC_LIST};
#endif

#if defined(__CUDA_ARCH__)
#define KILN_KECCAK_TABLE(name) name##_dev
#define KILN_UNROLL_ROUNDS _Pragma("unroll")
#define KILN_NO_UNROLL _Pragma("unroll 1")
#else
#define KILN_KECCAK_TABLE(name) name##_host
#if defined(KILN_OPENCL_C)
/* a GPU's OpenCL compiler, like nvcc, keeps the lanes in registers only when the rounds unroll */
#define KILN_UNROLL_ROUNDS _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__CUDACC__)
#define KILN_UNROLL_ROUNDS _Pragma("GCC unroll 12")
#else
#define KILN_UNROLL_ROUNDS
#endif
#define KILN_NO_UNROLL
#endif

KILN_HD uint64_t kiln_keccak_rc(int round) { return KILN_KECCAK_TABLE(kiln_keccak_rc)[round]; }
KILN_HD int kiln_keccak_rho(int lane) { return KILN_KECCAK_TABLE(kiln_keccak_rho)[lane]; }
KILN_HD int kiln_keccak_pi_src(int lane) { return KILN_KECCAK_TABLE(kiln_keccak_pi_src)[lane]; }

/* 64-bit left rotation by n in 0..63. The GPU has no 64-bit rotate: it is two 32-bit funnel
 * shifts over the halves (SHF.L.W), the halves swapping roles when n >= 32. */
KILN_HD uint64_t kiln_rotl64(uint64_t x, int n)
{
#if defined(__CUDA_ARCH__)
    uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32), rlo, rhi;
    if (n >= 32) {
        rhi = __funnelshift_l(hi, lo, n);
        rlo = __funnelshift_l(lo, hi, n);
    } else {
        rhi = __funnelshift_l(lo, hi, n);
        rlo = __funnelshift_l(hi, lo, n);
    }
    return ((uint64_t)rhi << 32) | rlo;
#elif defined(KILN_OPENCL_C) && defined(KILN_OCL_NV)
    /* NVIDIA's OpenCL compiler (KILN_OCL_NV, set by the host for that driver only): the same two
     * funnel shifts in inline PTX, so the rotate cannot become four 64-bit shifts (volatile: the form
     * that driver is known to take) */
    uint64_t r;
    if (n >= 32)
        __asm__ volatile("{\n\t.reg .b32 lo, hi, rl, rh;\n\tmov.b64 {lo, hi}, %1;\n\t"
                         "shf.l.wrap.b32 rh, hi, lo, %2;\n\tshf.l.wrap.b32 rl, lo, hi, %2;\n\t"
                         "mov.b64 %0, {rl, rh};\n\t}"
                         : "=l"(r)
                         : "l"(x), "r"(n));
    else
        __asm__ volatile("{\n\t.reg .b32 lo, hi, rl, rh;\n\tmov.b64 {lo, hi}, %1;\n\t"
                         "shf.l.wrap.b32 rh, lo, hi, %2;\n\tshf.l.wrap.b32 rl, hi, lo, %2;\n\t"
                         "mov.b64 %0, {rl, rh};\n\t}"
                         : "=l"(r)
                         : "l"(x), "r"(n));
    return r;
#else
    return n == 0 ? x : (x << n) | (x >> (64 - n));
#endif
}

/* The same rotation on the GPU's multiply-add pipe instead of its integer ALU. The unrolled
 * permutation is bound by the ALU (LOP3 and SHF issue at half the scheduler's rate there), so
 * moving rotations to IMAD looked like a way past that limit: x * 2^n holds x << n in its low word
 * and x >> (32 - n) in its high word, and the multiplier comes from constant memory so the
 * compiler cannot turn it back into shifts. Measured on the H200 (experiments/keccak_variants.cu,
 * docs/KECCAK.md) every mix was slower, so KILN_KECCAK_MUL_MASK stays 0; kept for that study.
 * Host: the plain rotation. */
#if defined(__CUDACC__)
#define KILN_KECCAK_POW2_LIST                                                                            \
    1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7, 1u << 8, 1u << 9, 1u << 10,    \
        1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15, 1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, \
        1u << 21, 1u << 22, 1u << 23, 1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, \
        1u << 31
static __device__ __constant__ uint32_t kiln_keccak_pow2_dev[64] = {KILN_KECCAK_POW2_LIST, KILN_KECCAK_POW2_LIST};
#endif

KILN_HD uint64_t kiln_rotl64_mul(uint64_t x, int n)
{
#if defined(__CUDA_ARCH__)
    uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
    if (n >= 32) {
        uint32_t t = lo;
        lo = hi;
        hi = t;
        n -= 32;
    }
    if (n == 0) return ((uint64_t)hi << 32) | lo;
    /* two copies of the multiplier, so the compiler does not merge the two products of hi into
     * one wide multiply whose halves land in the wrong order for the final multiply-add */
    uint32_t m = kiln_keccak_pow2_dev[n], m2 = kiln_keccak_pow2_dev[32 + n], up, down;
    uint64_t r;
    asm("mul.lo.u32 %0, %1, %2;" : "=r"(up) : "r"(hi), "r"(m)); /* hi << n */
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(down) : "r"(hi), "r"(m2)); /* hi >> (32 - n) */
    /* lo * 2^n + (up:down): the halves' bits are disjoint, so the add is an OR without carries */
    asm("{\n\t.reg .b64 c;\n\tmov.b64 c, {%1, %2};\n\tmad.wide.u32 %0, %3, %4, c;\n\t}"
        : "=l"(r)
        : "r"(down), "r"(up), "r"(lo), "r"(m));
    return r;
#else
    return kiln_rotl64(x, n);
#endif
}

/* Which of a round's 29 rotations (5 in theta, then rho's 24 in the order kiln_keccak_round
 * lists them) go to the multiplier on the GPU: none, the fastest measured. */
#ifndef KILN_KECCAK_MUL_MASK
#define KILN_KECCAK_MUL_MASK 0u
#endif

KILN_HD uint64_t kiln_keccak_rot(uint64_t x, int n, uint32_t mul_mask, int site)
{
    return (mul_mask >> site) & 1 ? kiln_rotl64_mul(x, n) : kiln_rotl64(x, n);
}

/* a ^ b ^ c as one three-input logic instruction per 32-bit half on the GPU. Written out because
 * the compiler, left alone, computes theta's D[x] = C[x-1] ^ rot(C[x+1], 1) once and then XORs it
 * into five lanes (two instructions per lane) instead of one three-input XOR per lane. */
KILN_HD uint64_t kiln_xor3(uint64_t a, uint64_t b, uint64_t c)
{
#if defined(__CUDA_ARCH__)
    uint32_t lo, hi;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(lo) : "r"((uint32_t)a), "r"((uint32_t)b), "r"((uint32_t)c));
    asm("lop3.b32 %0, %1, %2, %3, 0x96;"
        : "=r"(hi)
        : "r"((uint32_t)(a >> 32)), "r"((uint32_t)(b >> 32)), "r"((uint32_t)(c >> 32)));
    return ((uint64_t)hi << 32) | lo;
#elif defined(KILN_OPENCL_C) && defined(KILN_OCL_NV)
    uint64_t r;
    __asm__ volatile("{\n\t.reg .b32 al, ah, bl, bh, cl, ch, rl, rh;\n\tmov.b64 {al, ah}, %1;\n\t"
                     "mov.b64 {bl, bh}, %2;\n\tmov.b64 {cl, ch}, %3;\n\tlop3.b32 rl, al, bl, cl, 0x96;\n\t"
                     "lop3.b32 rh, ah, bh, ch, 0x96;\n\tmov.b64 %0, {rl, rh};\n\t}"
                     : "=l"(r)
                     : "l"(a), "l"(b), "l"(c));
    return r;
#else
    return a ^ b ^ c;
#endif
}

/* a ^ (~b & c): chi's nonlinear step; one three-input logic instruction (LOP3) per 32-bit half
 * on the GPU. */
KILN_HD uint64_t kiln_keccak_chi(uint64_t a, uint64_t b, uint64_t c) { return a ^ (~b & c); }

/* The lane-per-thread permutation (CUDA's perm_lane_kernel, OpenCL's kiln_keccak_perm_lane): 25
 * threads a state, thread t holding lane x + 5 y = t % 25 of the state whose lanes start at base =
 * t - t % 25 in shared memory. Where that thread reads and writes in a round: its column sums
 * start at col (a state's five, in their own array), theta reads columns x - 1 and x + 1 (cm, cp),
 * rho rotates by rho, pi moves the lane to dst, and chi reads x + 1 and x + 2 of its row (x1, x2). */
typedef struct kiln_keccak_lane_at {
    int rho;
    unsigned col, dst, x1, x2, cm, cp;
} kiln_keccak_lane_at;

KILN_HD kiln_keccak_lane_at kiln_keccak_lane_where(unsigned t)
{
    const unsigned lane = t % 25, base = t - lane, x = lane % 5, y = lane / 5;
    kiln_keccak_lane_at w;
    w.rho = kiln_keccak_rho((int)lane);
    w.col = base / 5;
    w.dst = base + y + 5 * ((2 * x + 3 * y) % 5);
    w.x1 = base + 5 * y + (x + 1) % 5;
    w.x2 = base + 5 * y + (x + 2) % 5;
    w.cm = w.col + (x + 4) % 5;
    w.cp = w.col + (x + 1) % 5;
    return w;
}

/* One round, reading state a and writing state e (they must not overlap): theta folded into
 * rho-pi (each lane gets its column's D as it is moved), then chi plane by plane, then iota.
 * Written with constant indices only, so a caller that keeps both states in local arrays and
 * unrolls gets every lane in a register. */
KILN_HD void kiln_keccak_round_sel(const uint64_t *a, uint64_t *e, uint64_t rc, uint32_t mm)
{
    uint64_t c0 = kiln_xor3(kiln_xor3(a[0], a[5], a[10]), a[15], a[20]);
    uint64_t c1 = kiln_xor3(kiln_xor3(a[1], a[6], a[11]), a[16], a[21]);
    uint64_t c2 = kiln_xor3(kiln_xor3(a[2], a[7], a[12]), a[17], a[22]);
    uint64_t c3 = kiln_xor3(kiln_xor3(a[3], a[8], a[13]), a[18], a[23]);
    uint64_t c4 = kiln_xor3(kiln_xor3(a[4], a[9], a[14]), a[19], a[24]);
    /* theta's D[x] = C[x-1] ^ r[x], applied to each lane as one three-input XOR */
    uint64_t r0 = kiln_keccak_rot(c1, 1, mm, 0);
    uint64_t r1 = kiln_keccak_rot(c2, 1, mm, 1);
    uint64_t r2 = kiln_keccak_rot(c3, 1, mm, 2);
    uint64_t r3 = kiln_keccak_rot(c4, 1, mm, 3);
    uint64_t r4 = kiln_keccak_rot(c0, 1, mm, 4);
    uint64_t b0, b1, b2, b3, b4;

    /* output plane y = 0 reads lanes 0, 6, 12, 18, 24 */
    b0 = kiln_xor3(a[0], c4, r0);
    b1 = kiln_keccak_rot(kiln_xor3(a[6], c0, r1), 44, mm, 5);
    b2 = kiln_keccak_rot(kiln_xor3(a[12], c1, r2), 43, mm, 6);
    b3 = kiln_keccak_rot(kiln_xor3(a[18], c2, r3), 21, mm, 7);
    b4 = kiln_keccak_rot(kiln_xor3(a[24], c3, r4), 14, mm, 8);
    e[0] = kiln_keccak_chi(b0, b1, b2) ^ rc;
    e[1] = kiln_keccak_chi(b1, b2, b3);
    e[2] = kiln_keccak_chi(b2, b3, b4);
    e[3] = kiln_keccak_chi(b3, b4, b0);
    e[4] = kiln_keccak_chi(b4, b0, b1);

    /* plane 1: lanes 3, 9, 10, 16, 22 */
    b0 = kiln_keccak_rot(kiln_xor3(a[3], c2, r3), 28, mm, 9);
    b1 = kiln_keccak_rot(kiln_xor3(a[9], c3, r4), 20, mm, 10);
    b2 = kiln_keccak_rot(kiln_xor3(a[10], c4, r0), 3, mm, 11);
    b3 = kiln_keccak_rot(kiln_xor3(a[16], c0, r1), 45, mm, 12);
    b4 = kiln_keccak_rot(kiln_xor3(a[22], c1, r2), 61, mm, 13);
    e[5] = kiln_keccak_chi(b0, b1, b2);
    e[6] = kiln_keccak_chi(b1, b2, b3);
    e[7] = kiln_keccak_chi(b2, b3, b4);
    e[8] = kiln_keccak_chi(b3, b4, b0);
    e[9] = kiln_keccak_chi(b4, b0, b1);

    /* plane 2: lanes 1, 7, 13, 19, 20 */
    b0 = kiln_keccak_rot(kiln_xor3(a[1], c0, r1), 1, mm, 14);
    b1 = kiln_keccak_rot(kiln_xor3(a[7], c1, r2), 6, mm, 15);
    b2 = kiln_keccak_rot(kiln_xor3(a[13], c2, r3), 25, mm, 16);
    b3 = kiln_keccak_rot(kiln_xor3(a[19], c3, r4), 8, mm, 17);
    b4 = kiln_keccak_rot(kiln_xor3(a[20], c4, r0), 18, mm, 18);
    e[10] = kiln_keccak_chi(b0, b1, b2);
    e[11] = kiln_keccak_chi(b1, b2, b3);
    e[12] = kiln_keccak_chi(b2, b3, b4);
    e[13] = kiln_keccak_chi(b3, b4, b0);
    e[14] = kiln_keccak_chi(b4, b0, b1);

    /* plane 3: lanes 4, 5, 11, 17, 23 */
    b0 = kiln_keccak_rot(kiln_xor3(a[4], c3, r4), 27, mm, 19);
    b1 = kiln_keccak_rot(kiln_xor3(a[5], c4, r0), 36, mm, 20);
    b2 = kiln_keccak_rot(kiln_xor3(a[11], c0, r1), 10, mm, 21);
    b3 = kiln_keccak_rot(kiln_xor3(a[17], c1, r2), 15, mm, 22);
    b4 = kiln_keccak_rot(kiln_xor3(a[23], c2, r3), 56, mm, 23);
    e[15] = kiln_keccak_chi(b0, b1, b2);
    e[16] = kiln_keccak_chi(b1, b2, b3);
    e[17] = kiln_keccak_chi(b2, b3, b4);
    e[18] = kiln_keccak_chi(b3, b4, b0);
    e[19] = kiln_keccak_chi(b4, b0, b1);

    /* plane 4: lanes 2, 8, 14, 15, 21 */
    b0 = kiln_keccak_rot(kiln_xor3(a[2], c1, r2), 62, mm, 24);
    b1 = kiln_keccak_rot(kiln_xor3(a[8], c2, r3), 55, mm, 25);
    b2 = kiln_keccak_rot(kiln_xor3(a[14], c3, r4), 39, mm, 26);
    b3 = kiln_keccak_rot(kiln_xor3(a[15], c4, r0), 41, mm, 27);
    b4 = kiln_keccak_rot(kiln_xor3(a[21], c0, r1), 2, mm, 28);
    e[20] = kiln_keccak_chi(b0, b1, b2);
    e[21] = kiln_keccak_chi(b1, b2, b3);
    e[22] = kiln_keccak_chi(b2, b3, b4);
    e[23] = kiln_keccak_chi(b3, b4, b0);
    e[24] = kiln_keccak_chi(b4, b0, b1);
}

KILN_HD void kiln_keccak_round(const uint64_t *a, uint64_t *e, uint64_t rc)
{
    kiln_keccak_round_sel(a, e, rc, KILN_KECCAK_MUL_MASK);
}

/* Keccak-f[1600], 24 rounds, in place. The state is copied into a local array and ping-pongs
 * between two of them, two rounds per step, with every index a constant once the loop is
 * unrolled: nvcc then keeps all lanes in registers with the round constants as immediates, and
 * gcc/clang replace the arrays by scalars. */
KILN_HD void kiln_keccak_f1600_sel(uint64_t s[KILN_KECCAK_LANES], uint32_t mul_mask)
{
    uint64_t a[KILN_KECCAK_LANES], e[KILN_KECCAK_LANES];
    KILN_OCL_UNROLL
    for (int i = 0; i < KILN_KECCAK_LANES; i++) a[i] = s[i];
    KILN_UNROLL_ROUNDS
    for (int r = 0; r < KILN_KECCAK_ROUNDS; r += 2) {
        kiln_keccak_round_sel(a, e, kiln_keccak_rc(r), mul_mask);
        kiln_keccak_round_sel(e, a, kiln_keccak_rc(r + 1), mul_mask);
    }
    KILN_OCL_UNROLL
    for (int i = 0; i < KILN_KECCAK_LANES; i++) s[i] = a[i];
}

KILN_HD void kiln_keccak_f1600(uint64_t s[KILN_KECCAK_LANES]) { kiln_keccak_f1600_sel(s, KILN_KECCAK_MUL_MASK); }

/* The same permutation written as the specification's loops over x and y with table lookups (the
 * study's first layout): index arithmetic and memory accesses instead of straight-line code. A
 * second, independent transcription that the tests hold against the same known answers. */
KILN_HD void kiln_keccak_f1600_looped(uint64_t s[KILN_KECCAK_LANES])
{
    uint64_t b[KILN_KECCAK_LANES], c[5];
    KILN_NO_UNROLL
    for (int r = 0; r < KILN_KECCAK_ROUNDS; r++) {
        for (int x = 0; x < 5; x++) c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
        for (int x = 0; x < 5; x++) {
            uint64_t d = c[(x + 4) % 5] ^ kiln_rotl64(c[(x + 1) % 5], 1);
            for (int y = 0; y < 25; y += 5) s[x + y] ^= d;
        }
        for (int i = 0; i < 25; i++) {
            int src = kiln_keccak_pi_src(i);
            b[i] = kiln_rotl64(s[src], kiln_keccak_rho(src));
        }
        for (int y = 0; y < 25; y += 5)
            for (int x = 0; x < 5; x++) s[y + x] = kiln_keccak_chi(b[y + x], b[y + (x + 1) % 5], b[y + (x + 2) % 5]);
        s[0] ^= kiln_keccak_rc(r);
    }
}

/* ---------------------------------------------------------------- the sponge */

/* Rates in bytes: 200 - 2 * digest bytes for the fixed-output functions; SHAKE128 168, SHAKE256 136. */
#define KILN_KECCAK_DOMAIN_SHA3 0x06 /* FIPS 202: suffix 01, then pad10*1 */
#define KILN_KECCAK_DOMAIN_SHAKE 0x1F /* suffix 1111 */
#define KILN_KECCAK_DOMAIN_KECCAK 0x01 /* the original submission: pad10*1 alone */

/* Lane-wise byte access: lane i holds bytes 8i..8i+7, least significant first. */
KILN_HD void kiln_keccak_xor_byte(uint64_t s[KILN_KECCAK_LANES], size_t pos, uint8_t v)
{
    s[pos >> 3] ^= (uint64_t)v << (8 * (pos & 7));
}

KILN_HD uint8_t kiln_keccak_get_byte(const uint64_t s[KILN_KECCAK_LANES], size_t pos)
{
    return (uint8_t)(s[pos >> 3] >> (8 * (pos & 7)));
}

KILN_HD uint64_t kiln_keccak_load_le64(const uint8_t *p)
{
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24) |
           ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) | ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

KILN_HD void kiln_keccak_store_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* XORs one whole rate block (rate a multiple of 8) into the state. */
KILN_HD void kiln_keccak_xor_block(uint64_t s[KILN_KECCAK_LANES], const uint8_t *block, unsigned rate)
{
    for (unsigned i = 0; i < rate / 8; i++) s[i] ^= kiln_keccak_load_le64(block + 8 * i);
}

/* The padding of the last, partial block: domain byte at pos (pos < rate), 0x80 at the rate's
 * last byte. The two may fall in the same byte; XOR handles that. */
KILN_HD void kiln_keccak_pad(uint64_t s[KILN_KECCAK_LANES], size_t pos, unsigned rate, uint8_t domain)
{
    kiln_keccak_xor_byte(s, pos, domain);
    kiln_keccak_xor_byte(s, rate - 1, 0x80);
}

/* Whole-message sponge in one call: absorb len bytes, pad, squeeze outlen bytes. For the device
 * batch kernels and the CPU batch path, where each message is hashed by one worker. */
KILN_HD void kiln_keccak_sponge(const uint8_t *msg, size_t len, unsigned rate, uint8_t domain, uint8_t *out,
                                size_t outlen)
{
    uint64_t s[KILN_KECCAK_LANES];
    for (int i = 0; i < KILN_KECCAK_LANES; i++) s[i] = 0;
    while (len >= rate) {
        kiln_keccak_xor_block(s, msg, rate);
        kiln_keccak_f1600(s);
        msg += rate;
        len -= rate;
    }
    size_t i = 0;
    for (; i + 8 <= len; i += 8) s[i >> 3] ^= kiln_keccak_load_le64(msg + i);
    for (; i < len; i++) kiln_keccak_xor_byte(s, i, msg[i]);
    kiln_keccak_pad(s, len, rate, domain);
    kiln_keccak_f1600(s);
    for (;;) {
        size_t take = outlen < rate ? outlen : rate;
        size_t j = 0;
        for (; j + 8 <= take; j += 8) kiln_keccak_store_le64(out + j, s[j >> 3]);
        for (; j < take; j++) out[j] = kiln_keccak_get_byte(s, j);
        out += take;
        outlen -= take;
        if (outlen == 0) break;
        kiln_keccak_f1600(s);
    }
}

#endif
