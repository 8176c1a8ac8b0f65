/* Graph input: SNAP edge lists and Matrix Market files (table-tested, malformed lines named by
 * number, fuzzed), gzip input, the id remap, the edge policy and the binary CSR cache. */
#include "check.h"
#include "graph_test_util.h"

#ifdef KILN_HAVE_ZLIB
#include <zlib.h>
#endif

/* The graph's edges as "src->dst" pairs of original ids, in CSR order, for comparisons. */
static void edges_of(const kiln_graph *g, char *out, size_t cap)
{
    const uint64_t *off;
    const uint32_t *src;
    kiln_graph_csr(g, &off, &src, NULL);
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    size_t j = 0;
    out[0] = '\0';
    for (uint64_t v = 0; v < info.nodes; v++)
        for (uint64_t k = off[v]; k < off[v + 1] && j + 48 < cap; k++)
            j += (size_t)snprintf(out + j, cap - j, "%s%llu->%llu", j ? " " : "",
                                  (unsigned long long)kiln_graph_node_id(g, src[k]),
                                  (unsigned long long)kiln_graph_node_id(g, v));
}

typedef struct good_case {
    const char *name, *text;
    unsigned flags;
    const char *edges; /* CSR order: by destination, then source */
    uint64_t nodes, dups, loops_removed, loops_kept;
} good_case;

static const good_case good[] = {
    {"plain", "0 1\n1 2\n2 0\n", 0, "2->0 0->1 1->2", 3, 0, 0, 0},
    {"comments and blanks", "# SNAP header\n# Nodes: 3 Edges: 3\n\n0 1\n   \n1\t2\n% konect comment\n2 0\n", 0,
     "2->0 0->1 1->2", 3, 0, 0, 0},
    {"crlf", "# c\r\n0 1\r\n1 2\r\n2 0\r\n", 0, "2->0 0->1 1->2", 3, 0, 0, 0},
    {"no final newline", "0 1\n1 2", 0, "0->1 1->2", 3, 0, 0, 0},
    {"tabs and spaces", " \t5\t \t7  \r\n", 0, "5->7", 2, 0, 0, 0},
    {"sparse ids remapped ascending", "1000000000000 5\n5 18446744073709551615\n", 0,
     "1000000000000->5 5->18446744073709551615", 3, 0, 0, 0},
    {"duplicates merged", "0 1\n0 1\n0 1\n1 0\n", 0, "1->0 0->1", 2, 2, 0, 0},
    {"self loops kept", "0 0\n0 1\n", 0, "0->0 0->1", 2, 0, 0, 1},
    {"self loops dropped", "0 0\n0 1\n1 1\n", KILN_GRAPH_DROP_SELF_LOOPS, "0->1", 2, 0, 2, 0},
    {"undirected", "0 1\n1 2\n", KILN_GRAPH_UNDIRECTED, "1->0 0->1 2->1 1->2", 3, 0, 0, 0},
    {"undirected merges both listings", "0 1\n1 0\n", KILN_GRAPH_UNDIRECTED, "1->0 0->1", 2, 2, 0, 0},
    {"mtx pattern", "%%MatrixMarket matrix coordinate pattern general\n% c\n3 3 2\n1 2\n3 1\n", 0, "3->1 1->2", 3, 0,
     0, 0},
    {"mtx isolated vertices", "%%MatrixMarket matrix coordinate pattern general\n5 5 1\n2 3\n", 0, "2->3", 5, 0, 0, 0},
    {"mtx integer", "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 7\n2 1 -3\n", 0, "2->1 1->2", 2, 0,
     0, 0},
    {"mtx real crlf", "%%MatrixMarket matrix coordinate real general\r\n2 2 2\r\n1 2 0.5\r\n2 2 -1.5e-3\r\n", 0,
     "1->2 2->2", 2, 0, 0, 1},
    {"mtx symmetric", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 1\n3 3\n", 0,
     "2->1 3->1 1->2 1->3 3->3", 3, 0, 0, 1},
    {"mtx case-insensitive banner", "%%MatrixMarket MATRIX Coordinate Real General\n2 2 1\n1 2 1\n", 0, "1->2", 2, 0,
     0, 0},
};

