/* Merkle trees on the GPU, over the merges of src/prim/merkle_merge.h.
 *
 * The whole tree lives in one device buffer, level after level (kiln_merkle_level_offset), and
 * stays there: every launch reads a level written by the previous one. Two schedules:
 *  - levels:   one launch per level, one thread per parent;
 *  - subtrees: each block takes C = threads * 2^k consecutive nodes of a level and merges them k
 *              levels up in shared memory, writing every level it makes to the tree, so a tree of L
 *              levels needs about (L - 1) / k launches. The block holds one subtree of 2^k leaves
 *              per thread, side by side, so every thread has the same number of merges on every
 *              level (2^(k-j) on level j) and no warp idles at the barriers; a block building one
 *              subtree down to its root would leave its upper levels to a few threads and its last
 *              five to partial warps (measured: 8-19% slower than one launch per level).
 * Rp64_256 merges are long (7 rounds of a 72-multiplication S-box chain on 12 elements): on the
 * narrow levels at the top of a tree, where latency rather than throughput sets the time, both
 * schedules switch to a kernel that runs each merge on 16 lanes, one state element per lane.
 * Either launch sequence can be captured once in a CUDA graph and replayed. Nodes move as two
 * 16-byte vectors; the odd-level rule (the last node of an odd level pairs with itself) is applied
 * wherever a block's level ends. */
#include <stdlib.h>
#include <string.h>

#include "../prim/merkle_merge.h"
#include "../prim/merkle_merges.h"
#include "../prim/merkle_shape.h"
#include "cuda_state.h"
#include "device_memory.cuh"
#include "stage.h"

#define MAX_K 12
#define MAX_C_LOG2 12 /* 4096 nodes per block: 96 KiB of shared memory for levels 1 and 2 */
#define COOP_MAX_PARENTS 65536 /* rp64_256 and rpo256 levels of at most this many parents use 16 lanes per merge */
#define COOP_TPB 256
/* The staged build (kiln_cuda_merkle_build_staged): chunks of 2^STAGE_LOG2 leaves (16 MiB) through
 * the handle's page-locked ring (stage.h); each chunk's own levels stop where it has
 * 2^CHUNK_TOP_LOG2 nodes (above, its launches would be too narrow to fill the GPU; rp64_256 would
 * run them on 16 lanes), the levels above are built over the whole range once every chunk has
 * landed. */
#define STAGE_LOG2 19
#define CHUNK_TOP_LOG2 16
static_assert(((size_t)32 << STAGE_LOG2) <= KILN_CUDA_STAGE_BYTES, "a chunk of leaves fills at most one staging buffer");

struct kiln_cuda_merkle {
    uint4 *tree; /* 2 uint4 per node */
    uint64_t cap; /* nodes */
    /* the cached graph and what it was captured for */
    cudaGraphExec_t exec;
    int g_algo, g_method, g_k, g_tpb, g_launches;
    uint64_t g_n;
    uint4 *g_tree;
    /* merkle_gather: gather_cap indices then nodes, on the device and page-locked on the host */
    void *d_gather, *h_gather;
    uint64_t gather_cap;
};

namespace {

template <int A>
__device__ __forceinline__ void merge_dev(const uint32_t l[8], const uint32_t r[8], uint32_t o[8])
{
    /* the line of KILN_MERKLE_MERGES (prim/merkle_merges.h) whose ID is A */
#define KILN_MERGE_CASE(ID, KERNEL, MERGE, NODE, PAIRS, NAME, SHORT, HELP, SELFTEST) \
    if constexpr (A == ID) MERGE(l, r, o);                                        \
    else
    KILN_MERKLE_MERGES(KILN_MERGE_CASE) {}
#undef KILN_MERGE_CASE
}

__device__ __forceinline__ void ld_node(const uint4 *base, uint64_t i, uint32_t w[8])
{
    uint4 a = base[2 * i], b = base[2 * i + 1];
    w[0] = a.x, w[1] = a.y, w[2] = a.z, w[3] = a.w;
    w[4] = b.x, w[5] = b.y, w[6] = b.z, w[7] = b.w;
}

__device__ __forceinline__ void ld_node_ro(const uint4 *base, uint64_t i, uint32_t w[8])
{
    uint4 a = __ldg(base + 2 * i), b = __ldg(base + 2 * i + 1);
    w[0] = a.x, w[1] = a.y, w[2] = a.z, w[3] = a.w;
    w[4] = b.x, w[5] = b.y, w[6] = b.z, w[7] = b.w;
}

__device__ __forceinline__ void st_node(uint4 *base, uint64_t i, const uint32_t w[8])
{
    base[2 * i] = make_uint4(w[0], w[1], w[2], w[3]);
    base[2 * i + 1] = make_uint4(w[4], w[5], w[6], w[7]);
}

/* parents out[i] = merge(in[2i], in[2i + 1]) of a level of m nodes */
template <int A>
__global__ void level_kernel(const uint4 *__restrict__ in, uint64_t m, uint4 *__restrict__ out)
{
    uint64_t parents = (m + 1) / 2;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < parents;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t l[8], r[8], o[8];
        ld_node_ro(in, 2 * i, l);
        ld_node_ro(in, 2 * i + 1 < m ? 2 * i + 1 : 2 * i, r);
        merge_dev<A>(l, r, o);
        st_node(out, i, o);
    }
}

