/* Edge weights (KILN_GRAPH_WEIGHTED): the number syntax the text formats share, read in the C
 * locale, and each vertex's out-weight summed in an order that the threads' timing cannot change,
 * so a graph loads to the same bits every time. */
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "graph.h"
#include "reader.h"

kiln_status kiln_c_numeric_enter(kiln_ctx *ctx, kiln_c_numeric *cn)
{
    /* strtod reads the decimal point of the thread's locale; a host program that set a locale
     * with a decimal comma must not change what a graph file means */
    locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (c == (locale_t)0) return kiln_fail(ctx, KILN_ERR_DEVICE, "cannot create the C locale for reading numbers");
    cn->c = c;
    cn->old = uselocale(c);
    return KILN_OK;
}

void kiln_c_numeric_leave(kiln_c_numeric *cn)
{
    if (!cn->c) return;
    uselocale((locale_t)cn->old);
    freelocale((locale_t)cn->c);
    cn->c = NULL;
}

static const char *digits(const char *p, const char *end)
{
    while (p < end && *p >= '0' && *p <= '9') p++;
    return p;
}

/* 1 when [p, end) is nan, inf or infinity with an optional sign, as printf writes them. */
static int non_finite_word(const char *p, const char *end)
{
    if (p < end && (*p == '+' || *p == '-')) p++;
    size_t n = (size_t)(end - p);
    return (n == 3 && (strncasecmp(p, "nan", 3) == 0 || strncasecmp(p, "inf", 3) == 0)) ||
           (n == 8 && strncasecmp(p, "infinity", 8) == 0);
}

int kiln_parse_weight(const char **pp, const char *end, int integer, int check, double *out, const char **why)
{
    const char *start = *pp, *tok_end = start;
    while (tok_end < end && *tok_end != ' ' && *tok_end != '\t') tok_end++;
    const char *p = start;
    if (p < end && (*p == '+' || *p == '-')) p++;
    const char *q = digits(p, tok_end);
    size_t nd = (size_t)(q - p);
    if (!integer) {
        if (q < tok_end && *q == '.') {
            const char *f = q + 1;
            q = digits(f, tok_end);
            nd += (size_t)(q - f);
        }
        if (nd > 0 && q < tok_end && (*q == 'e' || *q == 'E')) {
            const char *x = q + 1;
            if (x < tok_end && (*x == '+' || *x == '-')) x++;
            const char *xe = digits(x, tok_end);
            q = xe > x ? xe : start; /* an exponent needs digits */
        }
    }
    if (start == tok_end) {
        *why = "missing weight";
        return -1;
    }
    if (nd == 0 || q != tok_end) {
        *why = non_finite_word(start, tok_end) ? "weight is not finite (weights must be finite and >= 0)"
               : integer                       ? "value is not an integer"
                                               : "weight is not a number (decimal or exponent notation)";
        return -1;
    }
    if (!check) {
        /* an unweighted load only checks the form: no conversion for a value nobody reads */
        *out = 1;
        *pp = tok_end;
        return 0;
    }
    /* strtod needs a terminated string; a line is at most KILN_GRAPH_MAX_LINE bytes */
    char buf[KILN_GRAPH_MAX_LINE + 1];
    size_t len = (size_t)(tok_end - start);
    memcpy(buf, start, len);
    buf[len] = '\0';
    double v = strtod(buf, NULL);
    if (!isfinite(v)) {
        *why = "weight is too large for a double (weights must be finite and >= 0)";
        return -1;
    }
    if (v < 0) {
        *why = "negative weight (weights must be finite and >= 0)";
        return -1;
    }
    *out = v + 0.0; /* -0 -> +0, so equal weights have equal bits */
    *pp = tok_end;
    return 0;
}

static void sort_doubles(double *a, uint64_t n)
{
    for (uint64_t i = 1; i < n; i++) {
        double v = a[i];
        uint64_t j = i;
        for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
        a[j] = v;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

kiln_status kiln_graph_out_weights(kiln_ctx *ctx, kiln_graph *g)
{
    const int threads = kiln_graph_threads_bulk(ctx, g->n + g->m);
    const uint64_t n = g->n, m = g->m;
    const int64_t nn = (int64_t)n, mm = (int64_t)m;
    /* the out-edges' weights grouped by source (an out-CSR of weights only), each group sorted */
    uint64_t *start = malloc((n + 1) * sizeof *start);
    uint64_t *cursor = malloc((n ? n : 1) * sizeof *cursor);
    double *byw = malloc((m ? m : 1) * sizeof *byw);
    double *ow = malloc((n ? n : 1) * sizeof *ow);
    if (!start || !cursor || !byw || !ow) {
        free(start);
        free(cursor);
        free(byw);
        free(ow);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for the out-weights of %llu vertices", (unsigned long long)n);
    }
    for (uint64_t v = 0; v < n; v++) start[v] = g->outdeg[v];
    start[n] = 0;
    kiln_scan_u64(start, n + 1, threads);
    memcpy(cursor, start, n * sizeof *cursor);
    int bad = 0;
#pragma omp parallel for num_threads(threads) schedule(static, 65536) reduction(| : bad)
    for (int64_t j = 0; j < mm; j++) {
        uint64_t pos;
        bad |= !isfinite(g->weights[j]);
#pragma omp atomic capture
        pos = cursor[g->sources[j]]++;
        byw[pos] = g->weights[j];
    }
    free(cursor);
    uint64_t dangling = 0;
    /* two passes over the edges (group by source, sum each group), the poll between them */
    kiln_ctx_report(ctx, "weights", "passes", 1, 2);
    if (!bad && !kiln_ctx_interrupt_requested(ctx)) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(+ : dangling) reduction(| : bad)
        for (int64_t u = 0; u < nn; u++) {
            double *row = byw + start[u];
            uint64_t len = start[u + 1] - start[u];
            if (len > 32) qsort(row, len, sizeof *row, cmp_double);
            else sort_doubles(row, len);
            double s = 0;
            for (uint64_t k = 0; k < len; k++) s += row[k];
            ow[u] = s;
            dangling += s == 0;
            bad |= !isfinite(s);
        }
    }
    free(start);
    free(byw);
    kiln_ctx_report(ctx, "weights", "passes", 2, 2);
    if (bad || kiln_ctx_interrupt_requested(ctx)) {
        free(ow);
        return bad ? kiln_fail(ctx, KILN_ERR_INPUT, "edge weights sum past the largest double (%g)", 1.7976931348623157e308)
                   : kiln_interrupted(ctx);
    }
    free(g->out_weight);
    g->out_weight = ow;
    g->info.dangling = dangling;
    return KILN_OK;
}
