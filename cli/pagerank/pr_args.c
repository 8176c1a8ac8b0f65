/* kiln pagerank's option table and the checks of what it parsed. */
#include <math.h>
#include <string.h>

#include "common/cli.h"
#include "common/opts.h"
#include "pagerank.h"

enum { FILE_MODE = 1, RMAT_MODE = 2 };

int pr_parse_args(int argc, char **argv, pr_args *a)
{
    const char *cmd = PR_CMD;
    int format = KILN_GRAPH_AUTO, precision = KILN_PRECISION_AUTO, kernel = KILN_PR_KERNEL_AUTO;
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
        {"--format", OPT_CHOICE, &format, "auto|snap|mtx|csr", "GRAPH's format (default auto)", .modes = FILE_MODE,
         .choices = (const int[]){KILN_GRAPH_AUTO, KILN_GRAPH_SNAP, KILN_GRAPH_MTX, KILN_GRAPH_CSR}},
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
        {"--output", OPT_STR, &a->output, "FILE", "write node<TAB>score for every node ('-' = stdout)", .modes = 0},
        {"--save-csr", OPT_STR, &a->save_csr, "FILE", "write the graph as a CSR cache (a file, binary)", .modes = 0},
        {"--device", OPT_DEVICE, &a->device, "auto|cpu|cuda|cuda:I|cuda:I,J|cuda:all|opencl|opencl:I|opencl:I,J|opencl:all", "where to run (default auto); a set splits the rows over its GPUs", .modes = 0},
        {"--threads", OPT_U64, &threads, "N", "CPU threads (0: one per core)", .hi = 4096},
        {"--precision", OPT_CHOICE, &precision, "float32|float64", "rank precision (default: float64 on the CPU, float32 on a GPU)",
         .modes = 0, .choices = (const int[]){KILN_PRECISION_FLOAT32, KILN_PRECISION_FLOAT64}},
        {"--no-reorder", OPT_FLAG, &no_reorder, NULL, "GPU: keep the vertex order", .modes = 0},
        {"--gpu-kernel", OPT_CHOICE, &kernel, "auto|grid|persistent",
         "GPU: iteration kernel (default auto: persistent where the graph fits the chip at once, else grid)",
         .modes = 0, .choices = (const int[]){KILN_PR_KERNEL_AUTO, KILN_PR_KERNEL_GRID, KILN_PR_KERNEL_PERSISTENT}},
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
    a->format = (kiln_graph_format)format;
    a->opt.precision = (kiln_precision)precision;
    a->opt.kernel = (kiln_pagerank_kernel)kernel;
    if (max_iter) a->opt.max_iter = (int)max_iter;
    a->edge_factor = (int)edge_factor;
    a->threads = (int)threads;
    a->top = cli_given(&c, "--top") ? (int)top : -1;
    a->flags = (undirected ? KILN_GRAPH_UNDIRECTED : 0u) | (drop ? KILN_GRAPH_DROP_SELF_LOOPS : 0u) |
               (weighted ? KILN_GRAPH_WEIGHTED : 0u);
    a->opt.reorder = !no_reorder;
    a->opt.repeat = (int)repeat;
    /* a closed standard input cannot be read as "-": said before any work */
    const char *inputs[4] = {a->graph, a->personalization, a->dangling, a->nstart};
    for (int i = 0; i < 4; i++)
        if ((code = cli_input_check_stdin(cmd, inputs[i])) != 0) return code;
    /* --output - takes standard output for the ranks: nothing else may print there */
    if (cli_output_is_stdout(a->output) && (a->top >= 0 || a->out.json))
        return cli_error(EXIT_USAGE, cmd, "--output - writes every rank to standard output: %s would print there too "
                                          "(give --output a file name)",
                         a->out.json ? "--json" : "--top");
    if (a->top < 0 && !a->output && !a->out.json) a->top = 10;
    return 0;
}
