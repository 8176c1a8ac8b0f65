/* The OpenCL backend's programs, on the first OpenCL device (PoCL in CI): one program a
 * .cl file of src/opencl/kernels, built when one of its kernels is first asked for. A sha256d
 * search that finds the Bitcoin genesis block's nonce builds only the search's program, whose
 * binary lands in the cache folder (KILN_OPENCL_CACHE), and a second context builds from it (same
 * answer, no new file); a kernel named as a macro's argument builds the PageRank program beside it
 * (a second file), a name made by token pasting the Merkle program alone, and a name no program has
 * is an error naming it. Every program compiles alone (without the cache: on PoCL a binary for it
 * costs a compile of every kernel, scrypt's minutes), and sha256("abc") comes right from the
 * digests' program. Without KILN_OPENCL_CACHE the cache is $XDG_CACHE_HOME/kiln/opencl. A program
 * that does not compile fails with the device and the build log in the message (the backend's
 * build entry, a test hook). The workloads themselves are the test_gpu_* tests'. Skipped (77)
 * without an OpenCL device, unless KILN_REQUIRE_OPENCL is set. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "kiln.h"
#include "opencl_device.h"
#ifdef KILN_HAVE_OPENCL
#include "opencl/ocl_state.h"
#endif

static int cache_files(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, ".bin") != NULL;
    if (d) closedir(d);
    return n;
}

/* FIPS 180-4's sha256("abc") on a new context of the test device. */
static void abc(void)
{
    uint8_t want[32], got[32];
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, test_opencl_device()) == KILN_OK, "%s: %s", test_opencl_device(), kiln_last_error(ctx));
    CHECK(kiln_hex_decode(NULL, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", want, 32) == KILN_OK,
          "hex");
    CHECK(kiln_hash_batch_fixed(ctx, KILN_HASH_SHA256, (const uint8_t *)"abc", 3, 1, got, 32) == KILN_OK &&
              memcmp(got, want, 32) == 0,
          "sha256(\"abc\") on OpenCL: %s", kiln_last_error(ctx));
    kiln_ctx_free(ctx);
}

/* The Bitcoin genesis block's header and nonce (block 0), found by a search of one nonce at
 * difficulty 1 on a new context of the test device. */
static int found_nonce(void *user, uint32_t nonce, const uint8_t hash[32])
{
    (void)hash;
    *(uint32_t *)user = nonce;
    return 0;
}

static void genesis(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, test_opencl_device()) == KILN_OK, "%s: %s", test_opencl_device(), kiln_last_error(ctx));
    kiln_scan_job job;
    memset(&job, 0, sizeof job);
    job.algo = KILN_ALGO_SHA256D;
    CHECK(kiln_hex_decode(NULL,
                          "0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67"
                          "768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d00000000",
                          job.header, 80) == KILN_OK &&
              kiln_algo_diff1_target(KILN_ALGO_SHA256D, job.target) == KILN_OK,
          "genesis header");
    uint32_t nonce = 0;
    job.start = 2083236893u;
    job.count = 1;
    job.on_found = found_nonce;
    job.user = &nonce;
    kiln_scan_result res;
    kiln_status st = kiln_scan(ctx, &job, &res);
    CHECK(st == KILN_OK && res.found == 1 && nonce == 2083236893u, "the genesis nonce on OpenCL: status %d, %llu found (%u), %s",
          (int)st, (unsigned long long)res.found, nonce, kiln_last_error(ctx));
    kiln_ctx_free(ctx);
}

#ifdef KILN_HAVE_OPENCL
/* The handle's programs built so far. */
static int built(const kiln_gpu *g)
{
    int n = 0;
    for (int i = 0; g->programs && i < kiln_ocl_program_count(); i++) n += g->programs[i] != NULL;
    return n;
}

/* The programs one handle builds: a kernel by name, the files it builds, and the error for a name
 * none has; then every program alone, from source (KILN_OPENCL_CACHE off). */
