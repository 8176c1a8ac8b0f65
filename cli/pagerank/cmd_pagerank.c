/* kiln pagerank: PageRank of a graph file or of a generated RMAT graph, alone or as one process of
 * several under mpirun / srun (process 0 prints; every step agreed between them, pr_dist.h):
 * arguments (pr_args.c), device, output files (pr_outputs.c), graph, vectors, ranks, report
 * (pr_report.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/json_out.h"
#include "common/progress.h"
#include "pagerank.h"
#include "pr_dist.h"
#include "pr_vectors.h"

/* The vector files of a over g into the options (NULL where not given); 0 or the exit code. */
static int get_vectors(const pr_args *a, const kiln_graph *g, double *vec[3], kiln_pagerank_options *opt)
{
    const char *paths[3] = {a->personalization, a->dangling, a->nstart};
    static const char *const names[3] = {"personalization", "dangling", "nstart"};
    for (int i = 0; i < 3; i++) {
        if (!paths[i]) continue;
        int code = pr_vector_read(PR_CMD, paths[i], names[i], g, &vec[i]);
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
    if (st != KILN_OK) return cli_fail(PR_CMD, ctx, st);
    return EXIT_OK;
}

/* The context of a's device. Under mpirun each process drives one device: "cuda", and "auto" on
 * a host with a CUDA GPU, mean the GPU of its number on its host (modulo the GPUs there), and a
 * set is refused. The spec is read by the library's reader (kiln_device_parse); one it refuses
 * goes to cli_open as given, which reports it. NULL with *code set on failure. */
static kiln_ctx *open_device(kiln_dist *dist, pr_args *a, int *code)
{
    static char rank_gpu[32];
    kiln_device_set set;
    if (dist && kiln_device_parse(NULL, a->device, &set) == KILN_OK) {
        const int gpus = kiln_cuda_device_count();
        if (set.backend == KILN_BACKEND_CUDA && (set.form == KILN_DEVICE_FIRST || set.form == KILN_DEVICE_AUTO) &&
            gpus > 0)
            a->device = kiln_device_spec(KILN_BACKEND_CUDA, kiln_dist_local_rank(dist) % gpus, rank_gpu, sizeof rank_gpu);
        if (set.form == KILN_DEVICE_LIST || set.form == KILN_DEVICE_ALL) {
            *code = cli_error(EXIT_USAGE, PR_CMD, "under mpirun each process drives one device: give --device cuda (the GPU "
                                                  "of its local rank), cuda:N, opencl:N or cpu, not the set %s", a->device);
            return NULL;
        }
    }
    return cli_open(PR_CMD, a->device, a->threads, code);
}

/* What a run holds until it ends. */
typedef struct pr_run {
    pr_result r;
    kiln_graph *g;
    double *ranks, *vec[3];
    pr_outputs outs; /* process 0 writes them */
    kiln_status st; /* the ranking's */
} pr_run;

/* The output files opened, the graph loaded, its vectors read, the ranks computed into run: each
 * step agreed between the processes, so that a failure in one stops them all. 0 or the exit code
 * (the ranking's own status in run->st). */
static int rank(kiln_ctx *ctx, kiln_dist *dist, pr_args *a, pr_run *run)
{
    const char *cmd = PR_CMD;
    int code = pr_dist_agree(cmd, dist, pr_dist_root(dist) ? pr_outputs_open(ctx, a, &run->outs) : EXIT_OK);
    if (code) return code;
    code = pr_dist_agree(cmd, dist, get_graph(ctx, dist, a, &run->g, &run->r.load_s));
    if (code) return code;
    kiln_graph_get_info(run->g, &run->r.info);
    const uint64_t n = run->r.info.nodes;
    run->ranks = malloc((n ? n : 1) * sizeof *run->ranks);
    code = pr_dist_agree(cmd, dist, run->ranks ? EXIT_OK
                                               : cli_error(EXIT_DEVICE, cmd, "out of memory for %llu ranks",
                                                           (unsigned long long)n));
    if (code) return code;
    code = pr_dist_agree(cmd, dist, get_vectors(a, run->g, run->vec, &a->opt));
    if (code) return code;
    run->st = dist ? kiln_dist_pagerank(ctx, dist, run->g, &a->opt, run->ranks, &run->r.res)
                   : kiln_pagerank(ctx, run->g, &a->opt, run->ranks, &run->r.res);
    progress_clear();
    return EXIT_OK;
}

/* Process 0: the ranking's status, the output files written, the report. The exit code. */
static int finish(kiln_ctx *ctx, const pr_args *a, pr_run *run)
{
    if (run->st != KILN_OK && run->st != KILN_NOT_FOUND) return cli_fail(PR_CMD, ctx, run->st);
    int code = EXIT_OK;
    if (run->st == KILN_NOT_FOUND) code = cli_error(EXIT_NOT_FOUND, PR_CMD, "warning: %s", kiln_last_error(ctx));
    int w = pr_outputs_commit(ctx, &run->outs, run->g, run->ranks, run->r.info.nodes, pr_score_format(&run->r.res));
    if (w) return w;
    run->r.g = run->g;
    run->r.ranks = run->ranks;
    w = pr_report(ctx, a, &run->r);
    return w ? w : code;
}

int cmd_pagerank(int argc, char **argv)
{
    const char *cmd = PR_CMD;
    pr_args a;
    /* under mpirun / srun: one process of several (process 0 prints), else alone as always */
    kiln_dist *dist = NULL;
    int code = pr_dist_start(cmd, &dist);
    if (code) return json_end(code);
    code = pr_parse_args(argc, argv, &a);
    const int help = code == CLI_HELP;
    if (help) code = EXIT_OK;
    if (!code && !help && dist && a.save_csr)
        code = cli_error(EXIT_USAGE, cmd, "--save-csr is not available across processes (run without mpirun)");
    code = pr_dist_agree(cmd, dist, code);
    kiln_ctx *ctx = NULL;
    if (!code && !help) {
        ctx = open_device(dist, &a, &code);
        code = pr_dist_agree(cmd, dist, ctx ? EXIT_OK : code);
    }
    if (code || help || !ctx) {
        kiln_ctx_free(ctx);
        pr_dist_end(dist);
        return json_end(code);
    }
    progress_attach(ctx);
    pr_run run;
    memset(&run, 0, sizeof run);
    code = rank(ctx, dist, &a, &run);
    /* the others' failure is their exit status too (an interrupt: 128 + the signal), its line
     * going to their captured stderr: under srun or a scheduler each process's status is seen */
    if (!code && pr_dist_root(dist)) code = finish(ctx, &a, &run);
    else if (!code && run.st != KILN_OK && run.st != KILN_NOT_FOUND) code = cli_fail(PR_CMD, ctx, run.st);
    pr_outputs_discard(&run.outs);
    for (int i = 0; i < 3; i++) free(run.vec[i]);
    free(run.ranks);
    progress_end();
    kiln_graph_free(run.g);
    kiln_ctx_free(ctx);
    code = pr_dist_agree(cmd, dist, code);
    pr_dist_end(dist);
    return json_end(code);
}
