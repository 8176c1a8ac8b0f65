/* scrypt (RFC 7914) on the primitives of src/prim (salsa.h: the Salsa20 quarter-round;
 * hmac_sha256.h: HMAC and PBKDF2 pieces) and the Litecoin job of src/core/scrypt_job.h, all
 * included, in the CUDA backend's design (src/cuda/scrypt_dev.cuh, docs/SCRYPT.md):
 *
 * - ROMix runs on quads (quad.h): four work-items a hash, work-item t holding column t of each
 *   64-byte Salsa20 block's 4x4 word matrix, rotated to start at the diagonal, so that it is the
 *   column round's quarter-round t; the row round's words come from the quad's other three
 *   work-items and go back to them. A quarter of a hash's state a work-item keeps it in
 *   registers (r = 1: 8 words; r = 8: 64), where one work-item a hash spilled it.
 * - A work-item only stores and loads its own 16-byte piece of each block, at piece 4 b + t of a
 *   scratchpad row, so a quad reads and writes each block as one 64-byte run (coalesced) and no
 *   synchronisation guards the scratchpad.
 * - Lookup gap G = 2^gap_log2: only rows j = 0, G, 2G, ... are stored; a read of row j loads row
 *   j - j mod G and applies BlockMix j mod G times.
 * - PBKDF2 is a kernel of its own before and after ROMix (the Litecoin search: ltc_in, ltc_out;
 *   the KDF: kdf_in, kdf_out), one work-item a nonce or a 32-byte block: SHA-256 needs about twice
 *   ROMix's registers, which would halve the hashes resident in ROMix if they were one kernel.
 *
 * ROMix kernels: lanes [lane0, lane0 + lanes) of B (32 r little-endian words each, the RFC's
 * order), in place, steps [from, to) of ROMix's 2 N (the fill's N, then the mix's N): a long
 * ROMix runs as several launches, so that the host reads the interrupt between them (a CPU
 * device took minutes a launch at N = 2^22). Between launches X waits in B (the kernels with
 * the state in registers) or in the slot's last rows (kiln_scrypt_romix_any). Work-item g works on lane g / 4 of the launch with scratchpad slot g / 4:
 * slot s is in buffer s / per_buf of V0..V3 (a device's largest allocation is often a quarter of
 * its memory), at (s mod per_buf) rows of 8 r uint4 times the rows a slot has. The work-items
 * past `lanes` in the last group go through every exchange (the group's control flow stays one)
 * on a zero state, and touch no memory: there are slots for `lanes` lanes only.
 *
 * OpenCL C 1.2's pointer parameters are private memory: the password, salt and B' bytes (global)
 * reach prim's streaming SHA-256 a 64-byte private block at a time. */
#include "../../core/scrypt_job.h"
#include "quad.h"

/* The double rounds unroll on NVIDIA (no barriers there). With the local-memory exchanges, PoCL
 * keeps every value live across a barrier in an array of the group's size, so unrolling the
 * rounds' 8 barriers into each of a BlockMix's 2 r Salsa20/8 made its kernel builds minutes long;
 * a loop of four is cheap on a GPU too. */
#if defined(KILN_OCL_NV)
#define KILN_SCRYPT_ROUNDS_UNROLL KILN_OCL_UNROLL
#else
#define KILN_SCRYPT_ROUNDS_UNROLL
#endif

/* B = Salsa20/8(B ^ Bx) on the quad layout: eight exchanges, through buffers 0, 1, 0, ... 1. */
static inline uint4 kiln_salsa_quad(uint4 B, uint4 Bx, kiln_quad q)
{
    B ^= Bx;
    uint a = B.x, b = B.y, c = B.z, d = B.w;
    KILN_SCRYPT_ROUNDS_UNROLL
    for (int i = 0; i < 4; i++) {
        KILN_SALSA_QR(a, b, c, d); /* column round */
        uint4 n = kiln_quad_x3(q, (uint4)(d, c, b, 0), 0); /* row t: a, d of t + 1, c of t + 2, b of t + 3 */
        KILN_SALSA_QR(a, n.x, n.y, n.z); /* row round */
        n = kiln_quad_x3(q, (uint4)(n.z, n.y, n.x, 0), 1); /* and back */
        b = n.x, c = n.y, d = n.z;
    }
    return B + (uint4)(a, b, c, d);
}

