/* Batch scrypt KDF on the GPU: many passwords with their salts under one (N, r, p), as password
 * hashing and recovery tools run it. Three kernels per chunk of items:
 *   kdf_in     one thread per 32-byte block of B = PBKDF2(P, S, 1, 128 r p)
 *   kdf_romix  one quad of threads per lane (item, i < p), scratchpads in device memory; r = 1, 2,
 *              4, 8 keep the state in registers (templates: kernel 1, the default, or kernel 2,
 *              chosen by the launch's items_per_thread), other r stream it through memory
 *   kdf_out    one thread per 32-byte block of the output PBKDF2(P, B', 1, dkLen)
 * A chunk is one wave of resident lanes, so the scratch is one wave of scratchpads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_state.h"
#include "device_memory.cuh"
#include "scrypt_dev.cuh"

using namespace kiln_scrypt_dev;

namespace {

struct kdf_item {
    uint64_t pw_off, salt_off;
    uint32_t pw_len, salt_len;
};

/* The item and the 32-byte block of it that this thread computes (blocks_per_item threads an
 * item), with the item's HMAC key (its password); false for threads past the last item. */
__device__ __forceinline__ bool thread_item(const uint8_t *pw, const kdf_item *items, uint32_t nitems,
                                            uint32_t blocks_per_item, uint64_t *item, uint32_t *b, kdf_item *it,
                                            kiln_hmac_sha256_key *k)
{
    uint64_t gid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    *item = gid / blocks_per_item;
    *b = (uint32_t)(gid % blocks_per_item);
    if (*item >= nitems) return false;
    *it = items[*item];
    kiln_hmac_sha256_setkey(k, pw + it->pw_off, it->pw_len);
    return true;
}

/* pw_off indexes pw and salt_off salt (one arena for both from host memory; the caller's two
 * buffers from device memory) */
__global__ void kdf_in(const uint8_t *__restrict__ pw, const uint8_t *__restrict__ salt,
                       const kdf_item *__restrict__ items, uint32_t nitems, uint32_t blocks_per_item,
                       uint32_t *__restrict__ B)
{
    uint64_t item;
    uint32_t b;
    kdf_item it;
    kiln_hmac_sha256_key k;
    if (!thread_item(pw, items, nitems, blocks_per_item, &item, &b, &it, &k)) return;
    uint32_t T[8];
    kiln_pbkdf2_sha256_block(&k, salt + it.salt_off, it.salt_len, 1, b + 1, T);
    uint32_t *dst = B + (item * blocks_per_item + b) * 8;
#pragma unroll
    for (int q = 0; q < 8; q++) dst[q] = __byte_perm(T[q], 0, 0x0123);
}

__global__ void kdf_out(const uint8_t *__restrict__ pw, const kdf_item *__restrict__ items, uint32_t nitems,
                        const uint32_t *__restrict__ B, uint32_t b_bytes, uint32_t out_blocks, uint32_t out_len,
                        uint8_t *__restrict__ out)
{
    uint64_t item;
    uint32_t b;
    kdf_item it;
    kiln_hmac_sha256_key k;
    if (!thread_item(pw, items, nitems, out_blocks, &item, &b, &it, &k)) return;
    uint32_t T[8];
    /* B holds little-endian words: its bytes in memory are B' exactly */
    kiln_pbkdf2_sha256_block(&k, (const uint8_t *)B + item * b_bytes, b_bytes, 1, b + 1, T);
    uint8_t *dst = out + item * out_len;
    for (uint32_t i = 0; i < 32 && 32 * b + i < out_len; i++) dst[32 * b + i] = (uint8_t)(T[i >> 2] >> (24 - 8 * (i & 3)));
}

/* BlockMix streamed between quad-layout rows in memory: dst = BlockMix(src ^ mix) (mix may be
 * NULL); only T stays in registers, so any r works. */
__device__ __forceinline__ void blockmix_stream(const uint4 *src, const uint4 *mix, uint4 *dst, uint32_t r,
                                                unsigned mask, int t)
{
    uint4 T = src[4 * (2 * r - 1) + t];
    if (mix) T = T ^ mix[4 * (2 * r - 1) + t];
    for (uint32_t i = 0; i < 2 * r; i++) {
        uint4 v = src[4 * i + t];
        if (mix) v = v ^ mix[4 * i + t];
        salsa_quad(T, v, mask, t);
        dst[4 * ((i >> 1) + (i & 1) * r) + t] = T;
    }
}

