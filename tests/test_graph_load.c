/* Graph input that can be read only once: SNAP ego-Facebook, the same graph as Matrix Market, a
 * gzip stream and a CSR cache, each fed through a pipe (as "-" and as /dev/stdin) and through a
 * FIFO, must give the graph of the file and NetworkX's ranks (facebook_combined.pagerank.txt).
 * A second open or a rewind would lose the first bytes or block. */
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "check.h"
#include "graph_test_util.h"

#ifdef KILN_HAVE_ZLIB
#include <zlib.h>
#endif

#define FB_NODES 4039
#define FB_ARCS 176468 /* SNAP: 88234 undirected edges, both directions */

typedef enum { VIA_DASH, VIA_DEV_STDIN, VIA_FIFO } via;
static const char *via_name[] = {"pipe as -", "pipe as /dev/stdin", "FIFO"};

/* A child writes data in uneven pieces, so reads come back short as they do from real pipes. */
static pid_t spawn_writer(int fd_or_neg, const char *fifo, const void *data, size_t len)
{
    pid_t pid = fork();
    if (pid != 0) return pid;
    int fd = fifo ? open(fifo, O_WRONLY) : fd_or_neg;
    const unsigned char *p = data;
    size_t off = 0, piece = 1;
    while (fd >= 0 && off < len) {
        size_t n = len - off < piece ? len - off : piece;
        ssize_t w = write(fd, p + off, n);
        if (w <= 0) break;
        off += (size_t)w;
        piece = piece * 3 + 7;
        if (piece > 70000) piece = 1;
    }
    _exit(off == len ? 0 : 1);
}

static kiln_status load_via(kiln_ctx *ctx, via how, const void *data, size_t len, kiln_graph_format format,
                            unsigned flags, kiln_graph **g)
{
    *g = NULL;
    kiln_status st;
    pid_t pid;
    if (how == VIA_FIFO) {
        const char *fifo = tmp_path("graph.fifo");
        unlink(fifo);
        if (mkfifo(fifo, 0600) != 0) {
            perror("mkfifo");
            exit(2);
        }
        pid = spawn_writer(-1, fifo, data, len);
        st = kiln_graph_load(ctx, fifo, format, flags, g);
        unlink(fifo);
    } else {
        int p[2], saved = dup(STDIN_FILENO);
        if (pipe(p) != 0 || saved < 0) {
            perror("pipe");
            exit(2);
        }
        pid = spawn_writer(p[1], NULL, data, len);
        close(p[1]);
        dup2(p[0], STDIN_FILENO);
        close(p[0]);
        st = kiln_graph_load(ctx, how == VIA_DASH ? "-" : "/dev/stdin", format, flags, g);
        dup2(saved, STDIN_FILENO);
        close(saved);
    }
    /* a refused input may not be read to its end; the writer must not be left blocked */
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    return st;
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    unsigned char *b = malloc((size_t)n + 1);
    if (fread(b, 1, (size_t)n, f) != (size_t)n) exit(2);
    fclose(f);
    *len = (size_t)n;
    return b;
}

static int same_graph(const kiln_graph *a, const kiln_graph *b)
{
    if (!a || !b) return 0;
    kiln_graph_info x, y;
    kiln_graph_get_info(a, &x);
    kiln_graph_get_info(b, &y);
    if (x.nodes != y.nodes || x.edges != y.edges || x.duplicates_removed != y.duplicates_removed) return 0;
    const uint64_t *o1, *o2;
    const uint32_t *s1, *s2, *d1, *d2;
    kiln_graph_csr(a, &o1, &s1, &d1);
    kiln_graph_csr(b, &o2, &s2, &d2);
    if (memcmp(o1, o2, (x.nodes + 1) * 8) || memcmp(s1, s2, x.edges * 4) || memcmp(d1, d2, x.nodes * 4)) return 0;
    for (uint64_t i = 0; i < x.nodes; i++)
        if (kiln_graph_node_id(a, i) != kiln_graph_node_id(b, i)) return 0;
    return 1;
}

/* Facebook as loaded: the SNAP counts, and ranks within 1e-9 (L1) of NetworkX's converged column,
 * node id - id_shift being the reference's node. */
static void check_facebook(kiln_ctx *ctx, const kiln_graph *g, uint64_t id_shift, const char *what)
{
    static double ref[FB_NODES];
    static int have_ref;
    if (!have_ref) have_ref = read_reference(test_data("facebook_combined.pagerank.txt"), 3, ref, FB_NODES) == FB_NODES;
    CHECK(have_ref, "reference file");
    if (!g || !have_ref) return;
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    CHECK(info.nodes == FB_NODES && info.edges == FB_ARCS, "%s: %llu nodes %llu arcs", what,
          (unsigned long long)info.nodes, (unsigned long long)info.edges);
    if (info.nodes != FB_NODES) return;
    double *x = malloc(FB_NODES * sizeof *x), *want = malloc(FB_NODES * sizeof *want);
    for (uint64_t i = 0; i < FB_NODES; i++) {
        uint64_t id = kiln_graph_node_id(g, i) - id_shift;
        want[i] = id < FB_NODES ? ref[id] : -1;
    }
    kiln_pagerank_options o;
    kiln_pagerank_options_init(&o);
    o.tol = 1e-15;
    o.max_iter = 1000;
    kiln_pagerank_result res;
    CHECK(kiln_pagerank(ctx, g, &o, x, &res) == KILN_OK, "%s: pagerank: %s", what, kiln_last_error(ctx));
    double d = l1(x, want, FB_NODES);
    CHECK(d < 1e-9, "%s: L1 to NetworkX %.3e", what, d);
    free(x);
    free(want);
}

