/* PageRank on the GPU.
 *
 * Layout. Vertices are put in descending order of in-degree (CUB radix sort of the degrees), and
 * by default relabelled in that order: the CSR is rebuilt on the device with the new labels and
 * each row's sources sorted (cub::DeviceSegmentedSort). Rows of similar length then sit together
 * in ranges ("bins"), each processed its own way without an index list: a block per row of 2048+
 * edges, and below that a block takes a run of consecutive rows holding at most 4096 edges,
 * loads their sources with every thread (coalesced, two rounds of eight loads in flight per
 * thread), gathers the ranks into shared memory, and then sums each row from there with 1..32
 * lanes per row by bin. The ranks of the high-degree vertices that most edges point
 * from also share a few cache lines after relabelling, so most gathers hit in L2. With reorder
 * off, rows keep their labels and are visited through the sorted index list, G lanes a row.
 *
 * Iteration (one kernel per iteration): each vertex keeps y = x / out-degree (x for a dangling
 * vertex), so a row sums y over its sources with no division per edge (the contribution trick);
 * the same pass writes the next y, and each block adds its share of the L1 change and of the new
 * dangling mass (float64, fire-and-forget atomics) into one of 32 slots of a ring of three. The
 * next iteration's blocks fold the previous ring entry when they start (all alike, so all take the
 * same decision): it gives the teleport term, and when the L1 change is already below N*tol the
 * kernel marks the state done and returns without writing, as every later launch does. No block
 * waits for another, so the host queues batches of iterations (a CUDA graph of launches whose
 * only argument that differs is the iteration number mod 6) and reads the state only between
 * batches, or never when the count is fixed. A graph whose blocks all fit on the chip at once
 * runs the same block code in the persistent kernel instead: one cooperative launch a batch,
 * a grid barrier between iterations (pagerank_iter.cuh).
 *
 * NetworkX's whole definition, x' = d (A^T y + D q) + (1 - d) p, comes in through a template mode
 * so the plain run (unweighted, uniform p and q) compiles to the same code as before:
 *  - MODE_WEIGHTED: the setup turns each edge weight into its share of the source's out-weight,
 *    w[j] / W[src[j]] (NetworkX's stochastic_graph), stored in the rank type beside the sources and
 *    moved with them by the relabelling and the row sort (segmented sort of pairs). The out-degree
 *    array then holds 1 for a vertex with out-weight and 0 for a dangling one (W = 0), so y = x
 *    and the row code is unchanged; only the gather multiplies. Normalizing per edge rather than
 *    dividing x by W keeps float32 exact where W is tiny or huge. Cost: 4 more streamed bytes an
 *    edge with float32 ranks (8 with float64) on top of the 4-byte source and the gathered rank;
 *    staged rows put the product in shared memory, so the staging size does not change.
 *  - MODE_TELEPORT: p and/or q as arrays over the visiting order (relabelled with the rows); the
 *    row update is x = d sum + base + cp p[v] + cq q[v], the coefficients taken per launch from D
 *    (q = p folds into cp, a uniform one into base). 4 or 8 more bytes a row per given vector.
 * nstart only changes the initial y (x0 / out-degree) and the initial dangling mass.
 */
#include <algorithm>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <type_traits>
#include <vector>

#include "cuda_state.h"
#include "dev_array.cuh"
#include "pagerank_dev.cuh"
#include "pagerank_iter.h"
#include "pagerank_layout.h"

#define LAUNCH_CHECK(what) KILN_CUDA_TRY(cudaGetLastError(), what)

using namespace kiln_pr;

namespace {

__global__ void invert(const uint32_t *__restrict__ new2old, uint64_t n, uint32_t *__restrict__ old2new)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) old2new[new2old[i]] = (uint32_t)i;
}

double now_s()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* y of the start vector: x0 (by row, NULL uniform) over the out-degree (1 / 0 when weighted). */
template <typename T>
__global__ void init_y(const uint32_t *__restrict__ odeg, const double *__restrict__ x0, uint64_t n, T *__restrict__ y)
{
    const double uniform = 1.0 / (double)n;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint32_t od = odeg[i];
        const double x = x0 ? x0[i] : uniform;
        y[i] = (T)(od ? x / (double)od : x);
    }
}

/* x = y * out-degree, written at the vertex's original position. */
template <typename T>
__global__ void final_x(const T *__restrict__ y, const uint32_t *__restrict__ odeg, const uint32_t *__restrict__ to_orig,
                        uint64_t n, T *__restrict__ x)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint32_t od = odeg[i];
        x[to_orig ? to_orig[i] : i] = od ? y[i] * (T)od : y[i];
    }
}

