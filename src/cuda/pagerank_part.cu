/* PageRank over row parts (core/gpu.h, "PageRank parts"): one part of the rows, for several
 * devices of one context or one process of a split, run by the one-device iteration kernel
 * (pagerank_iter.h) over the one-device layout (pagerank_layout.h). Each part orders its own
 * rows by in-degree when it opens; the host joins the parts' orders into one relabelling, which
 * keeps every part's labels in its own range, and hands it back (pr_part_relabel), so the parts
 * exchange slices of one vector in the new labels. The host sets the global dangling mass of the
 * last pass in the ring entry the next launch reads, and sums each pass's ring entry itself;
 * the kernel's own convergence test is off (threshold below any change). */
#include <math.h>
#include <sched.h>
#include <string.h>

#include <new>

#include "../core/clock.h"
#include "cuda_state.h"
#include "dev_array.cuh"
#include "nccl_lib.h"
#include "pagerank_iter.h"
#include "pagerank_layout.h"

using namespace kiln_pr;

struct kiln_gpu_pr_part {
    kiln_gpu *st = nullptr;
    uint64_t n = 0, v0 = 0, rows = 0;
    size_t elem = 4;
    unsigned char *y[2] = {nullptr, nullptr}; /* n elements each, owned by the implementation */
    int cur = 0; /* y[cur] is read by the next pass; it is 0 exactly when `pass` is odd */
    unsigned pass = 1; /* number of the next pass: its value mod 6 is the kernel's phase */
    Slot *h_prev = nullptr, *h_sums = nullptr; /* pinned ring entries: written before, read after a pass */
    uint32_t peers_tried = 0; /* ordinals whose peer access this part's device has asked for */
    /* the shares into this part's next, timed on its stream: from the first share of a pass to
     * the flip; the time is added once the stream has passed the second event */
    cudaEvent_t share_begin = nullptr, share_end = nullptr;
    bool sharing = false, share_timed = false;
    double share_ms = 0;
    kiln_gpu_comm *comm = nullptr; /* the NCCL communicator this part's exchanges run on, if any */
    int comm_slot = 0; /* its rank's slot in comm */
    virtual ~kiln_gpu_pr_part()
    {
        if (h_prev) cudaFreeHost(h_prev);
        if (h_sums) cudaFreeHost(h_sums);
        if (share_begin) cudaEventDestroy(share_begin);
        if (share_end) cudaEventDestroy(share_end);
    }
    virtual kiln_status relabel(const kiln_gpu_pr_part_spec &s, const uint32_t *old2new) = 0;
    /* queues pass `pass` on the part's stream, its ring entries copied from h_prev and to h_sums */
    virtual kiln_status launch() = 0;
};