struct SubtreeLevels {
    uint64_t off[MAX_K + 1]; /* where levels base .. base + h start in the tree, in nodes */
    uint64_t size[MAX_K + 1];
    int h; /* levels this launch makes */
    int c_log2; /* nodes of the base level per block */
};

/* Level j of the block lives in shared buffer (j + 1) & 1: buffer 0 holds C/2 nodes (levels 1, 3,
 * ...), buffer 1 C/4 (levels 2, 4, ...). Level j reads the other buffer, so one barrier per level
 * orders everything: it separates the reads of level j - 1 from the writes of level j + 1. */
template <int A>
__global__ void subtree_kernel(uint4 *__restrict__ tree, const SubtreeLevels lv)
{
    extern __shared__ uint4 smem[];
    const uint64_t c = (uint64_t)1 << lv.c_log2;
    uint4 *const buf0 = smem, *const buf1 = smem + c; /* buffer 0: C/2 nodes = C uint4 */
    const uint64_t first = (uint64_t)blockIdx.x << lv.c_log2;
    const uint4 *base = tree + 2 * lv.off[0];
    uint64_t prev = lv.size[0] - first < c ? lv.size[0] - first : c; /* this block's nodes of the base level */

    uint64_t m = (prev + 1) / 2;
    for (uint64_t i = threadIdx.x; i < m; i += blockDim.x) {
        uint32_t l[8], r[8], o[8];
        uint64_t left = first + 2 * i;
        ld_node_ro(base, left, l);
        ld_node_ro(base, 2 * i + 1 < prev ? left + 1 : left, r);
        merge_dev<A>(l, r, o);
        if (lv.h > 1) st_node(buf0, i, o);
        st_node(tree + 2 * lv.off[1], (first >> 1) + i, o);
    }
    prev = m;
    for (int j = 2; j <= lv.h; j++) {
        __syncthreads();
        const uint4 *src = j & 1 ? buf1 : buf0;
        uint4 *dst = j & 1 ? buf0 : buf1;
        m = (prev + 1) / 2;
        for (uint64_t i = threadIdx.x; i < m; i += blockDim.x) {
            uint32_t l[8], r[8], o[8];
            ld_node(src, 2 * i, l);
            ld_node(src, 2 * i + 1 < prev ? 2 * i + 1 : 2 * i, r);
            merge_dev<A>(l, r, o);
            if (j < lv.h) st_node(dst, i, o);
            st_node(tree + 2 * lv.off[j], (first >> j) + i, o);
        }
        prev = m;
    }
}

__global__ void gather_kernel(const uint4 *__restrict__ tree, const uint64_t *__restrict__ idx, uint64_t count,
                              uint4 *__restrict__ out)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t j = idx[i];
        out[2 * i] = tree[2 * j];
        out[2 * i + 1] = tree[2 * j + 1];
    }
}

__global__ void random_kernel(uint4 *tree, uint64_t n, uint64_t seed, int field)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < 4 * n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull; /* splitmix64 */
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        ((uint64_t *)tree)[i] = kiln_node_canon_draw(z, field);
    }
}

/* MDS row of this lane's element, the state spread one element per lane over 16 lanes. */
__device__ __forceinline__ uint64_t mds_lane(uint64_t s, const uint32_t coef[KILN_RP64_WIDTH])
{
    uint64_t lo = 0, hi = 0;
#pragma unroll
    for (int j = 0; j < KILN_RP64_WIDTH; j++) {
        uint64_t v = __shfl_sync(0xffffffffu, s, j, 16);
        lo += (uint64_t)coef[j] * (uint32_t)v;
        hi += (uint64_t)coef[j] * (uint32_t)(v >> 32);
    }
    uint64_t sum_lo = lo + (hi << 32);
    return kiln_gl_reduce96(sum_lo, (hi >> 32) + (sum_lo < lo));
}

/* Rp64_256 or rpo256 parents of a level of m nodes, 16 lanes per merge: lane e < 12 holds state
 * element e (lanes 12..15 shadow element 0 and are ignored). Every lane runs the same code (groups
 * past the last parent redo the last one and store nothing), so the full-warp shuffles are always
 * legal. rp64_256: Winterfell's layout (capacity 0..3 with 8 in element 0, digest 4..7) and round
 * (x^7, MDS, + ARK1, x^(1/7), MDS, + ARK2); rpo256: miden's layout (left 0..3, right 4..7, capacity
 * zero, digest 0..3) and RPO's round (MDS, + ARK1, x^7, MDS, + ARK2, x^(1/7)). */
