/* PageRank iterations on the layout of ocl_pagerank.c, the CUDA backend's design (src/cuda/pagerank.cu,
 * docs/PAGERANK.md) in OpenCL C 1.2. The host relabels the vertices in descending in-degree, so rows
 * of like length sit in contiguous ranges ("bins", a table the host writes): a work-group a row of
 * 2048+ in-edges, and below that a work-group per run of consecutive rows holding at most
 * `stage_cap` edges, whose sources every work-item loads (coalesced, eight loads in flight) and
 * whose gathered ranks go to local memory, before 1..32 lanes a row (by bin) sum each row there.
 * After relabelling the ranks most edges point from share a few cache lines.
 *
 * Each vertex keeps y = x / out-degree (x itself for a dangling vertex, and for every vertex of a
 * weighted graph, whose edges carry their share of the source's out-weight), so a gather is one
 * load with no division. The row's new x is d * sum + base (+ cp * tp[v]) (+ cq * tq[v]), the
 * coefficients folded by every work-group from the previous iteration's dangling mass, read on
 * the device: nothing is read back between iterations. Each work-group writes its share of the L1
 * change and of the new dangling mass (float64 where the device has it) to part[]; the one-group
 * kernel kiln_pr_fold adds them in a fixed order, counts the iteration and marks the state done
 * once the change is below n * tol, after which every queued launch changes nothing. The rank
 * buffers alternate by the count of iterations carried out (state[0]), so every launch has the
 * same arguments and the host queues batches of them.
 *
 * Kernels are stamped out per rank type (float32, float64), offset type (32-bit, 64-bit for 2^32+
 * edges) and weighting (the unweighted gather multiplies by nothing). On NVIDIA (KILN_OCL_NV)
 * lanes add through warp shuffles and the sources are streamed past the caches' keep lines; the
 * portable branches add through local memory. */

#define KILN_PR_WG 256 /* work-items a group: the host launches every iteration kernel with it */

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
/* the global sums (L1 change, dangling mass) in float64, whatever the ranks */
#define KILN_PR_S double
#define kiln_pr_shfl_S kiln_pr_shfl_double
#else
#define KILN_PR_S float
#define kiln_pr_shfl_S kiln_pr_shfl_float
#endif

/* the teleport and dangling coefficients (in KILN_PR_S: the header's kiln_pr_real follows the
 * same cl_khr_fp64 test, after the pragma above), and the bin table (__constant ulong, written by
 * ocl_pagerank.c through kiln_pr_bins_table): KILN_PR_BIN_* and KILN_PR_KIND_BLOCK */
#include "../../prim/pagerank.h"
#include "../../prim/pagerank_layout.h"

#ifdef KILN_OCL_NV
/* lane ^ o's value (a butterfly within the warp; every lane of the warp takes part) */
static inline uint kiln_pr_shfl(uint v, uint o)
{
    uint r;
    __asm__ volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(o));
    return r;
}
static inline float kiln_pr_shfl_float(float v, uint o) { return as_float(kiln_pr_shfl(as_uint(v), o)); }
#ifdef cl_khr_fp64
static inline double kiln_pr_shfl_double(double v, uint o)
{
    const uint2 u = as_uint2(v);
    return as_double((uint2)(kiln_pr_shfl(u.x, o), kiln_pr_shfl(u.y, o)));
}
#endif
/* name(p): one T from global memory through PTX's ld.global.<cache>.u<bits>, cs streamed (evict
 * first), nc the read-only path; the bits land in a U (register constraint reg) and `as` makes
 * them a T. */
#define KILN_PR_LOAD(name, T, U, reg, cache, bits, as)                                    \
    static inline T name(__global const T *p)                                            \
    {                                                                                    \
        U r;                                                                             \
        __asm__ volatile("ld.global." cache ".u" bits " %0, [%1];" : "=" reg(r) : "l"((ulong)p)); \
        return as(r);                                                                    \
    }