static void programs(const char *dir)
{
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, test_opencl_device()) == KILN_OK, "%s: %s", test_opencl_device(), kiln_last_error(ctx));
    kiln_gpu *g = NULL;
    CHECK(kiln_ctx_gpu(ctx, 0, &g) == KILN_OK, "open: %s", kiln_last_error(ctx));
    if (g) {
        cl_kernel k = NULL;
        CHECK(kiln_ocl_kernel(g, "kiln_pr_iter_f32_u32", &k) == KILN_OK && k && built(g) == 1, "a macro's kernel: %s",
              kiln_last_error(ctx));
        if (k) clReleaseKernel(k);
        CHECK(cache_files(dir) == 2, "the PageRank program cached beside the search's (%d files)", cache_files(dir));
        setenv("KILN_OPENCL_CACHE", "off", 1);
        k = NULL;
        CHECK(kiln_ocl_kernel(g, "kiln_merkle_level_sha256", &k) == KILN_OK && k && built(g) == 2,
              "a pasted kernel name (%d programs built): %s", built(g), kiln_last_error(ctx));
        if (k) clReleaseKernel(k);
        k = NULL;
        kiln_status st = kiln_ocl_kernel(g, "kiln_no_such_kernel", &k);
        CHECK(st == KILN_ERR_DEVICE && !k && strstr(kiln_last_error(ctx), "kiln_no_such_kernel"), "a missing kernel (%d): %s",
              (int)st, kiln_last_error(ctx));
        CHECK(kiln_ocl_program_count() >= 5 && kiln_ocl_program_name(kiln_ocl_program_count()) == NULL &&
                  built(g) == kiln_ocl_program_count(),
              "%d programs, %d built looking for a missing kernel", kiln_ocl_program_count(), built(g));
        for (int i = 0; i < kiln_ocl_program_count(); i++) {
            cl_program p = NULL;
            CHECK(kiln_ocl_program_at(g, i, &p) == KILN_OK && p, "program %s: %s", kiln_ocl_program_name(i),
                  kiln_last_error(ctx));
        }
        CHECK(cache_files(dir) == 2, "%d files in the cache after building with the cache off", cache_files(dir));
        setenv("KILN_OPENCL_CACHE", dir, 1);
    }
    kiln_ctx_free(ctx);
}

static void build_error(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, test_opencl_device()) == KILN_OK, "%s: %s", test_opencl_device(), kiln_last_error(ctx));
    kiln_gpu *g = NULL;
    CHECK(kiln_ctx_gpu(ctx, 0, &g) == KILN_OK, "open: %s", kiln_last_error(ctx));
    if (g) {
        cl_program p = NULL;
        kiln_status st = kiln_ocl_build_source(g, "__kernel void broken(__global uint *o) { o[0] = undeclared_name; }", &p);
        const char *e = kiln_last_error(ctx);
        CHECK(st == KILN_ERR_DEVICE && p == NULL, "a bad program builds (%d)", (int)st);
        CHECK(strstr(e, "OpenCL build failed on ") && strstr(e, "undeclared_name"), "message without the log: %s", e);
    }
    kiln_ctx_free(ctx);
}
#endif

int main(void)
{
    const int missing = test_opencl_missing();
#ifndef KILN_HAVE_OPENCL
    return missing;
#else
    if (missing) return missing;
    char dir[] = "/tmp/kiln-ocl-cache-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    setenv("KILN_OPENCL_CACHE", dir, 1);
    genesis();
    CHECK(cache_files(dir) == 1, "the search's program binary alone is cached in %s (%d files)", dir, cache_files(dir));
    genesis(); /* a second context loads the cached binary */
    CHECK(cache_files(dir) == 1, "one cached binary in %s", dir);
    programs(dir);
    /* without KILN_OPENCL_CACHE the folder is $XDG_CACHE_HOME/kiln/opencl */
    char xdg[sizeof dir + 8], sub[sizeof xdg + 16];
    snprintf(xdg, sizeof xdg, "%s/xdg", dir);
    snprintf(sub, sizeof sub, "%s/kiln/opencl", xdg);
    unsetenv("KILN_OPENCL_CACHE");
    setenv("XDG_CACHE_HOME", xdg, 1);
    genesis();
    CHECK(cache_files(sub) == 1, "the search's program cached in %s (%d files)", sub, cache_files(sub));
    setenv("KILN_OPENCL_CACHE", "off", 1);
    abc();
    build_error();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "rm");
    return check_summary();
#endif
}
