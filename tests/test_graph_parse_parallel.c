/* The chunked SNAP parser (src/graph/snap_chunked.c) against the serial one, its reference: the
 * same edges in the same order, the same weights to the bit, or the same status and message (the
 * first bad line's number included), with chunks small enough that their ends fall on every byte,
 * on 1 to 4 threads. Crafted inputs (CRLF, comments, blank lines, weights, a bad line in the first,
 * a middle and the last chunk, no final newline, lines at and over the length limit, the memory
 * checks, an interrupt), then random ones.
 *
 * Also a measuring tool, not run by CTest:
 *   test_graph_parse_parallel --gen FILE MIB      writes a random SNAP edge list of about MIB MiB
 *                                                 (KILN_GEN_SEED=N: another one)
 *   test_graph_parse_parallel --bench FILE [T...] parse rate, serial and chunked on T threads
 *   test_graph_parse_parallel --load FILE T...    the whole kiln_graph_load ("-": a pipe, serial);
 *                                                 with KILN_BENCH_CACHE=PATH, the CSR cache too;
 *                                                 KILN_BENCH_DEVICE=SPEC (cuda:0) builds the CSR
 *                                                 on that device, as kiln pagerank does there */
#define _GNU_SOURCE
#include <time.h>

#include "check.h"
#include "graph_test_util.h"

#include "graph/graph.h"
#include "graph/reader.h"
#include "graph/snap.h"

typedef struct result {
    kiln_status st;
    char msg[512];
    kiln_raw_edges raw;
} result;

static void result_free(result *res) { kiln_raw_edges_free(&res->raw); }

/* chunk 0: the serial parser; else the chunked one. peek: look at the first bytes first, as the
 * format detection does. */
static void parse(kiln_ctx *ctx, const char *path, unsigned flags, size_t chunk, int peek, result *res)
{
    memset(res, 0, sizeof *res);
    kiln_reader *r;
    res->st = kiln_reader_open(ctx, path, &r);
    if (res->st == KILN_OK && peek) {
        const char *head;
        size_t len;
        res->st = kiln_reader_peek(ctx, r, 14, &head, &len);
    }
    if (res->st == KILN_OK) {
        if (chunk && !kiln_snap_can_chunk(r)) res->st = kiln_fail(ctx, KILN_ERR_INPUT, "cannot chunk");
        else
            res->st = chunk ? kiln_parse_snap_chunked(ctx, r, flags, chunk, &res->raw)
                            : kiln_parse_snap_serial(ctx, r, flags, &res->raw);
    }
    if (res->st != KILN_OK) snprintf(res->msg, sizeof res->msg, "%s", kiln_last_error(ctx));
    kiln_reader_close(r);
}

static int same(const result *a, const result *b, unsigned flags)
{
    if (a->st != b->st || strcmp(a->msg, b->msg) != 0) return 0;
    if (a->st != KILN_OK) return 1;
    if (a->raw.count != b->raw.count) return 0;
    size_t n = a->raw.count;
    if (n && (memcmp(a->raw.src, b->raw.src, n * 8) != 0 || memcmp(a->raw.dst, b->raw.dst, n * 8) != 0)) return 0;
    if ((flags & KILN_GRAPH_WEIGHTED) && n && memcmp(a->raw.w, b->raw.w, n * sizeof(double)) != 0) return 0;
    return 1;
}

static const size_t CHUNKS[] = {1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64, 100, 4095, 4096, 4097, 4099, 65536, 1u << 22};

/* Every chunk size and thread count against the serial parse of the same file; returns the
 * serial result (the caller frees it) for checks against known answers. */
