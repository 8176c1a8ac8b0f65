/* PageRank on GPUs over row parts: the context's devices when it has several (rows split by
 * in-edges, the new slices shared between the devices by peer copies after every pass, the sums
 * added on the host in device order), or this process's rows of a split (MPI) on its GPU, the
 * slices staged through host memory for the split's exchange. The iteration is the one of
 * src/graph/pagerank_cpu.c: a pass computes its rows of the next y, the L1 change and the
 * dangling mass are summed over the parts, and every part stops on the same decision.
 *
 * The parts run the one-device kernel, which wants its rows relabelled in descending in-degree.
 * Each part orders its own rows (pr_part_open), and the parts' orders joined give the graph one
 * relabelling that keeps every part's rows in its own range: the parts (and the processes of a
 * split, which exchange their orders once) then share slices of one vector in the new labels,
 * and the ranks are put back in the graph's labels at the end. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../prim/pagerank.h"
#include "../core/bench.h"
#include "../core/clock.h"
#include "../core/ctx.h"
#include "../core/gpu.h"
#include "../graph/graph.h"
#include "pagerank_parts.h"

typedef struct parts_run {
    kiln_ctx *ctx;
    const kiln_graph *g;
    const kiln_pr_problem *prob;
    int use_double;
    int k;
    uint64_t bound[KILN_MAX_GPUS + 1]; /* part i: rows [bound[i], bound[i+1]) */
    kiln_gpu_pr_part_spec spec[KILN_MAX_GPUS];
    kiln_gpu_pr_part *part[KILN_MAX_GPUS];
    uint32_t *new2old, *old2new; /* n each: the relabelling */
    kiln_gpu_comm *comm; /* NCCL between the parts (or processes), when it is used */
} parts_run;

/* Device bytes a part of `rows` rows and m in-edges needs at its fullest (the layout's relabelling,
 * pagerank_layout.cu: the sources twice, the per-row arrays, the map of every label, two rank
 * vectors), with room for the CUDA libraries' own. */
static uint64_t part_bytes(const kiln_gpu_pr_part_spec *s)
{
    const uint64_t rows = s->v1 - s->v0, m = s->offsets[s->v1] - s->offsets[s->v0];
    const uint64_t elem = s->use_double ? 8 : 4;
    uint64_t b = 8 * m + 48 * rows + 4 * s->n + 2 * elem * s->n + (UINT64_C(256) << 20);
    if (s->weights) b += m * (16 + 2 * elem) + 8 * s->n;
    if (s->personalization || s->dangling) b += 16 * rows;
    return b;
}

static kiln_status open_task(void *arg, int i, kiln_gpu *gpu)
{
    parts_run *r = arg;
    const kiln_graph *g = r->g;
    r->spec[i] = (kiln_gpu_pr_part_spec){.n = g->n,
                                         .v0 = r->bound[i],
                                         .v1 = r->bound[i + 1],
                                         .offsets = g->offsets,
                                         .sources = g->sources,
                                         .weights = g->weights,
                                         .outdeg = g->outdeg,
                                         .out_weight = g->out_weight,
                                         .personalization = r->prob->personalization,
                                         .dangling = r->prob->dangling,
                                         .damping = r->prob->damping,
                                         .use_double = r->use_double};
    const kiln_gpu_ops *ops = r->ctx->gpu;
    uint64_t free_b = 0, total_b = 0;
    const uint64_t need = part_bytes(&r->spec[i]);
    if (ops->mem_info && ops->mem_info(gpu, &free_b, &total_b) == KILN_OK && need > free_b)
        return kiln_fail(r->ctx, KILN_ERR_INPUT,
                         "its PageRank part (%llu rows, %llu edges) needs about %.1f GiB and the GPU has %.1f GiB free: "
                         "use more GPUs or processes",
                         (unsigned long long)(r->bound[i + 1] - r->bound[i]),
                         (unsigned long long)(g->offsets[r->bound[i + 1]] - g->offsets[r->bound[i]]),
                         (double)need / (1 << 30), (double)free_b / (1 << 30));
    return ops->graph->parts->open(gpu, &r->spec[i], r->new2old + r->bound[i], &r->part[i]);
}

