/* A SNAP edge list read by all processes at once: each parses the lines that start in its byte
 * range of the file (src/graph/snap.c over the bytes it read, line numbers counted across the
 * processes so messages name the file's line), the ids become the indices one process would give
 * (the distinct ids of all processes, ascending), and each edge goes to its destination's owner.
 * No process holds the whole edge list. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../graph/reader.h"
#include "dist.h"

/* Reads bytes [a, b) of fd into a new buffer; NULL on failure. */
static char *read_range(int fd, uint64_t a, uint64_t b)
{
    char *buf = malloc(b > a ? b - a : 1);
    for (uint64_t done = 0; buf && done < b - a;) {
        ssize_t k = pread(fd, buf + done, b - a - done, (off_t)(a + done));
        if (k <= 0) {
            free(buf);
            return NULL;
        }
        done += (uint64_t)k;
    }
    return buf;
}

/* Where the first line starting at or after byte `at` starts: lines belong to the process whose
 * range holds their first byte. size when none does. */
static kiln_status line_start(kiln_ctx *ctx, int fd, const char *path, uint64_t size, uint64_t at, uint64_t *out)
{
    if (at == 0 || at >= size) {
        *out = at >= size ? size : 0;
        return KILN_OK;
    }
    /* the byte before `at` ends a line, or the line runs on to the next LF */
    for (uint64_t p = at - 1; p < size; p += 65536) {
        uint64_t e = p + 65536 < size ? p + 65536 : size;
        char *buf = read_range(fd, p, e);
        if (!buf) return kiln_fail(ctx, KILN_ERR_DEVICE, "%s: read error", path);
        char *nl = memchr(buf, '\n', e - p);
        uint64_t at = nl ? (uint64_t)(nl - buf) : 0;
        free(buf);
        if (nl) {
            *out = p + at + 1;
            return KILN_OK;
        }
    }
    *out = size;
    return KILN_OK;
}

/* A reader over bytes this process holds, its first line numbered first_line. */
static kiln_reader *memory_reader(const char *path, char *bytes, size_t len, uint64_t first_line)
{
    kiln_reader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->path = path;
    r->fd = -1;
    r->size = -1;
    r->buf = bytes;
    r->cap = r->len = len;
    r->eof = 1;
    r->line = first_line - 1;
    r->max_line = KILN_GRAPH_MAX_LINE;
    return r;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sorts a[0..n) and drops repeats; returns the count left. */
static uint64_t sort_unique(uint64_t *a, uint64_t n)
{
    qsort(a, n, sizeof *a, cmp_u64);
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++)
        if (k == 0 || a[i] != a[k - 1]) a[k++] = a[i];
    return k;
}

static uint32_t lookup(const uint64_t *ids, uint64_t n, uint64_t id)
{
    uint64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (ids[mid] <= id) lo = mid;
        else hi = mid - 1;
    }
    return (uint32_t)lo;
}

/* This process's edges of the file, parsed. */
static kiln_status parse_share(kiln_ctx *ctx, kiln_dist *d, const char *path, unsigned flags, kiln_raw_edges *raw)
{
    int fd = open(path, O_RDONLY);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        if (fd >= 0) close(fd);
        return kiln_dist_agree_ctx(ctx, d, kiln_fail(ctx, KILN_ERR_INPUT, "%s: cannot open", path));
    }
    const uint64_t size = (uint64_t)sb.st_size, k = (uint64_t)d->size, r = (uint64_t)d->rank;
    uint64_t a = 0, b = 0;
    kiln_status st = line_start(ctx, fd, path, size, size / k * r + (r < size % k ? r : size % k), &a);
    if (st == KILN_OK)
        st = line_start(ctx, fd, path, size, size / k * (r + 1) + (r + 1 < size % k ? r + 1 : size % k), &b);
    char *bytes = st == KILN_OK ? read_range(fd, a, b) : NULL;
    close(fd);
    if (st == KILN_OK && !bytes) st = kiln_fail(ctx, KILN_ERR_DEVICE, "%s: cannot read bytes %llu..%llu", path,
                                                (unsigned long long)a, (unsigned long long)b);
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st != KILN_OK) {
        free(bytes);
        return st;
    }
    /* the line numbers of the processes before this one */
    uint64_t lines = 0, before = 0;
    for (uint64_t i = 0; i < b - a; i++) lines += bytes[i] == '\n';
    if (b > a && bytes[b - a - 1] != '\n') lines++;
    MPI_Exscan(&lines, &before, 1, MPI_UINT64_T, MPI_SUM, d->comm);
    if (d->rank == 0) before = 0;
    kiln_reader *rd = memory_reader(path, bytes, b - a, before + 1);
    if (!rd) {
        free(bytes);
        st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    } else {
        st = kiln_parse_snap(ctx, rd, flags, raw);
        kiln_reader_close(rd);
    }
    return kiln_dist_agree_ctx(ctx, d, st);
}