template <int A>
__global__ void __launch_bounds__(COOP_TPB) coop_kernel(const uint4 *__restrict__ in, uint64_t m,
                                                        uint4 *__restrict__ out)
{
    constexpr bool rpo = A == KILN_MERKLE_RPO256;
    const int lane = threadIdx.x & 15, e = lane < KILN_RP64_WIDTH ? lane : 0;
    const uint64_t parents = (m + 1) / 2, g = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 4;
    const uint64_t i = g < parents ? g : parents - 1;
    uint32_t coef[KILN_RP64_WIDTH];
    uint64_t ark1[KILN_RP64_ROUNDS], ark2[KILN_RP64_ROUNDS];
#pragma unroll
    for (int j = 0; j < KILN_RP64_WIDTH; j++) coef[j] = kiln_rp64_mds_row((j - e + KILN_RP64_WIDTH) % KILN_RP64_WIDTH);
#pragma unroll
    for (int r = 0; r < KILN_RP64_ROUNDS; r++) {
        ark1[r] = rpo ? kiln_rpo_ark(0, r * KILN_RP64_WIDTH + e) : kiln_rp64_ark(0, r * KILN_RP64_WIDTH + e);
        ark2[r] = rpo ? kiln_rpo_ark(1, r * KILN_RP64_WIDTH + e) : kiln_rp64_ark(1, r * KILN_RP64_WIDTH + e);
    }
    const uint64_t *nodes = (const uint64_t *)in;
    uint64_t left = 2 * i, right = 2 * i + 1 < m ? 2 * i + 1 : 2 * i, s;
    const int first = rpo ? 0 : 4; /* where the left digest goes, and where the digest is read */
    if (e >= first && e < first + 4) s = __ldg(nodes + 4 * left + (e - first));
    else if (e >= first + 4 && e < first + 8) s = __ldg(nodes + 4 * right + (e - first - 4));
    else s = !rpo && e == 0 ? KILN_RP64_RATE : 0;
#pragma unroll
    for (int r = 0; r < KILN_RP64_ROUNDS; r++) {
        if constexpr (rpo) {
            s = kiln_rp64_pow7(kiln_gl_add(mds_lane(s, coef), ark1[r]));
            s = kiln_rp64_pow_inv7(kiln_gl_add(mds_lane(s, coef), ark2[r]));
        } else {
            s = kiln_gl_add(mds_lane(kiln_rp64_pow7(s), coef), ark1[r]);
            s = kiln_gl_add(mds_lane(kiln_rp64_pow_inv7(s), coef), ark2[r]);
        }
    }
    if (g < parents && lane >= first && lane < first + 4) ((uint64_t *)out)[4 * i + (uint64_t)(lane - first)] = s;
}

/* The merges with a 16-lane kernel for narrow levels. */
constexpr bool has_coop(int a) { return a == KILN_MERKLE_RP64_256 || a == KILN_MERKLE_RPO256; }

/* One level of parents: rp64_256's and rpo256's narrow levels on 16 lanes per merge, every other level with one
 * thread per merge. */
template <int A>
cudaError_t launch_level(cudaStream_t s, const uint4 *in, uint64_t m, uint4 *out, int tpb);

unsigned grid_for(uint64_t items, int tpb)
{
    uint64_t blocks = (items + (uint64_t)tpb - 1) / (uint64_t)tpb;
    return blocks > 0x7fffffffu ? 0x7fffffffu : (unsigned)(blocks ? blocks : 1);
}

int log2_floor(uint64_t v)
{
    int r = 0;
    while (v >>= 1) r++;
    return r;
}

/* Largest block the kernel's registers allow (0 when the query fails). */
template <typename K>
int max_threads(K kernel)
{
    cudaFuncAttributes a;
    if (cudaFuncGetAttributes(&a, kernel) != cudaSuccess) return 0;
    return a.maxThreadsPerBlock;
}

/* Nodes on level l of a part of count >= 1 leaves: ceil(count / 2^l), 1 once the part has topped out
 * (kiln_merkle_level_size(count, l) for every level of a tree of count leaves). */
inline uint64_t part_size(uint64_t count, int l) { return ((count - 1) >> l) + 1; }

/* Enqueues the launches that make levels from + 1 .. to of the part of a tree of n leaves over
 * leaves [first, first + count) of `tree` on stream s (also while it is being captured). first is
 * a multiple of 2^to, so on every level l <= to the part is the level's nodes from first >> l on,
 * part_size(count, l) of them, and it ends on an even node below level to unless it ends the
 * level: merging it alone gives the whole tree's nodes, the odd-level rule included (a part that
 * has topped out is the last node of an odd level, paired with itself). The whole tree is first =
 * 0, count = n, from = 0, to = levels - 1. */