struct GraphExec {
    cudaGraphExec_t exec = nullptr;
    cudaGraph_t graph = nullptr;
    ~GraphExec()
    {
        if (exec) cudaGraphExecDestroy(exec);
        if (graph) cudaGraphDestroy(graph);
    }
};

/* What the host reads back: the state and the ring of partial sums. */
struct HostView {
    PrState st;
    Slot ring[3 * kSlots];
};

struct PinnedView {
    HostView *p = nullptr;
    ~PinnedView()
    {
        if (p) cudaFreeHost(p);
    }
};

/* An event marking how far the queued iterations have run, so the host can read the interrupt
 * poll between batches without draining the queue. */
struct Mark {
    cudaEvent_t ev = nullptr;
    bool recorded = false;
    ~Mark()
    {
        if (ev) cudaEventDestroy(ev);
    }
};

template <typename T, typename Off>
kiln_status run_pagerank(kiln_gpu *st, const kiln_gpu_pr_graph *g, const kiln_gpu_pr_params *prm, double *ranks,
                         kiln_gpu_pr_stats *stats)
{
    cudaStream_t s = st->stream;
    const uint64_t n = g->n, m = g->m;
    const int sms = st->sm_count;
    const double t_setup = now_s();

    const bool weighted = g->weights != nullptr;
    const int mode = (weighted ? MODE_WEIGHTED : 0) | (prm->personalization || prm->dangling ? MODE_TELEPORT : 0);
    Layout<T, Off> lay;
    {
        const LayoutInput in = {n, 0, n, g->offsets, g->sources, g->weights, g->outdeg, g->out_weight};
        kiln_status ls = layout_load(st, in, lay);
        if (ls == KILN_OK && prm->reorder) {
            /* the sources take the label of their row's visiting position */
            DevArray<uint32_t> old2new;
            KILN_CUDA_TRY(old2new.alloc(n), "cudaMalloc");
            invert<<<grid_for(n, kBlock, sms), kBlock, 0, s>>>(lay.order.p, n, old2new.p);
            LAUNCH_CHECK("invert");
            ls = layout_relabel(st, lay, old2new.p);
        }
        if (ls != KILN_OK) return ls;
        lay.deg_sorted.reset();
    }

    /* the teleport vectors by row (relabelled like the rows), x0 for the start */
    DevArray<T> tp, tq;
    DevArray<double> x0;
    {
        const uint32_t *perm = prm->reorder ? lay.order.p : nullptr;
        kiln_status vs = KILN_OK;
        if (prm->personalization) vs = upload_vector(st, prm->personalization, perm, n, tp);
        if (vs == KILN_OK && prm->dangling) vs = upload_vector(st, prm->dangling, perm, n, tq);
        if (vs == KILN_OK && prm->nstart) vs = upload_vector(st, prm->nstart, perm, n, x0);
        if (vs != KILN_OK) return vs;
    }
    /* the dangling mass of x0 ("iteration 0" of the ring) */
    double dangling0 = (double)g->dangling / (double)n;
    if (weighted || prm->nstart) {
        dangling0 = 0;
        for (uint64_t v = 0; v < n; v++) {
            const bool dangles = weighted ? !(g->out_weight[v] > 0) : g->outdeg[v] == 0;
            if (dangles) dangling0 += prm->nstart ? prm->nstart[v] : 1.0 / (double)n;
        }
    }

    Bins bins;
    if (make_bins(lay.cls, prm->reorder != 0, n, &bins) != 0)
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "PageRank setup: the degree classes do not cover the %llu vertices",
                         (unsigned long long)n);
    unsigned grid = (unsigned)bins.block_begin[bins.count];

    /* the kernel: the grid one unless the cluster one (pagerank_cluster.cu) is asked for; it
     * measured slower on every graph tried (docs/PAGERANK.md), so auto does not pick it */
    ClusterPlan cplan;
    memset(&cplan, 0, sizeof cplan);
    const char *why = "it needs the relabelled layout (no --no-reorder)";
    if constexpr (std::is_same<Off, uint32_t>::value) {
        if (prm->kernel == KILN_GPU_PR_CLUSTER && prm->reorder) {
            if (m > kClusterMaxEdges) {
                why = "the graph has more edges than it takes (2^20)";
            } else {
                std::vector<Off> hoff(n + 1);
                KILN_CUDA_TRY(cudaMemcpyAsync(hoff.data(), lay.off.p, (n + 1) * sizeof(Off), cudaMemcpyDeviceToHost, s),
                              "cudaMemcpy");
                KILN_CUDA_TRY(cudaStreamSynchronize(s), "cudaMemcpy");
                cplan = cluster_plan(st, hoff.data(), n, prm->use_double, weighted, &why);
            }
        }
    } else {
        why = "the graph has more edges than it takes (2^20)";
    }
    if (prm->kernel == KILN_GPU_PR_CLUSTER && cplan.blocks == 0)
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "PageRank: the cluster kernel cannot run this graph: %s", why);
    const bool use_cluster = cplan.blocks > 0;
    /* the persistent kernel: auto takes it wherever it can run, since a launch an iteration
     * costs more than the grid barrier that replaces it (docs/PAGERANK.md: 0.57x the grid
     * kernel's time on ego-Facebook and RMAT 14, 0.97x on RMAT 16) */
    bool use_persistent = false;
    if (!use_cluster && (prm->kernel == KILN_GPU_PR_AUTO || prm->kernel == KILN_GPU_PR_PERSISTENT)) {
        const char *pwhy = "the graph has more edges than 32-bit offsets hold";
        if constexpr (std::is_same<Off, uint32_t>::value) {
            int coop = 0, per_sm = 0;
            KILN_CUDA_TRY(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, st->ordinal), "cudaDeviceGetAttribute");
            KILN_CUDA_TRY((persistent_blocks_per_sm<T, Off>(mode, &per_sm)), "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
            const uint64_t fit = (uint64_t)per_sm * (uint64_t)sms;
            pwhy = !prm->reorder            ? "it needs the relabelled layout (no --no-reorder)"
                   : !coop                  ? "the device has no cooperative launch"
                   : (uint64_t)grid > fit   ? "its blocks do not all fit on the chip at once"
                                            : nullptr;
            /* blocks of fewer edges where they still all fit: an iteration is one block's chain of
             * dependent loads, shorter with fewer edges a block, then a barrier that takes longer
             * with more blocks. Measured on an H100 (ego-Facebook, 1000 iterations): blocks of at
             * most 512 staged edges 5.60 ms, 1024 5.33, 2048 6.34, 4096 (the grid kernel's) 8.8 */
            for (int stage = 1024; !pwhy && stage < kStageEdges; stage *= 2) {
                Bins fine;
                if (make_bins(lay.cls, true, n, &fine, stage) == 0 && fine.block_begin[fine.count] <= fit) {
                    bins = fine;
                    grid = (unsigned)fine.block_begin[fine.count];
                    break;
                }
            }
        }
        if (prm->kernel == KILN_GPU_PR_PERSISTENT && pwhy)
            return kiln_fail(st->ctx, KILN_ERR_INPUT, "PageRank: the persistent kernel cannot run this graph (%u blocks): %s",
                             grid, pwhy);
        use_persistent = pwhy == nullptr;
    }
    stats->kernel = use_cluster ? KILN_GPU_PR_CLUSTER : use_persistent ? KILN_GPU_PR_PERSISTENT : KILN_GPU_PR_GRID;
    /* iterations a cluster or persistent launch, so one launch stays near a millisecond or two
     * and the interrupt poll is read between them */
    int per_launch = 0;
    if (use_cluster || use_persistent) {
        const uint64_t k = (UINT64_C(1) << 27) / (m + n + (UINT64_C(1) << 14));
        per_launch = k < 16 ? 16 : k > 4096 ? 4096 : (int)k;
    }

    DevArray<T> y0, y1, x;
    DevArray<PrState> dst;
    DevArray<Slot> ring;
    KILN_CUDA_TRY(y0.alloc(n), "cudaMalloc (ranks)");
    KILN_CUDA_TRY(y1.alloc(n), "cudaMalloc (ranks)");
    KILN_CUDA_TRY(dst.alloc(1), "cudaMalloc");
    KILN_CUDA_TRY(ring.alloc(3 * kSlots), "cudaMalloc");
    PinnedView hv;
    KILN_CUDA_TRY(cudaMallocHost(&hv.p, sizeof(HostView)), "cudaMallocHost");
    HostView *h = hv.p;

    Args<T, Off> a;
    a.off = lay.off.p;
    a.src = lay.src.p;
    a.odeg = lay.odeg.p;
    a.order = prm->reorder ? nullptr : lay.order.p;
    a.w = lay.wsh.p;
    a.row0 = 0;
    a.tp = tp.p;
    a.tq = tq.p;
    a.y0 = y0.p;
    a.y1 = y1.p;
    a.st = dst.p;
    a.ring = ring.p;
    a.bins = bins;
    a.damping = prm->damping;
    a.inv_n = 1.0 / (double)n;
    a.threshold = (double)n * prm->tol;

    auto launch = [&](cudaStream_t ss, unsigned j) {
        if (prm->reorder) launch_iteration<false>(a, mode, grid, ss, j % 6);
        else launch_iteration<true>(a, mode, grid, ss, j % 6);
    };
    auto launch_cluster = [&](int k) -> cudaError_t {
        if constexpr (std::is_same<Off, uint32_t>::value)
            return cluster_launch(a, mode, cplan, (uint32_t)n, (unsigned)k, s);
        else
            return cudaErrorNotSupported; /* never chosen: see cplan */
    };
    auto launch_persistent_k = [&](unsigned first_j, int k) -> cudaError_t {
        if constexpr (std::is_same<Off, uint32_t>::value)
            return launch_persistent<T, Off>(a, mode, grid, s, first_j, (unsigned)k);
        else
            return cudaErrorNotSupported; /* never chosen: see use_persistent */
    };
    /* a batch of iterations as one CUDA graph (small graphs are otherwise launch-bound); a
     * multiple of 6 so that every batch starts at phase 1 */
    const int batch = m <= (UINT64_C(1) << 24) ? 36 : 6;
    GraphExec ge;
    if (!use_cluster && !use_persistent) {
        KILN_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
        for (int i = 0; i < batch; i++) launch(s, (unsigned)i + 1);
        KILN_CUDA_TRY(cudaStreamEndCapture(s, &ge.graph), "cudaStreamEndCapture");
        KILN_CUDA_TRY(cudaGraphInstantiate(&ge.exec, ge.graph, 0), "cudaGraphInstantiate");
    }
    stats->setup_s = now_s() - t_setup;

    const double threshold = (double)n * prm->tol;
    /* L1 change of iteration j from the host copy of the ring */
    auto ring_res = [&](unsigned j) {
        double r = 0;
        for (int i = 0; i < kSlots; i++) r += h->ring[(j % 3) * kSlots + i].res;
        return r;
    };
    auto fetch = [&]() -> cudaError_t {
        cudaError_t e = cudaMemcpyAsync(&h->st, dst.p, sizeof(PrState), cudaMemcpyDeviceToHost, s);
        if (e == cudaSuccess) e = cudaMemcpyAsync(h->ring, ring.p, sizeof h->ring, cudaMemcpyDeviceToHost, s);
        return e;
    };
    const int runs = prm->repeat > 1 ? prm->repeat : 1;
    std::vector<float> times;
    Mark mark;
    KILN_CUDA_TRY(cudaEventCreateWithFlags(&mark.ev, cudaEventDisableTiming), "cudaEventCreate");
    for (int run = 0; run < runs; run++) {
        init_y<T><<<grid_for(n, kBlock, sms), kBlock, 0, s>>>(lay.odeg.p, x0.p, n, y0.p);
        LAUNCH_CHECK("init_y");
        /* "iteration 0": not converged, dangling mass of x0 */
        memset(h, 0, sizeof *h);
        h->ring[0].res = HUGE_VAL;
        h->ring[0].dang = dangling0;
        h->st.res = HUGE_VAL;
        h->st.dang = dangling0; /* the cluster path carries it in the state instead of the ring */
        KILN_CUDA_TRY(cudaMemcpyAsync(dst.p, &h->st, sizeof(PrState), cudaMemcpyHostToDevice, s), "cudaMemcpy");
        KILN_CUDA_TRY(cudaMemcpyAsync(ring.p, h->ring, sizeof h->ring, cudaMemcpyHostToDevice, s), "cudaMemcpy");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "init");
        KILN_CUDA_TRY(cudaEventRecord(st->ev_start, s), "cudaEventRecord");
        /* with tol == 0 the count is fixed: the state is read once at the end, and the host only
         * waits for the batch before the one just queued (the queue never drains) to read the
         * interrupt poll between batches */
        const bool check = prm->tol > 0;
        int queued = 0;
        int marked = 0; /* iterations queued when `mark` was recorded (tol == 0) */
        for (;;) {
            const int left = prm->max_iter - queued;
            if (left <= 0) break;
            if (use_cluster) {
                const int k = left < per_launch ? left : per_launch;
                KILN_CUDA_TRY(launch_cluster(k), "PageRank cluster launch");
                queued += k;
            } else if (use_persistent) {
                const int k = left < per_launch ? left : per_launch;
                KILN_CUDA_TRY(launch_persistent_k((unsigned)queued + 1, k), "PageRank persistent launch");
                queued += k;
            } else if (left >= batch) {
                KILN_CUDA_TRY(cudaGraphLaunch(ge.exec, s), "cudaGraphLaunch");
                queued += batch;
            } else {
                for (int i = 0; i < left; i++) launch(s, (unsigned)(queued + i + 1));
                LAUNCH_CHECK("pr_iteration");
                queued += left;
            }
            if (check) {
                KILN_CUDA_TRY(fetch(), "cudaMemcpy");
                KILN_CUDA_TRY(cudaStreamSynchronize(s), "PageRank iterations");
                if (h->st.done || (!use_cluster && ring_res(h->st.count) < threshold)) break;
            } else if (mark.recorded) {
                KILN_CUDA_TRY(cudaEventSynchronize(mark.ev), "PageRank iterations");
            }
            /* with tol == 0 the state is read only at the end: no residual (NaN) to report */
            if (check)
                kiln_ctx_report_residual(st->ctx, "pagerank", "iterations", (uint64_t)h->st.count,
                                         (uint64_t)prm->max_iter,
                                         use_cluster ? h->st.res : ring_res(h->st.count));
            else
                kiln_ctx_report(st->ctx, "pagerank", "iterations", (uint64_t)marked, (uint64_t)prm->max_iter);
            if (kiln_ctx_interrupt_requested(st->ctx)) {
                KILN_CUDA_TRY(cudaStreamSynchronize(s), "PageRank iterations");
                return kiln_interrupted(st->ctx);
            }
            if (!check) {
                KILN_CUDA_TRY(cudaEventRecord(mark.ev, s), "cudaEventRecord");
                mark.recorded = true;
                marked = queued;
            }
        }
        KILN_CUDA_TRY(cudaEventRecord(st->ev_stop, s), "cudaEventRecord");
        KILN_CUDA_TRY(fetch(), "cudaMemcpy");
        KILN_CUDA_TRY(cudaEventSynchronize(st->ev_stop), "PageRank iterations");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "PageRank iterations");
        float ms = 0;
        KILN_CUDA_TRY(cudaEventElapsedTime(&ms, st->ev_start, st->ev_stop), "cudaEventElapsedTime");
        times.push_back(ms);
        if (!h->st.done && h->st.count != (unsigned)queued) {
            return kiln_fail(st->ctx, KILN_ERR_DEVICE, "PageRank: the device carried out %u iterations of %d launched", h->st.count, queued);
        }
    }
    std::sort(times.begin(), times.end());
    const size_t nt = times.size();
    stats->loop_ms = nt % 2 ? times[nt / 2] : 0.5 * ((double)times[nt / 2 - 1] + (double)times[nt / 2]);
    const unsigned iters = h->st.count;
    stats->iterations = (int)iters;
    stats->residual = h->st.done || use_cluster ? h->st.res : ring_res(iters);
    stats->converged = stats->residual < threshold;

    /* x in the original vertex order */
    KILN_CUDA_TRY(x.alloc(n), "cudaMalloc");
    const T *y_final = (iters & 1) ? y1.p : y0.p;
    final_x<T><<<grid_for(n, kBlock, sms), kBlock, 0, s>>>(y_final, lay.odeg.p, prm->reorder ? lay.order.p : nullptr, n,
                                                         x.p);
    LAUNCH_CHECK("final_x");
    std::vector<T> hx(n);
    KILN_CUDA_TRY(cudaMemcpyAsync(hx.data(), x.p, n * sizeof(T), cudaMemcpyDeviceToHost, s), "cudaMemcpy");
    KILN_CUDA_TRY(cudaStreamSynchronize(s), "final_x");
    for (uint64_t i = 0; i < n; i++) ranks[i] = (double)hx[i];
    return KILN_OK;
}

} // namespace

kiln_status kiln_cuda_pagerank(kiln_gpu *st, const kiln_gpu_pr_graph *g, const kiln_gpu_pr_params *p,
                                          double *ranks, kiln_gpu_pr_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    if (g->n == 0 || g->n > 0xfffffffeull || p->max_iter < 1 || (g->weights == nullptr) != (g->out_weight == nullptr)) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "PageRank: bad graph or parameters");
    }
    const bool wide = g->m > 0xffffffffull;
    if (p->use_double) {
        return wide ? run_pagerank<double, unsigned long long>(st, g, p, ranks, stats)
                    : run_pagerank<double, uint32_t>(st, g, p, ranks, stats);
    }
    return wide ? run_pagerank<float, unsigned long long>(st, g, p, ranks, stats)
                : run_pagerank<float, uint32_t>(st, g, p, ranks, stats);
}
