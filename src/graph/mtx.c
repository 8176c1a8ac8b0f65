/* Matrix Market coordinate files as graphs: entry (i, j) is the edge i -> j (row = source, as
 * NetworkX and cuGraph read adjacency matrices), vertices are the 1-based row numbers 1..n,
 * symmetric files give both directions of every off-diagonal entry. Values (integer or real) are
 * checked and, with KILN_GRAPH_WEIGHTED, are the edges' weights (finite and >= 0; a symmetric
 * entry weighs the same both ways, a diagonal one once; a pattern entry weighs 1); without it
 * they are ignored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/mem_limit.h"
#include "parse_util.h"
#include "reader.h"

enum { FIELD_PATTERN, FIELD_INTEGER, FIELD_REAL };

/* Appends s -> d and, when w is wanted, its weight (*w grows with the pair arrays). */
static int push(kiln_edges *e, size_t *cap, uint32_t s, uint32_t d, double **w, size_t *wcap, double weight)
{
    int rc;
    KILN_PAIR_PUSH(rc, e, cap, s, d);
    if (rc != 0 || !w) return rc;
    if (kiln_weights_reserve(w, wcap, *cap) != 0) return -1;
    (*w)[e->count - 1] = weight;
    return 0;
}

/* Next whitespace-separated word of the banner, lower-cased into w. */
static const char *word(const char *p, const char *end, char *w, size_t cap)
{
    p = kiln_skip_blank(p, end);
    size_t n = 0;
    while (p < end && *p != ' ' && *p != '\t') {
        if (n + 1 < cap) w[n++] = (char)((*p >= 'A' && *p <= 'Z') ? *p - 'A' + 'a' : *p);
        p++;
    }
    w[n] = '\0';
    return p;
}

#define BAD(...) KILN_FAIL_INPUT(__VA_ARGS__)

/* What the banner and the size line say. */
typedef struct mtx_head {
    int field; /* FIELD_* */
    int symmetric;
    uint64_t rows, cols, nnz;
} mtx_head;

/* The banner: "%%MatrixMarket matrix coordinate FIELD SYMMETRY". */
static kiln_status read_banner(kiln_ctx *ctx, kiln_reader *r, mtx_head *h)
{
    const char *line, *path = r->path;
    size_t len;
    int got = kiln_reader_next(ctx, r, &line, &len);
    if (got < 0) return r->status;
    if (got == 0 || len < 14 || strncmp(line, "%%MatrixMarket", 14) != 0)
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s:1: expected a \"%%%%MatrixMarket matrix coordinate ...\" banner", path);
    const char *end = line + len, *p;
    char object[32], format[32], field_s[32], sym[32], extra[32];
    p = word(line + 14, end, object, sizeof object);
    p = word(p, end, format, sizeof format);
    p = word(p, end, field_s, sizeof field_s);
    p = word(p, end, sym, sizeof sym);
    word(p, end, extra, sizeof extra);
    if (strcmp(object, "matrix") != 0) return kiln_fail(ctx, KILN_ERR_INPUT, "%s:1: object '%s' is not 'matrix'", path, object);
    if (strcmp(format, "coordinate") != 0)
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s:1: format '%s' is not supported (a graph needs 'coordinate')", path,
                         format);
    if (strcmp(field_s, "pattern") == 0) h->field = FIELD_PATTERN;
    else if (strcmp(field_s, "integer") == 0) h->field = FIELD_INTEGER;
    else if (strcmp(field_s, "real") == 0 || strcmp(field_s, "double") == 0) h->field = FIELD_REAL;
    else
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s:1: field '%s' is not supported (pattern, integer or real)", path,
                         field_s);
    if (strcmp(sym, "general") == 0) h->symmetric = 0;
    else if (strcmp(sym, "symmetric") == 0) h->symmetric = 1;
    else
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s:1: symmetry '%s' is not supported (general or symmetric)", path, sym);
    if (extra[0]) return kiln_fail(ctx, KILN_ERR_INPUT, "%s:1: unexpected '%s' after the banner", path, extra);
    return KILN_OK;
}

/* Comments, then the size line 'rows cols entries' (*ln: its line number), checked against what
 * kiln and the host can hold (w: the weights are wanted too). */
static kiln_status read_size(kiln_ctx *ctx, kiln_reader *r, double **w, mtx_head *h, unsigned long long *ln)
{
    const char *line, *end, *p, *path = r->path;
    size_t len;
    for (;;) {
        int got = kiln_reader_next(ctx, r, &line, &len);
        if (got < 0) return r->status;
        *ln = (unsigned long long)r->line;
        if (got == 0) return kiln_fail(ctx, KILN_ERR_INPUT, "%s:%llu: file ends before the size line", path, *ln);
        end = line + len;
        p = kiln_skip_blank(line, end);
        if (p == end || *p == '%') continue;
        const char *why = NULL;
        if (kiln_parse_id(&p, end, &h->rows, &why) != 0 || (p = kiln_skip_blank(p, end), 0) ||
            kiln_parse_id(&p, end, &h->cols, &why) != 0 || (p = kiln_skip_blank(p, end), 0) ||
            kiln_parse_id(&p, end, &h->nnz, &why) != 0 || kiln_skip_blank(p, end) != end) {
            char shown[64];
            kiln_show_line(line, len, shown, sizeof shown);
            return kiln_fail(ctx, KILN_ERR_INPUT, "%s:%llu: expected the size line 'rows cols entries', got \"%s\"", path,
                             *ln, shown);
        }
        break;
    }
    if (h->rows != h->cols)
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s:%llu: the matrix is %llu x %llu; a graph's adjacency matrix is square",
                         path, *ln, (unsigned long long)h->rows, (unsigned long long)h->cols);
    if (h->rows > KILN_GRAPH_MAX_NODES)
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s:%llu: %llu vertices is more than kiln handles (%llu)", path, *ln,
                         (unsigned long long)h->rows, (unsigned long long)KILN_GRAPH_MAX_NODES);
    /* the header's sizes are claims: they must fit the host before anything is allocated for them,
     * and the entry arrays grow only as entries arrive, so a short file claiming many costs nothing */
    const double arcs = (double)h->nnz * (h->symmetric ? 2 : 1);
    return kiln_mem_check(ctx, (double)h->rows * (KILN_GRAPH_NODE_BYTES + (w ? KILN_GRAPH_WEIGHT_NODE_BYTES : 0)) +
                                   arcs * (KILN_GRAPH_ARC_BYTES + (w ? KILN_GRAPH_WEIGHT_ARC_BYTES : 0)),
                          "%s:%llu: declares %llu rows and %llu entries", path, *ln, (unsigned long long)h->rows,
                          (unsigned long long)h->nnz);
}