static void compare_file(kiln_ctx *ctx, const char *name, const char *path, size_t len, unsigned flags, result *ref)
{
    kiln_ctx_set_threads(ctx, 1);
    parse(ctx, path, flags, 0, 0, ref);
    for (size_t i = 0; i < sizeof CHUNKS / sizeof *CHUNKS; i++)
        for (int t = 1; t <= 4; t++) {
            /* a round is a parallel region, which costs up to a time slice on a busy machine:
             * many rounds on one thread, few on several */
            const size_t rounds = len / (CHUNKS[i] * (size_t)t);
            if (rounds > (t == 1 ? 5000u : 6u)) continue;
            result got;
            kiln_ctx_set_threads(ctx, t);
            parse(ctx, path, flags, CHUNKS[i], (i + (size_t)t) % 2, &got);
            CHECK(same(ref, &got, flags), "%s: chunk %zu, %d threads: status %d \"%s\" %zu edges, want %d \"%s\" %zu",
                  name, CHUNKS[i], t, got.st, got.msg, got.raw.count, ref->st, ref->msg, ref->raw.count);
            result_free(&got);
        }
}

static void compare_text(kiln_ctx *ctx, const char *name, const char *text, size_t len, unsigned flags, result *ref)
{
    compare_file(ctx, name, write_tmp("in.txt", text, len), len, flags, ref);
}

/* The message's line number, from "path:LINE: ..." (0 when there is none). */
static unsigned long long msg_line(const char *msg)
{
    const char *p = strstr(msg, ".txt:");
    return p ? strtoull(p + 5, NULL, 10) : 0;
}

typedef struct known {
    const char *name, *text;
    unsigned flags;
    size_t edges; /* when parsed */
    unsigned long long bad_line; /* else the line the error names */
    const char *words; /* ... and words it has */
} known;

static const known KNOWN[] = {
    {"plain", "0 1\n1 2\n2 0\n", 0, 3, 0, NULL},
    {"crlf and comments", "# c\r\n0 1\r\n\r\n% k\r\n1 2\r\n2 0\r\n", 0, 3, 0, NULL},
    {"blanks and tabs", "\n \t\n\t5\t \t7  \r\n\n\n", 0, 1, 0, NULL},
    {"no final newline", "0 1\n1 2", 0, 2, 0, NULL},
    {"final CR only", "0 1\n1 2\r", 0, 2, 0, NULL},
    {"empty", "", 0, 0, 0, NULL},
    {"newline only", "\n", 0, 0, 0, NULL},
    {"weighted", "0 1 0.5\n1 2\n2 0 1e-3\r\n3 4\t2.5  \n", KILN_GRAPH_WEIGHTED, 4, 0, NULL},
    {"third column unweighted", "0 1\n1 2 3\n", 0, 0, 2, "unexpected text after the destination id"},
    {"bad weight", "0 1 1\n1 2 x\n", KILN_GRAPH_WEIGHTED, 0, 2, "weight is not a number"},
    {"negative weight", "0 1 -1\n", KILN_GRAPH_WEIGHTED, 0, 1, "negative weight"},
    {"bad first line", "x 1\n0 1\n1 2\n", 0, 0, 1, "expected a non-negative integer id"},
    {"bad last line", "0 1\n1 2\n2 -3", 0, 0, 3, "negative id"},
    {"missing destination", "# h\n\n0 1\n7\n", 0, 0, 4, "missing destination id"},
    {"nul byte", "0 1\n1\0002\n", 0, 0, 2, "unexpected character in an id"},
    {"19 and 20 digit ids", "9999999999999999999 18446744073709551615\n1234567890123456789\t0 \r\n", 0, 2, 0, NULL},
    {"blank after CR", "0 1\n0 1\r \n", 0, 0, 2, "unexpected character in an id"},
    {"two CRs", "0 1\r\r\n", 0, 0, 1, "unexpected character in an id"},
    {"id overflow", "0 1\n18446744073709551616 1\n", 0, 0, 2, "does not fit in 64 bits"},
};