/* a source, read once an iteration: streamed so that it does not push the ranks out of L1 and L2 */
KILN_PR_LOAD(kiln_pr_src, uint, uint, "r", "cs", "32", )
/* a gathered rank through the read-only path (the CUDA kernel's __ldg), an edge weight streamed */
KILN_PR_LOAD(kiln_pr_ldg_float, float, uint, "r", "nc", "32", as_float)
KILN_PR_LOAD(kiln_pr_ldcs_float, float, uint, "r", "cs", "32", as_float)
#ifdef cl_khr_fp64
KILN_PR_LOAD(kiln_pr_ldg_double, double, ulong, "l", "nc", "64", as_double)
KILN_PR_LOAD(kiln_pr_ldcs_double, double, ulong, "l", "cs", "64", as_double)
#endif
#else
static inline uint kiln_pr_src(__global const uint *p) { return *p; }
static inline float kiln_pr_ldg_float(__global const float *p) { return *p; }
static inline float kiln_pr_ldcs_float(__global const float *p) { return *p; }
#ifdef cl_khr_fp64
static inline double kiln_pr_ldg_double(__global const double *p) { return *p; }
static inline double kiln_pr_ldcs_double(__global const double *p) { return *p; }
#endif
#endif

/* Where the work-groups' shares of the L1 change and dangling mass go. On NVIDIA (with float64) a
 * group adds them with float64 atomics into one of 32 slots 128 bytes apart, as the CUDA kernel
 * does, so the fold reads 64 values; elsewhere (OpenCL C 1.2 has no float atomics) each group
 * writes its own pair and the fold reads them all. ocl_pagerank.c sizes part[] to match. */
#if defined(KILN_OCL_NV) && defined(cl_khr_fp64)
#define KILN_PR_SLOTS 32
#define KILN_PR_SLOT_STRIDE 16 /* doubles: 128 bytes */
static inline void kiln_pr_add(__global double *p, double v)
{
    __asm__ volatile("{ .reg .f64 t; mov.b64 t, %1; red.global.add.f64 [%0], t; }" ::"l"((ulong)p), "l"(as_ulong(v))
                     : "memory");
}
#endif

/* Two sums over the group, into work-item 0's *a and *b; called once a kernel by every
 * work-item alike (it holds barriers). No barrier of these kernels sits in a loop or in a branch:
 * PoCL makes a kernel's barriers into the seams of work-item loops, and barriers in loops cost it
 * minutes of compiling. red has KILN_PR_RED entries. */
#define KILN_PR_RED (2 * KILN_PR_WG + 32)
static inline void kiln_pr_sum2(KILN_PR_S *a, KILN_PR_S *b, uint lid, __local KILN_PR_S *red)
{
    KILN_PR_S x = *a, y = *b;
#ifdef KILN_OCL_NV
    for (uint o = 16; o > 0; o >>= 1) {
        x += kiln_pr_shfl_S(x, o);
        y += kiln_pr_shfl_S(y, o);
    }
    if ((lid & 31) == 0) {
        red[lid >> 5] = x;
        red[KILN_PR_WG / 32 + (lid >> 5)] = y;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        for (uint w = 1; w < KILN_PR_WG / 32; w++) {
            x += red[w];
            y += red[KILN_PR_WG / 32 + w];
        }
#else
    red[lid] = x;
    red[KILN_PR_WG + lid] = y;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16) {
        KILN_PR_S sx = 0, sy = 0;
        for (uint i = 0; i < KILN_PR_WG / 16; i++) {
            sx += red[lid * (KILN_PR_WG / 16) + i];
            sy += red[KILN_PR_WG + lid * (KILN_PR_WG / 16) + i];
        }
        red[2 * KILN_PR_WG + lid] = sx;
        red[2 * KILN_PR_WG + 16 + lid] = sy;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        x = y = 0;
        for (uint i = 0; i < 16; i++) {
            x += red[2 * KILN_PR_WG + i];
            y += red[2 * KILN_PR_WG + 16 + i];
        }
    }
#endif
    *a = x;
    *b = y;
}

