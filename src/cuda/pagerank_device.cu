/* PageRank on vectors in device memory (docs/DEVICE_MEMORY.md): a plan is a whole graph laid out
 * once on the handle's GPU by the solver kiln_pagerank uses (pagerank_solver.cuh: relabelled
 * rows, rank buffers, state and ring), then run on the caller's stream with the personalization,
 * dangling and nstart vectors and the ranks in the caller's device memory.
 *
 * A run does on the device what kiln_pagerank's host path does on the host around the same kernels,
 * in the same order of arithmetic, so the ranks agree with it: each vector is checked and summed in
 * index order by one thread of a block that stages the values (the host's loop: the same sum; the
 * vectors' blocks side by side in one launch), divided by its sum in parallel (the same quotients),
 * gathered into visiting order as the host path's upload does; the start dangling mass is summed
 * the same way in the host's order (kiln_pr_start_dangling's), and the state starts from a kernel
 * rather than a host copy. The iterations are the same launches (direct ones: the host path's
 * captured batch would be captured again for every run's arguments), and the ranks are scattered
 * back into the caller's vertex order as float64, converted from the rank type as the host path
 * converts them. The one thread's chain of additions, as long as the vector, at the latency of a
 * double add each, is the price of that agreement; the host path pays a copy of the vector and a
 * pass on the host instead. */
#include "device_memory.cuh"
#include "pagerank_solver.cuh"

struct kiln_gpu_pr_plan {
    virtual ~kiln_gpu_pr_plan() = default;
    virtual kiln_status run(const kiln_gpu_pr_params *p, double *ranks, cudaStream_t s, int wait, kiln_gpu_pr_stats *stats,
                            kiln_gpu_pr_bad *bad) = 0;
};