/* Word k (0..3) of block `blk` that quad work-item t holds, as an index of the natural order. */
static inline uint kiln_quad_word(uint blk, uint t, uint k)
{
    return 16 * blk + 4 * ((t + k) & 3) + t;
}

static inline uint4 kiln_quad_load(__global const uint *b, uint blk, uint t)
{
    return (uint4)(b[kiln_quad_word(blk, t, 0)], b[kiln_quad_word(blk, t, 1)], b[kiln_quad_word(blk, t, 2)],
                   b[kiln_quad_word(blk, t, 3)]);
}

static inline void kiln_quad_store(__global uint *b, uint blk, uint t, uint4 v)
{
    b[kiln_quad_word(blk, t, 0)] = v.x;
    b[kiln_quad_word(blk, t, 1)] = v.y;
    b[kiln_quad_word(blk, t, 2)] = v.z;
    b[kiln_quad_word(blk, t, 3)] = v.w;
}

/* Scratchpad slot s: slot_u4 uint4 each, per_buf a buffer. */
static inline __global uint4 *kiln_scrypt_slot(ulong s, ulong per_buf, ulong slot_u4, __global uint4 *V0,
                                               __global uint4 *V1, __global uint4 *V2, __global uint4 *V3)
{
    const ulong k = s / per_buf;
    __global uint4 *v = k == 0 ? V0 : k == 1 ? V1 : k == 2 ? V2 : V3;
    return v + (s - k * per_buf) * slot_u4;
}

/* The ROMix kernels with the state in registers are written as macros of R (and GAP) rather
 * than functions of them: a compiler that leaves a function out of line would keep an array
 * passed to it in memory, and the whole point is that it stays in registers. */

/* scryptBlockMix on the 2 R quad blocks x[0 .. 2R). */
#define KILN_BLOCKMIX_QUAD(x, R, q)                                                       \
    do {                                                                                  \
        uint4 y_[2 * (R)], T_ = (x)[2 * (R)-1];                                           \
        KILN_OCL_UNROLL                                                                   \
        for (uint i_ = 0; i_ < 2 * (R); i_++) {                                           \
            T_ = kiln_salsa_quad(T_, (x)[i_], (q));                                       \
            y_[(i_ >> 1) + (i_ & 1) * (R)] = T_;                                          \
        }                                                                                 \
        KILN_OCL_UNROLL                                                                   \
        for (uint i_ = 0; i_ < 2 * (R); i_++) (x)[i_] = y_[i_];                          \
    } while (0)

/* A read of row j with a lookup gap: y = row j - j mod G advanced k = j mod G BlockMix steps.
 * The quads that must make the same exchanges (a warp on NVIDIA, the group elsewhere: quad.h)
 * all take as many steps as the largest k among them, each keeping the results of its own first
 * k; on NVIDIA that costs what divergence would (a warp waits for its slowest quad either way). */
#define KILN_GAP_STEPS(y, R, q, k, gmask)                                 \
    do {                                                                  \
        const uint n_ = kiln_quad_uniform_max((q), (k), (gmask));         \
        for (uint s_ = 1; s_ <= n_; s_++) {                               \
            uint4 z_[2 * (R)];                                            \
            KILN_OCL_UNROLL                                               \
            for (uint b_ = 0; b_ < 2 * (R); b_++) z_[b_] = (y)[b_];       \
            KILN_BLOCKMIX_QUAD(z_, R, q);                                 \
            KILN_OCL_UNROLL                                               \
            for (uint b_ = 0; b_ < 2 * (R); b_++)                         \
                (y)[b_] = s_ <= (k) ? z_[b_] : (y)[b_];                   \
        }                                                                 \
    } while (0)