template <int A>
kiln_status enqueue_part(kiln_gpu *st, uint4 *tree, cudaStream_t s, uint64_t n, uint64_t first, uint64_t count,
                         int from, int to, const kiln_gpu_merkle_cfg *cfg, int *launches)
{
    int tpb = cfg->tpb;
    *launches = 0;
    int c_log2 = cfg->k + log2_floor((uint64_t)tpb); /* one subtree of 2^k leaves per thread */
    size_t smem = ((size_t)3 << c_log2) / 4 * 32; /* C/2 + C/4 nodes; none when a launch makes one level */
    for (int l = from; l < to;) {
        if (cfg->method == KILN_MERKLE_LEVELS ||
            (has_coop(A) && part_size(count, l + 1) <= COOP_MAX_PARENTS)) {
            KILN_CUDA_TRY(launch_level<A>(s, tree + 2 * (kiln_tree_level_offset(n, l) + (first >> l)),
                                          part_size(count, l),
                                          tree + 2 * (kiln_tree_level_offset(n, l + 1) + (first >> (l + 1))), tpb),
                          "merkle level kernel launch");
            ++*launches;
            l++;
            continue;
        }
        SubtreeLevels lv = {};
        lv.h = to - l < cfg->k ? to - l : cfg->k;
        lv.c_log2 = c_log2;
        for (int j = 0; j <= lv.h; j++) {
            lv.off[j] = kiln_tree_level_offset(n, l + j) + (first >> (l + j));
            lv.size[j] = part_size(count, l + j);
        }
        uint64_t blocks = (lv.size[0] + ((uint64_t)1 << c_log2) - 1) >> c_log2;
        subtree_kernel<A><<<(unsigned)blocks, tpb, lv.h > 1 ? smem : 0, s>>>(tree, lv);
        KILN_CUDA_TRY(cudaGetLastError(), "merkle subtree kernel launch");
        ++*launches;
        l += lv.h;
    }
    return KILN_OK;
}

/* Every launch of one whole tree. */
template <int A>
kiln_status enqueue(kiln_gpu *st, uint64_t n, const kiln_gpu_merkle_cfg *cfg, int *launches)
{
    return enqueue_part<A>(st, st->merkle->tree, st->stream, n, 0, n, 0, kiln_tree_levels(n) - 1, cfg, launches);
}

template <int A>
cudaError_t launch_level(cudaStream_t s, const uint4 *in, uint64_t m, uint4 *out, int tpb)
{
    uint64_t parents = (m + 1) / 2;
    if constexpr (has_coop(A)) {
        if (parents <= COOP_MAX_PARENTS) {
            coop_kernel<A><<<grid_for(16 * parents, COOP_TPB), COOP_TPB, 0, s>>>(in, m, out);
            return cudaGetLastError();
        }
    }
    level_kernel<A><<<grid_for(parents, tpb), tpb, 0, s>>>(in, m, out);
    return cudaGetLastError();
}

template <int A>
kiln_status prepare(kiln_gpu *st, const kiln_gpu_merkle_cfg *cfg)
{
    int limit = cfg->method == KILN_MERKLE_LEVELS ? max_threads(level_kernel<A>) : max_threads(subtree_kernel<A>);
    if (cfg->tpb > limit) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "%d threads per block exceed this kernel's limit of %d (registers)", cfg->tpb, limit);
    }
    if (cfg->method != KILN_MERKLE_LEVELS) {
        KILN_CUDA_TRY(cudaFuncSetAttribute(subtree_kernel<A>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           ((3 << MAX_C_LOG2) / 4) * 32),
                      "cudaFuncSetAttribute");
    }
    (void)st;
    return KILN_OK;
}