/* The staged rows' lanes: on NVIDIA the lanes of a row add by shuffles and lane 0 finishes the
 * row at once; elsewhere each lane leaves its part in the row's own staging slot rb + lane (read
 * by that lane alone, so no barrier is needed before the write), and after one barrier a
 * work-item a row adds the row's parts and finishes it. */
#ifdef KILN_OCL_NV
#define KILN_PR_ROW_LANES(T, NAME)                                                                                    \
    for (uint o = g >> 1; o > 0; o >>= 1) sum += kiln_pr_shfl_##T(sum, o);                                            \
    if (active && lane == 0)                                                                                          \
        NAME##_finish(p, sum, odeg, tp, has_tp, tq, has_tq, y_in, y_out, cd, cb, ccp, ccq, &res, &dang);
#define KILN_PR_ROW_FINISH(T, NAME)
#else
#define KILN_PR_ROW_LANES(T, NAME)                                                                                    \
    if (active && rb + lane < re) stage[rb + lane] = sum;
#define KILN_PR_ROW_FINISH(T, NAME)                                                                                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                                     \
    if (!block)                                                                                                       \
        for (ulong p = first + lid; p < last; p += KILN_PR_WG) {                                                      \
            const uint rb = (uint)(off[p] - e0), re = (uint)(off[p + 1] - e0), parts = re - rb < g ? re - rb : g;     \
            T sum = 0;                                                                                                \
            for (uint q = 0; q < parts; q++) sum += stage[rb + q];                                                    \
            NAME##_finish(p, sum, odeg, tp, has_tp, tq, has_tq, y_in, y_out, cd, cb, ccp, ccq, &res, &dang);          \
        }
#endif

#ifdef KILN_PR_SLOTS
#define KILN_PR_PUT(part, grp, a, b)                                                                                  \
    {                                                                                                                 \
        __global double *slot = part + (grp % KILN_PR_SLOTS) * KILN_PR_SLOT_STRIDE;                                   \
        if (a != 0) kiln_pr_add(slot, a);                                                                             \
        if (b != 0) kiln_pr_add(slot + 1, b);                                                                         \
    }
#else
#define KILN_PR_PUT(part, grp, a, b)                                                                                  \
    part[2 * grp] = a;                                                                                                \
    part[2 * grp + 1] = b;
#endif

/* What an edge adds to its row: the gathered y, times the edge's weight share when weighted. */
#define KILN_PR_TERM(T, WTD, wp, yp) ((WTD) ? kiln_pr_ldcs_##T(wp) * kiln_pr_ldg_##T(yp) : kiln_pr_ldg_##T(yp))

/* Eight loads in flight a work-item, written out (a loop over an array of eight may leave the
 * array in memory): the sources first, then the terms that gather through them. */
#define KILN_PR_8(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define KILN_PR_BLOCK_LOAD(q) const uint u##q = kiln_pr_src(src + j + q * KILN_PR_WG);
#define KILN_PR_BLOCK_TERM(T, WTD, q) KILN_PR_TERM(T, WTD, w + j + q * KILN_PR_WG, y_in + u##q)
#define KILN_PR_STAGE_LOAD(q)                                                                                         \
    const uint i##q = b + q * KILN_PR_WG, u##q = i##q < count ? kiln_pr_src(src + e0 + i##q) : 0u;