/* Any r: V per slot is N + 2 rows of 8r uint4, the last two holding X and its successor. */
__global__ void __launch_bounds__(256) kdf_romix_any(uint32_t *__restrict__ B, uint32_t lanes, uint32_t N, uint32_t r,
                                                     uint4 *__restrict__ V)
{
    const int t = threadIdx.x & 3;
    const unsigned mask = 0xfu << (threadIdx.x & 28);
    uint32_t lane = (blockIdx.x * blockDim.x + threadIdx.x) >> 2;
    if (lane >= lanes) return;
    const size_t row = 8 * (size_t)r;
    uint4 *mine = V + (size_t)lane * (N + 2) * row;
    {
        uint32_t *b = B + (size_t)lane * 32 * r;
        for (uint32_t blk = 0; blk < 2 * r; blk++)
            mine[4 * blk + t] = make_uint4(b[quad_word(blk, t, 0)], b[quad_word(blk, t, 1)], b[quad_word(blk, t, 2)],
                                           b[quad_word(blk, t, 3)]);
        for (uint32_t j = 0; j < N; j++) blockmix_stream(mine + j * row, NULL, mine + (j + 1) * row, r, mask, t);
        uint4 *X = mine + N * row, *Y = mine + (N + 1) * row;
        for (uint32_t i = 0; i < N; i++) {
            uint32_t j = __shfl_sync(mask, X[4 * (2 * r - 1)].x, 0, 4) & (N - 1);
            blockmix_stream(X, mine + j * row, Y, r, mask, t);
            uint4 *s = X;
            X = Y;
            Y = s;
        }
        for (uint32_t blk = 0; blk < 2 * r; blk++) {
            uint4 v = X[4 * blk + t];
            b[quad_word(blk, t, 0)] = v.x;
            b[quad_word(blk, t, 1)] = v.y;
            b[quad_word(blk, t, 2)] = v.z;
            b[quad_word(blk, t, 3)] = v.w;
        }
    }
}

/* ---- ROMix kernel 2: the second loop in uniform steps, X parked in shared memory.
 *
 * Why: at r = 8 kernel 1 (romix_quad_kernel) is latency-bound. Its 208 registers and the 16 MiB
 * a lane needs at gap 1 both cap an SM at ~60 lanes, too few dependent Salsa chains to fill the
 * issue slots. A gap of 2 halves the memory a lane needs, but in kernel 1 a warp's 8 quads run
 * their recomputations in lockstep: with 8 random j, almost every read (1 - 2^-8) costs the warp a
 * whole extra BlockMix, so gap 2 does 3 BlockMix per iteration pair instead of the 2.5 a lane needs.
 *
 * Here every pass of the loop is one BlockMix for every quad, whatever the quad is doing: a read
 * of row j, k = j mod G, takes k + 1 steps
 *   step 1      W = BlockMix(V[j - k])      (k > 0: the stored row, recomputation starts)
 *   steps 2..k  W = BlockMix(W)
 *   last step   W = BlockMix(X ^ W)         (k = 0: W = BlockMix(W ^ V[j]), W being X)
 * so the quads of a warp never wait for each other's recomputations; they drift apart and the warp
 * only waits, at the very end, for the quad with the most steps (~N(1 + (G-1)/2) each, spread
 * ~sqrt(N) steps). While W recomputes a row, X waits in shared memory (1 KiB a lane at r = 8),
 * so only W and the loads in flight take registers: the launch bounds cap them at 128, which
 * lets 128 lanes into an SM, about what device memory holds at gap 2 (8 MiB a lane).
 * The first loop is kernel 1's: every quad stores the same rows at the same steps. */

/* Shared memory a lane parks X in: 8R uint4, plus 64 bytes so that the two quads of a 128-bit
 * access phase (8 threads) fall on different banks. */
template <int R>
__host__ __device__ constexpr uint32_t smem_lane_uint4() { return 8 * R + 4; }

/* d = the 16 bytes at p where c is nonzero, else d unchanged: predicated loads, not branches, as
 * the quads of a warp differ in c (a branch would split the warp around each of a step's loads).
 * The memory clobbers keep them in order with the row stores of the first loop. */