typedef struct bad_case {
    const char *name, *text;
    const char *where; /* must appear in the message, e.g. ":3:" */
} bad_case;

static const bad_case bad[] = {
    {"three columns", "0 1\n1 2 3\n", ":2:"},
    {"one column", "0 1\n\n7\n", ":3:"},
    {"letters", "# c\na b\n", ":2:"},
    {"negative", "0 1\n-1 2\n", ":2:"},
    {"float id", "1.5 2\n", ":1:"},
    {"overflow", "18446744073709551616 1\n", ":1:"},
    {"comma", "1,2\n", ":1:"},
    {"junk after", "1 2x\n", ":1:"},
    {"plus sign", "+1 2\n", ":1:"},
    {"nul byte", "0 1\n1 \0002\n", ":2:"},
    {"cr inside", "0 1\r2\n", ":1:"},
    {"empty", "", "no edges"},
    {"only comments", "# a\n# b\n", "no edges"},
    {"mtx array", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", ":1:"},
    {"mtx complex", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", ":1:"},
    {"mtx hermitian", "%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", ":1:"},
    {"mtx no size", "%%MatrixMarket matrix coordinate pattern general\n% c\n", ":2:"},
    {"mtx bad size", "%%MatrixMarket matrix coordinate pattern general\n3 3\n", ":2:"},
    {"mtx not square", "%%MatrixMarket matrix coordinate pattern general\n3 4 1\n1 1\n", ":2:"},
    {"mtx too few", "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n", ":4:"},
    {"mtx too many", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n", ":4:"},
    {"mtx out of range", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n", ":4:"},
    {"mtx zero index", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n0 1\n", ":3:"},
    {"mtx missing value", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n", ":3:"},
    {"mtx bad value", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n", ":3:"},
    {"mtx extra column", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 3\n", ":3:"},
};

static void test_good(kiln_ctx *ctx)
{
    char got[1024], name[64];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        const good_case *c = &good[i];
        snprintf(name, sizeof name, "good%zu.txt", i);
        const char *p = write_tmp_str(name, c->text);
        kiln_graph *g = NULL;
        kiln_status st = kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, c->flags, &g);
        CHECK(st == KILN_OK, "%s: status %d (%s)", c->name, st, kiln_last_error(ctx));
        if (st != KILN_OK) continue;
        edges_of(g, got, sizeof got);
        CHECK(strcmp(got, c->edges) == 0, "%s: edges '%s', want '%s'", c->name, got, c->edges);
        kiln_graph_info info;
        kiln_graph_get_info(g, &info);
        CHECK(info.nodes == c->nodes, "%s: %llu nodes, want %llu", c->name, (unsigned long long)info.nodes,
              (unsigned long long)c->nodes);
        CHECK(info.duplicates_removed == c->dups, "%s: %llu duplicates removed, want %llu", c->name,
              (unsigned long long)info.duplicates_removed, (unsigned long long)c->dups);
        CHECK(info.self_loops_removed == c->loops_removed, "%s: %llu loops removed", c->name,
              (unsigned long long)info.self_loops_removed);
        CHECK(info.self_loops == c->loops_kept, "%s: %llu loops kept", c->name, (unsigned long long)info.self_loops);
        kiln_graph_free(g);
    }
}

static void test_bad(kiln_ctx *ctx)
{
    char name[64];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const bad_case *c = &bad[i];
        snprintf(name, sizeof name, "bad%zu.txt", i);
        /* the "nul byte" case holds a NUL: write its full literal length */
        size_t len = strlen(c->text);
        if (strcmp(c->name, "nul byte") == 0) len = 9;
        const char *p = write_tmp(name, c->text, len);
        kiln_graph *g = NULL;
        kiln_status st = kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, 0, &g);
        CHECK(st == KILN_ERR_INPUT, "%s: status %d, want KILN_ERR_INPUT", c->name, st);
        CHECK(g == NULL, "%s: graph returned on error", c->name);
        CHECK(strstr(kiln_last_error(ctx), c->where) != NULL, "%s: message '%s' does not name '%s'", c->name,
              kiln_last_error(ctx), c->where);
        CHECK(strstr(kiln_last_error(ctx), name) != NULL, "%s: message '%s' does not name the file", c->name,
              kiln_last_error(ctx));
        kiln_graph_free(g);
    }
    kiln_graph *g = NULL;
    CHECK(kiln_graph_load(ctx, tmp_path("does-not-exist"), KILN_GRAPH_AUTO, 0, &g) == KILN_ERR_INPUT, "missing file");
    CHECK(kiln_graph_load(ctx, test_tmp_dir, KILN_GRAPH_AUTO, 0, &g) == KILN_ERR_INPUT, "directory");
    CHECK(kiln_graph_load(ctx, write_tmp_str("f.txt", "0 1\n"), KILN_GRAPH_AUTO, 0x80, &g) == KILN_ERR_INPUT,
          "unknown flag");
    CHECK(kiln_graph_load(ctx, write_tmp_str("f.txt", "0 1\n"), KILN_GRAPH_CSR, 0, &g) == KILN_ERR_INPUT,
          "text file read as a CSR cache");
    CHECK(kiln_graph_load(ctx, write_tmp_str("f.txt", "%%MatrixMarket matrix coordinate pattern general\n1 1 0\n"),
                          KILN_GRAPH_SNAP, 0, &g) == KILN_ERR_INPUT,
          "Matrix Market forced through the SNAP parser");
}

/* A line that fails to parse yields KILN_ERR_INPUT and its own number; anything else loads. */
static void test_fuzz(kiln_ctx *ctx)
{
    static const char seed_text[] =
        "# comment\n0 1\n1 2\r\n2 0\n\n3\t4\n4 3\n%%MatrixMarket matrix coordinate real general\n5 5 1\n1 2 0.5\n";
    const size_t len = sizeof seed_text - 1;
    unsigned long long rng = 7;
    char buf[sizeof seed_text + 16];
    int ok = 0, input = 0, other = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(buf, seed_text, len);
        size_t n = len;
        int edits = 1 + (int)(test_rand(&rng) % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)(test_rand(&rng) % n);
            static const char alphabet[] = "0123456789 \t\r\n#%-+.exa\0\xff";
            buf[at] = alphabet[test_rand(&rng) % (sizeof alphabet - 1)];
        }
        if (test_rand(&rng) % 4 == 0) n = (size_t)(test_rand(&rng) % n); /* truncated */
        /* from the top: SNAP; with the banner moved to the front: Matrix Market */
        const char *p = write_tmp("fuzz.txt", buf, n);
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1) {
                const char *mm = strstr(seed_text, "%%Matrix");
                size_t off = (size_t)(mm - seed_text);
                if (off >= n) break;
                p = write_tmp("fuzz.mtx", buf + off, n - off);
            }
            kiln_graph *g = NULL;
            kiln_status st = kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, 0, &g);
            if (st == KILN_OK) {
                ok++;
                kiln_graph_info info;
                kiln_graph_get_info(g, &info);
                CHECK(info.nodes > 0 || pass == 1, "round %d: loaded an empty SNAP graph", round);
            } else if (st == KILN_ERR_INPUT) {
                input++;
                const char *msg = kiln_last_error(ctx);
                const char *colon = strstr(msg, ".txt:");
                if (!colon) colon = strstr(msg, ".mtx:");
                CHECK(colon != NULL || strstr(msg, "no edges") != NULL, "round %d: message without a line: %s", round,
                      msg);
            } else {
                other++;
            }
            kiln_graph_free(g);
        }
    }
    CHECK(other == 0, "fuzz: %d loads failed with a status other than OK/INPUT", other);
    CHECK(ok > 100 && input > 100, "fuzz: %d loaded, %d refused (both should be common)", ok, input);
}