/* The start both ROMix kernels share: this work-item's quad, lane, B words, scratchpad slot (its
 * piece) and its steps (fill [f0_, f1_), mix [m0_, m1_)), then X loaded from B and the fill's
 * steps, every G-th X stored at its row. */
#define KILN_ROMIX_LANE(R)                                                                                         \
    KILN_QUAD_LOCAL(xbuf);                                                                                         \
    const kiln_quad q = kiln_quad_init(xbuf);                                                                      \
    const ulong lane = get_global_id(0) >> 2;                                                                      \
    const int active = lane < lanes;                                                                               \
    const uint gmask = (1u << gap_log2) - 1;                                                                       \
    const uint f0_ = from < N ? (uint)from : N, f1_ = to < N ? (uint)to : N;                                       \
    const uint m0_ = from > N ? (uint)(from - N) : 0, m1_ = to > N ? (uint)(to - N) : 0;                           \
    __global uint *b = B + (lane0 + lane) * 32 * (R);                                                              \
    __global uint4 *V = kiln_scrypt_slot(lane, per_buf, (ulong)(N >> gap_log2) * (8 * (R)), V0, V1, V2, V3) + q.t;
#define KILN_ROMIX_FILL(x, R, GAP)                                                                                 \
    KILN_OCL_UNROLL                                                                                                \
    for (uint c_ = 0; c_ < 2 * (R); c_++) (x)[c_] = active ? kiln_quad_load(b, c_, q.t) : (uint4)(0);              \
    for (uint j_ = f0_; j_ < f1_; j_++) {                                                                          \
        if (active && (!(GAP) || (j_ & gmask) == 0)) {                                                             \
            __global uint4 *row_ = V + (ulong)(j_ >> gap_log2) * (8 * (R));                                        \
            KILN_OCL_UNROLL                                                                                        \
            for (uint c_ = 0; c_ < 2 * (R); c_++) row_[4 * c_] = (x)[c_];                                          \
        }                                                                                                          \
        KILN_BLOCKMIX_QUAD(x, R, q);                                                                               \
    }

/* kiln_scrypt_romix_r<R> (GAP 0: gap_log2 is 0) and kiln_scrypt_romix_r<R>_gap (GAP 1: gap_log2
 * > 0): the fill stores every G-th X at its row, the mix reads row Integerify(X), whose low word
 * is word 0 of the last block, which quad work-item 0 holds. */
#define KILN_SCRYPT_ROMIX_KERNEL(NAME, R, GAP)                                                                     \
    __kernel void NAME(__global uint *B, ulong lane0, uint lanes, uint N, uint gap_log2, ulong per_buf,            \
                       __global uint4 *V0, __global uint4 *V1, __global uint4 *V2, __global uint4 *V3, ulong from, \
                       ulong to)                                                                                   \
    {                                                                                                              \
        KILN_ROMIX_LANE(R);                                                                                        \
        uint4 x[2 * (R)];                                                                                          \
        KILN_ROMIX_FILL(x, R, GAP);                                                                                \
        for (uint i = m0_; i < m1_; i++) {                                                                         \
            const uint j = kiln_quad_bcast0(q, x[2 * (R)-1].x) & (N - 1);                                          \
            __global const uint4 *row = V + (ulong)(j >> gap_log2) * (8 * (R));                                    \
            if (!(GAP)) {                                                                                          \
                KILN_OCL_UNROLL                                                                                    \
                for (uint k = 0; k < 2 * (R); k++) x[k] ^= active ? row[4 * k] : (uint4)(0);                       \
            } else {                                                                                               \
                uint4 y[2 * (R)];                                                                                  \
                KILN_OCL_UNROLL                                                                                    \
                for (uint k = 0; k < 2 * (R); k++) y[k] = active ? row[4 * k] : (uint4)(0);                        \
                KILN_GAP_STEPS(y, R, q, j & gmask, gmask);                                                         \
                KILN_OCL_UNROLL                                                                                    \
                for (uint k = 0; k < 2 * (R); k++) x[k] ^= y[k];                                                   \
            }                                                                                                      \
            KILN_BLOCKMIX_QUAD(x, R, q);                                                                           \
        }                                                                                                          \
        if (active) {                                                                                              \
            KILN_OCL_UNROLL                                                                                        \
            for (uint k = 0; k < 2 * (R); k++) kiln_quad_store(b, k, q.t, x[k]);                                   \
        }                                                                                                          \
    }