__device__ __forceinline__ void load_global_if(uint4 &d, const uint4 *p, uint32_t c)
{
    __asm__("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %5, 0;\n\t@q ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\n\t}"
            : "+r"(d.x), "+r"(d.y), "+r"(d.z), "+r"(d.w)
            : "l"(p), "r"(c)
            : "memory");
}

__device__ __forceinline__ void load_shared_if(uint4 &d, const uint4 *p, uint32_t c)
{
    __asm__("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %5, 0;\n\t@q ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];\n\t}"
            : "+r"(d.x), "+r"(d.y), "+r"(d.z), "+r"(d.w)
            : "r"((uint32_t)__cvta_generic_to_shared(p)), "r"(c)
            : "memory");
}

/* W = BlockMix(in(0), ..., in(2R-1)), the inputs formed as Salsa consumes them: a load two blocks
 * ahead covers its latency, and no more is ahead than that, so W, T and the loads in flight fit
 * the 128 registers (hoisting every load of a row to the top, as the compiler does on its own,
 * takes 64 more and spills). The empty asm keeps the loads where they are written. */
template <int R, class In>
__device__ __forceinline__ void blockmix_quad_from(uint4 (&w)[2 * R], In in, unsigned mask, int t)
{
    uint4 y[2 * R];
    const uint4 last = in(2 * R - 1);
    uint4 T = last, p0 = in(0), p1 = 2 * R > 2 ? in(1) : last;
#pragma unroll
    for (int i = 0; i < 2 * R; i++) {
        const uint4 cur = p0;
        p0 = p1;
        if (i + 2 < 2 * R - 1) p1 = in(i + 2);
        else p1 = last;
        __asm__ volatile("" ::: "memory");
        salsa_quad(T, cur, mask, t);
        y[(i >> 1) + (i & 1) * R] = T;
    }
#pragma unroll
    for (int i = 0; i < 2 * R; i++) w[i] = y[i];
}

template <int R>
__global__ void __launch_bounds__(256, 2) romix_steps_kernel(uint32_t *__restrict__ B, uint32_t lanes, uint32_t N,
                                                             uint32_t gap, uint4 *__restrict__ V)
{
    extern __shared__ uint4 parked[];
    const int t = threadIdx.x & 3;
    const unsigned mask = 0xfu << (threadIdx.x & 28);
    uint32_t lane = (blockIdx.x * blockDim.x + threadIdx.x) >> 2;
    if (lane >= lanes) return;
    uint32_t *b = B + (size_t)lane * 32 * R;
    /* this thread's piece of block k of X is xs[4 k]: only this thread writes or reads it */
    uint4 *xs = parked + (threadIdx.x >> 2) * smem_lane_uint4<R>() + t;
    const uint32_t shift = __ffs(gap) - 1;
    uint4 *mine = V + (size_t)lane * (N >> shift) * (8 * R) + t;
    uint4 w[2 * R];
    load_quads<R>(w, b, t);
#pragma unroll 1
    for (uint32_t j = 0; j < N; j++) {
        if ((j & (gap - 1)) == 0) {
            uint4 *row = mine + (size_t)(j >> shift) * (8 * R);
#pragma unroll
            for (int k = 0; k < 2 * R; k++) row[4 * k] = w[k];
        }
        blockmix_quad<R>(w, mask, t);
    }
    /* the quad's four threads hold the same i, k, fresh: the control flow below is per quad */
    uint32_t i = 0, k = 0;
    bool fresh = true; /* the next step starts a read; W is X */
    const uint4 *row = mine;
#pragma unroll 1
    while (i < N) {
        if (fresh) {
            uint32_t j = __shfl_sync(mask, w[2 * R - 1].x, 0, 4) & (N - 1);
            k = j & (gap - 1);
            row = mine + (size_t)(j >> shift) * (8 * R);
            if (k) {
#pragma unroll
                for (int q = 0; q < 2 * R; q++) xs[4 * q] = w[q];
            }
        }
        const bool last = k == 0;
        /* input: V[j - k] (first step; ^ X when k = 0, X being W), W (recomputing), X ^ W (last) */
        const uint32_t keep = fresh && !last ? 0u : ~0u, from_row = fresh, from_x = !fresh && last;
        auto in = [&](int q) {
            uint4 e = make_uint4(0, 0, 0, 0); /* the row, X or nothing: never both */
            load_global_if(e, row + 4 * q, from_row);
            load_shared_if(e, xs + 4 * q, from_x);
            return make_uint4((w[q].x & keep) ^ e.x, (w[q].y & keep) ^ e.y, (w[q].z & keep) ^ e.z, (w[q].w & keep) ^ e.w);
        };
        blockmix_quad_from<R>(w, in, mask, t);
        if (last) i++;
        else k--;
        fresh = last;
    }
    store_quads<R>(w, b, t);
}