static void test_gzip(kiln_ctx *ctx)
{
#ifdef KILN_HAVE_ZLIB
    static const char text[] = "# gz\r\n10 20\n20 30\n30 10\n10 30\n";
    const char *p = tmp_path("g.txt.gz");
    gzFile gz = gzopen(p, "wb");
    CHECK(gz != NULL, "gzopen");
    if (!gz) return;
    gzwrite(gz, text, (unsigned)strlen(text));
    gzclose(gz);
    kiln_graph *g = NULL, *h = NULL;
    CHECK(kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, 0, &g) == KILN_OK, "gzip load: %s", kiln_last_error(ctx));
    CHECK(kiln_graph_load(ctx, write_tmp_str("g.txt", text), KILN_GRAPH_AUTO, 0, &h) == KILN_OK, "plain load");
    char a[256] = "", b[256] = "";
    if (g) edges_of(g, a, sizeof a);
    if (h) edges_of(h, b, sizeof b);
    CHECK(strcmp(a, b) == 0 && strcmp(a, "30->10 10->20 10->30 20->30") == 0, "gzip edges '%s' vs '%s'", a, b);
    kiln_graph_free(g);
    kiln_graph_free(h);

    /* truncated gzip stream */
    FILE *f = fopen(p, "rb");
    unsigned char raw[256];
    size_t n = f ? fread(raw, 1, sizeof raw, f) : 0;
    if (f) fclose(f);
    const char *t = write_tmp("trunc.txt.gz", raw, n > 20 ? n - 12 : n / 2);
    g = NULL;
    kiln_status st = kiln_graph_load(ctx, t, KILN_GRAPH_AUTO, 0, &g);
    CHECK(st == KILN_ERR_INPUT, "truncated gzip: status %d (%s)", st, kiln_last_error(ctx));
    kiln_graph_free(g);

    /* a malformed line inside a compressed file is still named */
    gz = gzopen(p, "wb");
    gzputs(gz, "1 2\n2 3\nbad line\n");
    gzclose(gz);
    g = NULL;
    st = kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, 0, &g);
    CHECK(st == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), ":3:"), "gzip bad line: %s", kiln_last_error(ctx));
    kiln_graph_free(g);
