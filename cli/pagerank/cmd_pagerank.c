/* kiln pagerank: PageRank of a graph file or of a generated RMAT graph. Also the PageRank part of
 * `kiln bench --algo pagerank`. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "common/cli.h"
#include "common/interrupt.h"
#include "common/json_out.h"
#include "common/opts.h"
#include "common/progress.h"
#include "pr_dist.h"
#include "pr_vectors.h"

typedef struct pr_args {
    const char *graph, *output, *save_csr, *device;
    const char *personalization, *nstart, *dangling; /* vector files, or NULL */
    int rmat_scale, edge_factor, top, threads;
    cli_output out;
    uint64_t seed;
    unsigned flags;
    kiln_graph_format format;
    kiln_pagerank_options opt;
} pr_args;

typedef struct scored {
    double score;
    uint64_t index;
} scored;

/* Higher score first; ties by vertex index (= by original id). */
static int better(const scored *a, const scored *b)
{
    return a->score > b->score || (a->score == b->score && a->index < b->index);
}

static int cmp_scored(const void *pa, const void *pb)
{
    const scored *a = pa, *b = pb;
    return better(a, b) ? -1 : better(b, a) ? 1 : 0;
}

/* The k best of n scores, best first. */
static scored *top_k(const double *ranks, uint64_t n, uint64_t k)
{
    if (k > n) k = n;
    scored *t = malloc((k ? k : 1) * sizeof *t);
    if (!t) return NULL;
    if (k > 4096) {
        scored *all = malloc(n * sizeof *all);
        if (!all) {
            free(t);
            return NULL;
        }
        for (uint64_t i = 0; i < n; i++) all[i] = (scored){ranks[i], i};
        qsort(all, n, sizeof *all, cmp_scored);
        memcpy(t, all, k * sizeof *t);
        free(all);
        return t;
    }
    uint64_t have = 0;
    for (uint64_t i = 0; i < n && k; i++) {
        scored c = {ranks[i], i};
        if (have == k && !better(&c, &t[k - 1])) continue;
        uint64_t j = have < k ? have++ : k - 1;
        for (; j > 0 && better(&c, &t[j - 1]); j--) t[j] = t[j - 1];
        t[j] = c;
    }
    return t;
}

enum { FILE_MODE = 1, RMAT_MODE = 2 };

/* A named value among choices: 0 with *out set, else the exit code. */
static int choose(const char *opt, const char *v, const char *const names[], const int values[], int n, int *out)
{
    char list[128] = "";
    for (int i = 0; i < n; i++) {
        if (strcmp(v, names[i]) == 0) {
            *out = values[i];
            return 0;
        }
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
    }
    return cli_error(EXIT_USAGE, "pagerank", "bad %s '%s' (expected %s)", opt, v, list);
}