/* Dynamic shared memory of a kernel-2 block of tpb threads. */
template <int R>
size_t steps_smem(int tpb) { return (size_t)(tpb / 4) * smem_lane_uint4<R>() * sizeof(uint4); }

size_t romix_smem(uint32_t r, int kernel, int tpb)
{
    if (kernel != 2) return 0;
    switch (r) {
    case 1: return steps_smem<1>(tpb);
    case 2: return steps_smem<2>(tpb);
    case 4: return steps_smem<4>(tpb);
    case 8: return steps_smem<8>(tpb);
    default: return 0;
    }
}

template <int R>
const void *quad_kernel(bool gap, int kernel)
{
    if (kernel == 2) return (const void *)romix_steps_kernel<R>;
    return gap ? (const void *)romix_quad_kernel<R, true> : (const void *)romix_quad_kernel<R, false>;
}

const void *romix_kernel(uint32_t r, uint32_t gap, int kernel)
{
    switch (r) {
    case 1: return quad_kernel<1>(gap > 1, kernel);
    case 2: return quad_kernel<2>(gap > 1, kernel);
    case 4: return quad_kernel<4>(gap > 1, kernel);
    case 8: return quad_kernel<8>(gap > 1, kernel);
    default: return (const void *)kdf_romix_any;
    }
}

template <int R>
void launch_quad(cudaStream_t s, uint32_t blocks, int tpb, uint32_t *B, uint32_t lanes, uint32_t N, uint32_t gap,
                 uint4 *V, int kernel)
{
    if (kernel == 2) romix_steps_kernel<R><<<blocks, tpb, steps_smem<R>(tpb), s>>>(B, lanes, N, gap, V);
    else if (gap > 1) romix_quad_kernel<R, true><<<blocks, tpb, 0, s>>>(B, lanes, N, gap, V);
    else romix_quad_kernel<R, false><<<blocks, tpb, 0, s>>>(B, lanes, N, gap, V);
}

cudaError_t launch_romix(cudaStream_t s, uint32_t r, int tpb, uint32_t *B, uint32_t lanes, uint32_t N, uint32_t gap,
                         uint4 *V, int kernel)
{
    uint32_t blocks = (uint32_t)(((uint64_t)lanes * 4 + tpb - 1) / tpb);
    switch (r) {
    case 1: launch_quad<1>(s, blocks, tpb, B, lanes, N, gap, V, kernel); break;
    case 2: launch_quad<2>(s, blocks, tpb, B, lanes, N, gap, V, kernel); break;
    case 4: launch_quad<4>(s, blocks, tpb, B, lanes, N, gap, V, kernel); break;
    case 8: launch_quad<8>(s, blocks, tpb, B, lanes, N, gap, V, kernel); break;
    default: kdf_romix_any<<<blocks, tpb, 0, s>>>(B, lanes, N, r, V); break;
    }
    return cudaGetLastError();
}

bool templated(uint32_t r) { return r == 1 || r == 2 || r == 4 || r == 8; }

/* The ROMix kernel and threads a block where neither the caller nor the tune cache names them:
 * kernel 2 with 256 threads at r = 8, which with its automatic gap measured best on both Hopper
 * parts (docs/SCRYPT.md: H200 45.4 kH/s at gap 2 against kernel 1's 33.8, H100 34.9 at gap 4
 * against 32.3); kernel 1 with 128 threads for the other r, where kernel 2 was not measured. */
int default_kernel(const kiln_gpu_scrypt_kdf_cfg *cfg) { return cfg->romix_kernel ? cfg->romix_kernel : cfg->r == 8 ? 2 : 1; }
int default_tpb(const kiln_gpu_scrypt_kdf_cfg *cfg)
{
    return cfg->threads_per_block ? cfg->threads_per_block : default_kernel(cfg) == 2 ? 256 : 128;
}