static void test_known(kiln_ctx *ctx)
{
    for (size_t i = 0; i < sizeof KNOWN / sizeof *KNOWN; i++) {
        const known *k = &KNOWN[i];
        size_t len = strlen(k->text);
        if (strcmp(k->name, "nul byte") == 0) len = sizeof "0 1\n1\0002\n" - 1; /* past the NUL inside */
        result ref;
        compare_text(ctx, k->name, k->text, len, k->flags, &ref);
        if (k->words) {
            CHECK(ref.st == KILN_ERR_INPUT && msg_line(ref.msg) == k->bad_line && strstr(ref.msg, k->words),
                  "%s: %s", k->name, ref.msg);
        } else {
            CHECK(ref.st == KILN_OK && ref.raw.count == k->edges, "%s: %d %s %zu", k->name, ref.st, ref.msg,
                  ref.raw.count);
        }
        result_free(&ref);
    }
    /* the weights as written, and 1 where none is */
    result ref;
    compare_text(ctx, "weights", "0 1 0.5\n1 2\n2 0 1e-3\n", 21, KILN_GRAPH_WEIGHTED, &ref);
    CHECK(ref.st == KILN_OK && ref.raw.count == 3 && ref.raw.w[0] == 0.5 && ref.raw.w[1] == 1 && ref.raw.w[2] == 1e-3,
          "weights");
    CHECK(ref.raw.count == 3 && ref.raw.src[2] == 2 && ref.raw.dst[2] == 0, "edge order");
    result_free(&ref);
}

/* Lines at the length limit pass, one byte more is refused, wherever the chunks end. */
static void test_long_lines(kiln_ctx *ctx)
{
    const size_t max = KILN_GRAPH_MAX_LINE;
    char *text = malloc(3 * max + 64);
    for (int v = 0; v < 6; v++) {
        size_t j = (size_t)sprintf(text, "0 1\n1 2\n");
        const size_t body = max + (v >= 3) - 1; /* with the '#', max or max + 1 bytes */
        text[j++] = '#';
        memset(text + j, 'a', body);
        j += body;
        if (v % 3 == 1) text[j++] = '\r';
        if (v % 3 != 2) text[j++] = '\n';
        if (v % 3 != 2) j += (size_t)sprintf(text + j, "2 3\n");
        char name[32];
        snprintf(name, sizeof name, "long line %d", v);
        result ref;
        compare_text(ctx, name, text, j, 0, &ref);
        if (v < 3) CHECK(ref.st == KILN_OK, "%s: %s", name, ref.msg);
        else CHECK(ref.st == KILN_ERR_INPUT && msg_line(ref.msg) == 3 && strstr(ref.msg, "line longer than"), "%s: %s",
                   name, ref.msg);
        result_free(&ref);
    }
    /* no line end at all: a very long line */
    memset(text, '7', 3 * max);
    result ref;
    compare_text(ctx, "one very long line", text, 3 * max, 0, &ref);
    CHECK(ref.st == KILN_ERR_INPUT && msg_line(ref.msg) == 1 && strstr(ref.msg, "line longer than"), "%s", ref.msg);
    result_free(&ref);
    free(text);
}

/* A random line; *bad set when it is one the parser refuses. */
static size_t random_line(char *out, unsigned long long *s, int weighted, int allow_bad, int *bad)
{
    const char *blank[] = {" ", "\t", "  ", " \t"};
    const char *end = test_rand(s) % 4 == 0 ? "\r\n" : "\n";
    size_t j = 0;
    unsigned k = (unsigned)(test_rand(s) % 20);
    *bad = 0;
    if (k == 0) return (size_t)sprintf(out, "# comment %llu%s", test_rand(s) % 1000, end);
    if (k == 1) return (size_t)sprintf(out, "%s", end);
    if (k == 2) return (size_t)sprintf(out, "%s%s", blank[test_rand(s) % 4], end);
    if (k == 3 && allow_bad) {
        const char *bads[] = {"1 x", "-1 2", "1", "1 2 3 4", "1.5 2", "99999999999999999999 1", "1 2 abc"};
        *bad = 1;
        return (size_t)sprintf(out, "%s%s", bads[test_rand(s) % 7], end);
    }
    j += (size_t)sprintf(out + j, "%s%llu%s%llu", test_rand(s) % 8 ? "" : blank[test_rand(s) % 4],
                         test_rand(s) % (1ull << (test_rand(s) % 40)), blank[test_rand(s) % 4],
                         test_rand(s) % 1000);
    if (weighted && test_rand(s) % 2) j += (size_t)sprintf(out + j, " %.17g", (double)(test_rand(s) % 10000) / 7);
    if (test_rand(s) % 6 == 0) j += (size_t)sprintf(out + j, "%s", blank[test_rand(s) % 4]);
    j += (size_t)sprintf(out + j, "%s", end);
    return j;
}