#else
    static const unsigned char gz_magic[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    kiln_graph *g = NULL;
    kiln_status st = kiln_graph_load(ctx, write_tmp("g.gz", gz_magic, sizeof gz_magic), KILN_GRAPH_AUTO, 0, &g);
    CHECK(st == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "zlib"), "gzip without zlib: %s", kiln_last_error(ctx));
#endif
}

/* A line of the longest length accepted (4096 bytes and its CRLF), and many lines across buffer
 * refills. */
static void test_long_input(kiln_ctx *ctx)
{
    size_t cap = 3u << 20, n = 0;
    char *text = malloc(cap);
    n += (size_t)snprintf(text, cap, "# ");
    while (n < 4096) text[n++] = 'x';
    text[n++] = '\r';
    text[n++] = '\n';
    uint64_t lines = 0;
    while (n + 32 < cap) {
        n += (size_t)snprintf(text + n, cap - n, "%llu %llu\n", (unsigned long long)(lines % 1000),
                              (unsigned long long)((lines * 7 + 1) % 1000));
        lines++;
    }
    const char *p = write_tmp("long.txt", text, n);
    kiln_graph *g = NULL;
    CHECK(kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, 0, &g) == KILN_OK, "long input: %s", kiln_last_error(ctx));
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    CHECK(info.edges_read == lines, "long input: %llu edges read, want %llu", (unsigned long long)info.edges_read,
          (unsigned long long)lines);
    kiln_graph_free(g);
    /* a bad line after the refills still gets its number */
    n += (size_t)snprintf(text + n, cap - n, "oops\n");
    p = write_tmp("long_bad.txt", text, n);
    char want[32];
    snprintf(want, sizeof want, ":%llu:", (unsigned long long)lines + 2);
    g = NULL;
    CHECK(kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, 0, &g) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), want),
          "late bad line: '%s' should name %s", kiln_last_error(ctx), want);
    free(text);
}