/* Host buffers of one call, freed on every exit path. */
struct host_bufs {
    uint8_t *arena = nullptr;
    kdf_item *items = nullptr;
    ~host_bufs()
    {
        free(arena);
        free(items);
    }
};

struct dev_bufs {
    uint8_t *arena = nullptr, *out = nullptr;
    kdf_item *items = nullptr;
    uint32_t *B = nullptr;
    ~dev_bufs()
    {
        if (arena) cudaFree(arena);
        if (out) cudaFree(out);
        if (items) cudaFree(items);
        if (B) cudaFree(B);
    }
};

} // namespace

namespace {

/* The plan (kiln_cuda_scrypt_kdf_plan) when `reusable` bytes of device memory held now are the
 * scratch's (the handle's scratch; none for the device-memory batch, whose scratch is its own). */
kiln_status plan(kiln_gpu *st, const kiln_gpu_scrypt_kdf_cfg *cfg, uint64_t lanes_total, size_t out_len,
                 size_t reusable, uint64_t *slots_out, uint32_t *gap_out)
{
    const uint32_t r = cfg->r, p = cfg->p;
    if (cfg->N > (UINT64_C(1) << 31)) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "scrypt N = %llu is too large for the GPU batch (at most 2^31)", (unsigned long long)cfg->N);
    }
    if ((uint64_t)r * p > (UINT64_C(1) << 24) || out_len > (UINT64_C(1) << 30)) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "scrypt r * p = %llu or output length %zu too large for the GPU batch",
                 (unsigned long long)r * p, out_len);
    }
    const uint32_t N = (uint32_t)cfg->N;
    const int tpb = default_tpb(cfg);
    if (tpb < 32 || tpb > 256 || tpb % 32) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "scrypt batch: threads per block %d must be a multiple of 32 in 32..256", tpb);
    }
    uint32_t gap = cfg->lookup_gap > 0 ? (uint32_t)cfg->lookup_gap : 0;
    if (gap && (gap > 16 || (gap & (gap - 1)))) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "scrypt batch: lookup gap %u must be 1, 2, 4, 8 or 16", gap);
    }
    const int kernel = default_kernel(cfg);
    if (kernel != 1 && kernel != 2) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "scrypt batch: ROMix kernel %d must be 1 (registers) or 2 (steps)", kernel);
    }
    if (!templated(r)) gap = 1; /* the streaming kernel keeps every row */
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    const size_t smem = templated(r) ? romix_smem(r, kernel, tpb) : 0;
    if (smem) {
        /* X's parking space is the kernel's whole use of shared memory; L1 has nothing to keep */
        const void *f = romix_kernel(r, 2, kernel);
        KILN_CUDA_TRY(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
                      "cudaFuncSetAttribute (shared memory)");
        KILN_CUDA_TRY(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared),
                      "cudaFuncSetAttribute (carveout)");
    }

    /* lanes resident at once: limited by the kernel's occupancy and by device memory */
    size_t free_b = 0, total_b = 0;
    KILN_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    /* the scratch already held is reusable; leave 10% and 1 GiB for the buffers and others */
    double budget = ((double)free_b + (double)reusable) * 0.9 - (double)(UINT64_C(1) << 30);
    const double row_bytes = 128.0 * r;
    auto lane_bytes = [&](uint32_t g) { return templated(r) ? row_bytes * (N / g) : row_bytes * (N + 2.0); };
    uint64_t wave[2];
    for (int g = 0; g < 2; g++) {
        int per_sm = 0;
        KILN_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, romix_kernel(r, g ? 2 : 1, kernel), tpb, smem),
                      "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        wave[g] = (uint64_t)(per_sm < 1 ? 1 : per_sm) * st->sm_count * (tpb / 4);
    }
    auto resident = [&](uint32_t g) {
        double mem = budget > 0 ? budget / lane_bytes(g) : 0;
        double w = (double)wave[g > 1];
        double n = mem < w ? mem : w;
        return n < (double)lanes_total ? n : (double)lanes_total;
    };
    if (!gap) {
        /* the gap with the most work per time: resident lanes over the cost of recomputing rows,
         * where in kernel 1 a warp waits for the longest recomputation of its 8 quads (E[max of 8]
         * steps) and in kernel 2 each quad pays its own (E = (g - 1) / 2 steps) */
        double best = -1;
        for (uint32_t g = 1; g <= 16 && g <= N; g *= 2) {
            double emax = 0;
            if (kernel == 2) emax = (g - 1) / 2.0;
            else
                for (uint32_t k = 1; k < g; k++) emax += 1 - pow((double)k / g, 8);
            /* kernel 2's rate grows slower than its lanes (they hide one another's latency less
             * and less): lanes^0.6 fits the three measured pairs of gaps (docs/SCRYPT.md) */
            double score = (kernel == 2 ? pow(resident(g), 0.6) : resident(g)) / ((2 + emax) / 2);
            if (score > best) best = score, gap = g;
        }
    }
    if (gap > N) gap = N;
    uint64_t slots = (uint64_t)resident(gap);
    if (slots == 0) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "scrypt N = %u, r = %u needs %.0f bytes per lane; the GPU has %zu bytes free", N, r,
                 lane_bytes(gap), free_b);
    }
    (void)p;
    *slots_out = slots;
    *gap_out = gap;
    return KILN_OK;
}

} // namespace