static int parse_args(int argc, char **argv, pr_args *a)
{
    const char *cmd = "pagerank", *format = NULL, *precision = NULL, *kernel = NULL;
    const char *graph[1] = {NULL};
    uint64_t scale = 0, edge_factor = 16, max_iter = 0, top = 0, threads = 0, repeat = 1;
    int undirected = 0, drop = 0, no_reorder = 0, weighted = 0;
    memset(a, 0, sizeof *a);
    a->device = "auto";
    a->seed = 1;
    kiln_pagerank_options_init(&a->opt);
    cli_option opts[] = {
        {"--rmat", OPT_U64, &scale, "SCALE", "a Graph500 RMAT graph of 2^SCALE vertices instead of GRAPH", .lo = 1,
         .hi = 30},
        {"--edge-factor", OPT_U64, &edge_factor, "F", "RMAT edges per vertex (default 16)", .modes = RMAT_MODE, .lo = 1,
         .hi = 1024},
        {"--seed", OPT_U64, &a->seed, "S", "RMAT seed (default 1)", .modes = RMAT_MODE, .hi = UINT64_MAX},
        {"--format", OPT_STR, &format, "auto|snap|mtx|csr", "GRAPH's format (default auto)", .modes = FILE_MODE},
        {"--undirected", OPT_FLAG, &undirected, NULL, "take every edge u v also as v u", .modes = 0},
        {"--drop-self-loops", OPT_FLAG, &drop, NULL, "drop self loops", .modes = 0},
        {"--weighted", OPT_FLAG, &weighted, NULL, "split ranks by edge weight (3rd column, MTX values; RMAT: random)",
         .modes = 0},
        {"--personalization", OPT_STR, &a->personalization, "FILE", "teleport distribution: 'node<TAB>value' lines (default uniform)",
         .modes = 0},
        {"--dangling", OPT_STR, &a->dangling, "FILE", "where dangling nodes' rank goes, same format (default the personalization)",
         .modes = 0},
        {"--nstart", OPT_STR, &a->nstart, "FILE", "starting vector, same format (default uniform)", .modes = 0},
        {"--damping", OPT_REAL, &a->opt.damping, "D", "damping factor, 0 <= D < 1 (default " CLI_STR(KILN_PAGERANK_DAMPING_DEFAULT) ")", .modes = 0, .min = 0,
         .max = 1, .below_max = 1},
        {"--tol", OPT_REAL, &a->opt.tol, "T", "L1 tolerance per node (default " CLI_STR(KILN_PAGERANK_TOL_DEFAULT) "; 0 runs --max-iter iterations)",
         .modes = 0, .min = 0, .max = INFINITY},
        {"--max-iter", OPT_U64, &max_iter, "N", "most iterations (default " CLI_STR(KILN_PAGERANK_MAX_ITER_DEFAULT) ")", .lo = 1,
         .hi = KILN_PAGERANK_MAX_ITER_LIMIT},
        {"--top", OPT_U64, &top, "K", "print rank<TAB>node<TAB>score of the K best", .hi = 0x7fffffff},
        {"--output", OPT_STR, &a->output, "FILE", "write node<TAB>score for every node", .modes = 0},
        {"--save-csr", OPT_STR, &a->save_csr, "FILE", "write the graph as a CSR cache", .modes = 0},
        {"--device", OPT_DEVICE, &a->device, "auto|cpu|cuda|cuda:I|cuda:I,J|cuda:all", "where to run (default auto); a set splits the rows over its GPUs", .modes = 0},
        {"--threads", OPT_U64, &threads, "N", "CPU threads (0: one per core)", .hi = 4096},
        {"--precision", OPT_STR, &precision, "float32|float64", "rank precision (default: float64 on the CPU, float32 on a GPU)", .modes = 0},
        {"--no-reorder", OPT_FLAG, &no_reorder, NULL, "GPU: keep the vertex order", .modes = 0},
        {"--gpu-kernel", OPT_STR, &kernel, "auto|grid|cluster",
         "GPU: iteration kernel (default auto: grid; cluster is experimental)", .modes = 0},
        {"--repeat", OPT_U64, &repeat, "N", "run the iterations N times and report the median time", .lo = 1, .hi = 1000},
        CLI_OPT_JSON(&a->out, 0),
        CLI_OPT_PROGRESS(&a->out, 0),
    };
    cli_command c = CLI_COMMAND(cmd, "(GRAPH | --rmat SCALE) [options]",
                                "GRAPH: SNAP edge list ('src dst' lines, '#' comments), Matrix Market coordinate file,\n"
                                "either optionally gzip-compressed, or a CSR cache written by --save-csr. Duplicate\n"
                                "edges are merged (--weighted: their weights summed); self loops are kept unless\n"
                                "--drop-self-loops (RMAT graphs drop both). With --weighted a node's rank is split in\n"
                                "proportion to its out-edge weights (finite, >= 0; a node whose out-weights sum to 0\n"
                                "is dangling). Vector files: 'node<TAB>value' lines (or spaces), original node ids,\n"
                                "'#' comments, values >= 0, normalized to sum 1; nodes not listed get 0.\n"
                                "With neither --top nor --output, the top 10 are printed.\n",
                                opts);
    c.pos = graph;
    c.max_pos = 1;
    int code = cli_parse(&c, argc, argv);
    if (code) return code;
    if ((code = cli_output_start(&c, &a->out)) != 0) return code;
    a->graph = graph[0];
    a->rmat_scale = cli_given(&c, "--rmat") ? (int)scale : -1;
    if ((a->graph != NULL) == (a->rmat_scale >= 0))
        return cli_error(EXIT_USAGE, cmd, "give exactly one of GRAPH or --rmat SCALE (see kiln pagerank --help)");
    if ((code = cli_check_mode(&c, a->graph ? FILE_MODE : RMAT_MODE, a->graph ? "a graph file" : "--rmat")) != 0)
        return code;
    static const char *const formats[] = {"auto", "snap", "mtx", "csr"};
    static const int format_ids[] = {KILN_GRAPH_AUTO, KILN_GRAPH_SNAP, KILN_GRAPH_MTX, KILN_GRAPH_CSR};
    int v = KILN_GRAPH_AUTO;
    if (format && (code = choose("--format", format, formats, format_ids, 4, &v)) != 0) return code;
    a->format = (kiln_graph_format)v;
    static const char *const precisions[] = {"float32", "float64"};
    static const int precision_ids[] = {KILN_PRECISION_FLOAT32, KILN_PRECISION_FLOAT64};
    v = a->opt.precision;
    if (precision && (code = choose("--precision", precision, precisions, precision_ids, 2, &v)) != 0) return code;
    a->opt.precision = (kiln_precision)v;
    static const char *const kernels[] = {"auto", "grid", "cluster"};
    static const int kernel_ids[] = {KILN_PR_KERNEL_AUTO, KILN_PR_KERNEL_GRID, KILN_PR_KERNEL_CLUSTER};
    v = a->opt.kernel;
    if (kernel && (code = choose("--gpu-kernel", kernel, kernels, kernel_ids, 3, &v)) != 0) return code;
    a->opt.kernel = (kiln_pagerank_kernel)v;
    if (max_iter) a->opt.max_iter = (int)max_iter;
    a->edge_factor = (int)edge_factor;
    a->threads = (int)threads;
    a->top = cli_given(&c, "--top") ? (int)top : -1;
    a->flags = (undirected ? KILN_GRAPH_UNDIRECTED : 0u) | (drop ? KILN_GRAPH_DROP_SELF_LOOPS : 0u) |
               (weighted ? KILN_GRAPH_WEIGHTED : 0u);
    a->opt.reorder = !no_reorder;
    a->opt.repeat = (int)repeat;
    if (a->top < 0 && !a->output && !a->out.json) a->top = 10;
    return 0;
}