#define KILN_PR_STAGE_PUT(T, WTD, q)                                                                                  \
    if (i##q < count) stage[i##q] = KILN_PR_TERM(T, WTD, w + e0 + i##q, y_in + u##q);

/* One iteration, rank type T, offset type OFF, WTD 1 for a weighted graph (each edge's share of
 * its source's out-weight in w[], aligned with src[]). yr0/yr1 and yw0/yw1 are the same two
 * buffers, read-only and written: an iteration reads one and writes the other, so neither is
 * reached through both names in one launch and the read side may take the read-only cache. */
#define KILN_PR_ITER(T, OFF, WTD, NAME)                                                                               \
    static inline void NAME##_finish(ulong v, T sum, __global const uint *restrict odeg,                             \
                                     __global const T *restrict tp, int has_tp, __global const T *restrict tq,        \
                                     int has_tq, __global const T *restrict y_in, __global T *restrict y_out, T cd,   \
                                     T cb, T ccp, T ccq, KILN_PR_S *res, KILN_PR_S *dang)                             \
    {                                                                                                                 \
        const T yo = y_in[v];                                                                                         \
        T x = cd * sum + cb;                                                                                          \
        if (has_tp) x += ccp * tp[v];                                                                                 \
        if (has_tq) x += ccq * tq[v];                                                                                 \
        const uint od = odeg[v];                                                                                      \
        const T old = (od && !(WTD)) ? yo * (T)od : yo;                                                               \
        const KILN_PR_S diff = (KILN_PR_S)x - (KILN_PR_S)old;                                                         \
        *res += diff < 0 ? -diff : diff;                                                                              \
        if (od) {                                                                                                     \
            y_out[v] = (WTD) ? x : x / (T)od;                                                                         \
        } else {                                                                                                      \
            y_out[v] = x;                                                                                             \
            *dang += (KILN_PR_S)x;                                                                                    \
        }                                                                                                             \
    }                                                                                                                 \
    __kernel __attribute__((reqd_work_group_size(KILN_PR_WG, 1, 1))) void NAME(                                      \
        __global const OFF *restrict off, __global const uint *restrict src, __global const uint *restrict odeg,      \
        __global const T *restrict w, __global const T *restrict tp, __global const T *restrict tq,                   \
        __global const T *restrict yr0, __global const T *restrict yr1, __global T *restrict yw0,                     \
        __global T *restrict yw1, int has_tp, int has_tq, __global const uint *restrict state,                        \
        __global const KILN_PR_S *restrict sums, __global KILN_PR_S *restrict part, __constant ulong *bins,           \
        __local T *stage, KILN_PR_S damping, KILN_PR_S inv_n)                                                         \
    {                                                                                                                 \
        __local KILN_PR_S red[KILN_PR_RED];                                                                           \
        /* after an iteration converged its x stays: later launches go through the motions without \
         * writing (returning early is what PoCL runs wrongly in a kernel with barriers) */            \
        const int done = state[1] != 0;                                                                               \
        const uint lid = get_local_id(0), odd = state[0] & 1;                                                         \
        __global const T *restrict y_in = odd ? yr1 : yr0;                                                            \
        __global T *restrict y_out = odd ? yw0 : yw1;                                                                 \
        /* (1 - d) p + d D q, each vector given or uniform (a constant); q = p when not given */                    \
        const kiln_pr_coef coef = kiln_pr_coefficients(damping, sums[1], has_tp, has_tq);                             \
        const T cd = (T)coef.d, cb = (T)(coef.uniform * inv_n), ccp = (T)coef.cp, ccq = (T)coef.cq;                   \
        const ulong grp = get_group_id(0);                                                                            \
        const uint nb = (uint)bins[KILN_PR_BIN_COUNT];                                                                \
        uint k = 0;                                                                                                   \
        while (k + 1 < nb && grp >= bins[KILN_PR_BIN_BLOCK + k + 1]) k++;                                             \
        const ulong shape = bins[KILN_PR_BIN_SHAPE + k];                                                              \
        const int block = (shape & 255) == KILN_PR_KIND_BLOCK;                                                        \
        const uint l2 = (uint)(shape >> 8) & 255, rpb = (uint)(shape >> 16);                                          \
        const ulong first = bins[KILN_PR_BIN_ROW + k] + (grp - bins[KILN_PR_BIN_BLOCK + k]) * rpb;                    \
        const ulong end_row = bins[KILN_PR_BIN_ROW + k + 1];                                                          \
        const ulong last = done ? first : first + rpb < end_row ? first + rpb : end_row;                              \
        const OFF e0 = off[first];                                                                                    \
        KILN_PR_S res = 0, dang = 0, row_sum = 0;                                                                     \
        if (block) {                                                                                                  \
            /* one row (first), the whole group on it, eight loads in flight a work-item */                          \
            const OFF end = done ? e0 : off[first + 1];                                                               \
            OFF j = e0 + lid;                                                                                         \
            T s0 = 0, s1 = 0;                                                                                         \
            for (; j + 7 * KILN_PR_WG < end; j += 8 * KILN_PR_WG) {                                                   \
                KILN_PR_8(KILN_PR_BLOCK_LOAD)                                                                         \
                s0 += KILN_PR_BLOCK_TERM(T, WTD, 0) + KILN_PR_BLOCK_TERM(T, WTD, 2);                                  \
                s1 += KILN_PR_BLOCK_TERM(T, WTD, 1) + KILN_PR_BLOCK_TERM(T, WTD, 3);                                  \
                s0 += KILN_PR_BLOCK_TERM(T, WTD, 4) + KILN_PR_BLOCK_TERM(T, WTD, 6);                                  \
                s1 += KILN_PR_BLOCK_TERM(T, WTD, 5) + KILN_PR_BLOCK_TERM(T, WTD, 7);                                  \
            }                                                                                                         \
            for (; j < end; j += KILN_PR_WG) {                                                                        \
                const uint u = kiln_pr_src(src + j);                                                                  \
                s0 += KILN_PR_TERM(T, WTD, w + j, y_in + u);                                                          \
            }                                                                                                         \
            row_sum = (KILN_PR_S)(s0 + s1);                                                                           \
        } else {                                                                                                      \
            /* rows [first, last): their edges' terms staged (coalesced, eight loads in flight) */                  \
            const uint count = (uint)(off[last] - e0);                                                                \
            for (uint b = lid; b < count; b += 8 * KILN_PR_WG) {                                                      \
                KILN_PR_8(KILN_PR_STAGE_LOAD)                                                                         \
                KILN_PR_STAGE_PUT(T, WTD, 0)                                                                          \
                KILN_PR_STAGE_PUT(T, WTD, 1)                                                                          \
                KILN_PR_STAGE_PUT(T, WTD, 2)                                                                          \
                KILN_PR_STAGE_PUT(T, WTD, 3)                                                                          \
                KILN_PR_STAGE_PUT(T, WTD, 4)                                                                          \
                KILN_PR_STAGE_PUT(T, WTD, 5)                                                                          \
                KILN_PR_STAGE_PUT(T, WTD, 6)                                                                          \
                KILN_PR_STAGE_PUT(T, WTD, 7)                                                                          \
            }                                                                                                         \
        }                                                                                                             \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                                 \
        /* the staged rows, 2^l2 lanes a row */                                                                      \
        const uint g = 1u << l2, lane = lid & (g - 1), groups = KILN_PR_WG >> l2;                                     \
        if (!block)                                                                                                   \
            for (ulong p0 = first; p0 < last; p0 += groups) {                                                         \
                const ulong p = p0 + (lid >> l2);                                                                     \
                const int active = p < last;                                                                          \
                uint rb = 0, re = 0;                                                                                  \
                if (active) {                                                                                         \
                    rb = (uint)(off[p] - e0);                                                                         \
                    re = (uint)(off[p + 1] - e0);                                                                     \
                }                                                                                                     \
                T sum = 0;                                                                                            \
                for (uint q = rb + lane; q < re; q += g) sum += stage[q];                                             \
                KILN_PR_ROW_LANES(T, NAME)                                                                            \
            }                                                                                                         \
        KILN_PR_ROW_FINISH(T, NAME)                                                                                   \
        /* a block row's sum, else the rows' shares of the L1 change and dangling mass */                          \
        KILN_PR_S sa = block ? row_sum : res, sb = block ? 0 : dang;                                                  \
        kiln_pr_sum2(&sa, &sb, lid, red);                                                                             \
        if (lid == 0) {                                                                                               \
            if (block && !done) {                                                                                     \
                NAME##_finish(first, (T)sa, odeg, tp, has_tp, tq, has_tq, y_in, y_out, cd, cb, ccp, ccq, &res, &dang); \
                sa = res;                                                                                             \
                sb = dang;                                                                                            \
            }                                                                                                         \
            KILN_PR_PUT(part, grp, sa, sb)                                                                            \
        }                                                                                                             \
    }