KILN_SCRYPT_ROMIX_KERNEL(kiln_scrypt_romix_r1, 1, 0)
KILN_SCRYPT_ROMIX_KERNEL(kiln_scrypt_romix_r1_gap, 1, 1)
KILN_SCRYPT_ROMIX_KERNEL(kiln_scrypt_romix_r2, 2, 0)
KILN_SCRYPT_ROMIX_KERNEL(kiln_scrypt_romix_r2_gap, 2, 1)
KILN_SCRYPT_ROMIX_KERNEL(kiln_scrypt_romix_r4, 4, 0)
KILN_SCRYPT_ROMIX_KERNEL(kiln_scrypt_romix_r4_gap, 4, 1)
KILN_SCRYPT_ROMIX_KERNEL(kiln_scrypt_romix_r8, 8, 0)
KILN_SCRYPT_ROMIX_KERNEL(kiln_scrypt_romix_r8_gap, 8, 1)

/* ROMix kernel 2 (CUDA's romix_steps_kernel, docs/SCRYPT.md), any gap: the fill as above, then
 * the second loop in steps of exactly one BlockMix for every quad, whatever the quad is doing, so
 * that a quad pays its own recomputations rather than waiting for its warp's longest. A read of
 * row j, k = j mod G, takes k + 1 steps:
 *   first step   W = BlockMix(V[j - k])       (k = 0: W = BlockMix(W ^ V[j]), W being X)
 *   steps 2..k   W = BlockMix(W)
 *   last step    W = BlockMix(X ^ W)
 * While W recomputes a row X waits in local memory (`parked`, 8 R + 4 uint4 a quad: a work-item's
 * 16-byte piece of each block, the padding putting the quads of an access phase on different
 * banks), so only W and the loads in flight take registers. The quads' step counts differ, so the
 * loop runs while any quad that makes the same exchanges (quad.h) has reads left, the finished
 * quads' steps dropped. Inputs of a step (KILN_STEP_IN): the stored row (first step), W, or W ^ X. */
