/* PageRank on the CPU threads: in float64, the reference every GPU result is checked against, or
 * with the y vector stored in float32 (--precision float32, as GAP's pr ranks), which halves the
 * bytes every gather moves; sums and the L1 change stay float64 either way.
 *
 * Each vertex keeps y = x / W (x itself for a dangling vertex, W = 0), W its out-degree or, on a
 * weighted graph, its out-weight sum, so the pull loop adds (w *) y[u] over the in-neighbours
 * without a division per edge (the contribution trick), and the same pass produces the next y,
 * the L1 change and the dangling mass of the new x.
 *
 * Two passes: the plain one (no weights, uniform teleport and dangling) is the hot loop of every
 * benchmark and stays as lean as it can be; the general one carries the weights and the
 * personalization and dangling vectors, with the weighted/unweighted choice made per row, outside
 * the edge loop. The starting vector only changes the first y, so it takes either pass. Each pass
 * is written once and instantiated for both storage types (the macros below). */
#include <math.h>
#include <stdlib.h>

#include "graph.h"
#include "../core/clock.h"
#include "../core/par.h"
#include "../prim/pagerank.h"

/* W of vertex v: its out-weight sum, or its out-degree without weights; 0 = dangling. */
static inline double out_scale(const kiln_graph *g, int64_t v)
{
    return g->out_weight ? g->out_weight[v] : (double)g->outdeg[v];
}

/* The end of row v in either pass below, with x (its new rank), y_in, y_out, res and dang in
 * scope: SCALED whether v has a nonzero scale W (else it is dangling, and x adds to dang). */
#define KILN_PR_ROW_END(T, SCALED, W)                                                                  \
    do {                                                                                               \
        double old = (SCALED) ? (double)y_in[v] * (W) : (double)y_in[v];                               \
        res += fabs(x - old);                                                                          \
        if (SCALED) {                                                                                  \
            y_out[v] = (T)(x / (W));                                                                   \
        } else {                                                                                       \
            y_out[v] = (T)x;                                                                           \
            dang += x;                                                                                 \
        }                                                                                              \
    } while (0)

/* One plain pull pass over rows [v0, v1): y_out from y_in (storage type T); returns the L1 change,
 * *dangling_out the new dangling mass, both over those rows. */
#define KILN_PR_PASS_PLAIN(NAME, T)                                                                    \
    static double NAME(const kiln_graph *g, const T *y_in, T *y_out, int64_t v0, int64_t v1, double damping,   \
                       double dangling, double *dangling_out)                                          \
    {                                                                                                  \
        const double base = kiln_pr_coefficients(damping, dangling, 0, 0).uniform / (double)g->n;      \
        const uint64_t *off = g->offsets;                                                              \
        const uint32_t *src = g->sources, *od = g->outdeg;                                             \
        double res = 0, dang = 0;                                                                      \
        for (int64_t v = v0; v < v1; v++) {                                                            \
            double s = 0;                                                                              \
            for (uint64_t j = off[v]; j < off[v + 1]; j++) s += (double)y_in[src[j]];                  \
            double x = damping * s + base;                                                             \
            uint32_t d = od[v];                                                                        \
            KILN_PR_ROW_END(T, d, (double)d);                                                          \
        }                                                                                              \
        *dangling_out = dang;                                                                          \
        return res;                                                                                    \
    }
KILN_PR_PASS_PLAIN(pass_plain_f64, double)
KILN_PR_PASS_PLAIN(pass_plain_f32, float)

/* The general pass: edge weights and the personalization / dangling vectors where given. */
#define KILN_PR_PASS_GENERAL(NAME, T)                                                                  \
    static double NAME(const kiln_graph *g, const kiln_pr_problem *p, const T *y_in, T *y_out, int64_t v0,     \
                       int64_t v1, double dangling, double *dangling_out)                              \
    {                                                                                                  \
        /* p and q as vectors, 1/n supplied below where one is absent: nothing folded */               \
        const kiln_pr_coef c = kiln_pr_coefficients(p->damping, dangling, 1, 1);                       \
        const double d = c.d, uniform = 1.0 / (double)g->n, dmass = c.cq, teleport = c.cp;             \
        const double *pv = p->personalization, *qv = p->dangling ? p->dangling : p->personalization;  \
        const double *w = g->weights;                                                                  \
        const uint64_t *off = g->offsets;                                                              \
        const uint32_t *src = g->sources;                                                              \
        double res = 0, dang = 0;                                                                      \
        for (int64_t v = v0; v < v1; v++) {                                                            \
            double s = 0;                                                                              \
            if (w) {                                                                                   \
                for (uint64_t j = off[v]; j < off[v + 1]; j++) s += w[j] * (double)y_in[src[j]];       \
            } else {                                                                                   \
                for (uint64_t j = off[v]; j < off[v + 1]; j++) s += (double)y_in[src[j]];              \
            }                                                                                          \
            double x = d * s + dmass * (qv ? qv[v] : uniform) + teleport * (pv ? pv[v] : uniform);     \
            double W = out_scale(g, v);                                                                \
            KILN_PR_ROW_END(T, W > 0, W);                                                              \
        }                                                                                              \
        *dangling_out = dang;                                                                          \
        return res;                                                                                    \
    }