template <int A>
kiln_status build(kiln_gpu *st, uint64_t n, const kiln_gpu_merkle_cfg *cfg, int *launches, float *gpu_ms)
{
    kiln_cuda_merkle *mk = st->merkle;
    kiln_status s = prepare<A>(st, cfg);
    if (s != KILN_OK) return s;
    if (!cfg->graph) {
        KILN_CUDA_TRY(cudaEventRecord(st->ev_start, st->stream), "cudaEventRecord");
        if ((s = enqueue<A>(st, n, cfg, launches)) != KILN_OK) return s;
    } else {
        int same = mk->exec && mk->g_algo == A && mk->g_method == cfg->method && mk->g_k == cfg->k &&
                   mk->g_tpb == cfg->tpb && mk->g_n == n && mk->g_tree == mk->tree;
        if (!same) {
            if (mk->exec) cudaGraphExecDestroy(mk->exec);
            mk->exec = NULL;
            cudaGraph_t graph;
            KILN_CUDA_TRY(cudaStreamBeginCapture(st->stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
            s = enqueue<A>(st, n, cfg, &mk->g_launches);
            cudaError_t e = cudaStreamEndCapture(st->stream, &graph);
            if (s != KILN_OK) {
                if (e == cudaSuccess) cudaGraphDestroy(graph);
                return s;
            }
            KILN_CUDA_TRY(e, "cudaStreamEndCapture");
            e = cudaGraphInstantiate(&mk->exec, graph, 0);
            cudaGraphDestroy(graph);
            KILN_CUDA_TRY(e, "cudaGraphInstantiate");
            mk->g_algo = A, mk->g_method = cfg->method, mk->g_k = cfg->k, mk->g_tpb = cfg->tpb;
            mk->g_n = n, mk->g_tree = mk->tree;
        }
        *launches = mk->g_launches;
        KILN_CUDA_TRY(cudaEventRecord(st->ev_start, st->stream), "cudaEventRecord");
        KILN_CUDA_TRY(cudaGraphLaunch(mk->exec, st->stream), "cudaGraphLaunch");
    }
    KILN_CUDA_TRY(cudaEventRecord(st->ev_stop, st->stream), "cudaEventRecord");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "merkle kernels");
    KILN_CUDA_TRY(cudaEventElapsedTime(gpu_ms, st->ev_start, st->ev_stop), "cudaEventElapsedTime");
    return KILN_OK;
}

template <int A>
kiln_status raw(kiln_gpu *st, uint64_t n, int tpb, float *gpu_ms)
{
    kiln_gpu_merkle_cfg cfg = {KILN_MERKLE_LEVELS, 1, tpb, 0};
    kiln_status s = prepare<A>(st, &cfg);
    if (s != KILN_OK) return s;
    uint4 *tree = st->merkle->tree;
    KILN_CUDA_TRY(cudaEventRecord(st->ev_start, st->stream), "cudaEventRecord");
    level_kernel<A><<<grid_for((n + 1) / 2, tpb), tpb, 0, st->stream>>>(tree, n, tree + 2 * n);
    KILN_CUDA_TRY(cudaGetLastError(), "merkle level kernel launch");
    KILN_CUDA_TRY(cudaEventRecord(st->ev_stop, st->stream), "cudaEventRecord");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "merkle level kernel");
    KILN_CUDA_TRY(cudaEventElapsedTime(gpu_ms, st->ev_start, st->ev_stop), "cudaEventElapsedTime");
    return KILN_OK;
}

/* Makes room for the whole tree of n leaves. */
kiln_status reserve(kiln_gpu *st, uint64_t n)
{
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    if (!st->merkle) {
        st->merkle = (kiln_cuda_merkle *)calloc(1, sizeof *st->merkle);
        if (!st->merkle) {
            return kiln_fail(st->ctx, KILN_ERR_DEVICE, "out of host memory");
        }
    }
    kiln_cuda_merkle *mk = st->merkle;
    uint64_t need = kiln_tree_size(n);
    if (need <= mk->cap) return KILN_OK;
    if (mk->tree) cudaFree(mk->tree);
    mk->tree = NULL;
    mk->cap = 0;
    cudaError_t e = cudaMalloc(&mk->tree, (size_t)need * 32);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "cannot allocate %llu MiB of GPU memory for a tree of %llu leaves: %s",
                 (unsigned long long)(need * 32 >> 20), (unsigned long long)n, cudaGetErrorString(e));
    }
    mk->cap = need;
    return KILN_OK;
}

kiln_status check_ready(kiln_gpu *st, uint64_t n)
{
    if (!st->merkle || !st->merkle->tree || kiln_tree_size(n) > st->merkle->cap || n == 0) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "no tree of %llu leaves on the device", (unsigned long long)n);
    }
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    return KILN_OK;
}

/* The tree builders of each algorithm with a GPU merge: adding an algorithm is one row (and its
 * merge_dev branch). */
struct algo_row {
    kiln_merkle_algo algo;
    kiln_status (*build)(kiln_gpu *, uint64_t, const kiln_gpu_merkle_cfg *, int *, float *);
    kiln_status (*raw)(kiln_gpu *, uint64_t, int, float *);
    kiln_status (*prepare)(kiln_gpu *, const kiln_gpu_merkle_cfg *);
    kiln_status (*part)(kiln_gpu *, uint4 *, cudaStream_t, uint64_t, uint64_t, uint64_t, int, int,
                        const kiln_gpu_merkle_cfg *, int *);
};
/* a row for each line of KILN_MERKLE_MERGES (prim/merkle_merges.h) */
#define KILN_MERKLE_ROW(ID, KERNEL, MERGE, NODE, PAIRS, NAME, SHORT, HELP, SELFTEST) \
    {ID, build<ID>, raw<ID>, prepare<ID>, enqueue_part<ID>},
const algo_row kAlgos[] = {KILN_MERKLE_MERGES(KILN_MERKLE_ROW)};
#undef KILN_MERKLE_ROW

const algo_row *find_algo(kiln_merkle_algo algo)
{
    for (const algo_row &r : kAlgos)
        if (r.algo == algo) return &r;
    return nullptr;
}