kiln_status kiln_cuda_scrypt_kdf_plan(kiln_gpu *st, const kiln_gpu_scrypt_kdf_cfg *cfg, uint64_t lanes_total,
                                      size_t out_len, uint64_t *slots, uint32_t *gap)
{
    return plan(st, cfg, lanes_total, out_len, st->scratch_bytes, slots, gap);
}

kiln_status kiln_cuda_scrypt_kdf(kiln_gpu *st, const kiln_gpu_scrypt_kdf_cfg *cfg,
                                            const kiln_scrypt_input *in, size_t count, uint8_t *out, size_t out_len)
{
    const uint32_t r = cfg->r, p = cfg->p, N = (uint32_t)cfg->N;
    const int tpb = default_tpb(cfg);
    if (count == 0) return KILN_OK;
    uint64_t slots = 0;
    uint32_t gap = 0;
    kiln_status ps = kiln_cuda_scrypt_kdf_plan(st, cfg, (uint64_t)count * p, out_len, &slots, &gap);
    if (ps != KILN_OK) return ps;
    const double lane_bytes = 128.0 * r * (templated(r) ? (double)(N / gap) : N + 2.0);
    void *scratch = NULL;
    kiln_status ks = kiln_cuda_scratch(st, (size_t)(slots * lane_bytes), &scratch);
    if (ks != KILN_OK) return ks;

    /* chunks of whole items holding about one wave of lanes */
    uint64_t chunk_items = slots / p > 0 ? slots / p : 1;
    if (chunk_items > count) chunk_items = count;
    const uint32_t b_bytes = 128 * r * p, in_blocks = 4 * r * p, out_blocks = (uint32_t)((out_len + 31) / 32);
    size_t max_arena = 0;
    for (size_t i0 = 0; i0 < count; i0 += chunk_items) {
        size_t bytes = 0;
        for (size_t i = i0; i < count && i < i0 + chunk_items; i++) bytes += in[i].password_len + in[i].salt_len;
        if (bytes > max_arena) max_arena = bytes;
    }
    host_bufs h;
    dev_bufs d;
    h.arena = (uint8_t *)malloc(max_arena ? max_arena : 1);
    h.items = (kdf_item *)malloc(chunk_items * sizeof(kdf_item));
    if (!h.arena || !h.items) {
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "out of host memory for the scrypt batch");
    }
    KILN_CUDA_TRY(cudaMalloc(&d.arena, max_arena ? max_arena : 1), "cudaMalloc (passwords)");
    KILN_CUDA_TRY(cudaMalloc(&d.items, chunk_items * sizeof(kdf_item)), "cudaMalloc (items)");
    KILN_CUDA_TRY(cudaMalloc(&d.B, chunk_items * b_bytes), "cudaMalloc (B)");
    KILN_CUDA_TRY(cudaMalloc(&d.out, chunk_items * out_len), "cudaMalloc (output)");

    for (size_t i0 = 0; i0 < count; i0 += chunk_items) {
        uint32_t n = (uint32_t)(count - i0 < chunk_items ? count - i0 : chunk_items);
        size_t off = 0;
        for (uint32_t i = 0; i < n; i++) {
            const kiln_scrypt_input *x = &in[i0 + i];
            if (x->password_len > UINT32_MAX || x->salt_len > UINT32_MAX) {
                return kiln_fail(st->ctx, KILN_ERR_INPUT, "scrypt batch item %zu: password or salt over 4 GiB", i0 + i);
            }
            h.items[i].pw_off = off;
            h.items[i].pw_len = (uint32_t)x->password_len;
            if (x->password_len) memcpy(h.arena + off, x->password, x->password_len);
            off += x->password_len;
            h.items[i].salt_off = off;
            h.items[i].salt_len = (uint32_t)x->salt_len;
            if (x->salt_len) memcpy(h.arena + off, x->salt, x->salt_len);
            off += x->salt_len;
        }
        KILN_CUDA_TRY(cudaMemcpyAsync(d.arena, h.arena, off ? off : 1, cudaMemcpyHostToDevice, st->stream),
                      "cudaMemcpy (passwords)");
        KILN_CUDA_TRY(cudaMemcpyAsync(d.items, h.items, n * sizeof(kdf_item), cudaMemcpyHostToDevice, st->stream),
                      "cudaMemcpy (items)");
        uint64_t threads = (uint64_t)n * in_blocks;
        kdf_in<<<(unsigned)((threads + 127) / 128), 128, 0, st->stream>>>(d.arena, d.arena, d.items, n, in_blocks, d.B);
        KILN_CUDA_TRY(cudaGetLastError(), "scrypt kdf_in launch");
        /* more lanes than slots only when one item's p lanes outnumber them */
        for (uint64_t l0 = 0, lanes = (uint64_t)n * p; l0 < lanes; l0 += slots) {
            uint32_t k = (uint32_t)(lanes - l0 < slots ? lanes - l0 : slots);
            KILN_CUDA_TRY(launch_romix(st->stream, r, tpb, d.B + l0 * 32 * r, k, N, gap, (uint4 *)scratch,
                                       default_kernel(cfg)),
                          "scrypt romix launch");
        }
        threads = (uint64_t)n * out_blocks;
        kdf_out<<<(unsigned)((threads + 127) / 128), 128, 0, st->stream>>>(d.arena, d.items, n, d.B, b_bytes,
                                                                           out_blocks, (uint32_t)out_len, d.out);
        KILN_CUDA_TRY(cudaGetLastError(), "scrypt kdf_out launch");
        KILN_CUDA_TRY(cudaMemcpyAsync(out + i0 * out_len, d.out, (size_t)n * out_len, cudaMemcpyDeviceToHost, st->stream),
                      "cudaMemcpy (output)");
        KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "scrypt batch kernels");
        /* a chunk is one wave of lanes (well under a second): the interrupt is read between them */
        kiln_ctx_report(st->ctx, "scrypt", "steps", (uint64_t)(i0 + n) * 2 * N * p, (uint64_t)count * 2 * N * p);
        if (kiln_ctx_interrupt_requested(st->ctx)) return kiln_interrupted(st->ctx);
    }
    return KILN_OK;
}