namespace {

/* A vector's check and sums, as the API's `normalized` (src/api/pagerank.c) makes them on the host. */
struct VecCheck {
    int bad; /* 0 fine, 1 a value not finite or negative, 2 the sum is 0 */
    int pad;
    unsigned long long index;
    double value;
    double sum, scale; /* the normalization: v * scale / sum */
};

constexpr int kVectors = 3; /* personalization, dangling, nstart */
constexpr int kSumBlock = 256;
constexpr int kSumChunk = 1024; /* values staged at a time: 8 KiB of shared memory a sum */

/* A sum in index order, as the host's loop adds, by one block. Per chunk of kSumChunk terms, every
 * thread loads terms into shared memory (loads in flight together) and checks them: the chunk's
 * first bad term (atomicMin) and its largest value (atomicMax on the bits, which order as the
 * values do for finite values >= 0) are found in parallel. Then thread 0 adds the chunk's terms up to
 * the first bad one, one by one (the host's order and rounding: each sum rounded on its own, no
 * fused multiply-add), in a loop with nothing else in it, so that its shared-memory loads run ahead
 * of the chain of additions, which alone is serial. term(i, &x) gives value i, or false for a value
 * that ends the sum (then *stop is 1, *stop_at its index, the lowest such, *stop_value it, and the
 * sum is not finished). Called by every thread of the block; *stop is every thread's, the other
 * results thread 0's. */
template <typename Term>
__device__ double serial_sum(uint64_t n, Term term, int *stop, unsigned long long *stop_at, double *stop_value,
                             double *max_out)
{
    __shared__ double vals[kSumChunk];
    /* the lowest bad index of a chunk (kSumChunk: none), by the chunk's parity: a chunk's slot is
     * reset two chunks later, when every thread has read it */
    __shared__ int first_bad[2];
    __shared__ unsigned long long max_bits;
    double sum = 0;
    int stopped = 0;
    if (threadIdx.x == 0) max_bits = 0;
    for (uint64_t base = 0, chunk = 0; base < n && !stopped; base += kSumChunk, chunk++) {
        const int len = n - base < (uint64_t)kSumChunk ? (int)(n - base) : kSumChunk;
        const int slot = (int)(chunk & 1);
        if (threadIdx.x == 0) first_bad[slot] = kSumChunk;
        __syncthreads(); /* thread 0 has added the last chunk's values; the slot is reset */
        double local_max = 0;
        for (int i = threadIdx.x; i < len; i += blockDim.x) {
            double x;
            const bool ok = term(base + i, &x);
            vals[i] = x;
            if (!ok) atomicMin(&first_bad[slot], i);
            else if (x > local_max) local_max = x;
        }
        if (local_max > 0) atomicMax(&max_bits, (unsigned long long)__double_as_longlong(local_max));
        __syncthreads();
        const int good = first_bad[slot] < len ? first_bad[slot] : len;
        if (threadIdx.x == 0) {
            int i = 0;
            for (; i + 8 <= good; i += 8) {
                const double a0 = vals[i], a1 = vals[i + 1], a2 = vals[i + 2], a3 = vals[i + 3];
                const double a4 = vals[i + 4], a5 = vals[i + 5], a6 = vals[i + 6], a7 = vals[i + 7];
                sum = __dadd_rn(sum, a0);
                sum = __dadd_rn(sum, a1);
                sum = __dadd_rn(sum, a2);
                sum = __dadd_rn(sum, a3);
                sum = __dadd_rn(sum, a4);
                sum = __dadd_rn(sum, a5);
                sum = __dadd_rn(sum, a6);
                sum = __dadd_rn(sum, a7);
            }
            for (; i < good; i++) sum = __dadd_rn(sum, vals[i]);
            if (good < len) {
                *stop_at = base + good;
                *stop_value = vals[good];
            }
        }
        stopped = good < len;
    }
    __syncthreads();
    if (max_out) *max_out = __longlong_as_double((long long)max_bits);
    *stop = stopped;
    return sum;
}

/* The run's vectors, by kind (NULL: not given). */
struct VecSet {
    const double *v[kVectors];
};

/* Checks vector blockIdx.x of set (n values) and finds its normalization, as the host's loop does;
 * a bad vector says why in chk[blockIdx.x]. A block of kSumBlock threads a vector: the vectors'
 * serial sums run side by side, one launch for all. */
__global__ void normalize_sums(VecSet set, uint64_t n, VecCheck *chk)
{
    /* picked by value, not indexed: an indexed parameter array is copied to local memory */
    const double *__restrict__ v = blockIdx.x == 0 ? set.v[0] : blockIdx.x == 1 ? set.v[1] : set.v[2];
    if (!v) return;
    chk += blockIdx.x;
    unsigned long long at = 0;
    double bad_value = 0, max = 0;
    int stop = 0;
    double sum = serial_sum(
        n,
        [&](uint64_t i, double *x) {
            *x = v[i];
            return isfinite(*x) && *x >= 0;
        },
        &stop, &at, &bad_value, &max);
    __shared__ int failed;
    if (threadIdx.x == 0) {
        failed = 0;
        if (stop) {
            chk->bad = 1;
            chk->index = at;
            chk->value = bad_value;
            failed = 1;
        } else if (!(sum > 0)) {
            chk->bad = 2;
            failed = 1;
        }
    }
    __syncthreads();
    if (failed) return;
    /* a sum past the largest double: scale by the largest value first (the ratios are the same) */
    __shared__ double scale;
    if (threadIdx.x == 0) scale = isfinite(sum) ? 1.0 : __ddiv_rn(1.0, max);
    __syncthreads();
    if (scale != 1.0) {
        const double sc = scale;
        sum = serial_sum(
            n,
            [&](uint64_t i, double *x) {
                *x = __dmul_rn(v[i], sc);
                return true;
            },
            &stop, &at, &bad_value, nullptr);
    }
    if (threadIdx.x == 0) {
        chk->sum = sum;
        chk->scale = scale;
    }
}

/* out[i] = v[i] * scale / sum (the host's quotients), unless the vector was bad. */
__global__ void normalize_apply(const double *__restrict__ v, uint64_t n, const VecCheck *chk, double *__restrict__ out)
{
    if (chk->bad) return;
    const double scale = chk->scale, sum = chk->sum;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = __ddiv_rn(__dmul_rn(v[i], scale), sum);
}

/* out[i] = in[perm[i]] (in[i] without perm) in the type O: the host path's upload_vector gather. */
template <typename O>
__global__ void gather_by_row(const double *__restrict__ in, const uint32_t *__restrict__ perm, uint64_t n,
                              O *__restrict__ out)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = (O)in[perm ? perm[i] : i];
}