/* Named by its kiln_merkle_algo value: the names are the registry's (src/api), above this backend.
 * Only an algorithm given a registry row without a row of kAlgos gets here. */
kiln_status no_merge(kiln_gpu *st, kiln_merkle_algo algo)
{
    return kiln_fail(st->ctx, KILN_ERR_INPUT, "merkle algorithm %d has no GPU merge in this build", (int)algo);
}

kiln_status check_cfg(kiln_gpu *st, const kiln_gpu_merkle_cfg *cfg)
{
    if (cfg->tpb < 32 || cfg->tpb > 1024 || cfg->tpb % 32 || cfg->k < 1 || cfg->k > MAX_K ||
        (cfg->method != KILN_MERKLE_LEVELS && cfg->method != KILN_MERKLE_SUBTREES)) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "bad merkle launch shape (method %d, k %d, %d threads per block)", cfg->method, cfg->k,
                 cfg->tpb);
    }
    if (cfg->method == KILN_MERKLE_SUBTREES && cfg->k + log2_floor((uint64_t)cfg->tpb) > MAX_C_LOG2) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "k = %d with %d threads per block is over the limit of 2^%d nodes per block (shared memory)", cfg->k,
                 cfg->tpb, MAX_C_LOG2);
    }
    return KILN_OK;
}

/* The staged build's chunks through the handle's ring (stage.h): fill_chunk hands each buffer to
 * the caller's fill, chunk_landed merges the chunk's own levels once it is on the device. */
struct staged_build {
    kiln_gpu *st;
    const algo_row *a;
    uint64_t n, done; /* leaves whose own levels are queued */
    const kiln_gpu_merkle_cfg *cfg;
    kiln_gpu_merkle_fill fill;
    void *user;
    int own, launches;
};

kiln_status fill_chunk(void *user, size_t off, size_t len, uint8_t *dst)
{
    staged_build *b = (staged_build *)user;
    return b->fill(b->user, off / 32, len / 32, dst);
}

kiln_status chunk_landed(void *user, size_t end)
{
    staged_build *b = (staged_build *)user;
    const uint64_t first = b->done, count = end / 32 - first;
    int l = 0;
    kiln_status s = b->a->part(b->st, b->st->merkle->tree, b->st->stream, b->n, first, count, 0, b->own, b->cfg, &l);
    b->launches += l;
    b->done = end / 32;
    return s;
}

/* The pipeline of the staged build: the chunks (kiln_cuda_stage_in), then the levels above them.
 * Leaves work in flight (the caller finishes the ring). */
kiln_status stage_pipeline(kiln_gpu *st, const algo_row *a, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                           kiln_gpu_merkle_fill fill, void *user, int *launches)
{
    const int top = kiln_tree_levels(n) - 1;
    staged_build b = {st, a, n, 0, cfg, fill, user, STAGE_LOG2 - CHUNK_TOP_LOG2 < top ? STAGE_LOG2 - CHUNK_TOP_LOG2 : top, 0};
    kiln_status s = kiln_cuda_stage_in(st, (uint8_t *)st->merkle->tree, NULL, (size_t)n * 32, (size_t)32 << STAGE_LOG2,
                                       fill_chunk, chunk_landed, &b);
    int l = 0;
    if (s == KILN_OK) s = a->part(st, st->merkle->tree, st->stream, n, 0, n, b.own, top, cfg, &l);
    *launches = b.launches + l;
    return s;
}

/* The gather buffers for `count` nodes; on failure none. */
kiln_status gather_reserve(kiln_gpu *st, uint64_t count)
{
    kiln_cuda_merkle *mk = st->merkle;
    if (count <= mk->gather_cap) return KILN_OK;
    if (mk->d_gather) cudaFree(mk->d_gather);
    if (mk->h_gather) cudaFreeHost(mk->h_gather);
    mk->d_gather = mk->h_gather = NULL;
    mk->gather_cap = 0;
    const uint64_t cap = (count < 1024 ? 1024 : count + 63) & ~(uint64_t)63; /* nodes start 16-byte aligned */
    cudaError_t e = cudaMalloc(&mk->d_gather, (size_t)cap * 40);
    if (e == cudaSuccess) e = cudaHostAlloc(&mk->h_gather, (size_t)cap * 40, cudaHostAllocPortable);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        if (mk->d_gather) cudaFree(mk->d_gather);
        mk->d_gather = mk->h_gather = NULL;
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "CUDA %s failed: %s", "allocation of the node gather buffers",
                         cudaGetErrorString(e));
    }
    mk->gather_cap = cap;
    return KILN_OK;
}

