#include "tune_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tune_cache_path(char *out, size_t n)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int w;
    if (xdg && *xdg) w = snprintf(out, n, "%s/kiln/tune.txt", xdg);
    else if (home && *home) w = snprintf(out, n, "%s/.cache/kiln/tune.txt", home);
    else return -1;
    return w > 0 && (size_t)w < n ? 0 : -1;
}

/* Copies the next TAB-separated field into out (at most cap-1 characters); NULL if it does not fit. */
static const char *field(const char *p, char *out, size_t cap)
{
    size_t n = 0;
    while (*p && *p != '\t' && *p != '\n' && *p != '\r') {
        if (n + 1 >= cap) return NULL;
        out[n++] = *p++;
    }
    out[n] = '\0';
    return p;
}

int tune_cache_parse_line(const char *line, tune_entry *e)
{
    char num[5][32];
    const char *p = line;
    int nnum = 0;
    if (!*p || *p == '#' || *p == '\n') return -1;
    memset(e, 0, sizeof *e);
    if (!(p = field(p, e->algo, sizeof e->algo)) || *p++ != '\t' || !e->algo[0]) return -1;
    if (!(p = field(p, e->device, sizeof e->device)) || *p++ != '\t' || !e->device[0]) return -1;
    /* three numbers, or five with scrypt's threads per hash and lookup gap */
    for (;;) {
        if (nnum == 5 || !(p = field(p, num[nnum], sizeof num[nnum])) || !num[nnum][0]) return -1;
        nnum++;
        if (*p != '\t') break;
        p++;
    }
    if (nnum != 3 && nnum != 5) return -1;
    if (*p == '\r') p++;
    if (*p == '\n') p++;
    if (*p) return -1;
    char *end;
    long tpb = strtol(num[0], &end, 10);
    if (*end || tpb < 32 || tpb > 1024 || tpb % 32) return -1;
    long ipt = strtol(num[1], &end, 10);
    int merkle = strncmp(e->algo, "merkle-", 7) == 0; /* there the items column is the subtree height k */
    if (*end || ipt < 1 || ipt > (merkle ? 12 : 16) || (!merkle && (ipt & (ipt - 1)))) return -1;
    double rate = strtod(num[2], &end);
    if (*end || !(rate >= 0)) return -1;
    e->launch.threads_per_block = (int)tpb;
    e->launch.items_per_thread = (int)ipt;
    e->rate = rate;
    if (nnum == 5) {
        long tph = strtol(num[3], &end, 10);
        if (*end || (tph != 1 && tph != 4)) return -1;
        long gap = strtol(num[4], &end, 10);
        if (*end || gap < 1 || gap > 16 || (gap & (gap - 1))) return -1;
        e->shape.threads_per_hash = (int)tph;
        e->shape.lookup_gap = (int)gap;
    }
    return 0;
}

/* The whole cache as one string, read like any other input: opened without waiting (a FIFO with no
 * writer), and taken only when it is a regular file of at most TUNE_CACHE_MAX bytes, so that a
 * cache pointed at /dev/zero, a FIFO or a huge file costs one look, never an endless read. NULL
 * with *why set: NULL (no cache: none there, or not readable) or what is wrong with it. */
static char *read_cache(const char *path, size_t *len, const char **why)
{
    *why = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return NULL;
    struct stat st;
    char *text = NULL;
    if (fstat(fd, &st) != 0) {
        *why = strerror(errno);
    } else if (!S_ISREG(st.st_mode)) {
        *why = S_ISDIR(st.st_mode) ? "a directory, not a file" : "not a regular file";
    } else if (st.st_size > TUNE_CACHE_MAX) {
        *why = "larger than " TUNE_CACHE_MAX_TEXT;
    } else if (!(text = malloc((size_t)st.st_size + 2))) {
        *why = "out of memory";
    } else {
        /* as much as the size said, and one byte to tell that the file grew meanwhile (the cache
         * is replaced by a rename, never written in place: a file that grows is not kiln's) */
        const size_t size = (size_t)st.st_size;
        size_t n = 0;
        while (n <= size) {
            ssize_t got = read(fd, text + n, size + 1 - n);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {
                if (got < 0) *why = strerror(errno);
                break;
            }
            n += (size_t)got;
        }
        if (!*why && n > size) *why = "it changed while it was read";
        if (*why) {
            free(text);
            text = NULL;
        } else {
            text[n] = '\0';
            *len = n;
        }
    }
    close(fd);
    return text;
}

/* Calls fn(e, arg) for each well-formed line of text, in order. Lines of 512 bytes or more are
 * malformed (the longest the cache writes is under 256). */
static void each_entry(const char *text, size_t len, void (*fn)(const tune_entry *e, void *arg), void *arg)
{
    char line[512];
    tune_entry e;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        if (n < sizeof line && !memchr(text + at, '\0', n)) {
            memcpy(line, text + at, n);
            line[n] = '\0';
            if (tune_cache_parse_line(line, &e) == 0) fn(&e, arg);
        }
        at += n + 1;
    }
}

typedef struct lookup {
    const char *algo, *device;
    tune_entry *out;
    int found;
} lookup;

static void take_match(const tune_entry *e, void *arg)
{
    lookup *l = arg;
    if (strcmp(e->algo, l->algo) == 0 && strcmp(e->device, l->device) == 0) { /* the last one wins */
        *l->out = *e;
        l->found = 1;
    }
}