/* Every process's distinct ids, merged: the graph's ids, ascending (*n of them). */
static kiln_status global_ids(kiln_ctx *ctx, kiln_dist *d, const kiln_raw_edges *raw, uint64_t **ids, uint64_t *n)
{
    uint64_t *mine = malloc((2 * raw->count + 1) * sizeof *mine), count = 0;
    int *cnt = malloc((size_t)d->size * 2 * sizeof *cnt);
    kiln_status st = mine && cnt ? KILN_OK : kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for the vertex ids");
    if (st == KILN_OK && raw->count) { /* a process's share may hold no edge (no arrays then) */
        memcpy(mine, raw->src, raw->count * sizeof *mine);
        memcpy(mine + raw->count, raw->dst, raw->count * sizeof *mine);
        count = sort_unique(mine, 2 * raw->count);
        if (count > INT32_MAX) st = kiln_fail(ctx, KILN_ERR_INPUT, "over 2^31 distinct ids in one process: use more processes");
    }
    st = kiln_dist_agree_ctx(ctx, d, st);
    uint64_t *all = NULL;
    if (st == KILN_OK) {
        int c = (int)count, *displ = cnt + d->size;
        MPI_Allgather(&c, 1, MPI_INT, cnt, 1, MPI_INT, d->comm);
        uint64_t total = 0;
        for (int r = 0; r < d->size; r++) {
            displ[r] = (int)total;
            total += (uint64_t)cnt[r];
        }
        if (total > INT32_MAX) st = kiln_fail(ctx, KILN_ERR_INPUT, "over 2^31 ids over the processes: not yet across processes");
        all = st == KILN_OK ? malloc((total ? total : 1) * sizeof *all) : NULL;
        if (st == KILN_OK && !all) st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for the vertex ids");
        st = kiln_dist_agree_ctx(ctx, d, st);
        if (st == KILN_OK) {
            MPI_Allgatherv(mine, c, MPI_UINT64_T, all, cnt, displ, MPI_UINT64_T, d->comm);
            *n = sort_unique(all, total);
            if (*n > KILN_GRAPH_MAX_NODES)
                st = kiln_fail(ctx, KILN_ERR_INPUT, "%llu distinct vertices is more than kiln handles (%llu)",
                               (unsigned long long)*n, (unsigned long long)KILN_GRAPH_MAX_NODES);
        }
    }
    free(mine);
    free(cnt);
    if (st != KILN_OK) {
        free(all);
        return st;
    }
    *ids = all;
    return KILN_OK;
}