/* Queues the gather of count nodes whose indices are in the page-locked buffer. */
kiln_status gather_enqueue(kiln_gpu *st, uint64_t count)
{
    kiln_cuda_merkle *mk = st->merkle;
    uint64_t *d_idx = (uint64_t *)mk->d_gather, *h_idx = (uint64_t *)mk->h_gather;
    uint4 *d_out = (uint4 *)(d_idx + mk->gather_cap);
    KILN_CUDA_TRY(cudaMemcpyAsync(d_idx, h_idx, (size_t)count * 8, cudaMemcpyHostToDevice, st->stream),
                  "cudaMemcpyAsync node indices");
    gather_kernel<<<grid_for(count, 256), 256, 0, st->stream>>>(mk->tree, d_idx, count, d_out);
    KILN_CUDA_TRY(cudaGetLastError(), "node gather kernel launch");
    KILN_CUDA_TRY(cudaMemcpyAsync(h_idx + mk->gather_cap, d_out, (size_t)count * 32, cudaMemcpyDeviceToHost, st->stream),
                  "cudaMemcpyAsync nodes");
    return KILN_OK;
}

} // namespace

kiln_status kiln_cuda_merkle_upload(kiln_gpu *st, const uint8_t *leaves, uint64_t n)
{
    kiln_status s = reserve(st, n);
    if (s != KILN_OK) return s;
    /* on the state's stream (non-blocking, so the legacy stream would not order it before the kernels) */
    KILN_CUDA_TRY(cudaMemcpyAsync(st->merkle->tree, leaves, (size_t)n * 32, cudaMemcpyHostToDevice, st->stream),
                  "cudaMemcpyAsync leaves");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "leaf upload");
    return KILN_OK;
}

kiln_status kiln_cuda_merkle_random(kiln_gpu *st, uint64_t n, uint64_t seed, int field)
{
    kiln_status s = reserve(st, n);
    if (s != KILN_OK) return s;
    random_kernel<<<grid_for(4 * n, 256), 256, 0, st->stream>>>(st->merkle->tree, n, seed, field);
    KILN_CUDA_TRY(cudaGetLastError(), "random leaves kernel launch");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "random leaves kernel");
    return KILN_OK;
}

kiln_status kiln_cuda_merkle_build(kiln_gpu *st, kiln_merkle_algo algo, uint64_t n,
                                              const kiln_gpu_merkle_cfg *cfg, int *launches, float *gpu_ms)
{
    *launches = 0;
    *gpu_ms = 0;
    kiln_status s = check_ready(st, n);
    if (s != KILN_OK) return s;
    if ((s = check_cfg(st, cfg)) != KILN_OK) return s;
    if (n == 1) return KILN_OK;
    const algo_row *a = find_algo(algo);
    return a ? a->build(st, n, cfg, launches, gpu_ms) : no_merge(st, algo);
}

kiln_status kiln_cuda_merkle_raw(kiln_gpu *st, kiln_merkle_algo algo, uint64_t n, int tpb,
                                            float *gpu_ms)
{
    *gpu_ms = 0;
    kiln_status s = check_ready(st, n);
    if (s != KILN_OK) return s;
    if (n < 2 || tpb < 32 || tpb > 1024 || tpb % 32) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "bad raw merge launch (%llu nodes, %d threads per block)", (unsigned long long)n, tpb);
    }
    const algo_row *a = find_algo(algo);
    return a ? a->raw(st, n, tpb, gpu_ms) : no_merge(st, algo);
}

kiln_status kiln_cuda_merkle_read(kiln_gpu *st, uint64_t first, uint64_t count, uint8_t *out)
{
    if (!st->merkle || first + count > st->merkle->cap || first + count < first) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "nodes %llu..%llu are not on the device", (unsigned long long)first,
                 (unsigned long long)(first + count));
    }
    if (count == 0) return KILN_OK;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    KILN_CUDA_TRY(cudaMemcpyAsync(out, st->merkle->tree + 2 * first, (size_t)count * 32, cudaMemcpyDeviceToHost,
                                  st->stream),
                  "cudaMemcpyAsync tree");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "tree download");
    return KILN_OK;
}

kiln_status kiln_cuda_merkle_gather(kiln_gpu *st, const uint64_t *idx, uint64_t count, uint8_t *out)
{
    if (!st->merkle || !st->merkle->tree) return kiln_fail(st->ctx, KILN_ERR_INPUT, "no tree on the device");
    for (uint64_t i = 0; i < count; i++)
        if (idx[i] >= st->merkle->cap)
            return kiln_fail(st->ctx, KILN_ERR_INPUT, "node %llu is not on the device", (unsigned long long)idx[i]);
    if (count == 0) return KILN_OK;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    kiln_status s = gather_reserve(st, count);
    if (s != KILN_OK) return s;
    kiln_cuda_merkle *mk = st->merkle;
    memcpy(mk->h_gather, idx, (size_t)count * 8);
    s = gather_enqueue(st, count);
    /* also after a failed launch: the index copy may be in flight */
    cudaError_t e = cudaStreamSynchronize(st->stream);
    if (s != KILN_OK) return s;
    KILN_CUDA_TRY(e, "node gather");
    memcpy(out, (uint64_t *)mk->h_gather + mk->gather_cap, (size_t)count * 32);
    return KILN_OK;
}