static kiln_status relabel_task(void *arg, int i, kiln_gpu *gpu)
{
    parts_run *r = arg;
    (void)gpu;
    return r->ctx->gpu->graph->parts->relabel(r->part[i], &r->spec[i], r->old2new);
}

/* The parts' local orders (at their rows of new2old) into the graph's labels, and the inverse. */
static void join_orders(parts_run *r)
{
    for (int i = 0; i < r->k; i++)
        for (uint64_t v = r->bound[i]; v < r->bound[i + 1]; v++) r->new2old[v] += (uint32_t)r->bound[i];
}

static void invert_order(parts_run *r)
{
    for (uint64_t v = 0; v < r->g->n; v++) r->old2new[r->new2old[v]] = (uint32_t)v;
}

/* Rows cut so that every device gets about the same number of in-edges. */
static void balance(const kiln_graph *g, int k, uint64_t *bound)
{
    const uint64_t m = g->offsets[g->n] - g->offsets[0];
    bound[0] = 0;
    bound[k] = g->n;
    for (int i = 1; i < k; i++) {
        uint64_t want = g->offsets[0] + m / (uint64_t)k * (uint64_t)i, lo = bound[i - 1], hi = g->n;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (g->offsets[mid] < want) lo = mid + 1;
            else hi = mid;
        }
        bound[i] = lo;
    }
}

/* What the parts keep of x at vertex v: x / outdeg unweighted, x itself for a dangling vertex
 * and on a weighted graph (whose edges carry the out-weight shares). */
static double y_scale(const kiln_graph *g, uint64_t v)
{
    return g->out_weight || g->outdeg[v] == 0 ? 1.0 : (double)g->outdeg[v];
}

/* The first y in the new labels (float64 in y64, and narrowed into y when float32), and the
 * dangling mass of x0. */
static double first_y(const parts_run *r, double *y64, void *y)
{
    const kiln_graph *g = r->g;
    const kiln_pr_problem *p = r->prob;
    const double uniform = 1.0 / (double)g->n;
    double dang = 0;
    for (uint64_t v = 0; v < g->n; v++) {
        const double x = p->nstart ? p->nstart[v] : uniform;
        const uint32_t to = r->old2new[v];
        y64[to] = x / y_scale(g, v);
        if (kiln_pr_dangles(g->outdeg, g->out_weight, v)) dang += x;
        if (!r->use_double) ((float *)y)[to] = (float)y64[to];
    }
    return dang;
}

/* One pass of part i with NCCL, on its device's thread: the pass, its sums, its exchange queued. */
typedef struct pass_run {
    parts_run *r;
    double dang;
    double res[KILN_MAX_GPUS], dangs[KILN_MAX_GPUS];
} pass_run;

static kiln_status pass_task(void *arg, int i, kiln_gpu *gpu)
{
    pass_run *p = arg;
    const kiln_gpu_pr_part_ops *part_ops = p->r->ctx->gpu->graph->parts;
    const kiln_gpu_collective_ops *coll = p->r->ctx->gpu->collective;
    (void)gpu;
    kiln_status st = part_ops->launch(p->r->part[i], p->dang);
    if (st == KILN_OK) st = part_ops->sums(p->r->part[i], &p->res[i], &p->dangs[i]);
    if (st == KILN_OK) st = coll->allgather(p->r->comm, &p->r->part[i], 1, p->r->bound);
    return st;
}

