#include "tune_cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int tune_cache_lookup(const char *path, const char *algo, const char *device, tune_entry *out)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[512];
    int found = -1;
    tune_entry e;
    while (fgets(line, sizeof line, f)) {
        if (tune_cache_parse_line(line, &e) == 0 && strcmp(e.algo, algo) == 0 && strcmp(e.device, device) == 0) {
            *out = e;
            found = 0;
        }
    }
    fclose(f);
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
    FILE *in = fopen(path, "r");
    if (in) {
        char line[512];
        tune_entry old;
        while (fgets(line, sizeof line, in)) {
            if (tune_cache_parse_line(line, &old) != 0) continue;
            if (strcmp(old.algo, e->algo) == 0 && strcmp(old.device, e->device) == 0) continue;
            write_entry(out, &old);
        }
        fclose(in);
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
     * (`kiln tune` on a set sweeps each model alone). kiln_device_get numbers the CUDA GPUs
     * first, then the OpenCL devices. */
    int index = 1 + kiln_ctx_device_ordinal(ctx, 0) + (b == KILN_BACKEND_OPENCL ? kiln_cuda_device_count() : 0);
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