static void test_snap(kiln_ctx *ctx, const unsigned char *text, size_t len, const kiln_graph *file_graph)
{
    for (via how = VIA_DASH; how <= VIA_FIFO; how++) {
        kiln_graph *g;
        kiln_status st = load_via(ctx, how, text, len, KILN_GRAPH_AUTO, KILN_GRAPH_UNDIRECTED, &g);
        CHECK(st == KILN_OK, "SNAP %s: %s", via_name[how], kiln_last_error(ctx));
        CHECK(same_graph(g, file_graph), "SNAP %s: not the graph of the file", via_name[how]);
        check_facebook(ctx, g, 0, via_name[how]);
        kiln_graph_free(g);
    }
    /* an explicit format reads the same stream */
    kiln_graph *g;
    CHECK(load_via(ctx, VIA_DASH, text, len, KILN_GRAPH_SNAP, KILN_GRAPH_UNDIRECTED, &g) == KILN_OK, "SNAP format");
    CHECK(same_graph(g, file_graph), "explicit SNAP through a pipe");
    kiln_graph_free(g);
}

/* The Facebook edges as a Matrix Market file: vertex v is row v + 1. */
static char *facebook_mtx(const unsigned char *text, size_t len, size_t *out_len)
{
    size_t cap = len * 2 + 256, n = 0;
    char *m = malloc(cap);
    n += (size_t)snprintf(m, cap, "%%%%MatrixMarket matrix coordinate pattern general\n%% ego-Facebook\n%d %d %d\n",
                          FB_NODES, FB_NODES, FB_ARCS / 2);
    const char *p = (const char *)text, *end = p + len;
    while (p < end) {
        unsigned long a, b;
        if (sscanf(p, "%lu %lu", &a, &b) == 2) n += (size_t)snprintf(m + n, cap - n, "%lu %lu\n", a + 1, b + 1);
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    *out_len = n;
    return m;
}

static void test_mtx(kiln_ctx *ctx, const unsigned char *text, size_t len)
{
    size_t mlen;
    char *mtx = facebook_mtx(text, len, &mlen);
    kiln_graph *file_graph = NULL;
    CHECK(kiln_graph_load(ctx, write_tmp("fb.mtx", mtx, mlen), KILN_GRAPH_AUTO, KILN_GRAPH_UNDIRECTED, &file_graph) ==
              KILN_OK,
          "mtx file: %s", kiln_last_error(ctx));
    check_facebook(ctx, file_graph, 1, "mtx file");
    for (via how = VIA_DASH; how <= VIA_FIFO; how++) {
        kiln_graph *g;
        kiln_status st = load_via(ctx, how, mtx, mlen, KILN_GRAPH_AUTO, KILN_GRAPH_UNDIRECTED, &g);
        CHECK(st == KILN_OK, "mtx %s: %s", via_name[how], kiln_last_error(ctx));
        CHECK(same_graph(g, file_graph), "mtx %s: not the graph of the file", via_name[how]);
        check_facebook(ctx, g, 1, via_name[how]);
        kiln_graph_free(g);
    }
    kiln_graph_free(file_graph);
    free(mtx);
}

#ifdef KILN_HAVE_ZLIB
/* text gzip-compressed in `members` back-to-back members, as `cat a.gz b.gz` makes */
static unsigned char *gzip_members(const unsigned char *text, size_t len, int members, size_t *out_len)
{
    unsigned char *out = malloc(len + 1024 * (size_t)members);
    size_t n = 0, at = 0;
    for (int k = 0; k < members; k++) {
        size_t piece = k == members - 1 ? len - at : len / (size_t)members;
        z_stream z;
        memset(&z, 0, sizeof z);
        deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
        z.next_in = (unsigned char *)text + at;
        z.avail_in = (uInt)piece;
        z.next_out = out + n;
        z.avail_out = (uInt)(len + 1024);
        deflate(&z, Z_FINISH);
        n += z.total_out;
        deflateEnd(&z);
        at += piece;
    }
    *out_len = n;
    return out;
}
#endif

static void test_gzip(kiln_ctx *ctx, const unsigned char *text, size_t len, const kiln_graph *file_graph)
{
#ifdef KILN_HAVE_ZLIB
    for (int members = 1; members <= 3; members += 2) {
        size_t zlen;
        unsigned char *gz = gzip_members(text, len, members, &zlen);
        for (via how = VIA_DASH; how <= VIA_FIFO; how++) {
            kiln_graph *g;
            kiln_status st = load_via(ctx, how, gz, zlen, KILN_GRAPH_AUTO, KILN_GRAPH_UNDIRECTED, &g);
            CHECK(st == KILN_OK && same_graph(g, file_graph), "gzip (%d members) %s: %s", members, via_name[how],
                  kiln_last_error(ctx));
            kiln_graph_free(g);
        }
        /* cut short: refused, not read as a smaller graph */
        kiln_graph *g;
        kiln_status st = load_via(ctx, VIA_DASH, gz, zlen - 9, KILN_GRAPH_AUTO, KILN_GRAPH_UNDIRECTED, &g);
        CHECK(st == KILN_ERR_INPUT && !g, "truncated gzip through a pipe: status %d", st);
        free(gz);
    }
#else
    (void)file_graph;
    (void)len;
    kiln_graph *g;
    static const unsigned char magic[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    kiln_status st = load_via(ctx, VIA_DASH, magic, sizeof magic, KILN_GRAPH_AUTO, 0, &g);
    CHECK(st == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "zlib"), "gzip without zlib: %s", kiln_last_error(ctx));
    (void)text;
#endif
}

static void test_cache(kiln_ctx *ctx, const kiln_graph *file_graph)
{
    const char *path = tmp_path("fb.kcsr");
    CHECK(kiln_graph_save_csr(ctx, file_graph, path) == KILN_OK, "save: %s", kiln_last_error(ctx));
    size_t len;
    unsigned char *bytes = slurp(path, &len);
    for (via how = VIA_DASH; how <= VIA_FIFO; how++) {
        kiln_graph *g;
        kiln_status st = load_via(ctx, how, bytes, len, KILN_GRAPH_AUTO, 0, &g);
        CHECK(st == KILN_OK && same_graph(g, file_graph), "cache %s: %s", via_name[how], kiln_last_error(ctx));
        kiln_graph_free(g);
    }
    kiln_graph *g;
    kiln_status st = load_via(ctx, VIA_DASH, bytes, len - 8, KILN_GRAPH_CSR, 0, &g);
    CHECK(st == KILN_ERR_INPUT && !g, "truncated cache through a pipe: status %d", st);
    unsigned char *longer = malloc(len + 1);
    memcpy(longer, bytes, len);
    longer[len] = 0;
    st = load_via(ctx, VIA_DASH, longer, len + 1, KILN_GRAPH_CSR, 0, &g);
    CHECK(st == KILN_ERR_INPUT && !g, "cache with a byte too many through a pipe: status %d", st);
    /* a header claiming 3.7 billion nodes on a pipe of 0.7 MB: refused as input, not as memory */
    uint64_t huge = UINT64_C(0xF0000000);
    memcpy(longer + 24, &huge, 8);
    st = load_via(ctx, VIA_DASH, longer, len, KILN_GRAPH_CSR, 0, &g);
    CHECK(st == KILN_ERR_INPUT && !g, "huge node count through a pipe: status %d (%s)", st, kiln_last_error(ctx));
    st = load_via(ctx, VIA_DASH, bytes, len, KILN_GRAPH_AUTO, KILN_GRAPH_UNDIRECTED, &g);
    CHECK(st == KILN_ERR_INPUT && !g, "cache with flags through a pipe: status %d", st);
    free(longer);
    free(bytes);
}

static void test_errors(kiln_ctx *ctx)
{
    static const char bad[] = "0 1\n1 2\n2 x\n";
    kiln_graph *g;
    kiln_status st = load_via(ctx, VIA_DASH, bad, sizeof bad - 1, KILN_GRAPH_AUTO, 0, &g);
    CHECK(st == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "<stdin>:3:"), "bad line on stdin: %s",
          kiln_last_error(ctx));
    st = load_via(ctx, VIA_DASH, "", 0, KILN_GRAPH_AUTO, 0, &g);
    CHECK(st == KILN_ERR_INPUT && !g, "empty stdin: status %d", st);
    /* shorter than the Matrix Market banner: still a one-edge SNAP list */
    st = load_via(ctx, VIA_FIFO, "7 9", 3, KILN_GRAPH_AUTO, 0, &g);
    CHECK(st == KILN_OK && g && kiln_graph_node_id(g, 1) == 9, "tiny FIFO: %s", kiln_last_error(ctx));
    kiln_graph_free(g);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    kiln_ctx *ctx = kiln_ctx_new();
    kiln_ctx_set_device(ctx, "cpu");
    size_t len;
    unsigned char *text = slurp(test_data("facebook_combined.txt"), &len);
    kiln_graph *file_graph = NULL;
    CHECK(kiln_graph_load(ctx, test_data("facebook_combined.txt"), KILN_GRAPH_AUTO, KILN_GRAPH_UNDIRECTED,
                          &file_graph) == KILN_OK,
          "file: %s", kiln_last_error(ctx));
    check_facebook(ctx, file_graph, 0, "file");
    if (file_graph) {
        test_snap(ctx, text, len, file_graph);
        test_mtx(ctx, text, len);
        test_gzip(ctx, text, len, file_graph);
        test_cache(ctx, file_graph);
    }
    test_errors(ctx);
    kiln_graph_free(file_graph);
    free(text);
    kiln_ctx_free(ctx);
    tmp_cleanup();
    return check_summary();
}