namespace {

template <typename T, typename Off> struct Part final : kiln_gpu_pr_part {
    int mode = MODE_PLAIN;
    Layout<T, Off> lay;
    DevArray<T> tp, tq, yv[2];
    DevArray<Slot> ring;
    DevArray<PrState> state;
    Args<T, Off> a;
    unsigned grid = 0;

    kiln_status relabel(const kiln_gpu_pr_part_spec &s, const uint32_t *old2new) override;
    kiln_status launch() override;
};

template <typename T, typename Off>
kiln_status Part<T, Off>::relabel(const kiln_gpu_pr_part_spec &s, const uint32_t *old2new)
{
    cudaStream_t str = st->stream;
    {
        DevArray<uint32_t> map;
        KILN_CUDA_TRY(map.alloc(n), "cudaMalloc (relabelling)");
        KILN_CUDA_TRY(cudaMemcpyAsync(map.p, old2new, n * 4, cudaMemcpyHostToDevice, str), "cudaMemcpy (relabelling)");
        kiln_status ls = rows ? layout_relabel(st, lay, map.p) : KILN_OK;
        if (ls != KILN_OK) return ls;
    }
    kiln_status vs = KILN_OK;
    if (s.personalization) vs = upload_vector(st, s.personalization + v0, lay.order.p, rows, tp);
    if (vs == KILN_OK && s.dangling) vs = upload_vector(st, s.dangling + v0, lay.order.p, rows, tq);
    if (vs != KILN_OK) return vs;
    Bins bins;
    memset(&bins, 0, sizeof bins);
    if (rows && make_bins(lay.cls, true, rows, &bins) != 0)
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "PageRank part: the degree classes do not cover its %llu rows",
                         (unsigned long long)rows);
    grid = rows ? (unsigned)bins.block_begin[bins.count] : 0;
    for (int i = 0; i < 2; i++) {
        KILN_CUDA_TRY(yv[i].alloc(n), "cudaMalloc (rank vector)");
        /* rows of other parts not yet shared must still be numbers (compute-sanitizer, and a
         * failure that left them unwritten shows up as zeros, not garbage) */
        KILN_CUDA_TRY(cudaMemsetAsync(yv[i].p, 0, n * sizeof(T), str), "cudaMemset (rank vector)");
        y[i] = reinterpret_cast<unsigned char *>(yv[i].p);
    }
    KILN_CUDA_TRY(ring.alloc(3 * kSlots), "cudaMalloc (ring)");
    KILN_CUDA_TRY(cudaMemsetAsync(ring.p, 0, 3 * kSlots * sizeof(Slot), str), "cudaMemset (ring)");
    KILN_CUDA_TRY(state.alloc(1), "cudaMalloc (state)");
    KILN_CUDA_TRY(cudaMemsetAsync(state.p, 0, sizeof(PrState), str), "cudaMemset (state)");
    KILN_CUDA_TRY(cudaMallocHost(reinterpret_cast<void **>(&h_prev), kSlots * sizeof(Slot)), "cudaMallocHost (sums)");
    KILN_CUDA_TRY(cudaMallocHost(reinterpret_cast<void **>(&h_sums), kSlots * sizeof(Slot)), "cudaMallocHost (sums)");
    memset(h_prev, 0, kSlots * sizeof(Slot));
    memset(h_sums, 0, kSlots * sizeof(Slot));
    KILN_CUDA_TRY(cudaEventCreate(&share_begin), "cudaEventCreate");
    KILN_CUDA_TRY(cudaEventCreate(&share_end), "cudaEventCreate");
    memset(&a, 0, sizeof a);
    a.off = lay.off.p;
    a.src = lay.src.p;
    a.odeg = lay.odeg.p;
    a.order = nullptr;
    a.w = lay.wsh.p;
    a.tp = tp.p;
    a.tq = tq.p; /* NULL when no dangling vector was given: q = p */
    a.y0 = yv[0].p;
    a.y1 = yv[1].p;
    a.st = state.p;
    a.ring = ring.p;
    a.bins = bins;
    a.damping = s.damping;
    a.inv_n = 1.0 / (double)n;
    a.threshold = -1.0; /* the host decides convergence over all the parts */
    a.row0 = v0;
    KILN_CUDA_TRY(cudaStreamSynchronize(str), "PageRank part setup");
    return KILN_OK;
}

template <typename T, typename Off> kiln_status Part<T, Off>::launch()
{
    cudaStream_t str = st->stream;
    const unsigned phase = pass % 6;
    if (grid) {
        KILN_CUDA_TRY(cudaMemcpyAsync(ring.p + ((phase + 2) % 3) * kSlots, h_prev, kSlots * sizeof(Slot),
                                      cudaMemcpyHostToDevice, str),
                      "cudaMemcpyAsync (dangling mass)");
        launch_iteration<false>(a, mode, grid, str, phase);
        KILN_CUDA_TRY(cudaGetLastError(), "pr_iteration (part)");
        KILN_CUDA_TRY(cudaMemcpyAsync(h_sums, ring.p + (phase % 3) * kSlots, kSlots * sizeof(Slot),
                                      cudaMemcpyDeviceToHost, str),
                      "cudaMemcpyAsync (sums)");
    } else {
        memset(h_sums, 0, kSlots * sizeof(Slot));
    }
    pass++;
    return KILN_OK;
}

template <typename T, typename Off>
kiln_status open_part(kiln_gpu *st, const kiln_gpu_pr_part_spec *s, uint32_t *order, kiln_gpu_pr_part **out)
{
    Part<T, Off> *p = new (std::nothrow) Part<T, Off>();
    if (!p) return kiln_fail(st->ctx, KILN_ERR_DEVICE, "out of memory");
    *out = p;
    p->st = st;
    p->n = s->n;
    p->v0 = s->v0;
    p->rows = s->v1 - s->v0;
    p->elem = sizeof(T);
    p->mode = (s->weights ? MODE_WEIGHTED : 0) | (s->personalization || s->dangling ? MODE_TELEPORT : 0);
    const LayoutInput in = {s->n, s->v0, p->rows, s->offsets, s->sources, s->weights, s->outdeg, s->out_weight};
    kiln_status ls = layout_load(st, in, p->lay);
    if (ls != KILN_OK) return ls;
    KILN_CUDA_TRY(cudaMemcpyAsync(order, p->lay.order.p, p->rows * 4, cudaMemcpyDeviceToHost, st->stream),
                  "cudaMemcpy (visiting order)");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "cudaMemcpy (visiting order)");
    return KILN_OK;
}