KILN_PR_ITER(float, uint, 0, kiln_pr_iter_f32_u32)
KILN_PR_ITER(float, uint, 1, kiln_pr_iter_f32_u32_w)
KILN_PR_ITER(float, ulong, 0, kiln_pr_iter_f32_u64)
KILN_PR_ITER(float, ulong, 1, kiln_pr_iter_f32_u64_w)
/* float64 only where the device has it (the host checks CL_DEVICE_DOUBLE_FP_CONFIG first), so the
 * program still builds on a device without doubles. */
#ifdef cl_khr_fp64
KILN_PR_ITER(double, uint, 0, kiln_pr_iter_f64_u32)
KILN_PR_ITER(double, uint, 1, kiln_pr_iter_f64_u32_w)
KILN_PR_ITER(double, ulong, 0, kiln_pr_iter_f64_u64)
KILN_PR_ITER(double, ulong, 1, kiln_pr_iter_f64_u64_w)
#endif

/* The end of an iteration (one group of KILN_PR_WG): the groups' shares of the L1 change and of
 * the dangling mass added (from the slots, else in group order: the same sums every run), the
 * iteration counted, and the state marked done when the change is below threshold (n * tol).
 * sums[] then holds this iteration's change and dangling mass, which the next iteration's groups
 * read. */