int tune_cache_scan(const char *text, size_t len, const char *algo, const char *device, tune_entry *out)
{
    lookup l = {algo, device, out, 0};
    each_entry(text, len, take_match, &l);
    return l.found ? 0 : -1;
}

int tune_cache_lookup(const char *path, const char *algo, const char *device, tune_entry *out)
{
    const char *why;
    size_t len = 0;
    char *text = read_cache(path, &len, &why);
    if (!text) {
        static int warned; /* once, however many workloads look */
        if (why && !warned) fprintf(stderr, "kiln: warning: tune cache %s ignored: %s\n", path, why);
        warned = warned || why != NULL;
        return -1;
    }
    int found = tune_cache_scan(text, len, algo, device, out);
    free(text);
    return found;
}

static int make_parent_dirs(const char *path)
{
    char dir[4096];
    size_t n = strlen(path);
    if (n >= sizeof dir) return -1;
    memcpy(dir, path, n + 1);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return 0;
}

static void write_entry(FILE *out, const tune_entry *e)
{
    fprintf(out, "%s\t%s\t%d\t%d\t%.0f", e->algo, e->device, e->launch.threads_per_block, e->launch.items_per_thread,
            e->rate);
    if (e->shape.threads_per_hash || e->shape.lookup_gap)
        fprintf(out, "\t%d\t%d", e->shape.threads_per_hash, e->shape.lookup_gap);
    fputc('\n', out);
}

typedef struct keep {
    FILE *out;
    const tune_entry *e;
} keep;

static void keep_other(const tune_entry *old, void *arg)
{
    const keep *k = arg;
    if (strcmp(old->algo, k->e->algo) != 0 || strcmp(old->device, k->e->device) != 0) write_entry(k->out, old);
}

int tune_cache_store(const char *path, const tune_entry *e)
{
    if (strchr(e->device, '\t') || strchr(e->device, '\n')) {
        errno = EINVAL;
        return -1;
    }
    if (make_parent_dirs(path) != 0) return -1;
    kiln_output_file f;
    if (kiln_output_open(NULL, path, &f) != KILN_OK) return -1;
    FILE *out = f.fp;
    errno = 0;
    fprintf(out, "# kiln tune cache: algo, device, threads per block, items per thread, rate (H/s)"
                 "[, threads per hash, lookup gap]\n");
    /* the other entries of the old cache; one that cannot be taken (not a regular file, too large)
     * is replaced by this entry alone */
    const char *why;
    size_t len = 0;
    char *text = read_cache(path, &len, &why);
    if (text) {
        keep k = {out, e};
        each_entry(text, len, keep_other, &k);
        free(text);
    } else if (why) {
        fprintf(stderr, "kiln: warning: tune cache %s: its old entries are dropped: %s\n", path, why);
    }
    write_entry(out, e);
    int written = !ferror(out);
    return kiln_output_commit(NULL, &f, written, errno) == KILN_OK ? 0 : -1;
}

const char *tune_cache_device_key(const kiln_ctx *ctx, char *buf, size_t n)
{
    kiln_backend b = kiln_ctx_backend(ctx);
    const char *model = kiln_ctx_device_name(ctx);
    kiln_device_info info;
    /* a set's name is "2 x <model>" or the models joined: the key is its first device's model
     * (`kiln tune` on a set sweeps each model alone) */
    int index = kiln_device_index(b, kiln_ctx_device_ordinal(ctx, 0));
    if (kiln_ctx_device_count(ctx) > 1 && kiln_device_get(index, &info) == KILN_OK) model = info.name;
    snprintf(buf, n, "%s%s", b == KILN_BACKEND_OPENCL ? "opencl:" : "", model);
    return buf;
}

void tune_cache_apply(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, kiln_merkle_opts *tree)
{
    char path[4096], name[48], key[sizeof ((tune_entry *)0)->device];
    tune_entry e;
    if (kiln_ctx_backend(ctx) == KILN_BACKEND_CPU || tune_cache_path(path, sizeof path) != 0) return;
    kiln_workload_bench_name(w, kind, name, sizeof name);
    if (tune_cache_lookup(path, name, tune_cache_device_key(ctx, key, sizeof key), &e) != 0) return;
    switch (kind) {
    case KILN_KIND_SEARCH:
        kiln_ctx_set_launch(ctx, (kiln_algo)w->search_algo, e.launch);
        if (w->search_algo == KILN_ALGO_SCRYPT) kiln_ctx_set_scrypt_shape(ctx, e.shape);
        break;
    case KILN_KIND_KDF: kiln_ctx_set_scrypt_kdf_launch(ctx, e.launch, e.shape); break;
    case KILN_KIND_TREE: /* the user's --threads-per-block and --k win over the cache */
        if (tree && !tree->threads_per_block) tree->threads_per_block = e.launch.threads_per_block;
        if (tree && !tree->subtree_log2) tree->subtree_log2 = e.launch.items_per_thread;
        break;
    default: break;
    }
}

void tune_cache_save(kiln_ctx *ctx, const char *algo, tune_entry *e)
{
    char path[4096];
    snprintf(e->algo, sizeof e->algo, "%s", algo);
    tune_cache_device_key(ctx, e->device, sizeof e->device);
    if (tune_cache_path(path, sizeof path) != 0)
        fprintf(stderr, "kiln tune: neither XDG_CACHE_HOME nor HOME is set; result not cached\n");
    else if (tune_cache_store(path, e) != 0)
        fprintf(stderr, "kiln tune: cannot write %s: %s\n", path, strerror(errno));
    else printf("cached in %s\n", path);
}