KILN_PR_PASS_GENERAL(pass_general_f64, double)
KILN_PR_PASS_GENERAL(pass_general_f32, float)

static int is_plain(const kiln_graph *g, const kiln_pr_problem *p)
{
    return !g->weights && !p->personalization && !p->dangling;
}

/* The loops below run on kiln_par_for (core/par.h): an iteration is a loop whose caller never
 * waits for a thread the scheduler has not run, where an OpenMP region waited for every member of
 * its team. A loop's rows are cut into chunks of ROWS (more on huge graphs, MAX_CHUNKS at most),
 * each with its own partial sums, added in chunk order afterwards: the result does not depend on
 * the thread count. */
#define ROWS 2048
#define MAX_CHUNKS (UINT64_C(1) << 16)

typedef struct pr_rows {
    int64_t v0, v1, rows; /* the loop's rows, and rows a chunk */
    uint64_t chunks;
} pr_rows;

static pr_rows rows_of(int64_t v0, int64_t v1)
{
    const uint64_t n = v1 > v0 ? (uint64_t)(v1 - v0) : 0;
    const uint64_t rows = kiln_par_chunk(n, ROWS, MAX_CHUNKS);
    return (pr_rows){.v0 = v0, .v1 = v1, .rows = (int64_t)rows, .chunks = (n + rows - 1) / rows};
}

static void chunk_rows(const pr_rows *r, uint64_t c, int64_t *a, int64_t *b)
{
    *a = r->v0 + (int64_t)c * r->rows;
    *b = r->v1 - *a < r->rows ? r->v1 : *a + r->rows;
}

/* One pass, either storage; part: two sums a chunk (L1 change, dangling mass). */
typedef struct pr_pass {
    const kiln_graph *g;
    const kiln_pr_problem *p;
    const void *y_in;
    void *y_out;
    int single, plain;
    double dangling;
    pr_rows r;
    double *part;
} pr_pass;

static void pass_chunk(void *arg, uint64_t c, int slot)
{
    const pr_pass *j = arg;
    (void)slot;
    int64_t a, b;
    chunk_rows(&j->r, c, &a, &b);
    double *out = j->part + 2 * c;
    if (j->single)
        out[0] = j->plain ? pass_plain_f32(j->g, j->y_in, j->y_out, a, b, j->p->damping, j->dangling, &out[1])
                          : pass_general_f32(j->g, j->p, j->y_in, j->y_out, a, b, j->dangling, &out[1]);
    else
        out[0] = j->plain ? pass_plain_f64(j->g, j->y_in, j->y_out, a, b, j->p->damping, j->dangling, &out[1])
                          : pass_general_f64(j->g, j->p, j->y_in, j->y_out, a, b, j->dangling, &out[1]);
}

/* part: room for 2 * rows_of(v0, v1).chunks sums. */
static double pass(const kiln_graph *g, const kiln_pr_problem *p, int single, const void *y_in, void *y_out,
                   int64_t v0, int64_t v1, double dangling, double *dangling_out, int threads, double *part)
{
    pr_pass j = {.g = g,
                 .p = p,
                 .y_in = y_in,
                 .y_out = y_out,
                 .single = single,
                 .plain = is_plain(g, p),
                 .dangling = dangling,
                 .r = rows_of(v0, v1),
                 .part = part};
    kiln_par_for(threads, j.r.chunks, pass_chunk, &j);
    double res = 0, dang = 0;
    for (uint64_t c = 0; c < j.r.chunks; c++) {
        res += part[2 * c];
        dang += part[2 * c + 1];
    }
    *dangling_out = dang;
    return res;
}