/* Adds the last pass's share time once its events have passed. */
kiln_status collect_share_time(kiln_gpu_pr_part *p)
{
    if (!p->share_timed) return KILN_OK;
    kiln_gpu *st = p->st;
    KILN_CUDA_TRY(cudaEventSynchronize(p->share_end), "cudaEventSynchronize (shares)");
    float ms = 0;
    KILN_CUDA_TRY(cudaEventElapsedTime(&ms, p->share_begin, p->share_end), "cudaEventElapsedTime (shares)");
    p->share_ms += ms;
    p->share_timed = false;
    return KILN_OK;
}

/* Waits for the part's stream. Once the part exchanges through NCCL the wait is bounded: a rank
 * that died leaves its peers' broadcasts waiting for ever, so the wait polls and gives up, on its
 * timeout or on a signal (kiln_nccl_wait). */
kiln_status wait_part(kiln_gpu_pr_part *p, const char *what)
{
    kiln_gpu *st = p->st;
#ifdef KILN_HAVE_NCCL
    if (p->comm) {
        const double t0 = kiln_now();
        for (unsigned spin = 0;; spin++) {
            cudaError_t e = cudaStreamQuery(st->stream);
            if (e == cudaSuccess) return KILN_OK;
            if (e != cudaErrorNotReady) KILN_CUDA_TRY(e, what);
            if ((spin & 255) == 255) {
                kiln_status w = kiln_nccl_wait(p->comm, st, kiln_now() - t0);
                if (w != KILN_OK) return w;
                sched_yield();
            }
        }
    }
#endif
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), what);
    return KILN_OK;
}

} // namespace

kiln_status kiln_cuda_pr_part_open(kiln_gpu *st, const kiln_gpu_pr_part_spec *spec, uint32_t *order,
                                   kiln_gpu_pr_part **out)
{
    *out = nullptr;
    if (spec->v1 < spec->v0 || spec->v1 > spec->n || spec->n > 0xfffffffeull)
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "PageRank part rows [%llu, %llu) outside the graph's %llu",
                         (unsigned long long)spec->v0, (unsigned long long)spec->v1, (unsigned long long)spec->n);
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    const bool wide = spec->offsets[spec->v1] - spec->offsets[spec->v0] > 0xffffffffull;
    kiln_status s = spec->use_double
                        ? (wide ? open_part<double, unsigned long long>(st, spec, order, out)
                                : open_part<double, uint32_t>(st, spec, order, out))
                        : (wide ? open_part<float, unsigned long long>(st, spec, order, out)
                                : open_part<float, uint32_t>(st, spec, order, out));
    if (s != KILN_OK) {
        kiln_cuda_pr_part_close(*out);
        *out = nullptr;
    }
    return s;
}

kiln_status kiln_cuda_pr_part_relabel(kiln_gpu_pr_part *p, const kiln_gpu_pr_part_spec *spec, const uint32_t *old2new)
{
    kiln_gpu *st = p->st;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    return p->relabel(*spec, old2new);
}

kiln_status kiln_cuda_pr_part_put(kiln_gpu_pr_part *p, const void *y, uint64_t first, uint64_t count)
{
    kiln_gpu *st = p->st;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    /* on the part's stream and waited for: a cudaMemcpy from pageable memory may return before its
     * DMA lands, and the part's non-blocking stream would not wait for it */
    KILN_CUDA_TRY(cudaMemcpyAsync(p->y[p->cur] + first * p->elem, static_cast<const unsigned char *>(y) + first * p->elem,
                                  count * p->elem, cudaMemcpyHostToDevice, st->stream),
                  "cudaMemcpyAsync (rank vector to the device)");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "cudaStreamSynchronize (rank vector to the device)");
    return KILN_OK;
}

kiln_status kiln_cuda_pr_part_get(kiln_gpu_pr_part *p, void *y, uint64_t first, uint64_t count)
{
    kiln_gpu *st = p->st;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    /* after the pass and the shares into this vector, which are on the same stream */
    KILN_CUDA_TRY(cudaMemcpyAsync(static_cast<unsigned char *>(y) + first * p->elem, p->y[p->cur] + first * p->elem,
                                  count * p->elem, cudaMemcpyDeviceToHost, st->stream),
                  "cudaMemcpyAsync (rank vector from the device)");
    kiln_status w = wait_part(p, "cudaStreamSynchronize (rank vector from the device)");
    return w != KILN_OK ? w : collect_share_time(p);
}