/* The state of "iteration 0", as the host path's start() writes it from the host: not converged,
 * the dangling mass of x0: given (dangling0), or, with summed, kiln_pr_start_dangling's sum over
 * the graph's own vertex order (the normalized nstart, or 1 / n, over the dangling vertices; the
 * other vertices add 0, which leaves a sum of non-negative values unchanged), in the host's order.
 * One block of kSumBlock threads. */
__global__ void start_state(PrState *st, Slot *ring, double dangling0, int summed, uint64_t n,
                            const uint32_t *__restrict__ outdeg, const double *__restrict__ out_weight,
                            const double *__restrict__ nstart)
{
    unsigned long long at = 0;
    double unused = 0;
    int stop = 0;
    if (summed) {
        const double uniform = 1.0 / (double)n;
        dangling0 = serial_sum(
            n,
            [&](uint64_t v, double *x) {
                *x = kiln_pr_dangles(outdeg, out_weight, v) ? (nstart ? nstart[v] : uniform) : 0.0;
                return true;
            },
            &stop, &at, &unused, nullptr);
    }
    for (int i = threadIdx.x; i < 3 * kSlots; i += blockDim.x) ring[i].res = 0, ring[i].dang = 0;
    __syncthreads();
    if (threadIdx.x != 0) return;
    st->count = 0;
    st->done = 0;
    st->res = HUGE_VAL;
    ring[0].res = HUGE_VAL;
    ring[0].dang = dangling0;
}

/* x = y * out-degree of the last iterate (its parity from the state's count, as the host path
 * picks it), written as float64 at the vertex's original position; NaN everywhere when a vector
 * was bad (a run that reads nothing back has no other way to say so). */
template <typename T>
__global__ void final_ranks(const T *__restrict__ y0, const T *__restrict__ y1, const PrState *st,
                            const uint32_t *__restrict__ odeg, const uint32_t *__restrict__ to_orig, uint64_t n,
                            const VecCheck *chk, double *__restrict__ ranks)
{
    const T *y = (st->count & 1) ? y1 : y0;
    const bool bad = chk[0].bad || chk[1].bad || chk[2].bad;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint32_t od = odeg[i];
        const T x = od ? y[i] * (T)od : y[i];
        ranks[to_orig ? to_orig[i] : i] = bad ? (double)NAN : (double)x;
    }
}

/* The run's temporaries, allocated and freed in the caller's stream's order. */
struct Temps {
    cudaStream_t s;
    void *p[8] = {};
    int count = 0;
    explicit Temps(cudaStream_t stream) : s(stream) {}
    ~Temps()
    {
        for (int i = 0; i < count; i++) kiln_cuda_free_async(p[i], s);
    }
    template <typename X> kiln_status get(kiln_gpu *st, X **out, uint64_t items, const char *what)
    {
        void *q = nullptr;
        kiln_status r = kiln_cuda_alloc_async(st, &q, (size_t)items * sizeof(X), s, what);
        if (r != KILN_OK) return r;
        p[count++] = q;
        *out = (X *)q;
        return KILN_OK;
    }
};

