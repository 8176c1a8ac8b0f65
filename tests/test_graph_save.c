/* Saving a CSR cache is all or nothing: a save that fails part way (here: the file size limit,
 * RLIMIT_FSIZE, stands in for a full disk, so no root or tmpfs is needed) leaves an existing file
 * as it was and no temporary file behind, and names the system's reason; a save that succeeds
 * replaces the file with one that loads back as the same graph. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "kiln.h"

#define OLD_CONTENT "an older cache that a failed save must not destroy\n"

static kiln_graph *ring(kiln_ctx *ctx, size_t n)
{
    uint64_t *src = malloc(n * sizeof *src), *dst = malloc(n * sizeof *dst);
    for (size_t i = 0; i < n; i++) src[i] = i, dst[i] = (i * 7 + 3) % n;
    kiln_graph *g = NULL;
    if (kiln_graph_from_edges(ctx, src, dst, n, 0, &g) != KILN_OK) g = NULL;
    free(src);
    free(dst);
    return g;
}

static int read_is(const char *path, const char *want)
{
    char buf[256] = {0};
    FILE *fp = fopen(path, "rb");
    if (!fp) return 0;
    size_t got = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    return got == strlen(want) && memcmp(buf, want, got) == 0;
}

static int leftovers(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (strstr(e->d_name, ".kiln-")) n++;
    if (d) closedir(d);
    return n;
}

/* In a child, before this process starts any threads: the save under a 4 KiB file size limit.
 * Exit 0 when it failed as it must. */
static int failing_save(const char *path)
{
    signal(SIGXFSZ, SIG_IGN); /* the write then fails with EFBIG instead of killing the process */
    struct rlimit lim = {4096, 4096};
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0) return 2;
    kiln_ctx *ctx = kiln_ctx_new();
    kiln_graph *g = ring(ctx, 20000);
    if (!g) return 3;
    kiln_status st = kiln_graph_save_csr(ctx, g, path);
    const char *msg = kiln_last_error(ctx);
    int ok = st == KILN_ERR_DEVICE && strstr(msg, "File too large") && !strstr(msg, "Success");
    if (!ok) fprintf(stderr, "save under the limit: status %d, '%s'\n", st, msg);
    kiln_graph_free(g);
    kiln_ctx_free(ctx);
    return ok ? 0 : 1;
}

int main(void)
{
    char dir[] = "/tmp/kiln-save-XXXXXX", path[256], missing[300];
    if (!mkdtemp(dir)) return 1;
    snprintf(path, sizeof path, "%s/graph.kcsr", dir);
    snprintf(missing, sizeof missing, "%s/no/such/dir/graph.kcsr", dir);
    FILE *fp = fopen(path, "wb");
    fputs(OLD_CONTENT, fp);
    fclose(fp);

    pid_t pid = fork();
    if (pid == 0) _exit(failing_save(path));
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a save cut short fails with the reason (child %d)", status);
    CHECK(read_is(path, OLD_CONTENT), "the existing file is untouched");
    CHECK(leftovers(dir) == 0, "no temporary file left behind");

    kiln_ctx *ctx = kiln_ctx_new();
    kiln_graph *g = ring(ctx, 20000);
    CHECK(g != NULL, "graph");
    CHECK(kiln_graph_save_csr(ctx, g, missing) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), missing),
          "a directory that does not exist: %s", kiln_last_error(ctx));
    CHECK(kiln_graph_save_csr(ctx, g, path) == KILN_OK, "save: %s", kiln_last_error(ctx));
    CHECK(leftovers(dir) == 0, "no temporary file after a save");
    kiln_graph *back = NULL;
    CHECK(kiln_graph_load(ctx, path, KILN_GRAPH_AUTO, 0, &back) == KILN_OK, "load: %s", kiln_last_error(ctx));
    if (g && back) {
        kiln_graph_info a, b;
        kiln_graph_get_info(g, &a);
        kiln_graph_get_info(back, &b);
        CHECK(a.nodes == b.nodes && a.edges == b.edges, "the same graph back (%llu/%llu nodes)",
              (unsigned long long)a.nodes, (unsigned long long)b.nodes);
    }
    kiln_graph_free(back);
    kiln_graph_free(g);
    kiln_ctx_free(ctx);
    unlink(path);
    rmdir(dir);
    return check_summary();
}