kiln_status kiln_cuda_pr_part_launch(kiln_gpu_pr_part *p, double dangling)
{
    kiln_gpu *st = p->st;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    /* the previous pass's sums as the kernel reads them: all in the first slot (the others stay
     * zero from the setup) */
    p->h_prev[0].dang = dangling;
    return p->launch();
}

kiln_status kiln_cuda_pr_part_sums(kiln_gpu_pr_part *p, double *res, double *dangling)
{
    kiln_gpu *st = p->st;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    kiln_status ws = wait_part(p, "PageRank part pass");
    if (ws != KILN_OK) return ws;
    kiln_status cs = collect_share_time(p);
    if (cs != KILN_OK) return cs;
    double r = 0, d = 0;
    for (int i = 0; i < kSlots; i++) {
        r += p->h_sums[i].res;
        d += p->h_sums[i].dang;
    }
    *res = r;
    *dangling = d;
    return KILN_OK;
}

kiln_status kiln_cuda_pr_part_share(kiln_gpu_pr_part *dst, const kiln_gpu_pr_part *src)
{
    kiln_gpu *st = dst->st;
    const int to = st->ordinal, from = src->st->ordinal;
    KILN_CUDA_TRY(cudaSetDevice(to), "cudaSetDevice");
    if (to != from && from < 32 && !(dst->peers_tried & (1u << from))) {
        /* direct peer copies over NVLink/PCIe where the pair allows it; else the runtime stages
         * the copy through the host */
        dst->peers_tried |= 1u << from;
        int can = 0;
        KILN_CUDA_TRY(cudaDeviceCanAccessPeer(&can, to, from), "cudaDeviceCanAccessPeer");
        if (can) {
            cudaError_t e = cudaDeviceEnablePeerAccess(from, 0);
            if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
            else KILN_CUDA_TRY(e, "cudaDeviceEnablePeerAccess");
        }
    }
    if (!src->rows) return KILN_OK;
    if (!dst->sharing) {
        KILN_CUDA_TRY(cudaEventRecord(dst->share_begin, st->stream), "cudaEventRecord (shares)");
        dst->sharing = true;
    }
    const size_t at = src->v0 * src->elem, bytes = src->rows * src->elem;
    KILN_CUDA_TRY(cudaMemcpyPeerAsync(dst->y[1 - dst->cur] + at, to, src->y[1 - src->cur] + at, from, bytes, st->stream),
                  "cudaMemcpyPeerAsync (rank vector slice)");
    return KILN_OK;
}

void kiln_cuda_pr_part_flip(kiln_gpu_pr_part *p)
{
    p->cur = 1 - p->cur;
    if (p->sharing) {
        cudaSetDevice(p->st->ordinal);
        /* a failed record leaves the pass untimed; the copies themselves are checked */
        p->share_timed = cudaEventRecord(p->share_end, p->st->stream) == cudaSuccess;
        p->sharing = false;
    }
}

double kiln_cuda_pr_part_share_seconds(kiln_gpu_pr_part *p)
{
    cudaSetDevice(p->st->ordinal);
    if (collect_share_time(p) != KILN_OK) (void)cudaGetLastError();
    const double s = p->share_ms * 1e-3;
    p->share_ms = 0;
    return s;
}

void kiln_cuda_pr_part_close(kiln_gpu_pr_part *p)
{
    if (!p) return;
    cudaSetDevice(p->st->ordinal);
    cudaStreamSynchronize(p->st->stream);
    delete p; /* the device arrays free themselves on this device */
}