/* ---- device memory in, device memory out (docs/DEVICE_MEMORY.md) */
namespace {

__device__ __forceinline__ uint64_t lo(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* item i from the caller's offset tables, each clamped to its buffer (a bad table gives wrong
 * keys, never a read outside the buffers); lengths past 4 GiB are cut there */
__global__ void make_items(const uint64_t *__restrict__ pw_off, uint64_t pw_bytes, const uint64_t *__restrict__ salt_off,
                           uint64_t salt_bytes, uint64_t count, kdf_item *__restrict__ items)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t p0 = lo(pw_off[i], pw_bytes), p1 = lo(pw_off[i + 1] > pw_off[i] ? pw_off[i + 1] : pw_off[i], pw_bytes);
        const uint64_t s0 = lo(salt_off[i], salt_bytes), s1 = lo(salt_off[i + 1] > salt_off[i] ? salt_off[i + 1] : salt_off[i], salt_bytes);
        items[i] = {p0, s0, (uint32_t)lo(p1 - p0, UINT32_MAX), (uint32_t)lo(s1 - s0, UINT32_MAX)};
    }
}

struct kdf_temps {
    cudaStream_t s;
    void *items = nullptr, *B = nullptr, *scratch = nullptr;
    ~kdf_temps()
    {
        kiln_cuda_free_async(items, s);
        kiln_cuda_free_async(B, s);
        kiln_cuda_free_async(scratch, s);
    }
};

} // namespace