/* The iterations from the first y; one run. */
static kiln_status iterate(parts_run *r, const kiln_pr_split *split, const void *y0, double dang0, void *host_y,
                           kiln_pr_cpu_stats *s)
{
    kiln_ctx *ctx = r->ctx;
    const kiln_gpu_pr_part_ops *part_ops = ctx->gpu->graph->parts;
    const kiln_gpu_collective_ops *coll = ctx->gpu->collective; /* where r->comm is open */
    const kiln_graph *g = r->g;
    const size_t elem = r->use_double ? sizeof(double) : sizeof(float);
    kiln_status st = KILN_OK;
    for (int i = 0; i < r->k && st == KILN_OK; i++) {
        st = part_ops->put(r->part[i], y0, 0, g->n);
        (void)part_ops->share_seconds(r->part[i]); /* from zero */
    }
    if (st != KILN_OK) return st;
    const double threshold = (double)g->n * r->prob->tol;
    double dang = dang0, res = 0, t0 = kiln_now(), staged = 0;
    int it = 0, converged = 0;
    while (it < r->prob->max_iter) {
        int stop = kiln_ctx_interrupt_requested(ctx);
        if (stop && !split) return kiln_interrupted(ctx);
        double sum_res = 0, sum_dang = 0;
        if (r->comm && !split) {
            /* a thread a device: each queues its exchange as soon as its own pass is done, as a
             * process of an mpirun does (one thread driving every device serializes them) */
            pass_run pr = {r, dang, {0}, {0}};
            st = kiln_gpu_each(ctx, pass_task, &pr);
            for (int i = 0; i < r->k; i++) sum_res += pr.res[i], sum_dang += pr.dangs[i];
        } else {
            for (int i = 0; i < r->k && st == KILN_OK; i++) st = part_ops->launch(r->part[i], dang);
            for (int i = 0; i < r->k && st == KILN_OK; i++) {
                double pr, pd;
                st = part_ops->sums(r->part[i], &pr, &pd);
                sum_res += pr;
                sum_dang += pd;
            }
        }
        if (split && r->comm) {
            /* the sums and the stop decision through the split, the slices by NCCL */
            double sums[2] = {sum_res, sum_dang};
            int ask = stop || st != KILN_OK;
            const double t = kiln_now();
            /* an exchange given up on a signal sets ask (src/dist: the others may be gone) */
            if (split->exchange(split->arg, NULL, 0, sums, &ask) != 0)
                return st != KILN_OK ? st
                       : ask         ? kiln_interrupted(ctx)
                                     : kiln_fail(ctx, KILN_ERR_DEVICE, "the exchange between processes failed");
            if (st != KILN_OK) return st;
            if (ask) return kiln_interrupted(ctx);
            staged += kiln_now() - t;
            st = coll->allgather(r->comm, r->part, 1, split->bounds);
            part_ops->flip(r->part[0]);
            sum_res = sums[0];
            sum_dang = sums[1];
        } else if (split) {
            /* this process's new rows through the host to the others, theirs back */
            const uint64_t v0 = r->bound[0], v1 = r->bound[1];
            const double t = kiln_now();
            if (st == KILN_OK) {
                part_ops->flip(r->part[0]);
                st = part_ops->get(r->part[0], host_y, v0, v1 - v0);
            }
            double sums[2] = {sum_res, sum_dang};
            int ask = stop || st != KILN_OK;
            if (split->exchange(split->arg, host_y, elem, sums, &ask) != 0)
                return st != KILN_OK ? st
                       : ask         ? kiln_interrupted(ctx)
                                     : kiln_fail(ctx, KILN_ERR_DEVICE, "the exchange between processes failed");
            if (st != KILN_OK) return st;
            if (ask) return kiln_interrupted(ctx); /* this one or another process asked to stop */
            st = part_ops->put(r->part[0], host_y, 0, v0);
            if (st == KILN_OK) st = part_ops->put(r->part[0], host_y, v1, g->n - v1);
            staged += kiln_now() - t;
            sum_res = sums[0];
            sum_dang = sums[1];
        } else {
            if (!r->comm) {
                for (int d = 0; d < r->k && st == KILN_OK; d++)
                    for (int i = 0; i < r->k && st == KILN_OK; i++)
                        if (i != d) st = part_ops->share(r->part[d], r->part[i]);
            }
            for (int i = 0; i < r->k; i++) part_ops->flip(r->part[i]);
        }
        if (st != KILN_OK) return st;
        res = sum_res;
        dang = sum_dang;
        it++;
        kiln_ctx_report_residual(ctx, "pagerank", "iterations", (uint64_t)it, (uint64_t)r->prob->max_iter, res);
        if (res < threshold) {
            converged = 1;
            break;
        }
    }
    /* every part holds the whole y now: the first one's comes back (its copy waits for the shares) */
    st = part_ops->get(r->part[0], host_y, 0, g->n);
    s->seconds = kiln_now() - t0;
    /* the slowest device's shares, or this process's staging and exchange (and its NCCL
     * broadcasts, device events) */
    s->exchange_seconds = staged;
    if (split) s->exchange_seconds += part_ops->share_seconds(r->part[0]);
    for (int i = 0; i < r->k && !split; i++) {
        const double x = part_ops->share_seconds(r->part[i]);
        if (x > s->exchange_seconds) s->exchange_seconds = x;
    }
    s->iterations = it;
    s->converged = converged;
    s->residual = res;
    return st;
}