/* The entries, into e (and their weights into *w when w is not NULL); e freed on failure. */
static kiln_status read_entries(kiln_ctx *ctx, kiln_reader *r, const mtx_head *h, double **w, kiln_edges *e)
{
    kiln_status st = KILN_OK;
    const char *line, *end, *p, *path = r->path;
    size_t len;
    unsigned long long ln;
    const int field = h->field, symmetric = h->symmetric;
    const uint64_t rows = h->rows, cols = h->cols, nnz = h->nnz;
    size_t cap = 0, wcap = 0;
    uint64_t seen = 0;
    int got;
    while ((got = kiln_reader_next(ctx, r, &line, &len)) == 1) {
        ln = (unsigned long long)r->line;
        end = line + len;
        p = kiln_skip_blank(line, end);
        if (p == end || *p == '%') continue;
        if (seen == nnz) BAD("%s:%llu: more entries than the %llu the size line announced", path, ln, (unsigned long long)nnz);
        uint64_t i, j;
        const char *why = NULL;
        if (kiln_parse_id(&p, end, &i, &why) != 0) goto bad_entry;
        p = kiln_skip_blank(p, end);
        if (kiln_parse_id(&p, end, &j, &why) != 0) goto bad_entry;
        double weight = 1;
        if (field != FIELD_PATTERN) {
            const char *q = kiln_skip_blank(p, end);
            if (q == end) {
                why = field == FIELD_INTEGER ? "expected 'row col integer'" : "expected 'row col real'";
                goto bad_entry;
            }
            /* the value is only checked for its form when the graph is unweighted */
            if (kiln_parse_weight(&q, end, field == FIELD_INTEGER, w != NULL, &weight, &why) != 0) goto bad_entry;
            p = q;
        }
        if (kiln_skip_blank(p, end) != end) {
            why = "unexpected text after the entry";
            goto bad_entry;
        }
        if (i < 1 || i > rows || j < 1 || j > cols)
            BAD("%s:%llu: entry (%llu, %llu) is outside the %llu x %llu matrix", path, ln, (unsigned long long)i,
                (unsigned long long)j, (unsigned long long)rows, (unsigned long long)cols);
        if (push(e, &cap, (uint32_t)(i - 1), (uint32_t)(j - 1), w, &wcap, weight) != 0 ||
            (symmetric && i != j && push(e, &cap, (uint32_t)(j - 1), (uint32_t)(i - 1), w, &wcap, weight) != 0)) {
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "%s:%llu: out of memory", path, ln);
            goto fail;
        }
        seen++;
        continue;
    bad_entry:;
        char shown[64];
        kiln_show_line(line, len, shown, sizeof shown);
        BAD("%s:%llu: %s: \"%s\"", path, ln, why, shown);
    }
    if (got < 0) {
        st = r->status;
        goto fail;
    }
    if (seen != nnz)
        BAD("%s:%llu: file ends after %llu of the %llu entries the size line announced", path,
            (unsigned long long)r->line, (unsigned long long)seen, (unsigned long long)nnz);
    return KILN_OK;
fail:
    kiln_edges_free(e);
    return st;
}

static kiln_status parse(kiln_ctx *ctx, kiln_reader *r, double **w, kiln_edges *e)
{
    memset(e, 0, sizeof *e);
    mtx_head h = {.field = FIELD_PATTERN, .symmetric = 0, .rows = 0, .cols = 0, .nnz = 0};
    unsigned long long ln;
    kiln_status st = read_banner(ctx, r, &h);
    if (st == KILN_OK) st = read_size(ctx, r, w, &h, &ln);
    if (st != KILN_OK) return st;
    e->n = h.rows;
    return read_entries(ctx, r, &h, w, e);
}

kiln_status kiln_parse_mtx(kiln_ctx *ctx, kiln_reader *r, unsigned *flags, kiln_edges *e, double **w)
{
    *w = NULL;
    if (!(*flags & KILN_GRAPH_WEIGHTED)) return parse(ctx, r, NULL, e);
    kiln_c_numeric cn;
    kiln_status st = kiln_c_numeric_enter(ctx, &cn);
    if (st != KILN_OK) return st;
    st = parse(ctx, r, w, e);
    kiln_c_numeric_leave(&cn);
    if (st == KILN_OK && !*w) {
        /* no entries: an empty weight array still makes the graph a weighted one */
        *w = malloc(sizeof **w);
        if (!*w) st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    }
    if (st != KILN_OK) {
        free(*w);
        *w = NULL;
    }
    return st;
}