/* Writes node<TAB>score lines into out and finishes it (kiln_output_finish): KILN_OK, or the
 * failure with the file removed. */
static kiln_status write_ranks(kiln_ctx *ctx, kiln_output_file *out, const kiln_graph *g, const double *ranks,
                               uint64_t n, const char *fmt)
{
    errno = 0;
    int ok = 1;
    double t0 = cli_now();
    for (uint64_t i = 0; i < n && ok; i++) {
        if (cli_interrupted()) { /* a partial file is abandoned: the finish removes it */
            ok = 0;
            errno = EINTR;
            break;
        }
        if ((i & 0xffff) == 0 && progress_due()) {
            char eta[32] = "";
            double el = cli_now() - t0;
            if (i && el > 0) format_eta((double)(n - i) * el / (double)i, eta, sizeof eta);
            progress_show("writing %s: %llu of %llu nodes (%.0f%%)%s%s", out->path, (unsigned long long)i,
                          (unsigned long long)n, 100.0 * (double)i / (double)n, eta[0] ? ", " : "", eta);
        }
        ok = fprintf(out->fp, "%llu\t", (unsigned long long)kiln_graph_node_id(g, i)) > 0 &&
             fprintf(out->fp, fmt, ranks[i]) > 0 && fputc('\n', out->fp) != EOF;
    }
    kiln_status st = kiln_output_finish(ctx, out, ok, errno);
    progress_clear();
    return st;
}

/* The output files of a run (--output, --save-csr), opened before any work so that a path that
 * cannot be written is reported at once, and committed together at the end: a failed or
 * interrupted run replaces none of them. */
typedef struct pr_outputs {
    kiln_output_file ranks, csr;
    int have_ranks, have_csr;
} pr_outputs;

static int open_outputs(kiln_ctx *ctx, const pr_args *a, pr_outputs *o)
{
    memset(o, 0, sizeof *o);
    kiln_status st = KILN_OK;
    if (a->output && (st = kiln_output_open(ctx, a->output, &o->ranks)) == KILN_OK) o->have_ranks = 1;
    if (st == KILN_OK && a->save_csr && (st = kiln_output_open(ctx, a->save_csr, &o->csr)) == KILN_OK) o->have_csr = 1;
    return st == KILN_OK ? EXIT_OK : cli_fail("pagerank", ctx, st);
}