#ifdef KILN_HAVE_NCCL
kiln_status kiln_cuda_comm_open(kiln_ctx *ctx, kiln_gpu_pr_part *const *parts, int nlocal, int nranks, int rank0,
                                const void *id, kiln_gpu_comm **out)
{
    *out = nullptr;
    const kiln_nccl_api *n = kiln_nccl();
    if (!n) return kiln_fail(ctx, KILN_ERR_DEVICE, "NCCL (libnccl.so.2) is not available");
    if (nlocal < 1 || nlocal > KILN_MAX_GPUS || nranks < nlocal || rank0 < 0 || rank0 + nlocal > nranks)
        return kiln_fail(ctx, KILN_ERR_INPUT, "NCCL ranks %d..%d of %d", rank0, rank0 + nlocal - 1, nranks);
    kiln_gpu_comm *c = static_cast<kiln_gpu_comm *>(calloc(1, sizeof *c));
    if (!c) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    c->ctx = ctx;
    c->nlocal = nlocal;
    c->nranks = nranks;
    c->rank0 = rank0;
    for (int i = 0; i < nlocal; i++) {
        c->ordinal[i] = parts[i]->st->ordinal;
        c->stream[i] = parts[i]->st->stream;
    }
    kiln_nccl_settle(); /* a run interrupted before may still be aborting its communicators */
    ncclUniqueId u;
    memcpy(&u, id, sizeof u);
    /* one thread initializes every local rank: NCCL wants them in one group */
    ncclResult_t r = n->group_start(), r1 = ncclSuccess;
    cudaError_t ce = cudaSuccess;
    for (int i = 0; i < nlocal && r == ncclSuccess && ce == cudaSuccess; i++) {
        ce = cudaSetDevice(parts[i]->st->ordinal);
        if (ce == cudaSuccess) r1 = n->comm_init_rank(&c->comm[i], nranks, u, rank0 + i);
        if (r1 != ncclSuccess) break;
    }
    ncclResult_t r2 = n->group_end();
    ncclResult_t bad = r != ncclSuccess ? r : r1 != ncclSuccess ? r1 : r2;
    if (ce != cudaSuccess || bad != ncclSuccess) {
        kiln_nccl_abort(c); /* what was made */
        kiln_cuda_comm_close(c, 1);
        if (ce != cudaSuccess)
            return kiln_fail(ctx, KILN_ERR_DEVICE, "CUDA cudaSetDevice failed: %s", cudaGetErrorString(ce));
        return kiln_fail(ctx, KILN_ERR_DEVICE, "NCCL communicator of %d ranks failed: %s", nranks, n->get_error_string(bad));
    }
    for (int i = 0; i < nlocal; i++) {
        parts[i]->comm = c;
        parts[i]->comm_slot = i;
    }
    *out = c;
    return KILN_OK;
}

kiln_status kiln_cuda_pr_part_allgather(kiln_gpu_comm *c, kiln_gpu_pr_part *const *parts, int count,
                                        const uint64_t *bounds)
{
    const kiln_nccl_api *n = kiln_nccl();
    for (int i = 0; i < count; i++) {
        kiln_gpu_pr_part *p = parts[i];
        kiln_gpu *st = p->st;
        KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
        if (!p->sharing) {
            KILN_CUDA_TRY(cudaEventRecord(p->share_begin, st->stream), "cudaEventRecord (exchange)");
            p->sharing = true;
        }
    }
    /* an all-gather of unequal slices: by default each rank sends its rows of next to every
     * other rank and receives theirs, all in one group, so every link carries its pair's slices
     * at once (as peer copies do); KILN_NCCL_EXCHANGE=broadcast sends them by one broadcast a
     * rank instead (NCCL's rings) */
    ncclResult_t r = n->group_start();
    for (int i = 0; i < count && r == ncclSuccess; i++) {
        kiln_gpu_pr_part *p = parts[i];
        const ncclDataType_t type = p->elem == 8 ? ncclFloat64 : ncclFloat32;
        const int me = c->rank0 + p->comm_slot;
        ncclComm_t comm = c->comm[p->comm_slot];
        unsigned char *y = p->y[1 - p->cur];
        for (int peer = 0; peer < c->nranks && r == ncclSuccess; peer++) {
            const uint64_t rows = bounds[peer + 1] - bounds[peer];
            if (n->broadcast_exchange) {
                if (rows) r = n->broadcast(y + bounds[peer] * p->elem, y + bounds[peer] * p->elem, rows, type, peer, comm,
                                           p->st->stream);
                continue;
            }
            if (peer == me) continue;
            const uint64_t mine = bounds[me + 1] - bounds[me];
            if (mine) r = n->send(y + bounds[me] * p->elem, mine, type, peer, comm, p->st->stream);
            if (r == ncclSuccess && rows) r = n->recv(y + bounds[peer] * p->elem, rows, type, peer, comm, p->st->stream);
        }
    }
    ncclResult_t r2 = n->group_end();
    if (r == ncclSuccess) r = r2;
    if (r != ncclSuccess) {
        kiln_gpu *st = parts[0]->st;
        kiln_nccl_abort(c);
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "NCCL exchange of the rank slices failed: %s", n->get_error_string(r));
    }
    return KILN_OK;
}
#endif