/* Files of some thousand lines with a bad line first, in the middle, last, or none. */
static void test_bad_line_where(kiln_ctx *ctx)
{
    const int nlines = 3000;
    char *text = malloc((size_t)nlines * 64);
    for (int where = 0; where < 4; where++)
        for (int weighted = 0; weighted < 2; weighted++) {
            unsigned long long s = 1000u + (unsigned)where * 2u + (unsigned)weighted;
            int bad_at = where == 0 ? 1 : where == 1 ? nlines / 2 : where == 2 ? nlines : 0;
            size_t j = 0;
            for (int i = 1; i <= nlines; i++) {
                int bad;
                if (i == bad_at) j += (size_t)sprintf(text + j, "7 eight\n");
                else j += random_line(text + j, &s, weighted, 0, &bad);
            }
            char name[48];
            snprintf(name, sizeof name, "bad line at %d%s", bad_at, weighted ? " weighted" : "");
            result ref;
            compare_text(ctx, name, text, j, weighted ? KILN_GRAPH_WEIGHTED : 0, &ref);
            if (bad_at)
                CHECK(ref.st == KILN_ERR_INPUT && msg_line(ref.msg) == (unsigned long long)bad_at &&
                          strstr(ref.msg, "expected a non-negative integer id: \"7 eight\""),
                      "%s: %s", name, ref.msg);
            else CHECK(ref.st == KILN_OK, "%s: %s", name, ref.msg);
            result_free(&ref);
        }
    free(text);
}

/* The memory checks fall at the same edges with the same line numbers, and a bad line before or
 * after them decides as in the serial parser. */
static void test_memory_checks(kiln_ctx *ctx)
{
    const int nedges = 20000;
    char *text = malloc((size_t)nedges * 32);
    const uint64_t limits[] = {4096 * 56 - 1, 8192 * 56 - 1, 16384 * 56 - 1, 16384 * 80 - 1};
    for (size_t li = 0; li < 4; li++)
        for (int bad_at = 0; bad_at <= 12000; bad_at += 6000) {
            size_t j = 0;
            for (int i = 1; i <= nedges; i++) {
                if (i == bad_at) j += (size_t)sprintf(text + j, "bad\n");
                else if (i % 10 == 0) j += (size_t)sprintf(text + j, "# %d\n", i);
                else j += (size_t)sprintf(text + j, "%d %d%s\n", i, i * 7 % 1000, li == 3 ? " 2" : "");
            }
            kiln_ctx_set_memory_limit(ctx, limits[li]);
            char name[48];
            snprintf(name, sizeof name, "memory limit %zu, bad line %d", li, bad_at);
            result ref;
            compare_text(ctx, name, text, j, li == 3 ? KILN_GRAPH_WEIGHTED : 0, &ref);
            CHECK(ref.st == KILN_ERR_INPUT, "%s", name);
            if (li == 0 && bad_at == 0) /* edge 4096 (from 0) is on line 4552: 455 comments before it */
                CHECK(strstr(ref.msg, ".txt:4552: 4096 edges so far: needs") != NULL, "%s", ref.msg);
            result_free(&ref);
        }
    kiln_ctx_set_memory_limit(ctx, 0);
    free(text);
}

static int stop_now(void *user)
{
    (void)user;
    return 1;
}