static int commit_outputs(kiln_ctx *ctx, pr_outputs *o, const kiln_graph *g, const double *ranks, uint64_t n,
                          const char *fmt)
{
    kiln_status st = KILN_OK;
    kiln_output_file *files[2];
    int k = 0;
    if (o->have_ranks && (st = write_ranks(ctx, &o->ranks, g, ranks, n, fmt)) == KILN_OK) files[k++] = &o->ranks;
    if (st == KILN_OK && o->have_csr && (st = kiln_graph_write_csr(ctx, g, &o->csr)) == KILN_OK) files[k++] = &o->csr;
    if (st == KILN_OK && k) st = kiln_output_commit_all(ctx, files, k);
    return st == KILN_OK ? EXIT_OK : cli_fail("pagerank", ctx, st);
}

static void discard_outputs(pr_outputs *o)
{
    if (o->have_ranks) kiln_output_discard(&o->ranks);
    if (o->have_csr) kiln_output_discard(&o->csr);
}

/* The vector files of a over g into the options (NULL where not given); 0 or the exit code. */
static int get_vectors(const pr_args *a, const kiln_graph *g, double *vec[3], kiln_pagerank_options *opt)
{
    const char *paths[3] = {a->personalization, a->dangling, a->nstart};
    static const char *const names[3] = {"personalization", "dangling", "nstart"};
    for (int i = 0; i < 3; i++) {
        if (!paths[i]) continue;
        int code = pr_vector_read("pagerank", paths[i], names[i], g, &vec[i]);
        if (code) return code;
    }
    opt->personalization = vec[0];
    opt->dangling = vec[1];
    opt->nstart = vec[2];
    return 0;
}

/* Loads or generates the graph of a; prints and returns an exit code on failure. */
static int get_graph(kiln_ctx *ctx, kiln_dist *dist, const pr_args *a, kiln_graph **g, double *load_s)
{
    double t0 = cli_now();
    kiln_status st;
    if (dist)
        st = a->graph ? kiln_dist_graph_load(ctx, dist, a->graph, a->format, a->flags, g)
                      : kiln_dist_graph_rmat(ctx, dist, a->rmat_scale, a->edge_factor, a->seed, a->flags, g);
    else
        st = a->graph ? kiln_graph_load(ctx, a->graph, a->format, a->flags, g)
                      : kiln_graph_rmat(ctx, a->rmat_scale, a->edge_factor, a->seed, a->flags, g);
    *load_s = cli_now() - t0;
    if (st != KILN_OK) return cli_fail("pagerank", ctx, st);
    return EXIT_OK;
}