__kernel __attribute__((reqd_work_group_size(KILN_PR_WG, 1, 1))) void kiln_pr_fold(
    __global KILN_PR_S *restrict part, uint groups, __global uint *state, __global KILN_PR_S *sums,
    KILN_PR_S threshold)
{
    __local KILN_PR_S red[KILN_PR_RED];
    /* no early return (see the iteration kernels): after convergence the sums are made and dropped */
    const int done = state[1] != 0;
    const uint lid = get_local_id(0);
    KILN_PR_S r0 = 0, r1 = 0, g0 = 0, g1 = 0;
#ifdef KILN_PR_SLOTS
    /* the slots, emptied for the next iteration's groups (which start after this launch ends) */
    (void)groups;
    if (lid < KILN_PR_SLOTS) {
        __global KILN_PR_S *slot = part + lid * KILN_PR_SLOT_STRIDE;
        r0 = slot[0];
        g0 = slot[1];
        slot[0] = 0;
        slot[1] = 0;
    }
#else
    uint i = lid;
    /* two loads of each kind in flight a work-item */
    for (; i + KILN_PR_WG < groups; i += 2 * KILN_PR_WG) {
        r0 += part[2 * i];
        g0 += part[2 * i + 1];
        r1 += part[2 * (i + KILN_PR_WG)];
        g1 += part[2 * (i + KILN_PR_WG) + 1];
    }
    if (i < groups) {
        r0 += part[2 * i];
        g0 += part[2 * i + 1];
    }
#endif
    KILN_PR_S res = r0 + r1, dang = g0 + g1;
    kiln_pr_sum2(&res, &dang, lid, red);
    if (lid == 0 && !done) {
        sums[0] = res;
        sums[1] = dang;
        state[0] += 1;
        if (res < threshold) state[1] = 1;
    }
}