static void test_interrupt(kiln_ctx *ctx)
{
    kiln_ctx_set_interrupt(ctx, stop_now, NULL);
    result ref;
    compare_text(ctx, "interrupted", "0 1\n1 2\n", 8, 0, &ref);
    CHECK(ref.st == KILN_STOPPED, "interrupt: %d %s", ref.st, ref.msg);
    result_free(&ref);
    kiln_ctx_set_interrupt(ctx, NULL, NULL);
}

static void test_random(kiln_ctx *ctx)
{
    char *text = malloc(400 * 96);
    for (unsigned long long seed = 1; seed <= 60; seed++) {
        unsigned long long s = seed;
        const int weighted = (int)(seed % 2), nlines = (int)(test_rand(&s) % 400);
        size_t j = 0;
        for (int i = 0; i < nlines; i++) {
            int bad;
            j += random_line(text + j, &s, weighted, seed % 3 == 0, &bad);
        }
        if (j && test_rand(&s) % 3 == 0) j--; /* no final newline */
        char name[32];
        snprintf(name, sizeof name, "random seed %llu", seed);
        result ref;
        compare_text(ctx, name, text, j, weighted ? KILN_GRAPH_WEIGHTED : 0, &ref);
        result_free(&ref);
    }
    free(text);
}

/* The public load picks the chunked parser for a regular file and the serial one for gzip or a
 * pipe: the same graph from each. */
static void test_load_dispatch(kiln_ctx *ctx)
{
    const char *text = "# g\n5 6\n6 7 \r\n7 5\n9 5\n";
    const char *path = write_tmp_str("dispatch.txt", text);
    kiln_reader *r;
    CHECK(kiln_reader_open(ctx, path, &r) == KILN_OK && kiln_snap_can_chunk(r), "a regular file is chunked");
    kiln_reader_close(r);
    kiln_graph *g = NULL;
    kiln_ctx_set_threads(ctx, 2);
    CHECK(kiln_graph_load(ctx, path, KILN_GRAPH_AUTO, 0, &g) == KILN_OK, "%s", kiln_last_error(ctx));
    if (g) {
        kiln_graph_info info;
        kiln_graph_get_info(g, &info);
        CHECK(info.nodes == 4 && info.edges == 4 && kiln_graph_node_id(g, 3) == 9, "the graph");
        kiln_graph_free(g);
    }
}

/* ---- measuring (not run by CTest) ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int gen(const char *path, double mib)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 2;
    static char buf[1 << 16];
    /* KILN_GEN_SEED: another stream of edges, so that files made side by side can be joined */
    const char *seed = getenv("KILN_GEN_SEED");
    unsigned long long s = seed ? strtoull(seed, NULL, 10) : 42, bytes = 0, want = (unsigned long long)(mib * 1048576.0);
    fputs("# random SNAP edge list from test_graph_parse_parallel --gen\n", f);
    while (bytes < want) {
        size_t j = 0;
        while (j < sizeof buf - 64) {
            /* ids skewed towards small ones, as in social graphs: 1 to 8 digits */
            unsigned long long a = test_rand(&s) % (1ull << (4 + test_rand(&s) % 23));
            unsigned long long b = test_rand(&s) % (1ull << (4 + test_rand(&s) % 23));
            j += (size_t)sprintf(buf + j, "%llu\t%llu\n", a, b);
        }
        if (fwrite(buf, 1, j, f) != j) return 2;
        bytes += j;
    }
    return fclose(f) ? 2 : 0;
}