/* The rows this process computes: all of them, or its part of a split. */
static void row_range(const kiln_graph *g, const kiln_pr_split *split, int64_t *v0, int64_t *v1)
{
    *v0 = split ? (int64_t)split->v0 : 0;
    *v1 = split ? (int64_t)split->v1 : (int64_t)g->n;
}

/* After a pass: with a split, completes y_out from the other parts and sums the L1 change and the
 * dangling mass over them; *stop in: this part asks to stop (interrupt), out: some part does.
 * Returns 0, or -1 when the exchange failed. */
static int meet(const kiln_pr_split *split, void *y_out, size_t elem, double *res, double *dang, int *stop,
                double *spent)
{
    if (!split) return 0;
    double sums[2] = {*res, *dang}, t = kiln_now();
    if (split->exchange(split->arg, y_out, elem, sums, stop) != 0) return -1;
    *spent += kiln_now() - t;
    *res = sums[0];
    *dang = sums[1];
    return 0;
}

/* With a split, every part learns whether any part failed before the iterations start (so none
 * waits in an exchange the failed one never joins); returns nonzero when one did. */
static int all_ready(const kiln_pr_split *split, int failed)
{
    if (!split) return failed;
    double sums[2] = {0, 0};
    int stop = failed;
    if (split->exchange(split->arg, NULL, 0, sums, &stop) != 0) return 1;
    return stop;
}

/* The loops over whole vectors around the iterations, as chunks of rows too. */
enum { VEC_TO_Y, VEC_NARROW, VEC_FROM_Y_F32, VEC_FROM_Y_F64 };
typedef struct pr_vec {
    const kiln_graph *g;
    int kind;
    const double *x; /* VEC_TO_Y: x (NULL: uniform) */
    double *y; /* VEC_TO_Y: y out; VEC_NARROW: in; VEC_FROM_Y_*: ranks out */
    const void *in; /* VEC_FROM_Y_*: y */
    float *narrow; /* VEC_NARROW: out */
    pr_rows r;
    double *part; /* VEC_TO_Y: a chunk's dangling mass */
} pr_vec;

static void vec_chunk(void *arg, uint64_t c, int slot)
{
    const pr_vec *j = arg;
    const kiln_graph *g = j->g;
    (void)slot;
    int64_t a, b;
    chunk_rows(&j->r, c, &a, &b);
    switch (j->kind) {
    case VEC_TO_Y: {
        const double uniform = 1.0 / (double)g->n;
        double dang = 0;
        for (int64_t v = a; v < b; v++) {
            double W = out_scale(g, v), xv = j->x ? j->x[v] : uniform;
            j->y[v] = W > 0 ? xv / W : xv;
            if (!(W > 0)) dang += xv;
        }
        j->part[c] = dang;
        break;
    }
    case VEC_NARROW:
        for (int64_t v = a; v < b; v++) j->narrow[v] = (float)j->y[v];
        break;
    case VEC_FROM_Y_F32: {
        const float *af = j->in;
        for (int64_t v = a; v < b; v++) {
            double W = out_scale(g, v);
            j->y[v] = W > 0 ? (double)af[v] * W : (double)af[v];
        }
        break;
    }
    default: {
        const double *ad = j->in;
        for (int64_t v = a; v < b; v++) {
            double W = out_scale(g, v);
            j->y[v] = W > 0 ? ad[v] * W : ad[v];
        }
    }
    }
}

static void vec_loop(const kiln_graph *g, int kind, const double *x, double *y, const void *in, float *narrow,
                     int threads, double *part)
{
    pr_vec j = {
        .g = g, .kind = kind, .x = x, .y = y, .in = in, .narrow = narrow, .r = rows_of(0, (int64_t)g->n), .part = part};
    kiln_par_for(threads, j.r.chunks, vec_chunk, &j);
}

/* y from x (x NULL: the uniform vector), *dangling the mass of x on dangling vertices; part: room
 * for rows_of(0, n).chunks sums. */
static void to_y(const kiln_graph *g, const double *x, double *y, double *dangling, int threads, double *part)
{
    vec_loop(g, VEC_TO_Y, x, y, NULL, NULL, threads, part);
    double dang = 0;
    for (uint64_t c = 0; c < rows_of(0, (int64_t)g->n).chunks; c++) dang += part[c];
    *dangling = dang;
}

/* Room for the partial sums of every loop over rows [0, n) or a part of them. */
static double *parts_for(const kiln_graph *g)
{
    return malloc((2 * rows_of(0, (int64_t)g->n).chunks + 1) * sizeof(double));
}