/* A line over 4096 bytes is refused with its number and the limit, wherever it is: first, after
 * other lines, last without a line end, or a comment. */
static void test_line_limit(kiln_ctx *ctx)
{
    static const char *const before[] = {"", "1 2\n2 3\n", "# c\n1 2\n", "1 2\n"};
    static const char *const start[] = {"1", "", "#", "%"};
    static const char *const lineno[] = {":1:", ":3:", ":3:", ":2:"};
    for (int c = 0; c < 4; c++) {
        size_t cap = 16384, n = (size_t)snprintf(NULL, 0, "%s%s", before[c], start[c]);
        char *text = malloc(cap);
        snprintf(text, cap, "%s%s", before[c], start[c]);
        size_t line_start = strlen(before[c]);
        while (n < line_start + 4097) text[n++] = c == 1 ? ' ' : '7';
        if (c != 3) text[n++] = '\n';
        const char *p = write_tmp("long_line.txt", text, n);
        kiln_graph *g = NULL;
        kiln_status st = kiln_graph_load(ctx, p, KILN_GRAPH_SNAP, 0, &g);
        CHECK(st == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), lineno[c]) && strstr(kiln_last_error(ctx), "4096"),
              "line of 4097 bytes (case %d): %s", c, kiln_last_error(ctx));
        kiln_graph_free(g);
        free(text);
    }
}