/* An identity of this process's GPU for telling whether two processes share one (NCCL refuses
 * two ranks on one GPU): its ordinal and the host's name. CUDA_VISIBLE_DEVICES set apart per
 * process can make two GPUs look alike, which only costs NCCL (the host exchange is used). */
static uint64_t gpu_identity(const kiln_ctx *ctx)
{
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    uint64_t h = 1469598103934665603ull;
    for (const char *c = host; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return h ^ ((uint64_t)ctx->gpu_ordinal[0] * 0x9E3779B97F4A7C15ull);
}

/* NCCL between the parts when every one can use it: libnccl loads in each process and no two
 * parts are on one GPU (a device set that names an ordinal twice shares by copies). A failure
 * here is an error, not a quiet fallback: KILN_NCCL=0 turns NCCL off. Collective under a split. */
static kiln_status open_comm(parts_run *r, const kiln_pr_split *split, kiln_status st)
{
    kiln_ctx *ctx = r->ctx;
    const kiln_gpu_collective_ops *coll = ctx->gpu->collective;
    const int usable = coll && coll->available();
    unsigned char id[KILN_GPU_COMM_ID_BYTES];
    if (!split) {
        if (st != KILN_OK || r->k < 2 || !usable) return st;
        for (int i = 0; i < r->k; i++)
            for (int j = 0; j < i; j++)
                if (ctx->gpu_ordinal[i] == ctx->gpu_ordinal[j]) return KILN_OK;
        st = coll->id(ctx, id);
        return st == KILN_OK ? coll->open(ctx, r->part, r->k, r->k, 0, id, &r->comm) : st;
    }
    if (!split->bcast || !split->allgather || split->nparts < 2) return st;
    /* every process's verdict, then the GPUs' identities, then the id from process 0 */
    double sums[2] = {0, 0};
    int without = st != KILN_OK || !usable;
    if (split->exchange(split->arg, NULL, 0, sums, &without) != 0)
        return st != KILN_OK ? st : kiln_fail(ctx, KILN_ERR_DEVICE, "the exchange between processes failed");
    if (st != KILN_OK || without) return st;
    uint64_t mine = gpu_identity(ctx), *all = malloc((size_t)split->nparts * sizeof *all);
    int shared = !all || split->allgather(split->arg, &mine, all, 1) != 0;
    for (int i = 0; !shared && i < split->nparts; i++)
        for (int j = 0; j < i; j++)
            if (all[i] == all[j]) shared = 1;
    free(all);
    if (split->exchange(split->arg, NULL, 0, sums, &shared) != 0)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "the exchange between processes failed");
    if (shared) return KILN_OK;
    int failed = split->rank == 0 && coll->id(ctx, id) != KILN_OK;
    if (split->exchange(split->arg, NULL, 0, sums, &failed) != 0 || failed)
        return split->rank == 0 && failed ? KILN_ERR_DEVICE
                                           : kiln_fail(ctx, KILN_ERR_DEVICE, "process 0 could not make the NCCL id");
    if (split->bcast(split->arg, id, sizeof id) != 0)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "the exchange between processes failed");
    st = coll->open(ctx, r->part, 1, split->nparts, split->rank, id, &r->comm);
    failed = st != KILN_OK;
    if (split->exchange(split->arg, NULL, 0, sums, &failed) != 0 && st == KILN_OK)
        st = kiln_fail(ctx, KILN_ERR_DEVICE, "the exchange between processes failed");
    if (st == KILN_OK && failed) st = kiln_fail(ctx, KILN_ERR_DEVICE, "another process could not join NCCL");
    return st;
}