int cmd_pagerank(int argc, char **argv)
{
    const char *cmd = "pagerank";
    pr_args a;
    /* under mpirun / srun: one process of several (process 0 prints), else alone as always */
    kiln_dist *dist = NULL;
    int code = pr_dist_start(cmd, &dist);
    if (code) return json_end(code);
    code = parse_args(argc, argv, &a);
    const int help = code == CLI_HELP;
    if (help) code = EXIT_OK;
    if (!code && !help && dist && a.save_csr)
        code = cli_error(EXIT_USAGE, cmd, "--save-csr is not available across processes (run without mpirun)");
    code = pr_dist_agree(cmd, dist, code);
    if (code || help) {
        pr_dist_end(dist);
        return json_end(code);
    }
    /* under mpirun each process drives one device: "cuda" and "auto" mean the GPU of its number
     * on its host (modulo the GPUs there) */
    char rank_gpu[32];
    if (dist && (strcmp(a.device, "cuda") == 0 || (strcmp(a.device, "auto") == 0 && kiln_cuda_device_count() > 0))) {
        snprintf(rank_gpu, sizeof rank_gpu, "cuda:%d", kiln_dist_local_rank(dist) % kiln_cuda_device_count());
        a.device = rank_gpu;
    }
    kiln_ctx *ctx = NULL;
    if (dist && (strchr(a.device, ',') || strcmp(a.device, "cuda:all") == 0))
        code = cli_error(EXIT_USAGE, cmd, "under mpirun each process drives one device: give --device cuda (the GPU of "
                                          "its local rank), cuda:N or cpu, not the set %s", a.device);
    else
        ctx = cli_open(cmd, a.device, a.threads, &code);
    code = pr_dist_agree(cmd, dist, ctx ? EXIT_OK : code);
    if (!ctx || code) {
        kiln_ctx_free(ctx);
        pr_dist_end(dist);
        return json_end(code);
    }
    progress_attach(ctx);
    kiln_graph *g = NULL;
    double *ranks = NULL, *vec[3] = {NULL, NULL, NULL};
    scored *top = NULL;
    double load_s = 0;
    pr_outputs outs; /* process 0 writes them */
    memset(&outs, 0, sizeof outs);
    code = pr_dist_agree(cmd, dist, pr_dist_root(dist) ? open_outputs(ctx, &a, &outs) : EXIT_OK);
    if (code) goto done;
    code = pr_dist_agree(cmd, dist, get_graph(ctx, dist, &a, &g, &load_s));
    if (code) goto done;
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    ranks = malloc((info.nodes ? info.nodes : 1) * sizeof *ranks);
    code = pr_dist_agree(cmd, dist, ranks ? EXIT_OK
                                          : cli_error(EXIT_DEVICE, cmd, "out of memory for %llu ranks",
                                                      (unsigned long long)info.nodes));
    if (code) goto done;
    code = pr_dist_agree(cmd, dist, get_vectors(&a, g, vec, &a.opt));
    if (code) goto done;
    kiln_pagerank_result res;
    kiln_status st = dist ? kiln_dist_pagerank(ctx, dist, g, &a.opt, ranks, &res) : kiln_pagerank(ctx, g, &a.opt, ranks, &res);
    progress_clear();
    if (!pr_dist_root(dist)) goto done; /* process 0 reports */
    if (st != KILN_OK && st != KILN_NOT_FOUND) {
        code = cli_fail(cmd, ctx, st);
        goto done;
    }
    if (st == KILN_NOT_FOUND) code = cli_error(EXIT_NOT_FOUND, cmd, "warning: %s", kiln_last_error(ctx));
    const int f32 = res.precision == KILN_PRECISION_FLOAT32;
    const char *fmt = f32 ? "%.9g" : "%.17g";
    int w = commit_outputs(ctx, &outs, g, ranks, info.nodes, fmt);
    if (w) {
        code = w;
        goto done;
    }
    uint64_t k = a.top > 0 ? (uint64_t)a.top : 0;
    if (k > info.nodes) k = info.nodes;
    if (k) {
        top = top_k(ranks, info.nodes, k);
        if (!top) {
            code = cli_error(EXIT_DEVICE, cmd, "out of memory");
            goto done;
        }
    }
    if (a.out.json) {
        char rmat[64];
        snprintf(rmat, sizeof rmat, "rmat:%d:%d:%llu", a.rmat_scale, a.edge_factor, (unsigned long long)a.seed);
        json_object(NULL);
        json_str("graph", a.graph ? a.graph : rmat);
        json_u64("nodes", info.nodes);
        json_u64("edges", info.edges);
        json_u64("edges_read", info.edges_read);
        json_u64("self_loops_removed", info.self_loops_removed);
        json_u64("duplicates_removed", info.duplicates_removed);
        json_u64("self_loops", info.self_loops);
        json_u64("dangling_nodes", info.dangling);
        json_str("device", kiln_ctx_device_name(ctx));
        json_str("backend", kiln_ctx_backend(ctx) == KILN_BACKEND_CUDA ? "cuda" : "cpu");
        json_str("precision", f32 ? "float32" : "float64");
        json_num("damping", a.opt.damping, "%.15g");
        json_num("tol", a.opt.tol, "%.15g");
        json_int("max_iter", a.opt.max_iter);
        json_int("iterations", res.iterations);
        json_bool("converged", res.converged);
        json_num("residual", res.residual, "%.6e");
        json_num("seconds", res.seconds, "%.9f");
        json_num("seconds_per_iteration", res.seconds_per_iteration, "%.9e");
        json_num("edges_per_second", res.edges_per_second, "%.6e");
        json_num("load_seconds", load_s, "%.6f");
        json_num("build_seconds", info.build_seconds, "%.6f");
        json_bool("built_on_gpu", info.built_on_gpu);
        json_num("setup_seconds", res.setup_seconds, "%.6f");
        json_num("verify_residual", res.verify_residual, "%.6e");
        json_bool("reorder", a.opt.reorder);
        json_str("kernel", kiln_ctx_backend(ctx) != KILN_BACKEND_CUDA     ? "cpu"
                           : res.kernel == KILN_PR_KERNEL_CLUSTER ? "cluster"
                           : res.kernel == KILN_PR_KERNEL_PARTS   ? "parts"
                                                                  : "grid");
        json_int("devices", kiln_ctx_device_count(ctx));
        json_num("exchange_seconds", res.exchange_seconds, "%.9f");
        static const char *const exchanges[] = {"none", "peer copies", "host", "nccl"};
        json_str("exchange", exchanges[(unsigned)res.exchange < 4 ? res.exchange : 0]);
        if (res.parts > 0) {
            json_array("parts");
            for (int i = 0; i < res.parts && i < KILN_PR_MAX_PARTS; i++) {
                json_object(NULL);
                json_u64("edges", res.part_edges[i]);
                json_u64("peak_memory_bytes", res.part_peak_bytes[i]);
                json_close();
            }
            json_close();
        }
        json_int("repeat", a.opt.repeat);
        json_bool("weighted", (a.flags & KILN_GRAPH_WEIGHTED) != 0);
        json_str("personalization", a.personalization);
        json_str("dangling", a.dangling);
        json_str("nstart", a.nstart);
        if (k) {
            json_array("top");
            for (uint64_t i = 0; i < k; i++) {
                json_object(NULL);
                json_u64("rank", i + 1);
                json_u64("node", kiln_graph_node_id(g, top[i].index));
                json_num("score", top[i].score, fmt);
                json_close();
            }
            json_close();
        }
    } else {
        for (uint64_t i = 0; i < k; i++) {
            printf("%llu\t%llu\t", (unsigned long long)i + 1, (unsigned long long)kiln_graph_node_id(g, top[i].index));
            printf(fmt, top[i].score);
            putchar('\n');
        }
        char rate[32], exchange[64] = "";
        format_rate(res.edges_per_second, "edges/s", rate, sizeof rate);
        if (res.exchange_seconds > 0 && res.seconds > 0)
            snprintf(exchange, sizeof exchange, ", %.0f%% of it exchanging%s", 100.0 * res.exchange_seconds / res.seconds,
                     res.exchange == KILN_PR_EXCHANGE_NCCL ? " through NCCL" : "");
        fprintf(stderr,
                "kiln pagerank: %llu nodes, %llu edges; %d iterations, L1 change %.3g%s; %.4g ms/iteration (%s%s) "
                "on %s, %s\n",
                (unsigned long long)info.nodes, (unsigned long long)info.edges, res.iterations, res.residual,
                res.converged ? ", converged" : "", res.seconds_per_iteration * 1e3, rate, exchange,
                kiln_ctx_device_name(ctx), f32 ? "float32" : "float64");
    }
done:
    discard_outputs(&outs);
    for (int i = 0; i < 3; i++) free(vec[i]);
    free(top);
    free(ranks);
    progress_end();
    kiln_graph_free(g);
    kiln_ctx_free(ctx);
    code = pr_dist_agree(cmd, dist, code);
    pr_dist_end(dist);
    return json_end(code);
}