#define KILN_STEP_IN(qq) ((w[qq] & keep) ^ (from_row ? row[4 * (qq)] : from_x ? xs[4 * (qq)] : (uint4)(0)))
#define KILN_SCRYPT_ROMIX_STEPS_KERNEL(NAME, R)                                                                    \
    __kernel void NAME(__global uint *B, ulong lane0, uint lanes, uint N, uint gap_log2, ulong per_buf,            \
                       __global uint4 *V0, __global uint4 *V1, __global uint4 *V2, __global uint4 *V3,             \
                       __local uint4 *parked, ulong from, ulong to)                                                \
    {                                                                                                              \
        KILN_ROMIX_LANE(R);                                                                                        \
        KILN_QUAD_FLAG(flag);                                                                                      \
        __local uint4 *xs = parked + (get_local_id(0) >> 2) * (8 * (R) + 4) + q.t;                                 \
        uint4 w[2 * (R)];                                                                                          \
        KILN_ROMIX_FILL(w, R, 1);                                                                                  \
        uint i = active ? m0_ : m1_, k = 0; /* reads done; recomputation steps left in this read */                \
        int fresh = 1;                  /* the next step starts a read; W is X */                                  \
        __global const uint4 *row = V;                                                                             \
        while (kiln_quad_any(q, i < m1_, flag)) {                                                                  \
            const uint j = kiln_quad_bcast0(q, w[2 * (R)-1].x) & (N - 1);                                          \
            const int running = i < m1_;                                                                           \
            if (fresh && running) {                                                                                \
                k = j & gmask;                                                                                     \
                row = V + (ulong)(j >> gap_log2) * (8 * (R));                                                      \
                if (k) {                                                                                           \
                    KILN_OCL_UNROLL                                                                                \
                    for (uint c = 0; c < 2 * (R); c++) xs[4 * c] = w[c];                                           \
                }                                                                                                  \
            }                                                                                                      \
            const int last = k == 0, from_row = fresh && running && active, from_x = !fresh && last;               \
            const uint4 keep = fresh && !last ? (uint4)(0) : (uint4)(~0u);                                         \
            uint4 y[2 * (R)];                                                                                      \
            const uint4 in_last = KILN_STEP_IN(2 * (R)-1);                                                         \
            uint4 T = in_last, p0 = KILN_STEP_IN(0), p1 = 2 * (R) > 2 ? KILN_STEP_IN(1) : in_last;                 \
            KILN_OCL_UNROLL                                                                                        \
            for (uint c = 0; c < 2 * (R); c++) {                                                                   \
                const uint4 cur = p0;                                                                              \
                p0 = p1;                                                                                           \
                p1 = c + 2 < 2 * (R)-1 ? KILN_STEP_IN(c + 2 < 2 * (R)-1 ? c + 2 : 2 * (R)-1) : in_last;            \
                T = kiln_salsa_quad(T, cur, q);                                                                    \
                y[(c >> 1) + (c & 1) * (R)] = T;                                                                   \
            }                                                                                                      \
            KILN_OCL_UNROLL                                                                                        \
            for (uint c = 0; c < 2 * (R); c++) w[c] = running ? y[c] : w[c];                                       \
            if (running) {                                                                                         \
                if (last) i++;                                                                                     \
                else k--;                                                                                          \
                fresh = last;                                                                                      \
            }                                                                                                      \
        }                                                                                                          \
        if (active) {                                                                                              \
            KILN_OCL_UNROLL                                                                                        \
            for (uint c = 0; c < 2 * (R); c++) kiln_quad_store(b, c, q.t, w[c]);                                   \
        }                                                                                                          \
    }
KILN_SCRYPT_ROMIX_STEPS_KERNEL(kiln_scrypt_romix_steps_r8, 8)

/* dst = BlockMix(src ^ mix) (mix only where use_mix) between rows in memory, each pointer
 * already offset by the work-item's piece: only T stays in registers, so any r works. A
 * work-item that is not `active` touches no memory (its pointers may lie outside V). */
static inline void kiln_blockmix_stream(__global const uint4 *src, __global const uint4 *mix, int use_mix,
                                        __global uint4 *dst, uint r, int active, kiln_quad q)
{
    const uint4 zero = (uint4)(0);
    uint4 T = active ? src[4 * (2 * r - 1)] : zero;
    if (use_mix) T ^= active ? mix[4 * (2 * r - 1)] : zero;
    for (uint i = 0; i < 2 * r; i++) {
        uint4 v = active ? src[4 * i] : zero;
        if (use_mix) v ^= active ? mix[4 * i] : zero;
        T = kiln_salsa_quad(T, v, q);
        if (active) dst[4 * ((i >> 1) + (i & 1) * r)] = T;
    }
}

/* Any r (no gap): a slot is N + 2 rows of 8 r uint4, the last two holding X and the next X (X is
 * row N + i mod 2 after i steps of the mix: after all N, row N). B is read at step 0 and written
 * at step 2 N; the state between launches is in the slot. */
