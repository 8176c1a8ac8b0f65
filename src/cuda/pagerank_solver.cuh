/* PageRank on the GPU: one device's solver of a whole graph (pagerank.cu describes the layout,
 * the iteration and the modes), shared by kiln_pagerank's path (pagerank.cu: the graph and
 * vectors from host memory, the ranks back to it) and the device-memory path (pagerank_device.cu:
 * a plan laid out once, vectors and ranks in the caller's device memory, on the caller's stream).
 * Both run the same kernels in the same order, so their ranks agree. */
#ifndef KILN_CUDA_PAGERANK_SOLVER_CUH
#define KILN_CUDA_PAGERANK_SOLVER_CUH

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>
#include <vector>

#include "cuda_state.h"
#include "../core/bench.h"
#include "../core/clock.h"
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

/* The dangling mass of x0 ("iteration 0" of the ring). */
double start_dangling(const kiln_gpu_pr_graph *g, const kiln_gpu_pr_params *prm)
{
    if (!g->weights && !prm->nstart) return (double)g->dangling / (double)g->n;
    return kiln_pr_start_dangling(g->n, g->outdeg, g->out_weight, prm->nstart);
}

/* PageRank of a whole graph on one device, in the steps run_pagerank takes: the layout and the
 * vectors on the device, the kernel chosen, the state allocated, then the timed runs from x0 and
 * the ranks read back. Every device array frees itself, so each step may return early. */