kiln_status kiln_dist_snap(kiln_ctx *ctx, kiln_dist *d, const char *path, unsigned flags, kiln_graph **out)
{
    const int both = (flags & KILN_GRAPH_UNDIRECTED) != 0, weighted = (flags & KILN_GRAPH_WEIGHTED) != 0;
    double t0 = MPI_Wtime();
    kiln_raw_edges raw;
    memset(&raw, 0, sizeof raw);
    kiln_status st = parse_share(ctx, d, path, flags, &raw);
    if (st != KILN_OK) {
        kiln_raw_edges_free(&raw);
        return st;
    }
    uint64_t read = raw.count;
    MPI_Allreduce(MPI_IN_PLACE, &read, 1, MPI_UINT64_T, MPI_SUM, d->comm);
    if (read == 0) {
        kiln_raw_edges_free(&raw);
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s: no edges", path);
    }
    uint64_t *ids = NULL, n = 0;
    st = global_ids(ctx, d, &raw, &ids, &n);
    uint64_t *edge = NULL, *indeg = NULL, *got = NULL, got_count = 0;
    uint64_t *bounds = malloc(((size_t)d->size + 1) * sizeof *bounds);
    int *dest = NULL;
    double *gotw = NULL;
    kiln_graph *g = NULL;
    const uint64_t cnt = raw.count;
    if (st == KILN_OK) {
        edge = malloc((2 * cnt + 1) * sizeof *edge);
        dest = malloc((2 * cnt + 1) * sizeof *dest);
        indeg = calloc(n, sizeof *indeg);
        if (!edge || !dest || !indeg || !bounds) st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for the edges");
        if (weighted && st == KILN_OK) {
            double *w2 = realloc(raw.w, (2 * cnt + 1) * sizeof *w2); /* room for the second copies */
            if (w2) raw.w = w2;
            else st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for the edges");
        }
    }
    const int drop = (flags & KILN_GRAPH_DROP_SELF_LOOPS) != 0;
    for (uint64_t i = 0; st == KILN_OK && i < cnt; i++) {
        uint32_t s = lookup(ids, n, raw.src[i]), t = lookup(ids, n, raw.dst[i]);
        edge[i] = (uint64_t)s << 32 | t;
        if (s == t && drop) continue;
        indeg[t]++;
        if (both && s != t) indeg[s]++;
    }
    free(raw.src);
    free(raw.dst);
    raw.src = raw.dst = NULL;
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st == KILN_OK && kiln_dist_allreduce(d, indeg, n, MPI_UINT64_T, MPI_SUM) != 0)
        st = kiln_fail(ctx, KILN_ERR_DEVICE, "MPI failed summing the in-degrees");
    uint64_t sent = cnt;
    if (st == KILN_OK) {
        kiln_dist_bounds(d, indeg, n, bounds);
        for (uint64_t i = 0; i < cnt; i++) dest[i] = kiln_dist_owner(d, bounds, (uint32_t)edge[i]);
        /* undirected: the source's owner needs the edge too (the build adds it both ways) */
        for (uint64_t i = 0; both && i < cnt; i++) {
            int os = kiln_dist_owner(d, bounds, edge[i] >> 32);
            if (os == dest[i]) continue;
            edge[sent] = edge[i];
            if (weighted) raw.w[sent] = raw.w[i];
            dest[sent++] = os;
        }
        st = kiln_dist_shuffle(ctx, d, edge, weighted ? raw.w : NULL, dest, sent, &got, &gotw, &got_count);
    }
    free(indeg);
    free(edge);
    free(dest);
    kiln_raw_edges_free(&raw);
    if (st == KILN_OK) {
        g = kiln_graph_alloc();
        kiln_edges e = {malloc((got_count ? got_count : 1) * sizeof *e.src),
                        malloc((got_count ? got_count : 1) * sizeof *e.dst), got_count, n};
        st = g && e.src && e.dst ? KILN_OK : kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for the edges");
        for (uint64_t i = 0; st == KILN_OK && i < got_count; i++) {
            e.src[i] = (uint32_t)(got[i] >> 32);
            e.dst[i] = (uint32_t)got[i];
        }
        free(got);
        got = NULL;
        if (st == KILN_OK) st = kiln_csr_build_cpu_weighted(ctx, &e, gotw, flags, g);
        kiln_edges_free(&e);
        st = kiln_dist_agree_ctx(ctx, d, st);
    }
    free(gotw);
    uint64_t loops_removed = g ? g->info.self_loops_removed : 0;
    if (st == KILN_OK) st = kiln_dist_finish_part(ctx, d, g, bounds[d->rank], bounds[d->rank + 1], 1);
    if (st == KILN_OK) {
        /* a self loop went to one process only, so the builds' counts add up */
        MPI_Allreduce(MPI_IN_PLACE, &loops_removed, 1, MPI_UINT64_T, MPI_SUM, d->comm);
        g->info.edges_read = read * (both ? 2u : 1u);
        g->info.self_loops_removed = loops_removed;
        g->info.duplicates_removed = g->info.edges_read - loops_removed - g->info.edges;
        g->info.build_seconds = MPI_Wtime() - t0;
        /* no id table when the ids are 0..n-1, as one process keeps it */
        if (ids[n - 1] == n - 1) {
            free(ids);
            ids = NULL;
        }
        free(g->ids);
        g->ids = ids;
        ids = NULL;
        *out = g;
        g = NULL;
    }
    kiln_graph_free(g);
    free(ids);
    free(got);
    free(bounds);
    return st;
}
