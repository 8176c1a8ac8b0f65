/* kiln pagerank's report: the K best ranks and the run's figures, as one JSON object (docs/JSON.md)
 * or as rank<TAB>node<TAB>score lines on stdout and a summary line on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/json_out.h"
#include "common/progress.h"
#include "pagerank.h"

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
        scored c = {.score = ranks[i], .index = i};
        if (have == k && !better(&c, &t[k - 1])) continue;
        uint64_t j = have < k ? have++ : k - 1;
        for (; j > 0 && better(&c, &t[j - 1]); j--) t[j] = t[j - 1];
        t[j] = c;
    }
    return t;
}

const char *pr_score_format(const kiln_pagerank_result *res)
{
    return res->precision == KILN_PRECISION_FLOAT32 ? "%.9g" : "%.17g";
}

static const char *precision_name(const kiln_pagerank_result *res)
{
    return res->precision == KILN_PRECISION_FLOAT32 ? "float32" : "float64";
}

/* The graph and the figures of the run, as members of the document's object. */
static void json_run(kiln_ctx *ctx, const pr_args *a, const pr_result *r)
{
    const kiln_graph_info *info = &r->info;
    const kiln_pagerank_result *res = &r->res;
    char rmat[64];
    snprintf(rmat, sizeof rmat, "rmat:%d:%d:%llu", a->rmat_scale, a->edge_factor, (unsigned long long)a->seed);
    json_str("graph", a->graph ? a->graph : rmat);
    json_u64("nodes", info->nodes);
    json_u64("edges", info->edges);
    json_u64("edges_read", info->edges_read);
    json_u64("self_loops_removed", info->self_loops_removed);
    json_u64("duplicates_removed", info->duplicates_removed);
    json_u64("self_loops", info->self_loops);
    json_u64("dangling_nodes", info->dangling);
    json_str("device", kiln_ctx_device_name(ctx));
    json_str("backend", kiln_backend_name(kiln_ctx_backend(ctx)));
    json_str("precision", precision_name(res));
    json_num("damping", a->opt.damping, "%.15g");
    json_num("tol", a->opt.tol, "%.15g");
    json_int("max_iter", a->opt.max_iter);
    json_int("iterations", res->iterations);
    json_bool("converged", res->converged);
    json_num("residual", res->residual, "%.6e");
    json_num("seconds", res->seconds, "%.9f");
    json_num("seconds_per_iteration", res->seconds_per_iteration, "%.9e");
    json_num("edges_per_second", res->edges_per_second, "%.6e");
    json_num("load_seconds", r->load_s, "%.6f");
    json_num("build_seconds", info->build_seconds, "%.6f");
    json_bool("built_on_gpu", info->built_on_gpu);
    json_num("setup_seconds", res->setup_seconds, "%.6f");
    json_num("verify_residual", res->verify_residual, "%.6e");
    json_bool("reorder", a->opt.reorder);
    json_str("kernel", kiln_ctx_backend(ctx) == KILN_BACKEND_CPU         ? "cpu"
                       : res->kernel == KILN_PR_KERNEL_PARTS      ? "parts"
                       : res->kernel == KILN_PR_KERNEL_PERSISTENT ? "persistent"
                                                                  : "grid");
    json_int("devices", kiln_ctx_device_count(ctx));
    json_num("exchange_seconds", res->exchange_seconds, "%.9f");
    static const char *const exchanges[] = {"none", "peer copies", "host", "nccl"};
    json_str("exchange", exchanges[(unsigned)res->exchange < 4 ? res->exchange : 0]);
    if (res->parts > 0) {
        json_array("parts");
        for (int i = 0; i < res->parts && i < KILN_PR_MAX_PARTS; i++) {
            json_object(NULL);
            json_u64("edges", res->part_edges[i]);
            json_u64("peak_memory_bytes", res->part_peak_bytes[i]);
            json_close();
        }
        json_close();
    }
    json_int("repeat", a->opt.repeat);
    json_bool("weighted", (a->flags & KILN_GRAPH_WEIGHTED) != 0);
    json_str("personalization", a->personalization);
    json_str("dangling", a->dangling);
    json_str("nstart", a->nstart);
}

static void print_json(kiln_ctx *ctx, const pr_args *a, const pr_result *r, const scored *top, uint64_t k)
{
    json_object(NULL);
    json_run(ctx, a, r);
    if (!k) return;
    json_array("top");
    for (uint64_t i = 0; i < k; i++) {
        json_object(NULL);
        json_u64("rank", i + 1);
        json_u64("node", kiln_graph_node_id(r->g, top[i].index));
        json_num("score", top[i].score, pr_score_format(&r->res));
        json_close();
    }
    json_close();
}

static void print_text(kiln_ctx *ctx, const pr_result *r, const scored *top, uint64_t k)
{
    const kiln_pagerank_result *res = &r->res;
    for (uint64_t i = 0; i < k; i++) {
        printf("%llu\t%llu\t", (unsigned long long)i + 1, (unsigned long long)kiln_graph_node_id(r->g, top[i].index));
        printf(pr_score_format(res), top[i].score);
        putchar('\n');
    }
    char rate[32], exchange[64] = "";
    format_rate(res->edges_per_second, "edges/s", rate, sizeof rate);
    if (res->exchange_seconds > 0 && res->seconds > 0)
        snprintf(exchange, sizeof exchange, ", %.0f%% of it exchanging%s", 100.0 * res->exchange_seconds / res->seconds,
                 res->exchange == KILN_PR_EXCHANGE_NCCL ? " through NCCL" : "");
    fprintf(stderr,
            "kiln pagerank: %llu nodes, %llu edges; %d iterations, L1 change %.3g%s; %.4g ms/iteration (%s%s) "
            "on %s, %s\n",
            (unsigned long long)r->info.nodes, (unsigned long long)r->info.edges, res->iterations, res->residual,
            res->converged ? ", converged" : "", res->seconds_per_iteration * 1e3, rate, exchange,
            kiln_ctx_device_name(ctx), precision_name(res));
}

int pr_report(kiln_ctx *ctx, const pr_args *a, const pr_result *r)
{
    uint64_t k = a->top > 0 ? (uint64_t)a->top : 0;
    if (k > r->info.nodes) k = r->info.nodes;
    scored *top = NULL;
    if (k && !(top = top_k(r->ranks, r->info.nodes, k))) return cli_error(EXIT_DEVICE, PR_CMD, "out of memory");
    if (a->out.json) print_json(ctx, a, r, top, k);
    else print_text(ctx, r, top, k);
    free(top);
    return EXIT_OK;
}