template <typename T, typename Off> struct Solver {
    kiln_gpu *st;
    const kiln_gpu_pr_graph *g;
    const kiln_gpu_pr_params *prm;
    uint64_t n, m;
    int mode;
    double threshold;
    Layout<T, Off> lay;
    DevArray<T> tp, tq; /* the teleport vectors by row (relabelled like the rows) */
    DevArray<double> x0; /* the start vector by row */
    Bins bins;
    unsigned grid = 0;
    bool persistent = false;
    int per_launch = 0; /* iterations a persistent launch */
    int batch; /* iterations a CUDA graph of grid launches */
    DevArray<T> y0, y1;
    DevArray<PrState> dst;
    DevArray<Slot> ring;
    PinnedView hv;
    GraphExec ge;
    Mark mark;
    Args<T, Off> a;
    /* where the runs go: the handle's stream, or the caller's (pagerank_device.cu); the setup and
     * the captured batch always use the handle's */
    cudaStream_t stream;

    Solver(kiln_gpu *s, const kiln_gpu_pr_graph *graph, const kiln_gpu_pr_params *p)
        : st(s), g(graph), prm(p), n(graph->n), m(graph->m),
          mode((graph->weights ? MODE_WEIGHTED : 0) | (p->personalization || p->dangling ? MODE_TELEPORT : 0)),
          threshold((double)graph->n * p->tol),
          /* a multiple of 6 so that every batch starts at phase 1 */
          batch(graph->m <= (UINT64_C(1) << 24) ? 36 : 6), stream(s->stream)
    {
    }

    /* The rows on the device, relabelled in visiting order unless prm->reorder is off. */
    kiln_status load_layout()
    {
        const LayoutInput in = {.n = n,
                                .row0 = 0,
                                .rows = n,
                                .offsets = g->offsets,
                                .sources = g->sources,
                                .weights = g->weights,
                                .outdeg = g->outdeg,
                                .out_weight = g->out_weight};
        kiln_status ls = layout_load(st, in, lay);
        if (ls == KILN_OK && prm->reorder) {
            /* the sources take the label of their row's visiting position */
            DevArray<uint32_t> old2new;
            KILN_CUDA_TRY(old2new.alloc(n), "cudaMalloc");
            invert<<<grid_for(n, kBlock, st->sm_count), kBlock, 0, st->stream>>>(lay.order.p, n, old2new.p);
            LAUNCH_CHECK("invert");
            ls = layout_relabel(st, lay, old2new.p);
        }
        if (ls != KILN_OK) return ls;
        lay.deg_sorted.reset();
        return KILN_OK;
    }

    /* p, q and x0 by row, where given. */
    kiln_status load_vectors()
    {
        const uint32_t *perm = prm->reorder ? lay.order.p : nullptr;
        kiln_status vs = KILN_OK;
        if (prm->personalization) vs = upload_vector(st, prm->personalization, perm, n, tp);
        if (vs == KILN_OK && prm->dangling) vs = upload_vector(st, prm->dangling, perm, n, tq);
        if (vs == KILN_OK && prm->nstart) vs = upload_vector(st, prm->nstart, perm, n, x0);
        return vs;
    }

    /* *why the persistent kernel cannot run the graph, or NULL: it can, with bins and grid set to
     * blocks of fewer edges where they still all fit. */
    kiln_status persistent_fit(const char **why)
    {
        *why = "the graph has more edges than 32-bit offsets hold";
        if constexpr (std::is_same<Off, uint32_t>::value) {
            int coop = 0, per_sm = 0;
            KILN_CUDA_TRY(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, st->ordinal), "cudaDeviceGetAttribute");
            KILN_CUDA_TRY((persistent_blocks_per_sm<T, Off>(mode, &per_sm)), "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
            const uint64_t fit = (uint64_t)per_sm * (uint64_t)st->sm_count;
            *why = !prm->reorder            ? "it needs the relabelled layout (no --no-reorder)"
                   : !coop                  ? "the device has no cooperative launch"
                   : (uint64_t)grid > fit   ? "its blocks do not all fit on the chip at once"
                                            : nullptr;
            /* blocks of fewer edges where they still all fit: an iteration is one block's chain of
             * dependent loads, shorter with fewer edges a block, then a barrier that takes longer
             * with more blocks. Measured on an H100 (ego-Facebook, 1000 iterations): blocks of at
             * most 512 staged edges 5.60 ms, 1024 5.33, 2048 6.34, 4096 (the grid kernel's) 8.8 */
            for (int stage = 1024; !*why && stage < kStageEdges; stage *= 2) {
                Bins fine;
                if (make_bins(lay.cls, true, n, &fine, stage) == 0 && fine.block_begin[fine.count] <= fit) {
                    bins = fine;
                    grid = (unsigned)fine.block_begin[fine.count];
                    break;
                }
            }
        }
        return KILN_OK;
    }

    /* The bins, and the kernel: the persistent one where auto or asked for and it can run (a
     * launch an iteration costs more than the grid barrier that replaces it, docs/PAGERANK.md:
     * 0.57x the grid kernel's time on ego-Facebook and RMAT 14, 0.97x on RMAT 16), else grid. */
    kiln_status choose_kernel(kiln_gpu_pr_stats *stats)
    {
        if (prm->kernel != KILN_GPU_PR_AUTO && prm->kernel != KILN_GPU_PR_GRID && prm->kernel != KILN_GPU_PR_PERSISTENT)
            return kiln_fail(st->ctx, KILN_ERR_INPUT, "PageRank: no GPU kernel %d (auto, grid or persistent)", prm->kernel);
        if (make_bins(lay.cls, prm->reorder != 0, n, &bins) != 0)
            return kiln_fail(st->ctx, KILN_ERR_DEVICE,
                             "PageRank setup: the degree classes do not cover the %llu vertices", (unsigned long long)n);
        grid = (unsigned)bins.block_begin[bins.count];
        if (prm->kernel == KILN_GPU_PR_AUTO || prm->kernel == KILN_GPU_PR_PERSISTENT) {
            const char *why;
            kiln_status fs = persistent_fit(&why);
            if (fs != KILN_OK) return fs;
            if (prm->kernel == KILN_GPU_PR_PERSISTENT && why)
                return kiln_fail(st->ctx, KILN_ERR_INPUT,
                                 "PageRank: the persistent kernel cannot run this graph (%u blocks): %s", grid, why);
            persistent = why == nullptr;
        }
        stats->kernel = persistent ? KILN_GPU_PR_PERSISTENT : KILN_GPU_PR_GRID;
        /* iterations a persistent launch, so one launch stays near a millisecond or two and the
         * interrupt poll is read between them */
        if (persistent) {
            const uint64_t k = (UINT64_C(1) << 27) / (m + n + (UINT64_C(1) << 14));
            per_launch = k < 16 ? 16 : k > 4096 ? 4096 : (int)k;
        }
        return KILN_OK;
    }

    /* The rank vectors, the state and ring, and the kernel's arguments. */
    kiln_status allocate()
    {
        KILN_CUDA_TRY(y0.alloc(n), "cudaMalloc (ranks)");
        KILN_CUDA_TRY(y1.alloc(n), "cudaMalloc (ranks)");
        KILN_CUDA_TRY(dst.alloc(1), "cudaMalloc");
        KILN_CUDA_TRY(ring.alloc(3 * kSlots), "cudaMalloc");
        KILN_CUDA_TRY(cudaMallocHost(&hv.p, sizeof(HostView)), "cudaMallocHost");
        a = Args<T, Off>{.off = lay.off.p,
                         .src = lay.src.p,
                         .odeg = lay.odeg.p,
                         .order = prm->reorder ? nullptr : lay.order.p,
                         .y0 = y0.p,
                         .y1 = y1.p,
                         .st = dst.p,
                         .ring = ring.p,
                         .bins = bins,
                         .damping = prm->damping,
                         .inv_n = 1.0 / (double)n,
                         .threshold = threshold,
                         .w = lay.wsh.p,
                         .tp = tp.p,
                         .tq = tq.p,
                         .row0 = 0};
        KILN_CUDA_TRY(cudaEventCreateWithFlags(&mark.ev, cudaEventDisableTiming), "cudaEventCreate");
        return KILN_OK;
    }

    void launch(cudaStream_t ss, unsigned j)
    {
        if (prm->reorder) launch_iteration<false>(a, mode, grid, ss, j % 6);
        else launch_iteration<true>(a, mode, grid, ss, j % 6);
    }

    cudaError_t launch_persistent_k(unsigned first_j, int k)
    {
        if constexpr (std::is_same<Off, uint32_t>::value)
            return launch_persistent<T, Off>(a, mode, grid, stream, first_j, (unsigned)k);
        else
            return cudaErrorNotSupported; /* never chosen: see persistent_fit */
    }

    /* The grid kernel's batch of iterations as one CUDA graph (small graphs are otherwise
     * launch-bound). */
    kiln_status capture()
    {
        if (persistent) return KILN_OK;
        cudaStream_t s = st->stream;
        KILN_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
        for (int i = 0; i < batch; i++) launch(s, (unsigned)i + 1);
        KILN_CUDA_TRY(cudaStreamEndCapture(s, &ge.graph), "cudaStreamEndCapture");
        KILN_CUDA_TRY(cudaGraphInstantiate(&ge.exec, ge.graph, 0), "cudaGraphInstantiate");
        return KILN_OK;
    }

    /* L1 change of iteration j from the host copy of the ring */
    double ring_res(unsigned j) const
    {
        double r = 0;
        for (int i = 0; i < kSlots; i++) r += hv.p->ring[(j % 3) * kSlots + i].res;
        return r;
    }

    cudaError_t fetch()
    {
        cudaStream_t s = stream;
        cudaError_t e = cudaMemcpyAsync(&hv.p->st, dst.p, sizeof(PrState), cudaMemcpyDeviceToHost, s);
        if (e == cudaSuccess) e = cudaMemcpyAsync(hv.p->ring, ring.p, sizeof hv.p->ring, cudaMemcpyDeviceToHost, s);
        return e;
    }

    /* y from x0 and the state of "iteration 0": not converged, the dangling mass of x0. */
    kiln_status start(double dangling0)
    {
        cudaStream_t s = stream;
        HostView *h = hv.p;
        init_y<T><<<grid_for(n, kBlock, st->sm_count), kBlock, 0, s>>>(lay.odeg.p, x0.p, n, y0.p);
        LAUNCH_CHECK("init_y");
        memset(h, 0, sizeof *h);
        h->ring[0].res = HUGE_VAL;
        h->ring[0].dang = dangling0;
        h->st.res = HUGE_VAL;
        KILN_CUDA_TRY(cudaMemcpyAsync(dst.p, &h->st, sizeof(PrState), cudaMemcpyHostToDevice, s), "cudaMemcpy");
        KILN_CUDA_TRY(cudaMemcpyAsync(ring.p, h->ring, sizeof h->ring, cudaMemcpyHostToDevice, s), "cudaMemcpy");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "init");
        return KILN_OK;
    }

    /* Queues the next launch or batch after `queued` iterations; returns how many it queued. */
    kiln_status queue(int queued, int *k)
    {
        cudaStream_t s = stream;
        const int left = prm->max_iter - queued;
        if (persistent) {
            *k = left < per_launch ? left : per_launch;
            KILN_CUDA_TRY(launch_persistent_k((unsigned)queued + 1, *k), "PageRank persistent launch");
        } else if (left >= batch) {
            KILN_CUDA_TRY(cudaGraphLaunch(ge.exec, s), "cudaGraphLaunch");
            *k = batch;
        } else {
            for (int i = 0; i < left; i++) launch(s, (unsigned)(queued + i + 1));
            LAUNCH_CHECK("pr_iteration");
            *k = left;
        }
        return KILN_OK;
    }

    /* One timed run from x0 (start), its time into *ms. With tol == 0 the count is fixed: the
     * state is read once at the end, and the host only waits for the batch before the one just
     * queued (the queue never drains) to read the interrupt poll between batches. */
    kiln_status iterate(float *ms)
    {
        cudaStream_t s = stream;
        HostView *h = hv.p;
        const bool check = prm->tol > 0;
        int queued = 0;
        int marked = 0; /* iterations queued when `mark` was recorded (tol == 0) */
        KILN_CUDA_TRY(cudaEventRecord(st->ev_start, s), "cudaEventRecord");
        while (queued < prm->max_iter) {
            int k = 0;
            kiln_status qs = queue(queued, &k);
            if (qs != KILN_OK) return qs;
            queued += k;
            if (check) {
                KILN_CUDA_TRY(fetch(), "cudaMemcpy");
                KILN_CUDA_TRY(cudaStreamSynchronize(s), "PageRank iterations");
                if (h->st.done || ring_res(h->st.count) < threshold) break;
                kiln_ctx_report_residual(st->ctx, "pagerank", "iterations", (uint64_t)h->st.count,
                                         (uint64_t)prm->max_iter, ring_res(h->st.count));
            } else {
                if (mark.recorded) KILN_CUDA_TRY(cudaEventSynchronize(mark.ev), "PageRank iterations");
                /* the state is read only at the end: no residual (NaN) to report */
                kiln_ctx_report(st->ctx, "pagerank", "iterations", (uint64_t)marked, (uint64_t)prm->max_iter);
            }
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
        KILN_CUDA_TRY(cudaEventElapsedTime(ms, st->ev_start, st->ev_stop), "cudaEventElapsedTime");
        if (!h->st.done && h->st.count != (unsigned)queued)
            return kiln_fail(st->ctx, KILN_ERR_DEVICE, "PageRank: the device carried out %u iterations of %d launched",
                             h->st.count, queued);
        return KILN_OK;
    }

    /* The last run's result: its stats, and x in the original vertex order. */
    kiln_status finish(double *ranks, kiln_gpu_pr_stats *stats)
    {
        cudaStream_t s = stream;
        const unsigned iters = hv.p->st.count;
        stats->iterations = (int)iters;
        stats->residual = hv.p->st.done ? hv.p->st.res : ring_res(iters);
        stats->converged = stats->residual < threshold;
        DevArray<T> x;
        KILN_CUDA_TRY(x.alloc(n), "cudaMalloc");
        const T *y_final = (iters & 1) ? y1.p : y0.p;
        final_x<T><<<grid_for(n, kBlock, st->sm_count), kBlock, 0, s>>>(
            y_final, lay.odeg.p, prm->reorder ? lay.order.p : nullptr, n, x.p);
        LAUNCH_CHECK("final_x");
        std::vector<T> hx(n);
        KILN_CUDA_TRY(cudaMemcpyAsync(hx.data(), x.p, n * sizeof(T), cudaMemcpyDeviceToHost, s), "cudaMemcpy");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "final_x");
        for (uint64_t i = 0; i < n; i++) ranks[i] = (double)hx[i];
        return KILN_OK;
    }
};

} // namespace

#endif
