/* kiln pagerank: PageRank of a graph file or of a generated RMAT graph. Also the PageRank part of
 * `kiln bench --algo pagerank`. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"

static const char usage[] =
    "usage: kiln pagerank (GRAPH | --rmat SCALE [--edge-factor 16] [--seed 1]) [--damping 0.85] [--tol 1e-6]\n"
    "                     [--max-iter 100] [--top K] [--output FILE] [--device auto|cpu|cuda|cuda:I] [--json]\n"
    "                     [--format auto|snap|mtx|csr] [--undirected] [--drop-self-loops] [--threads N]\n"
    "                     [--precision float32|float64] [--no-reorder] [--save-csr FILE] [--repeat N]\n"
    "  GRAPH: SNAP edge list ('src dst' lines, '#' comments), Matrix Market coordinate file, either\n"
    "  optionally gzip-compressed, or a CSR cache written by --save-csr. Duplicate edges are merged;\n"
    "  self loops are kept unless --drop-self-loops (RMAT graphs drop both). --tol 0 runs exactly\n"
    "  --max-iter iterations. --top K prints rank<TAB>node<TAB>score; --output writes node<TAB>score\n"
    "  for every node; with neither, the top 10 are printed.\n";

typedef struct pr_args {
    const char *graph, *output, *save_csr, *device;
    int rmat_scale, edge_factor, json, top, reorder, repeat, threads;
    uint64_t seed;
    unsigned flags;
    kiln_graph_format format;
    kiln_pagerank_options opt;
} pr_args;

static int parse_double(const char *s, double *out)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

static int parse_int(const char *s, uint64_t lo, uint64_t hi, int *out)
{
    uint64_t v;
    if (cli_parse_u64(s, hi, &v) != 0 || v < lo) return -1;
    *out = (int)v;
    return 0;
}

/* JSON string body with the characters JSON needs escaped. */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

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

static int parse_args(int argc, char **argv, pr_args *a)
{
    const char *cmd = "pagerank";
    memset(a, 0, sizeof *a);
    a->device = "auto";
    a->edge_factor = 16;
    a->seed = 1;
    a->top = -1;
    a->reorder = 1;
    a->repeat = 1;
    a->rmat_scale = -1;
    kiln_pagerank_options_init(&a->opt);
    static const char *const valued[] = {"--rmat", "--edge-factor", "--seed", "--damping", "--tol",
                                         "--max-iter", "--top", "--output", "--save-csr", "--device",
                                         "--threads", "--repeat", "--format", "--precision"};
    for (int i = 0; i < argc; i++) {
        const char *v = NULL;
        for (size_t j = 0; j < sizeof valued / sizeof valued[0]; j++)
            if (strcmp(argv[i], valued[j]) == 0 && i + 1 >= argc)
                return cli_error(EXIT_USAGE, cmd, "option %s needs a value", argv[i]);
#define VALUE(name) (cli_opt(argc, argv, &i, name, &v) > 0)
#define BAD(...) return cli_error(EXIT_USAGE, cmd, __VA_ARGS__)
        if (VALUE("--rmat")) {
            if (parse_int(v, 1, 30, &a->rmat_scale) != 0) BAD("bad --rmat '%s' (expected a scale 1..30)", v);
        } else if (VALUE("--edge-factor")) {
            if (parse_int(v, 1, 1024, &a->edge_factor) != 0) BAD("bad --edge-factor '%s' (expected 1..1024)", v);
        } else if (VALUE("--seed")) {
            if (cli_parse_u64(v, UINT64_MAX, &a->seed) != 0) BAD("bad --seed '%s'", v);
        } else if (VALUE("--damping")) {
            if (parse_double(v, &a->opt.damping) != 0 || a->opt.damping < 0 || a->opt.damping >= 1)
                BAD("bad --damping '%s' (expected 0 <= d < 1)", v);
        } else if (VALUE("--tol")) {
            if (parse_double(v, &a->opt.tol) != 0 || a->opt.tol < 0) BAD("bad --tol '%s' (expected a number >= 0)", v);
        } else if (VALUE("--max-iter")) {
            if (parse_int(v, 1, 100000000, &a->opt.max_iter) != 0) BAD("bad --max-iter '%s' (expected 1..100000000)", v);
        } else if (VALUE("--top")) {
            if (parse_int(v, 0, 0x7fffffff, &a->top) != 0) BAD("bad --top '%s' (expected a count >= 0)", v);
        } else if (VALUE("--output")) {
            a->output = v;
        } else if (VALUE("--save-csr")) {
            a->save_csr = v;
        } else if (VALUE("--device")) {
            a->device = v;
        } else if (VALUE("--threads")) {
            if (parse_int(v, 0, 4096, &a->threads) != 0) BAD("bad --threads '%s' (expected 0..4096)", v);
        } else if (VALUE("--repeat")) {
            if (parse_int(v, 1, 1000, &a->repeat) != 0) BAD("bad --repeat '%s' (expected 1..1000)", v);
        } else if (VALUE("--format")) {
            if (strcmp(v, "auto") == 0) a->format = KILN_GRAPH_AUTO;
            else if (strcmp(v, "snap") == 0) a->format = KILN_GRAPH_SNAP;
            else if (strcmp(v, "mtx") == 0) a->format = KILN_GRAPH_MTX;
            else if (strcmp(v, "csr") == 0) a->format = KILN_GRAPH_CSR;
            else BAD("bad --format '%s' (expected auto, snap, mtx or csr)", v);
        } else if (VALUE("--precision")) {
            if (strcmp(v, "float32") == 0) a->opt.precision = KILN_PRECISION_FLOAT32;
            else if (strcmp(v, "float64") == 0) a->opt.precision = KILN_PRECISION_FLOAT64;
            else BAD("bad --precision '%s' (expected float32 or float64)", v);
        } else if (strcmp(argv[i], "--json") == 0) {
            a->json = 1;
        } else if (strcmp(argv[i], "--undirected") == 0) {
            a->flags |= KILN_GRAPH_UNDIRECTED;
        } else if (strcmp(argv[i], "--drop-self-loops") == 0) {
            a->flags |= KILN_GRAPH_DROP_SELF_LOOPS;
        } else if (strcmp(argv[i], "--no-reorder") == 0) {
            a->reorder = 0;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return -1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            BAD("unknown option '%s'\n%s", argv[i], usage);
        } else if (a->graph) {
            BAD("more than one graph given ('%s' and '%s')", a->graph, argv[i]);
        } else {
            a->graph = argv[i];
        }
#undef VALUE
#undef BAD
    }
    if ((a->graph != NULL) == (a->rmat_scale >= 0))
        return cli_error(EXIT_USAGE, cmd, "give exactly one of GRAPH or --rmat SCALE\n%s", usage);
    a->opt.reorder = a->reorder;
    a->opt.repeat = a->repeat;
    if (a->top < 0 && !a->output && !a->json) a->top = 10;
    return 0;
}