kiln_status kiln_cuda_merkle_build_staged(kiln_gpu *st, kiln_merkle_algo algo, uint64_t n,
                                          const kiln_gpu_merkle_cfg *cfg, kiln_gpu_merkle_fill fill, void *user,
                                          int *launches)
{
    *launches = 0;
    if (n == 0) return kiln_fail(st->ctx, KILN_ERR_INPUT, "a Merkle tree needs at least one leaf");
    kiln_status s = check_cfg(st, cfg);
    if (s != KILN_OK) return s;
    const algo_row *a = find_algo(algo);
    if (!a) return no_merge(st, algo);
    if ((s = reserve(st, n)) != KILN_OK) return s;
    const uint64_t chunk = (uint64_t)1 << STAGE_LOG2;
    if ((s = kiln_cuda_stage_open(st, (size_t)(n < chunk ? n : chunk) * 32)) != KILN_OK) return s;
    if ((s = a->prepare(st, cfg)) == KILN_OK) s = stage_pipeline(st, a, n, cfg, fill, user, launches);
    /* nothing stays in flight, whatever happened: a staging buffer is refilled or freed only
     * after its copy, the tree reused only after its kernels */
    return kiln_cuda_stage_finish(st, s, "merkle kernels");
}

void kiln_cuda_merkle_release(kiln_gpu *st)
{
    if (!st || !st->merkle) return;
    if (st->merkle->d_gather) cudaFree(st->merkle->d_gather);
    if (st->merkle->h_gather) cudaFreeHost(st->merkle->h_gather);
    if (st->merkle->exec) cudaGraphExecDestroy(st->merkle->exec);
    if (st->merkle->tree) cudaFree(st->merkle->tree);
    free(st->merkle);
    st->merkle = NULL;
}

namespace {

/* The device build's copies and launches on s (the tree buffer t holds the whole tree). */
kiln_status enqueue_device(kiln_gpu *st, const algo_row *a, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                           const void *leaves, uint4 *t, void *root_dev, uint8_t *root_host, cudaStream_t s)
{
    if (leaves != (const void *)t)
        KILN_CUDA_TRY(cudaMemcpyAsync(t, leaves, (size_t)n * 32, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync (leaves)");
    int launches = 0;
    kiln_status r = a->part(st, t, s, n, 0, n, 0, kiln_tree_levels(n) - 1, cfg, &launches);
    if (r != KILN_OK) return r;
    const uint4 *root = t + 2 * (kiln_tree_size(n) - 1);
    if (root_dev) KILN_CUDA_TRY(cudaMemcpyAsync(root_dev, root, 32, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync (root)");
    if (root_host) KILN_CUDA_TRY(cudaMemcpyAsync(root_host, root, 32, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync (root)");
    return KILN_OK;
}

} // namespace

kiln_status kiln_cuda_merkle_build_device(kiln_gpu *st, kiln_merkle_algo algo, uint64_t n,
                                          const kiln_gpu_merkle_cfg *cfg, const void *leaves, void *tree,
                                          void *root_dev, uint8_t *root_host, void *stream)
{
    const cudaStream_t s = (cudaStream_t)stream;
    if (n == 0) return kiln_fail(st->ctx, KILN_ERR_INPUT, "a Merkle tree needs at least one leaf");
    kiln_status r = check_cfg(st, cfg);
    if (r != KILN_OK) return r;
    const algo_row *a = find_algo(algo);
    if (!a) return no_merge(st, algo);
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    const size_t bytes = (size_t)kiln_tree_size(n) * 32;
    if ((r = kiln_cuda_check_device_ptr(st, leaves, (size_t)n * 32, "the leaves")) != KILN_OK) return r;
    if (tree && (r = kiln_cuda_check_device_ptr(st, tree, bytes, "the tree buffer")) != KILN_OK) return r;
    if (tree && ((uintptr_t)tree & 15))
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "the tree buffer must be 16-byte aligned");
    if (root_dev && (r = kiln_cuda_check_device_ptr(st, root_dev, 32, "the root buffer")) != KILN_OK) return r;
    if ((r = a->prepare(st, cfg)) != KILN_OK) return r;
    void *tmp = NULL;
    if (!tree && (r = kiln_cuda_alloc_async(st, &tmp, bytes, s, "the tree")) != KILN_OK) return r;
    r = enqueue_device(st, a, n, cfg, leaves, (uint4 *)(tree ? tree : tmp), root_dev, root_host, s);
    kiln_cuda_free_async(tmp, s);
    /* a root for the host is the one value that needs the stream finished */
    if (r == KILN_OK && root_host) KILN_CUDA_TRY(cudaStreamSynchronize(s), "merkle kernels on the caller's stream");
    return r;
}