static int bench(const char *path, int argc, char **argv)
{
    kiln_ctx *ctx = kiln_ctx_new();
    FILE *f = fopen(path, "rb");
    if (!ctx || !f) return 2;
    fseek(f, 0, SEEK_END);
    const double mb = (double)ftell(f) / 1e6;
    fclose(f);
    for (int i = -1; i < argc; i++) {
        const int t = i < 0 ? 1 : atoi(argv[i]);
        kiln_ctx_set_threads(ctx, t);
        result res;
        const double t0 = now(), c0 = cpu_now();
        parse(ctx, path, 0, i < 0 ? 0 : KILN_SNAP_CHUNK_DEFAULT, 0, &res);
        const double s = now() - t0, c = cpu_now() - c0;
        /* on a shared machine the wall time says little: MB per CPU second is a thread's rate */
        printf("%-8s threads %2d: %zu edges, %.3f s, %.0f MB/s (%.2f CPU s, %.0f MB per CPU s)%s%s\n",
               i < 0 ? "serial" : "chunked", t, res.raw.count, s, mb / s, c, mb / c, res.st ? " error: " : "",
               res.st ? res.msg : "");
        result_free(&res);
    }
    kiln_ctx_free(ctx);
    return 0;
}

/* The whole load (parse, id remap, CSR build) through the public call: a file takes the chunked
 * parser, "-" with a pipe on standard input the serial one (read once: one thread count). */
static int load(const char *path, const char *cache, int argc, char **argv)
{
    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx) return 2;
    const char *device = getenv("KILN_BENCH_DEVICE");
    if (device && kiln_ctx_set_device(ctx, device) != KILN_OK) {
        printf("device %s: %s\n", device, kiln_last_error(ctx));
        kiln_ctx_free(ctx);
        return 3;
    }
    for (int i = 0; i < argc; i++) {
        kiln_ctx_set_threads(ctx, atoi(argv[i]));
        kiln_graph *g = NULL;
        const double t0 = now(), c0 = cpu_now();
        kiln_status st = kiln_graph_load(ctx, path, KILN_GRAPH_AUTO, 0, &g);
        const double s = now() - t0, c = cpu_now() - c0;
        kiln_graph_info info = {0};
        if (g) kiln_graph_get_info(g, &info);
        printf("load %s threads %2d%s%s: %llu nodes, %llu edges, %.3f s (%.2f CPU s)%s%s\n", path, atoi(argv[i]),
               device ? ", CSR on " : "", device ? device : "",
               (unsigned long long)info.nodes, (unsigned long long)info.edges, s, c, st ? " error: " : "",
               st ? kiln_last_error(ctx) : "");
        if (g && cache) {
            /* and the graph's CSR cache written, then read back, as the load times it */
            if (kiln_graph_save_csr(ctx, g, cache) != KILN_OK) printf("save: %s\n", kiln_last_error(ctx));
            kiln_graph *h = NULL;
            const double u0 = now(), d0 = cpu_now();
            st = kiln_graph_load(ctx, cache, KILN_GRAPH_AUTO, 0, &h);
            const double u = now() - u0, d = cpu_now() - d0;
            FILE *f = fopen(cache, "rb");
            double mb = 0;
            if (f && fseek(f, 0, SEEK_END) == 0) mb = (double)ftell(f) / 1e6;
            if (f) fclose(f);
            printf("  its CSR cache (%.0f MB) read back: %.3f s, %.0f MB/s (%.2f CPU s)%s%s\n", mb, u, mb / u, d,
                   st ? " error: " : "", st ? kiln_last_error(ctx) : "");
            kiln_graph_free(h);
        }
        kiln_graph_free(g);
        if (strcmp(path, "-") == 0) break;
    }
    kiln_ctx_free(ctx);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--gen") == 0) return gen(argv[2], atof(argv[3]));
    if (argc >= 3 && strcmp(argv[1], "--bench") == 0) return bench(argv[2], argc - 3, argv + 3);
    if (argc >= 4 && strcmp(argv[1], "--load") == 0) return load(argv[2], getenv("KILN_BENCH_CACHE"), argc - 3, argv + 3);
    kiln_ctx *ctx = kiln_ctx_new();
    test_known(ctx);
    test_long_lines(ctx);
    test_bad_line_where(ctx);
    test_memory_checks(ctx);
    test_interrupt(ctx);
    test_random(ctx);
    test_load_dispatch(ctx);
    kiln_ctx_free(ctx);
    tmp_cleanup();
    return check_summary();
}