template <typename T, typename Off> struct Plan final : kiln_gpu_pr_plan {
    kiln_gpu_pr_params prm; /* the solver reads its parameters here: the plan's, then each run's */
    kiln_gpu_pr_graph graph; /* n, m and dangling; the host arrays only while the plan is set up */
    bool weighted;
    Solver<T, Off> sv;
    DevArray<uint32_t> outdeg; /* the graph's own order: the start dangling mass of a given nstart */
    DevArray<double> out_weight;
    VecCheck *hchk = nullptr; /* page-locked: the checks a waiting run reads */

    Plan(kiln_gpu *st, const kiln_gpu_pr_graph *g, const kiln_gpu_pr_params *p)
        : prm(*p), graph(*g), weighted(g->weights != nullptr), sv(st, &graph, &prm)
    {
    }
    ~Plan() override
    {
        /* the device arrays below are freed on the plan's GPU, whatever the caller made current */
        if (cudaSetDevice(sv.st->ordinal) != cudaSuccess) (void)cudaGetLastError();
        if (hchk) cudaFreeHost(hchk);
    }

    kiln_status setup(const kiln_gpu_pr_graph *g)
    {
        kiln_gpu *st = sv.st;
        kiln_status r = sv.load_layout();
        if (r != KILN_OK) return r;
        KILN_CUDA_TRY(outdeg.alloc(g->n), "cudaMalloc (out-degrees)");
        KILN_CUDA_TRY(cudaMemcpyAsync(outdeg.p, g->outdeg, g->n * 4, cudaMemcpyHostToDevice, st->stream), "cudaMemcpy");
        if (g->out_weight) {
            KILN_CUDA_TRY(out_weight.alloc(g->n), "cudaMalloc (out-weights)");
            KILN_CUDA_TRY(cudaMemcpyAsync(out_weight.p, g->out_weight, g->n * 8, cudaMemcpyHostToDevice, st->stream),
                          "cudaMemcpy");
        }
        /* bins for the allocation's arguments; each run chooses its kernel again (its mode) */
        kiln_gpu_pr_stats stats;
        if ((r = sv.choose_kernel(&stats)) != KILN_OK || (r = sv.allocate()) != KILN_OK) return r;
        KILN_CUDA_TRY(cudaMallocHost(&hchk, kVectors * sizeof *hchk), "cudaMallocHost");
        KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "PageRank plan");
        /* the host arrays are the caller's: nothing reads them after this */
        graph.offsets = nullptr;
        graph.sources = nullptr;
        graph.outdeg = nullptr;
        graph.weights = nullptr;
        graph.out_weight = nullptr;
        sv.g = nullptr;
        return KILN_OK;
    }

    /* Queues iterations queued+1 .. queued+k (the host path's queue(), with direct launches). */
    kiln_status queue(int queued, int *k)
    {
        kiln_gpu *st = sv.st;
        const int left = prm.max_iter - queued;
        if (sv.persistent) {
            *k = left < sv.per_launch ? left : sv.per_launch;
            KILN_CUDA_TRY(sv.launch_persistent_k((unsigned)queued + 1, *k), "PageRank persistent launch");
        } else {
            *k = left < sv.batch ? left : sv.batch;
            for (int i = 0; i < *k; i++) sv.launch(sv.stream, (unsigned)(queued + i + 1));
            KILN_CUDA_TRY(cudaGetLastError(), "pr_iteration");
        }
        return KILN_OK;
    }

    kiln_status run(const kiln_gpu_pr_params *p, double *ranks, cudaStream_t s, int wait, kiln_gpu_pr_stats *stats,
                    kiln_gpu_pr_bad *bad) override
    {
        kiln_gpu *st = sv.st;
        const uint64_t n = graph.n;
        memset(stats, 0, sizeof *stats);
        bad->vector = -1;
        KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
        const double *vec[kVectors] = {p->personalization, p->dangling, p->nstart};
        static const char *const names[kVectors] = {"the personalization vector", "the dangling vector",
                                                     "the nstart vector"};
        kiln_status r = kiln_cuda_check_device_ptr(st, ranks, n * 8, "the rank vector");
        for (int v = 0; v < kVectors && r == KILN_OK; v++)
            if (vec[v]) r = kiln_cuda_check_device_ptr(st, vec[v], n * 8, names[v]);
        if (r != KILN_OK) return r;
        /* the run's parameters; the layout's (precision, relabelling) stay the plan's */
        prm.damping = p->damping;
        prm.tol = p->tol;
        prm.max_iter = p->max_iter;
        prm.kernel = p->kernel;
        sv.mode = (weighted ? MODE_WEIGHTED : 0) | (p->personalization || p->dangling ? MODE_TELEPORT : 0);
        sv.threshold = (double)n * p->tol;
        sv.stream = s;
        if ((r = sv.choose_kernel(stats)) != KILN_OK) return r;

        Temps tmp(s);
        VecCheck *chk;
        double *norm[kVectors] = {};
        T *tp = nullptr, *tq = nullptr;
        double *x0 = nullptr;
        if ((r = tmp.get(st, &chk, kVectors, "the vector checks")) != KILN_OK) return r;
        KILN_CUDA_TRY(cudaMemsetAsync(chk, 0, kVectors * sizeof *chk, s), "cudaMemsetAsync");
        const uint32_t *perm = prm.reorder ? sv.lay.order.p : nullptr;
        const unsigned blocks = grid_for(n, kBlock, st->sm_count);
        if (p->personalization || p->dangling || p->nstart) {
            normalize_sums<<<kVectors, kSumBlock, 0, s>>>(VecSet{{vec[0], vec[1], vec[2]}}, n, chk);
            KILN_CUDA_TRY(cudaGetLastError(), "normalize_sums");
        }
        for (int v = 0; v < kVectors; v++) {
            if (!vec[v]) continue;
            if ((r = tmp.get(st, &norm[v], n, "a normalized vector")) != KILN_OK) return r;
            normalize_apply<<<blocks, kBlock, 0, s>>>(vec[v], n, chk + v, norm[v]);
            KILN_CUDA_TRY(cudaGetLastError(), "normalize_apply");
        }
        if (wait && (p->personalization || p->dangling || p->nstart)) {
            /* a waiting run refuses a bad vector before it iterates, as kiln_pagerank does */
            KILN_CUDA_TRY(cudaMemcpyAsync(hchk, chk, kVectors * sizeof *chk, cudaMemcpyDeviceToHost, s), "cudaMemcpy");
            KILN_CUDA_TRY(cudaStreamSynchronize(s), "PageRank vector checks");
            for (int v = 0; v < kVectors; v++) {
                if (!hchk[v].bad) continue;
                *bad = kiln_gpu_pr_bad{v, hchk[v].bad == 2, hchk[v].index, hchk[v].value};
                return KILN_ERR_INPUT;
            }
        }
        if (norm[0]) {
            if ((r = tmp.get(st, &tp, n, "the personalization by row")) != KILN_OK) return r;
            gather_by_row<T><<<blocks, kBlock, 0, s>>>(norm[0], perm, n, tp);
        }
        if (norm[1]) {
            if ((r = tmp.get(st, &tq, n, "the dangling vector by row")) != KILN_OK) return r;
            gather_by_row<T><<<blocks, kBlock, 0, s>>>(norm[1], perm, n, tq);
        }
        if (norm[2]) {
            if ((r = tmp.get(st, &x0, n, "nstart by row")) != KILN_OK) return r;
            gather_by_row<double><<<blocks, kBlock, 0, s>>>(norm[2], perm, n, x0);
        }
        KILN_CUDA_TRY(cudaGetLastError(), "gather_by_row");
        init_y<T><<<blocks, kBlock, 0, s>>>(sv.lay.odeg.p, x0, n, sv.y0.p);
        KILN_CUDA_TRY(cudaGetLastError(), "init_y");
        /* without weights or nstart the host path's dangling mass, the dangling count over n */
        const bool summed = weighted || norm[2];
        start_state<<<1, kSumBlock, 0, s>>>(sv.dst.p, sv.ring.p, summed ? 0.0 : (double)graph.dangling / (double)n,
                                            summed, n, outdeg.p, weighted ? out_weight.p : nullptr, norm[2]);
        KILN_CUDA_TRY(cudaGetLastError(), "start_state");

        sv.a.bins = sv.bins;
        sv.a.damping = prm.damping;
        sv.a.threshold = sv.threshold;
        sv.a.tp = tp;
        sv.a.tq = tq;
        int queued = 0;
        const bool check = wait && prm.tol > 0;
        while (queued < prm.max_iter) {
            int k = 0;
            if ((r = queue(queued, &k)) != KILN_OK) return r;
            queued += k;
            if (!check) continue;
            /* the convergence state (a few hundred bytes), as kiln_pagerank's loop reads it */
            KILN_CUDA_TRY(sv.fetch(), "cudaMemcpy");
            KILN_CUDA_TRY(cudaStreamSynchronize(s), "PageRank iterations");
            if (sv.hv.p->st.done || sv.ring_res(sv.hv.p->st.count) < sv.threshold) break;
            kiln_ctx_report_residual(st->ctx, "pagerank", "iterations", (uint64_t)sv.hv.p->st.count,
                                     (uint64_t)prm.max_iter, sv.ring_res(sv.hv.p->st.count));
            if (kiln_ctx_interrupt_requested(st->ctx)) return kiln_interrupted(st->ctx);
        }
        final_ranks<T><<<blocks, kBlock, 0, s>>>(sv.y0.p, sv.y1.p, sv.dst.p, sv.lay.odeg.p, perm, n, chk, ranks);
        KILN_CUDA_TRY(cudaGetLastError(), "final_ranks");
        if (!wait) return KILN_OK;
        KILN_CUDA_TRY(sv.fetch(), "cudaMemcpy");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "PageRank iterations");
        const unsigned iters = sv.hv.p->st.count;
        if (!sv.hv.p->st.done && iters != (unsigned)queued)
            return kiln_fail(st->ctx, KILN_ERR_DEVICE, "PageRank: the device carried out %u iterations of %d launched", iters,
                             queued);
        stats->iterations = (int)iters;
        stats->residual = sv.hv.p->st.done ? sv.hv.p->st.res : sv.ring_res(iters);
        stats->converged = stats->residual < sv.threshold;
        return KILN_OK;
    }
};