kiln_status kiln_cuda_scrypt_kdf_device(kiln_gpu *st, const kiln_gpu_scrypt_kdf_cfg *cfg, const void *pw, size_t pw_bytes,
                                        const uint64_t *pw_off, const void *salt, size_t salt_bytes,
                                        const uint64_t *salt_off, size_t count, void *out, size_t out_len, void *stream)
{
    const cudaStream_t s = (cudaStream_t)stream;
    const uint32_t r = cfg->r, p = cfg->p, N = (uint32_t)cfg->N;
    const int tpb = default_tpb(cfg);
    if (count == 0) return KILN_OK;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    kiln_status ks;
    if ((ks = kiln_cuda_check_device_ptr(st, pw, pw_bytes, "the passwords")) != KILN_OK ||
        (ks = kiln_cuda_check_device_ptr(st, pw_off, (count + 1) * 8, "the password offsets")) != KILN_OK ||
        (ks = kiln_cuda_check_device_ptr(st, salt, salt_bytes, "the salts")) != KILN_OK ||
        (ks = kiln_cuda_check_device_ptr(st, salt_off, (count + 1) * 8, "the salt offsets")) != KILN_OK ||
        (ks = kiln_cuda_check_device_ptr(st, out, count * out_len, "the keys")) != KILN_OK)
        return ks;
    uint64_t slots = 0;
    uint32_t gap = 0;
    if ((ks = plan(st, cfg, (uint64_t)count * p, out_len, 0, &slots, &gap)) != KILN_OK) return ks;
    const double lane_bytes = 128.0 * r * (templated(r) ? (double)(N / gap) : N + 2.0);
    uint64_t chunk_items = slots / p > 0 ? slots / p : 1;
    if (chunk_items > count) chunk_items = count;
    const uint32_t b_bytes = 128 * r * p, in_blocks = 4 * r * p, out_blocks = (uint32_t)((out_len + 31) / 32);
    kdf_temps t;
    t.s = s;
    if ((ks = kiln_cuda_alloc_async(st, &t.scratch, (size_t)(slots * lane_bytes), s, "the scrypt scratchpads")) != KILN_OK ||
        (ks = kiln_cuda_alloc_async(st, &t.items, count * sizeof(kdf_item), s, "the scrypt items")) != KILN_OK ||
        (ks = kiln_cuda_alloc_async(st, &t.B, chunk_items * b_bytes, s, "the scrypt B")) != KILN_OK)
        return ks;
    kdf_item *items = (kdf_item *)t.items;
    uint32_t *B = (uint32_t *)t.B;
    /* an empty buffer may be NULL: its offsets clamp to 0 and nothing is read */
    const uint8_t *pwb = (const uint8_t *)pw, *saltb = (const uint8_t *)salt;
    make_items<<<1024, 256, 0, s>>>(pw_off, pw_bytes, salt_off, salt_bytes, count, items);
    KILN_CUDA_TRY(cudaGetLastError(), "scrypt items kernel launch");
    for (size_t i0 = 0; i0 < count; i0 += chunk_items) {
        const uint32_t n = (uint32_t)(count - i0 < chunk_items ? count - i0 : chunk_items);
        uint64_t threads = (uint64_t)n * in_blocks;
        kdf_in<<<(unsigned)((threads + 127) / 128), 128, 0, s>>>(pwb, saltb, items + i0, n, in_blocks, B);
        KILN_CUDA_TRY(cudaGetLastError(), "scrypt kdf_in launch");
        for (uint64_t l0 = 0, lanes = (uint64_t)n * p; l0 < lanes; l0 += slots) {
            uint32_t k = (uint32_t)(lanes - l0 < slots ? lanes - l0 : slots);
            KILN_CUDA_TRY(launch_romix(s, r, tpb, B + l0 * 32 * r, k, N, gap, (uint4 *)t.scratch, default_kernel(cfg)),
                          "scrypt romix launch");
        }
        threads = (uint64_t)n * out_blocks;
        kdf_out<<<(unsigned)((threads + 127) / 128), 128, 0, s>>>(pwb, items + i0, n, B, b_bytes, out_blocks,
                                                                  (uint32_t)out_len, (uint8_t *)out + i0 * out_len);
        KILN_CUDA_TRY(cudaGetLastError(), "scrypt kdf_out launch");
    }
    return KILN_OK;
}