/* Each part's in-edges and its GPU's memory peak, into stats (every process's under a split). */
static void part_figures(parts_run *r, const kiln_pr_split *split, kiln_pr_cpu_stats *s)
{
    kiln_ctx *ctx = r->ctx;
    const kiln_gpu_pr_part_ops *part_ops = ctx->gpu->graph->parts;
    s->exchange = r->comm                             ? KILN_PR_EXCHANGE_NCCL
                  : split || part_ops->share_via_host ? KILN_PR_EXCHANGE_HOST
                                                         : KILN_PR_EXCHANGE_PEER;
    uint64_t mine[2 * KILN_PR_MAX_PARTS];
    for (int i = 0; i < r->k && i < KILN_PR_MAX_PARTS; i++) {
        mine[2 * i] = r->g->offsets[r->bound[i + 1]] - r->g->offsets[r->bound[i]];
        mine[2 * i + 1] = ctx->gpu->graph->mem_peak && ctx->gpu_dev[i] ? ctx->gpu->graph->mem_peak(ctx->gpu_dev[i]) : 0;
    }
    s->parts = r->k;
    if (split && split->allgather) {
        uint64_t *all = malloc((size_t)split->nparts * 2 * sizeof *all);
        if (!all || split->allgather(split->arg, mine, all, 2) != 0) {
            free(all);
            return;
        }
        s->parts = split->nparts;
        for (int i = 0; i < 2 * split->nparts && i < 2 * KILN_PR_MAX_PARTS; i++) mine[i] = all[i];
        free(all);
    }
    for (int i = 0; i < s->parts && i < KILN_PR_MAX_PARTS; i++) {
        s->part_edges[i] = mine[2 * i];
        s->part_peak_bytes[i] = mine[2 * i + 1];
    }
}