kiln_status kiln_pagerank_cpu(kiln_ctx *ctx, const kiln_graph *g, const kiln_pr_problem *p, int single,
                              double *ranks, kiln_pr_cpu_stats *stats)
{
    return kiln_pagerank_cpu_split(ctx, g, p, single, NULL, ranks, stats);
}

/* The iterations, in either storage: y ping-pongs between a and b, two float vectors of our own
 * (single) or ranks and one double vector; x is written into ranks at the end. */
kiln_status kiln_pagerank_cpu_split(kiln_ctx *ctx, const kiln_graph *g, const kiln_pr_problem *p, int single,
                                    const kiln_pr_split *split, double *ranks, kiln_pr_cpu_stats *stats)
{
    const int threads = kiln_graph_threads_for(ctx, g->n + g->m);
    const int64_t n = (int64_t)g->n;
    const size_t elem = single ? sizeof(float) : sizeof(double);
    int64_t v0, v1;
    row_range(g, split, &v0, &v1);
    void *own = single ? malloc((size_t)n * elem) : NULL, *y = malloc((size_t)n * elem);
    double *part = parts_for(g);
    const int nomem = !y || (single && !own) || !part;
    if (all_ready(split, nomem)) {
        free(own);
        free(y);
        free(part);
        return nomem ? kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %lld ranks", (long long)n)
                     : kiln_fail(ctx, KILN_ERR_DEVICE, "another process of the run failed");
    }
    void *a = single ? own : (void *)ranks, *b = y;
    double dang;
    /* the first y in float64 (into ranks, whose room is free until the end), narrowed for float32 */
    to_y(g, p->nstart, ranks, &dang, threads, part);
    if (single) vec_loop(g, VEC_NARROW, NULL, ranks, NULL, a, threads, NULL);
    const double threshold = (double)n * p->tol;
    double t0 = kiln_now(), res = 0, spent = 0;
    int it = 0, converged = 0;
    kiln_status st = KILN_OK;
    while (it < p->max_iter) {
        int stop = kiln_ctx_interrupt_requested(ctx);
        if (stop && !split) {
            st = kiln_interrupted(ctx);
            break;
        }
        res = pass(g, p, single, a, b, v0, v1, dang, &dang, threads, part);
        if (meet(split, b, elem, &res, &dang, &stop, &spent) != 0 || stop) {
            st = stop ? kiln_interrupted(ctx) : kiln_fail(ctx, KILN_ERR_DEVICE, "the exchange between processes failed");
            break;
        }
        void *t = a;
        a = b;
        b = t;
        it++;
        /* once an iteration, as the interrupt poll above */
        kiln_ctx_report_residual(ctx, "pagerank", "iterations", (uint64_t)it, (uint64_t)p->max_iter, res);
        if (res < threshold) {
            converged = 1;
            break;
        }
    }
    if (st == KILN_OK) {
        double secs = kiln_now() - t0;
        /* x from y, into ranks (a may be ranks itself: each element is read before it is written) */
        vec_loop(g, single ? VEC_FROM_Y_F32 : VEC_FROM_Y_F64, NULL, ranks, a, NULL, threads, NULL);
        *stats = (kiln_pr_cpu_stats){
            .iterations = it, .converged = converged, .residual = res, .seconds = secs, .exchange_seconds = spent};
    }
    free(own);
    free(y);
    free(part);
    return st;
}

double kiln_pagerank_cpu_residual(const kiln_graph *g, const kiln_pr_problem *p, const double *x, int threads)
{
    return kiln_pagerank_cpu_residual_rows(g, p, x, 0, g->n, threads);
}

double kiln_pagerank_cpu_residual_rows(const kiln_graph *g, const kiln_pr_problem *p, const double *x, uint64_t v0,
                                       uint64_t v1, int threads)
{
    const int64_t n = (int64_t)g->n;
    double *y = malloc((size_t)n * sizeof *y), *y2 = malloc((size_t)n * sizeof *y2), *part = parts_for(g);
    if (!y || !y2 || !part) {
        free(y);
        free(y2);
        free(part);
        return -1;
    }
    double dang, dang2;
    to_y(g, x, y, &dang, threads, part);
    double res = pass(g, p, 0, y, y2, (int64_t)v0, (int64_t)v1, dang, &dang2, threads, part);
    free(y);
    free(y2);
    free(part);
    return res;
}