static void test_cache(kiln_ctx *ctx)
{
    kiln_graph *g = NULL, *h = NULL;
    CHECK(kiln_graph_load(ctx, test_data("facebook_combined.txt"), KILN_GRAPH_SNAP, KILN_GRAPH_UNDIRECTED, &g) ==
              KILN_OK,
          "facebook: %s", kiln_last_error(ctx));
    if (!g) return;
    const char *p = tmp_path("fb.kcsr");
    CHECK(kiln_graph_save_csr(ctx, g, p) == KILN_OK, "save: %s", kiln_last_error(ctx));
    CHECK(kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, 0, &h) == KILN_OK, "reload: %s", kiln_last_error(ctx));
    kiln_graph_info a, b;
    kiln_graph_get_info(g, &a);
    kiln_graph_get_info(h, &b);
    CHECK(a.nodes == 4039 && a.edges == 176468, "facebook: %llu nodes %llu arcs", (unsigned long long)a.nodes,
          (unsigned long long)a.edges);
    CHECK(a.nodes == b.nodes && a.edges == b.edges && a.dangling == b.dangling &&
              a.duplicates_removed == b.duplicates_removed && a.max_in_degree == b.max_in_degree,
          "reloaded info differs");
    const uint64_t *o1, *o2;
    const uint32_t *s1, *s2, *d1, *d2;
    kiln_graph_csr(g, &o1, &s1, &d1);
    kiln_graph_csr(h, &o2, &s2, &d2);
    if (h) {
        CHECK(memcmp(o1, o2, (a.nodes + 1) * 8) == 0 && memcmp(s1, s2, a.edges * 4) == 0 &&
                  memcmp(d1, d2, a.nodes * 4) == 0,
              "reloaded CSR differs");
        int same_ids = 1;
        for (uint64_t i = 0; i < a.nodes; i++) same_ids &= kiln_graph_node_id(g, i) == kiln_graph_node_id(h, i);
        CHECK(same_ids, "reloaded ids differ");
    }
    kiln_graph_free(h);

    /* sparse ids survive the round trip */
    kiln_graph *s = NULL;
    CHECK(kiln_graph_load(ctx, write_tmp_str("sparse.txt", "99999999999 7\n7 3\n"), KILN_GRAPH_AUTO, 0, &s) == KILN_OK,
          "sparse");
    CHECK(kiln_graph_save_csr(ctx, s, tmp_path("sparse.kcsr")) == KILN_OK, "save sparse");
    h = NULL;
    CHECK(kiln_graph_load(ctx, tmp_path("sparse.kcsr"), KILN_GRAPH_CSR, 0, &h) == KILN_OK, "reload sparse");
    CHECK(h && kiln_graph_node_id(h, 0) == 3 && kiln_graph_node_id(h, 2) == 99999999999ull, "sparse ids");
    kiln_graph_free(h);
    kiln_graph_free(s);

    /* damage: every kind is refused with KILN_ERR_INPUT */
    FILE *f = fopen(p, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    unsigned char *bytes = malloc((size_t)size);
    CHECK(fread(bytes, 1, (size_t)size, f) == (size_t)size, "read cache");
    fclose(f);
    struct {
        const char *what;
        long at;
        unsigned char x;
        long len;
    } damage[] = {
        {"magic", 0, 'X', size},        {"version", 8, 2, size},       {"node count", 24, 1, size},
        {"offset byte", 200, 0x40, size}, {"source byte", size - 5, 0x01, size}, {"truncated", 0, 0, size - 8},
        {"header only", 0, 0, 128},     {"empty", 0, 0, 0},
        /* every header byte that shapes the result is under the checksum (issue 24.2): a changed
         * node-id base renamed every node (13 -> 1000013) with exit 0 */
        {"id base", 42, 0x0f, size},    {"edges read", 48, 1, size},   {"self loops removed", 56, 1, size},
        {"duplicates removed", 64, 1, size}, {"checksum", 72, 1, size}, {"header padding", 100, 1, size},
    };
    for (size_t i = 0; i < sizeof damage / sizeof damage[0]; i++) {
        unsigned char *copy = malloc((size_t)size);
        memcpy(copy, bytes, (size_t)size);
        if (damage[i].x) copy[damage[i].at] ^= damage[i].x;
        const char *q = write_tmp("damaged.kcsr", copy, (size_t)damage[i].len);
        h = NULL;
        kiln_status st = kiln_graph_load(ctx, q, KILN_GRAPH_CSR, 0, &h);
        CHECK(st == KILN_ERR_INPUT && h == NULL, "damaged cache (%s): status %d", damage[i].what, st);
        if (strcmp(damage[i].what, "version") == 0)
            CHECK(strstr(kiln_last_error(ctx), "version") != NULL, "version message: %s", kiln_last_error(ctx));
        kiln_graph_free(h);
        free(copy);
    }
    free(bytes);
    kiln_graph_free(g);
}

static void test_from_edges(kiln_ctx *ctx)
{
    const uint64_t src[] = {40, 40, 10, 10, 30};
    const uint64_t dst[] = {10, 10, 40, 10, 40};
    kiln_graph *g = NULL;
    CHECK(kiln_graph_from_edges(ctx, src, dst, 5, 0, &g) == KILN_OK, "from_edges: %s", kiln_last_error(ctx));
    char got[256];
    edges_of(g, got, sizeof got);
    CHECK_STR(got, "10->10 40->10 10->40 30->40");
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    CHECK(info.dangling == 0 && info.nodes == 3 && info.duplicates_removed == 1 && info.self_loops == 1,
          "from_edges info: dangling %llu", (unsigned long long)info.dangling);
    kiln_graph_free(g);
    g = NULL;
    CHECK(kiln_graph_from_edges(ctx, src, dst, 0, 0, &g) == KILN_ERR_INPUT, "no edges");
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    kiln_ctx_set_device(ctx, "cpu");
    test_good(ctx);
    test_bad(ctx);
    test_fuzz(ctx);
    test_gzip(ctx);
    test_long_input(ctx);
    test_line_limit(ctx);
    test_cache(ctx);
    test_from_edges(ctx);
    kiln_ctx_free(ctx);
    tmp_cleanup();
    return check_summary();
}
