/* kiln pagerank's output files: the ranks (--output) and the CSR cache (--save-csr), each
 * written to a temporary file and renamed together once both are whole. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "common/interrupt.h"
#include "common/progress.h"
#include "pagerank.h"

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

int pr_outputs_open(kiln_ctx *ctx, const pr_args *a, pr_outputs *o)
{
    memset(o, 0, sizeof *o);
    /* the ranks are text lines: "-" writes them to standard output; the CSR cache is binary and
     * needs a file */
    int code = EXIT_OK;
    if (a->output && (code = cli_output_open(PR_CMD, ctx, "--output", a->output, 1, &o->ranks)) == EXIT_OK)
        o->have_ranks = 1;
    if (!code && a->save_csr && (code = cli_output_open(PR_CMD, ctx, "--save-csr", a->save_csr, 0, &o->csr)) == EXIT_OK)
        o->have_csr = 1;
    return code;
}

int pr_outputs_commit(kiln_ctx *ctx, pr_outputs *o, const kiln_graph *g, const double *ranks, uint64_t n,
                      const char *fmt)
{
    kiln_status st = KILN_OK;
    kiln_output_file *files[2];
    int k = 0;
    if (o->have_ranks && (st = write_ranks(ctx, &o->ranks, g, ranks, n, fmt)) == KILN_OK) files[k++] = &o->ranks;
    if (st == KILN_OK && o->have_csr && (st = kiln_graph_write_csr(ctx, g, &o->csr)) == KILN_OK) files[k++] = &o->csr;
    if (st == KILN_OK && k) st = kiln_output_commit_all(ctx, files, k);
    return st == KILN_OK ? EXIT_OK : cli_fail(PR_CMD, ctx, st);
}

void pr_outputs_discard(pr_outputs *o)
{
    if (o->have_ranks) kiln_output_discard(&o->ranks);
    if (o->have_csr) kiln_output_discard(&o->csr);
}
