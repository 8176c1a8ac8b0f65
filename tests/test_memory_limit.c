/* kiln_ctx_set_memory_limit: inputs that declare or need more than the limit are refused before
 * anything that size is allocated, with a message naming the need and the limit; under the limit
 * the same inputs run (RFC 7914's vector for scrypt). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "kiln.h"

static kiln_status load_text(kiln_ctx *ctx, const char *text, kiln_graph **g)
{
    char path[] = "/tmp/kiln-memlimit-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return KILN_ERR_DEVICE;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    kiln_status st = n == (ssize_t)strlen(text) ? kiln_graph_load(ctx, path, KILN_GRAPH_AUTO, 0, g) : KILN_ERR_DEVICE;
    unlink(path);
    return st;
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(ctx != NULL, "context");
    if (!ctx) return check_summary();
    CHECK(kiln_memory_limit(ctx) > (UINT64_C(1) << 20), "the host's own limit is more than 1 MiB: %llu",
          (unsigned long long)kiln_memory_limit(ctx));
    CHECK(kiln_ctx_set_memory_limit(ctx, UINT64_C(1) << 20) == KILN_OK, "set");
    CHECK(kiln_memory_limit(ctx) == (UINT64_C(1) << 20), "limit read back: %llu",
          (unsigned long long)kiln_memory_limit(ctx));

    /* a Matrix Market header declaring a million rows: some 50 MB of vertex arrays */
    kiln_graph *g = NULL;
    kiln_status st = load_text(ctx, "%%MatrixMarket matrix coordinate pattern general\n1000000 1000000 1\n1 2\n", &g);
    CHECK(st == KILN_ERR_INPUT, "1,000,000 declared rows under 1 MiB: status %d (%s)", st, kiln_last_error(ctx));
    CHECK(strstr(kiln_last_error(ctx), "memory limit of 1.0 MiB") != NULL, "message: %s", kiln_last_error(ctx));
    kiln_graph_free(g);
    g = NULL;
    st = load_text(ctx, "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n", &g);
    CHECK(st == KILN_OK && g, "a 3-vertex graph under 1 MiB: %s", kiln_last_error(ctx));
    kiln_graph_free(g);

    /* scrypt: N = 16384, r = 8 needs 16 MiB of scratchpad (RFC 7914 section 12, third vector) */
    kiln_ctx_set_threads(ctx, 1);
    uint8_t out[64];
    kiln_scrypt_params sp = {16384, 8, 1};
    st = kiln_scrypt(ctx, "pleaseletmein", 13, "SodiumChloride", 14, sp, out, sizeof out);
    CHECK(st == KILN_ERR_INPUT, "scrypt N=16384 r=8 under 1 MiB: status %d (%s)", st, kiln_last_error(ctx));
    CHECK(kiln_ctx_set_memory_limit(ctx, 0) == KILN_OK, "limit removed");
    st = kiln_scrypt(ctx, "pleaseletmein", 13, "SodiumChloride", 14, sp, out, sizeof out);
    static const uint8_t want[8] = {0x70, 0x23, 0xbd, 0xcb, 0x3a, 0xfd, 0x73, 0x48};
    CHECK(st == KILN_OK && memcmp(out, want, 8) == 0, "RFC 7914 vector without the limit: %s", kiln_last_error(ctx));
    kiln_ctx_free(ctx);
    return check_summary();
}