template <typename T, typename Off>
kiln_status make_plan(kiln_gpu *st, const kiln_gpu_pr_graph *g, const kiln_gpu_pr_params *p, kiln_gpu_pr_plan **out)
{
    Plan<T, Off> *plan = new (std::nothrow) Plan<T, Off>(st, g, p);
    if (!plan) return kiln_fail(st->ctx, KILN_ERR_DEVICE, "out of host memory");
    kiln_status r = plan->setup(g);
    if (r != KILN_OK) {
        delete plan;
        return r;
    }
    *out = plan;
    return KILN_OK;
}

} // namespace

kiln_status kiln_cuda_pr_plan_new(kiln_gpu *st, const kiln_gpu_pr_graph *g, const kiln_gpu_pr_params *p,
                                  kiln_gpu_pr_plan **out)
{
    *out = nullptr;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    if (g->n == 0 || g->n > 0xfffffffeull || (g->weights == nullptr) != (g->out_weight == nullptr))
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "PageRank: bad graph or parameters");
    /* the plan's own parameters: the layout's; vectors and counts come with each run */
    kiln_gpu_pr_params q = *p;
    q.personalization = q.dangling = q.nstart = nullptr;
    q.max_iter = 1;
    q.repeat = 1;
    const bool wide = g->m > 0xffffffffull;
    if (p->use_double)
        return wide ? make_plan<double, unsigned long long>(st, g, &q, out) : make_plan<double, uint32_t>(st, g, &q, out);
    return wide ? make_plan<float, unsigned long long>(st, g, &q, out) : make_plan<float, uint32_t>(st, g, &q, out);
}

kiln_status kiln_cuda_pr_plan_run(kiln_gpu_pr_plan *plan, const kiln_gpu_pr_params *p, double *ranks, void *stream,
                                  int wait, kiln_gpu_pr_stats *stats, kiln_gpu_pr_bad *bad)
{
    return plan->run(p, ranks, (cudaStream_t)stream, wait, stats, bad);
}

void kiln_cuda_pr_plan_free(kiln_gpu_pr_plan *plan)
{
    delete plan;
}