__kernel void kiln_scrypt_romix_any(__global uint *B, ulong lane0, uint lanes, uint N, uint r, ulong per_buf,
                                    __global uint4 *V0, __global uint4 *V1, __global uint4 *V2, __global uint4 *V3,
                                    ulong from, ulong to)
{
    KILN_QUAD_LOCAL(xbuf);
    const kiln_quad q = kiln_quad_init(xbuf);
    const ulong lane = get_global_id(0) >> 2, row = 8 * (ulong)r;
    const int active = lane < lanes;
    const uint f0 = from < N ? (uint)from : N, f1 = to < N ? (uint)to : N;
    const uint m0 = from > N ? (uint)(from - N) : 0, m1 = to > N ? (uint)(to - N) : 0;
    __global uint *b = B + (lane0 + lane) * 32 * r;
    __global uint4 *mine = kiln_scrypt_slot(lane, per_buf, ((ulong)N + 2) * row, V0, V1, V2, V3) + q.t;
    if (active && from == 0)
        for (uint blk = 0; blk < 2 * r; blk++) mine[4 * blk] = kiln_quad_load(b, blk, q.t);
    for (uint j = f0; j < f1; j++)
        kiln_blockmix_stream(mine + (ulong)j * row, mine, 0, mine + ((ulong)j + 1) * row, r, active, q);
    for (uint i = m0; i < m1; i++) {
        __global uint4 *X = mine + ((ulong)N + (i & 1)) * row, *Y = mine + ((ulong)N + (~i & 1)) * row;
        const uint j = kiln_quad_bcast0(q, active ? X[4 * (2 * r - 1)].x : 0) & (N - 1);
        kiln_blockmix_stream(X, mine + (ulong)j * row, 1, Y, r, active, q);
    }
    if (active && to == 2 * (ulong)N)
        for (uint blk = 0; blk < 2 * r; blk++) kiln_quad_store(b, blk, q.t, mine[N * row + 4 * blk]);
}

/* ---- the Litecoin search: ltc_in, kiln_scrypt_romix_r1(_gap), ltc_out over one launch's
 * nonces [start, start + count), nonce start + i at lane i of B (32 words) and K (the HMAC pad
 * states, 16 words: inner then outer) */

__kernel void kiln_scrypt_ltc_in(kiln_scrypt_job job, uint start, uint count, __global uint *B, __global uint *K)
{
    const uint i = (uint)get_global_id(0);
    if (i >= count) return;
    const uint nonce_be = kiln_bswap32(start + i);
    kiln_hmac_sha256_key k;
    uint32_t inner64[8], w[8];
    kiln_scrypt_job_key(&job, nonce_be, &k);
    kiln_scrypt_job_inner64(&job, &k, inner64);
    __global uint *dst = B + (ulong)i * 32;
    KILN_OCL_UNROLL
    for (uint blk = 0; blk < 4; blk++) {
        kiln_scrypt_job_b_block(&job, &k, inner64, nonce_be, blk + 1, w);
        KILN_OCL_UNROLL
        for (int q = 0; q < 8; q++) dst[8 * blk + q] = w[q];
    }
    __global uint *kd = K + (ulong)i * 16;
    KILN_OCL_UNROLL
    for (int q = 0; q < 8; q++) kd[q] = k.inner[q], kd[8 + q] = k.outer[q];
}

/* A candidate is a nonce whose hash's top 32 bits (little-endian number) are <= the target's, as
 * the CUDA scan and the CPU decide it; the count goes on past cap, the stored ones stop there. */
__kernel void kiln_scrypt_ltc_out(uint start, uint count, uint target_top, __global const uint *B,
                                  __global const uint *K, __global uint *cand, uint cap, __global volatile uint *ncand)
{
    const uint i = (uint)get_global_id(0);
    if (i >= count) return;
    kiln_hmac_sha256_key k;
    uint32_t x[32], d[8];
    __global const uint *kd = K + (ulong)i * 16, *src = B + (ulong)i * 32;
    KILN_OCL_UNROLL
    for (int q = 0; q < 8; q++) k.inner[q] = kd[q], k.outer[q] = kd[8 + q];
    KILN_OCL_UNROLL
    for (int q = 0; q < 32; q++) x[q] = src[q];
    kiln_scrypt_job_final(&k, x, d);
    if (kiln_bswap32(d[7]) <= target_top) {
        uint slot = atomic_inc(ncand);
        if (slot < cap) cand[slot] = start + i;
    }
}

/* ---- the KDF batch: kdf_in, a ROMix kernel, kdf_out */

/* n global bytes into a streaming SHA-256, a private block at a time. */
static void kiln_ocl_sha256_absorb(kiln_sha256_hd *s, __global const uchar *p, ulong n)
{
    uchar buf[64];
    while (n) {
        uint take = n < 64 ? (uint)n : 64;
        for (uint k = 0; k < take; k++) buf[k] = p[k];
        kiln_sha256_hd_update(s, buf, take);
        p += take;
        n -= take;
    }
}