kiln_status kiln_pagerank_gpu_parts(kiln_ctx *ctx, const kiln_graph *g, const kiln_pr_problem *prob, int use_double,
                                    int repeat, const kiln_pr_split *split, double *ranks, kiln_pr_cpu_stats *stats)
{
    parts_run r = {ctx, g, prob, use_double, split ? 1 : ctx->ngpu, {0}, {{0}}, {0}, NULL, NULL, NULL};
    if (split) {
        r.bound[0] = split->v0;
        r.bound[1] = split->v1;
    } else {
        balance(g, r.k, r.bound);
    }
    const size_t elem = use_double ? sizeof(double) : sizeof(float);
    double *y64 = malloc((size_t)g->n * sizeof *y64);
    const kiln_gpu_ops *ops = ctx->gpu;
    const kiln_gpu_pr_part_ops *part_ops = ops->graph->parts;
    void *pinned = NULL;
    void *y0 = use_double ? (void *)y64 : malloc((size_t)g->n * elem), *host_y = malloc((size_t)g->n * elem);
    r.new2old = malloc((size_t)g->n * sizeof *r.new2old);
    r.old2new = malloc((size_t)g->n * sizeof *r.old2new);
    kiln_status st = y64 && y0 && host_y && r.new2old && r.old2new ? KILN_OK : kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu ranks",
                                                                (unsigned long long)g->n);
    if (st == KILN_OK) {
        if (split) {
            kiln_gpu *gpu;
            st = kiln_ctx_gpu(ctx, 0, &gpu);
            if (st == KILN_OK) st = open_task(&r, 0, gpu);
        } else {
            st = kiln_gpu_each(ctx, open_task, &r);
        }
    }
    if (st == KILN_OK && split && ops->host_pinned_alloc && (pinned = ops->host_pinned_alloc((size_t)g->n * elem))) {
        /* the vector staged through the host every pass: page-locked, else the copies run at a
         * fraction of the link's speed (allocated once this thread's device is set: the open) */
        free(host_y);
        host_y = pinned;
    }
    if (st == KILN_OK) join_orders(&r);
    if (split) {
        /* every process learns whether one failed before any waits in an exchange the failed one
         * would not join (its buffers may not even exist); then the orders go to every process */
        double sums[2] = {0, 0};
        int failed = st != KILN_OK;
        if (split->exchange(split->arg, NULL, 0, sums, &failed) != 0 && st == KILN_OK)
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "the exchange between processes failed");
        if (st == KILN_OK && failed) st = kiln_fail(ctx, KILN_ERR_DEVICE, "another process of the run failed");
        if (st == KILN_OK && split->exchange(split->arg, r.new2old, sizeof *r.new2old, sums, &failed) != 0)
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "the exchange between processes failed");
    }
    if (st == KILN_OK) {
        invert_order(&r);
        st = split ? relabel_task(&r, 0, NULL) : kiln_gpu_each(ctx, relabel_task, &r);
    }
    if (split) { /* as above, for the relabelling */
        double sums[2] = {0, 0};
        int failed = st != KILN_OK;
        if (split->exchange(split->arg, NULL, 0, sums, &failed) != 0 && st == KILN_OK)
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "the exchange between processes failed");
        if (st == KILN_OK && failed) st = kiln_fail(ctx, KILN_ERR_DEVICE, "another process of the run failed");
    }
    st = open_comm(&r, split, st);
    if (st == KILN_OK) part_figures(&r, split, stats); /* the memory peaks are the setup's */
    double dang0 = st == KILN_OK ? first_y(&r, y64, y0) : 0;
    const int runs = repeat > 1 ? repeat : 1;
    double *secs = malloc((size_t)runs * sizeof *secs);
    if (st == KILN_OK && !secs) st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    double *xsecs = malloc((size_t)runs * sizeof *xsecs);
    if (st == KILN_OK && !xsecs) st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    for (int i = 0; i < runs && st == KILN_OK; i++) {
        st = iterate(&r, split, y0, dang0, host_y, stats);
        if (st == KILN_OK) {
            secs[i] = stats->seconds;
            xsecs[i] = stats->exchange_seconds;
        }
    }
    if (st == KILN_OK) {
        stats->seconds = kiln_median(secs, (size_t)runs);
        stats->exchange_seconds = kiln_median(xsecs, (size_t)runs);
        for (uint64_t v = 0; v < g->n; v++) {
            const uint32_t at = r.old2new[v];
            const double y = use_double ? ((double *)host_y)[at] : (double)((float *)host_y)[at];
            ranks[v] = y * y_scale(g, v);
        }
    }
    /* a failed run's exchanges may wait on a peer that never comes: aborted before the parts
     * wait for their streams */
    if (r.comm && st != KILN_OK) ops->collective->close(r.comm, 1);
    for (int i = 0; i < r.k; i++)
        if (r.part[i]) part_ops->close(r.part[i]); /* waits for its stream */
    if (r.comm && st == KILN_OK) ops->collective->close(r.comm, 0);
    free(secs);
    free(xsecs);
    free(r.new2old);
    free(r.old2new);
    if (!use_double) free(y0);
    free(y64);
    if (pinned) ops->host_pinned_free(pinned);
    else free(host_y);
    return st;
}