static int write_ranks(const char *path, const kiln_graph *g, const double *ranks, uint64_t n, const char *fmt)
{
    FILE *f = fopen(path, "w");
    if (!f) return cli_error(EXIT_USAGE, "pagerank", "cannot write %s: %s", path, strerror(errno));
    for (uint64_t i = 0; i < n; i++) {
        fprintf(f, "%llu\t", (unsigned long long)kiln_graph_node_id(g, i));
        fprintf(f, fmt, ranks[i]);
        fputc('\n', f);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) return cli_error(EXIT_DEVICE, "pagerank", "writing %s failed", path);
    return EXIT_OK;
}

/* Loads or generates the graph of a; prints and returns an exit code on failure. */
static int get_graph(kiln_ctx *ctx, const pr_args *a, kiln_graph **g, double *load_s)
{
    double t0 = cli_now();
    kiln_status st = a->graph ? kiln_graph_load(ctx, a->graph, a->format, a->flags, g)
                              : kiln_graph_rmat(ctx, a->rmat_scale, a->edge_factor, a->seed, a->flags, g);
    *load_s = cli_now() - t0;
    if (st != KILN_OK) return cli_fail("pagerank", ctx, st);
    return EXIT_OK;
}

int cmd_pagerank(int argc, char **argv)
{
    const char *cmd = "pagerank";
    pr_args a;
    int code = parse_args(argc, argv, &a);
    if (code < 0) return EXIT_OK;
    if (code) return code;
    kiln_ctx *ctx = cli_open(cmd, a.device, a.threads, &code);
    if (!ctx) return code;
    kiln_graph *g = NULL;
    double *ranks = NULL;
    scored *top = NULL;
    double load_s = 0;
    code = get_graph(ctx, &a, &g, &load_s);
    if (code) goto done;
    if (a.save_csr) {
        kiln_status st = kiln_graph_save_csr(ctx, g, a.save_csr);
        if (st != KILN_OK) {
            code = cli_fail(cmd, ctx, st);
            goto done;
        }
    }
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    ranks = malloc((info.nodes ? info.nodes : 1) * sizeof *ranks);
    if (!ranks) {
        code = cli_error(EXIT_DEVICE, cmd, "out of memory for %llu ranks", (unsigned long long)info.nodes);
        goto done;
    }
    kiln_pagerank_result res;
    kiln_status st = kiln_pagerank(ctx, g, &a.opt, ranks, &res);
    if (st != KILN_OK && st != KILN_NOT_FOUND) {
        code = cli_fail(cmd, ctx, st);
        goto done;
    }
    if (st == KILN_NOT_FOUND) {
        fprintf(stderr, "kiln pagerank: warning: %s\n", kiln_last_error(ctx));
        code = EXIT_NOT_FOUND;
    }
    const int f32 = res.precision == KILN_PRECISION_FLOAT32;
    const char *fmt = f32 ? "%.9g" : "%.17g";
    if (a.output) {
        int w = write_ranks(a.output, g, ranks, info.nodes, fmt);
        if (w) {
            code = w;
            goto done;
        }
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
    if (a.json) {
        printf("{\"graph\": ");
        if (a.graph) json_str(stdout, a.graph);
        else printf("\"rmat:%d:%d:%llu\"", a.rmat_scale, a.edge_factor, (unsigned long long)a.seed);
        printf(", \"nodes\": %llu, \"edges\": %llu, \"edges_read\": %llu, \"self_loops_removed\": %llu, "
               "\"duplicates_removed\": %llu, \"self_loops\": %llu, \"dangling\": %llu, \"device\": ",
               (unsigned long long)info.nodes, (unsigned long long)info.edges, (unsigned long long)info.edges_read,
               (unsigned long long)info.self_loops_removed, (unsigned long long)info.duplicates_removed,
               (unsigned long long)info.self_loops, (unsigned long long)info.dangling);
        json_str(stdout, kiln_ctx_device_name(ctx));
        printf(", \"backend\": \"%s\", \"precision\": \"%s\", \"damping\": %.15g, \"tol\": %.15g, \"max_iter\": %d, "
               "\"iterations\": %d, \"converged\": %s, \"residual\": %.6e, \"seconds\": %.9f, "
               "\"seconds_per_iteration\": %.9e, \"edges_per_second\": %.6e, \"load_seconds\": %.6f, "
               "\"build_seconds\": %.6f, \"built_on_gpu\": %s, \"setup_seconds\": %.6f, \"verify_residual\": %.6e, "
               "\"reorder\": %s, \"repeat\": %d",
               kiln_ctx_backend(ctx) == KILN_BACKEND_CUDA ? "cuda" : "cpu", f32 ? "float32" : "float64", a.opt.damping,
               a.opt.tol, a.opt.max_iter, res.iterations, res.converged ? "true" : "false", res.residual, res.seconds,
               res.seconds_per_iteration, res.edges_per_second, load_s, info.build_seconds,
               info.built_on_gpu ? "true" : "false", res.setup_seconds, res.verify_residual,
               a.reorder ? "true" : "false", a.repeat);
        if (k) {
            printf(", \"top\": [");
            for (uint64_t i = 0; i < k; i++) {
                printf("%s{\"rank\": %llu, \"node\": %llu, \"score\": ", i ? ", " : "", (unsigned long long)i + 1,
                       (unsigned long long)kiln_graph_node_id(g, top[i].index));
                printf(fmt, top[i].score);
                printf("}");
            }
            printf("]");
        }
        printf("}\n");
    } else {
        for (uint64_t i = 0; i < k; i++) {
            printf("%llu\t%llu\t", (unsigned long long)i + 1, (unsigned long long)kiln_graph_node_id(g, top[i].index));
            printf(fmt, top[i].score);
            putchar('\n');
        }
        char rate[32];
        format_rate(res.edges_per_second, "edges/s", rate, sizeof rate);
        fprintf(stderr,
                "kiln pagerank: %llu nodes, %llu edges; %d iterations, L1 change %.3g%s; %.4g ms/iteration (%s) "
                "on %s, %s\n",
                (unsigned long long)info.nodes, (unsigned long long)info.edges, res.iterations, res.residual,
                res.converged ? ", converged" : "", res.seconds_per_iteration * 1e3, rate, kiln_ctx_device_name(ctx),
                f32 ? "float32" : "float64");
    }
    if (fflush(stdout) != 0) code = cli_error(EXIT_DEVICE, cmd, "writing the output failed");
done:
    free(top);
    free(ranks);
    kiln_graph_free(g);
    kiln_ctx_free(ctx);
    return code;
}

int bench_pagerank(const char *device, int json)
{
    const char *cmd = "bench";
    int code;
    kiln_ctx *ctx = cli_open(cmd, device, 0, &code);
    if (!ctx) return code;
    /* a graph that fills the device: RMAT scale 22 (65M edges) on a GPU, 20 on the CPU */
    const int gpu = kiln_ctx_backend(ctx) == KILN_BACKEND_CUDA;
    const int scale = gpu ? 22 : 20;
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
            if (json)
                printf("{\"algo\": \"pagerank\", \"device\": \"%s\", \"rate\": %.0f, \"unit\": \"edges/s\", "
                       "\"graph\": \"rmat:%d:16:1\", \"edges\": %llu, \"seconds_per_iteration\": %.9e}\n",
                       kiln_ctx_device_name(ctx), res.edges_per_second, scale, (unsigned long long)info.edges,
                       res.seconds_per_iteration);
            else {
                char r[32];
                format_rate(res.edges_per_second, "edges/s", r, sizeof r);
                printf("%-10s %-44s %16s   (RMAT scale %d, %.3f ms/iteration)\n", "pagerank", kiln_ctx_device_name(ctx),
                       r, scale, res.seconds_per_iteration * 1e3);
            }
        }
    }
    code = st == KILN_OK ? EXIT_OK : cli_fail(cmd, ctx, st);
    free(ranks);
    kiln_graph_free(g);
    kiln_ctx_free(ctx);
    return code;
}