kiln_status bench_graph(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a)
{
    (void)kind;
    /* a graph that fills the device: RMAT scale 22 (65M edges) on a GPU, 20 on the CPU */
    const int scale = kiln_ctx_backend(ctx) == KILN_BACKEND_CUDA ? 22 : 20;
    kiln_graph *g = NULL;
    kiln_status st = kiln_graph_rmat(ctx, scale, 16, 1, 0, &g);
    double *ranks = NULL;
    kiln_pagerank_result res;
    if (st == KILN_OK) {
        kiln_graph_info info;
        kiln_graph_get_info(g, &info);
        ranks = malloc(info.nodes * sizeof *ranks);
        kiln_pagerank_options opt;
        kiln_pagerank_options_init(&opt);
        opt.tol = 0;
        opt.max_iter = 20;
        opt.repeat = 3;
        st = ranks ? kiln_pagerank(ctx, g, &opt, ranks, &res) : KILN_ERR_DEVICE;
        if (st == KILN_OK) {
            bench_row r = {w->name, NULL, "edges/s", res.edges_per_second, "", ""};
            snprintf(r.json, sizeof r.json, ", \"graph\": \"rmat:%d:16:1\", \"edges\": %llu, \"seconds_per_iteration\": %.9e",
                     scale, (unsigned long long)info.edges, res.seconds_per_iteration);
            snprintf(r.text, sizeof r.text, "   (RMAT scale %d, %.3f ms/iteration)", scale,
                     res.seconds_per_iteration * 1e3);
            bench_row_print(ctx, &r, a->json, 10);
        }
    }
    free(ranks);
    kiln_graph_free(g);
    return st;
}