/* prim's kiln_hmac_sha256_setkey for a key in global memory: a key longer than a block is first
 * hashed (RFC 2104), and its digest is then the key. */
static void kiln_ocl_hmac_key(kiln_hmac_sha256_key *k, __global const uchar *key, ulong len)
{
    uchar buf[64];
    if (len > 64) {
        kiln_sha256_hd s;
        uint32_t iv[8], w[8];
        kiln_sha256_iv(iv);
        kiln_sha256_hd_start(&s, iv, 0);
        kiln_ocl_sha256_absorb(&s, key, len);
        kiln_sha256_hd_final_words(&s, w);
        for (int i = 0; i < 8; i++) kiln_store_be32(buf + 4 * i, w[i]);
        len = 32;
    } else {
        for (uint i = 0; i < len; i++) buf[i] = key[i];
    }
    kiln_hmac_sha256_setkey(k, buf, (size_t)len);
}

/* PBKDF2-HMAC-SHA256 block `index` with one iteration (scrypt's c = 1): HMAC(P, S || INT(index))
 * for a password and a salt in global memory, as 8 big-endian words. */
static void kiln_ocl_pbkdf2_block1(__global const uchar *pass, ulong pass_len, __global const uchar *salt,
                                   ulong salt_len, uint index, uint32_t T[8])
{
    kiln_hmac_sha256_key k;
    kiln_sha256_hd s;
    uint32_t inner[8];
    uchar be[4];
    kiln_ocl_hmac_key(&k, pass, pass_len);
    kiln_sha256_hd_start(&s, k.inner, 64);
    kiln_ocl_sha256_absorb(&s, salt, salt_len);
    kiln_store_be32(be, index);
    kiln_sha256_hd_update(&s, be, 4);
    kiln_sha256_hd_final_words(&s, inner);
    kiln_hmac_sha256_outer(&k, inner, T);
}

/* KDF items: 4 ulongs each (password offset and length, salt offset and length in arena). */

/* B = PBKDF2(P, S, 1, 128 r p) for items [0, n): one work-item per 32-byte block, B's words
 * little-endian (salsa order), bpi = 4 r p blocks an item. */
__kernel void kiln_scrypt_kdf_in(__global const uchar *arena, __global const ulong *items, ulong n, uint bpi,
                                 __global uint *B)
{
    ulong gid = get_global_id(0), item = gid / bpi;
    uint b = (uint)(gid % bpi);
    if (item >= n) return;
    __global const ulong *it = items + 4 * item;
    uint32_t T[8];
    kiln_ocl_pbkdf2_block1(arena + it[0], it[1], arena + it[2], it[3], b + 1, T);
    for (int q = 0; q < 8; q++) B[(item * bpi + b) * 8 + q] = kiln_bswap32(T[q]);
}

/* The keys PBKDF2(P, B', 1, out_len) of items [0, n): one work-item per 32-byte block of a key;
 * B' is the item's 128 r p bytes of B (its little-endian words are the RFC's bytes on the
 * little-endian devices the host accepts). */
__kernel void kiln_scrypt_kdf_out(__global const uchar *arena, __global const ulong *items, ulong n, uint bpi,
                                  __global const uint *B, uint out_blocks, uint out_len, __global uchar *out)
{
    ulong gid = get_global_id(0), item = gid / out_blocks;
    uint b = (uint)(gid % out_blocks);
    if (item >= n) return;
    __global const ulong *it = items + 4 * item;
    uint32_t T[8];
    kiln_ocl_pbkdf2_block1(arena + it[0], it[1], (__global const uchar *)(B + item * bpi * 8), (ulong)bpi * 32, b + 1,
                           T);
    __global uchar *o = out + item * out_len + 32 * b;
    for (uint i = 0; i < 32 && 32 * b + i < out_len; i++) o[i] = (uchar)(T[i >> 2] >> (24 - 8 * (i & 3)));
}
