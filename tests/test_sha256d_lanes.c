/* Every sha256d lane kernel this CPU can run (SIMD, SHA extensions, scalar) against the reference
 * kiln_sha256d_job_hash: random headers with easy targets over odd starts and counts, ranges that
 * end at nonce 2^32-1, a small candidate buffer, and real Bitcoin blocks (tests/data/headers.json)
 * whose nonce a window around it must find with the block's real hash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "pow/sha256d_cpu.h"

#define MAX_IMPLS 8

static kiln_sha256d_impl impls[MAX_IMPLS];
static int n_impls;
static double impl_seconds[MAX_IMPLS], impl_nonces[MAX_IMPLS]; /* informational single-thread rates */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The early test, from the full reference hash. */
static int ref_passes(const kiln_sha256d_job *job, uint32_t nonce)
{
    uint32_t d[8];
    kiln_sha256d_job_hash(job, nonce, d);
    return kiln_bswap32(d[7]) <= job->target[7];
}

/* Reference candidates of a range, in nonce order; returns how many. */
static uint32_t ref_scan(const kiln_sha256d_job *job, uint32_t start, uint32_t count, uint32_t *out)
{
    uint32_t n = 0;
    for (uint64_t i = 0; i < count; i++)
        if (ref_passes(job, start + (uint32_t)i)) out[n++] = start + (uint32_t)i;
    return n;
}

/* Runs every implementation over the range and compares with the reference, candidates as sets. */
static void compare_range(const kiln_sha256d_job *job, uint32_t start, uint32_t count, const char *what)
{
    uint32_t *want = malloc((count + 1) * sizeof *want);
    uint32_t *got = malloc((count + 1) * sizeof *got);
    if (!want || !got) {
        CHECK(0, "out of memory");
        free(want);
        free(got);
        return;
    }
    uint32_t nw = ref_scan(job, start, count, want);
    for (int k = 0; k < n_impls; k++) {
        got[count] = 0xdeadbeefu; /* canary: nothing may be written past cap */
        uint64_t ng = impls[k].fn(job, start, count, got, count);
        CHECK(ng == nw, "%s %s start %u count %u: %llu candidates, want %u", impls[k].name, what, start, count,
              (unsigned long long)ng, nw);
        CHECK(got[count] == 0xdeadbeefu, "%s %s: wrote past cap", impls[k].name, what);
        if (ng != nw) continue;
        qsort(got, (size_t)ng, sizeof *got, cmp_u32);
        CHECK(memcmp(got, want, (size_t)nw * sizeof *got) == 0, "%s %s start %u count %u: candidate sets differ",
              impls[k].name, what, start, count);
    }
    free(want);
    free(got);
}

static void random_job(kiln_sha256d_job *job, unsigned long long *seed, uint32_t target7)
{
    uint8_t header[80], target[32];
    for (int i = 0; i < 80; i++) header[i] = (uint8_t)test_rand(seed);
    memset(target, 0, sizeof target);
    for (int i = 0; i < 4; i++) target[28 + i] = (uint8_t)(target7 >> (8 * i));
    kiln_sha256d_job_init(job, header, target);
}

static void test_random_headers(void)
{
    static const uint32_t counts[] = {0, 1, 2, 15, 16, 17, 31, 33, 1000, 4099};
    static const uint32_t targets[] = {0x00ffffffu, 0xffffffffu, 0x0fffffffu};
    unsigned long long seed = 20240611;
    for (int h = 0; h < 6; h++) {
        for (size_t t = 0; t < sizeof targets / sizeof *targets; t++) {
            kiln_sha256d_job job;
            random_job(&job, &seed, targets[t]);
            for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
                uint32_t start = (uint32_t)test_rand(&seed) | 1u; /* odd starts */
                if (start > UINT32_MAX - counts[c]) start -= counts[c];
                compare_range(&job, start, counts[c], "random");
            }
        }
    }
}

/* The last nonces of the space: no kernel may wrap around to nonce 0 and report it. */
static void test_range_end(void)
{
    static const uint32_t counts[] = {1, 15, 16, 17, 100, 1000};
    unsigned long long seed = 77;
    kiln_sha256d_job job;
    random_job(&job, &seed, 0xffffffffu); /* every nonce passes: any wrapped lane would show */
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        compare_range(&job, (uint32_t)(UINT32_MAX - counts[c] + 1), counts[c], "range end");
    random_job(&job, &seed, 0x00ffffffu);
    compare_range(&job, UINT32_MAX - 5000u, 5001u, "range end");
}

/* A buffer smaller than the number of candidates: the count is still exact, only cap entries are
 * written, and each written one is a real candidate. */
static void test_small_cap(void)
{
    unsigned long long seed = 5;
    kiln_sha256d_job job;
    random_job(&job, &seed, 0x0fffffffu); /* about 1 in 16 */
    uint32_t want[700], got[4];
    uint32_t nw = ref_scan(&job, 1000, 700, want);
    for (int k = 0; k < n_impls; k++) {
        got[3] = 0xdeadbeefu;
        uint64_t ng = impls[k].fn(&job, 1000, 700, got, 3);
        CHECK(ng == nw, "%s small cap: %llu candidates, want %u", impls[k].name, (unsigned long long)ng, nw);
        CHECK(got[3] == 0xdeadbeefu, "%s small cap: wrote past cap", impls[k].name);
        for (int i = 0; i < 3 && i < (int)nw; i++)
            CHECK(bsearch(&got[i], want, nw, sizeof *want, cmp_u32) != NULL, "%s small cap: %u is no candidate",
                  impls[k].name, got[i]);
    }
}

/* ---- real blocks ---- */

static int hex_nibble(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int hex_bytes(const char *s, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int hi = hex_nibble(s[2 * i]), lo = hex_nibble(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return s[2 * n] == '"' ? 0 : -1;
}

/* The string value of "key" at or after p (a tiny scan: the file's keys are unique per entry). */
static const char *json_string(const char *p, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *q = strstr(p, pat);
    return q ? q + strlen(pat) : NULL;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) != NULL) {
            if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
                free(buf);
                buf = NULL;
            } else {
                buf[n] = '\0';
            }
        }
    }
    fclose(f);
    return buf;
}

static void test_real_blocks(void)
{
    char *json = read_file(test_data("headers.json"));
    CHECK(json != NULL, "cannot read %s", test_data("headers.json"));
    if (!json) return;
    int blocks = 0;
    const char *entries = strstr(json, "\"headers\""); /* past the "conventions" prose */
    CHECK(entries != NULL, "no headers array in headers.json");
    for (const char *p = entries; p && (p = json_string(p, "header_hex")) != NULL; blocks++) {
        uint8_t header[80], hash[32], target_be[32], target[32];
        const char *hh = json_string(p, "sha256d_internal_hex"), *th = json_string(p, "target_hex");
        int ok = hex_bytes(p, header, 80) == 0 && hh && hex_bytes(hh, hash, 32) == 0 && th &&
                 hex_bytes(th, target_be, 32) == 0;
        CHECK(ok, "headers.json entry %d does not parse", blocks);
        if (!ok) break;
        for (int i = 0; i < 32; i++) target[i] = target_be[31 - i];
        uint32_t nonce = kiln_load_le32(header + 76);
        kiln_sha256d_job job;
        kiln_sha256d_job_init(&job, header, target);

        /* the reference itself against the block's real hash */
        uint32_t d[8];
        kiln_sha256d_job_hash(&job, nonce, d);
        uint8_t mine[32];
        for (int i = 0; i < 8; i++) kiln_store_be32(mine + 4 * i, d[i]);
        CHECK(memcmp(mine, hash, 32) == 0, "block %d: reference hash differs from the real one", blocks);
        CHECK(kiln_sha256d_digest_meets(d, job.target), "block %d: real hash does not meet its target", blocks);

        /* a window of 2^16 nonces around the real one */
        uint32_t start = nonce > 30000u ? nonce - 30000u : 0;
        uint32_t count = 65536u;
        if (start > UINT32_MAX - count + 1) start = UINT32_MAX - count + 1;
        compare_range(&job, start, count, "real block");
        uint32_t *got = malloc(count * sizeof *got);
        for (int k = 0; got && k < n_impls; k++) {
            double t0 = now_s();
            uint64_t ng = impls[k].fn(&job, start, count, got, count);
            impl_seconds[k] += now_s() - t0;
            impl_nonces[k] += count;
            int seen = 0;
            for (uint64_t i = 0; i < ng && i < count; i++) {
                if (got[i] != nonce) continue;
                seen = 1;
                kiln_sha256d_job_hash(&job, got[i], d);
                for (int j = 0; j < 8; j++) kiln_store_be32(mine + 4 * j, d[j]);
                CHECK(memcmp(mine, hash, 32) == 0, "%s block %d: wrong hash", impls[k].name, blocks);
            }
            CHECK(seen, "%s block %d: real nonce %u not found", impls[k].name, blocks, nonce);
        }
        free(got);
    }
    CHECK(blocks >= 4, "only %d blocks in headers.json", blocks);
    free(json);
}

/* The threaded driver over each kernel, a range spanning several pieces. */
static void test_threaded_scan(void)
{
    unsigned long long seed = 99;
    kiln_sha256d_job job;
    random_job(&job, &seed, 0x00ffffffu);
    uint32_t count = 100003, start = 0x7fff0001u;
    uint32_t *want = malloc(count * sizeof *want), *got = malloc(count * sizeof *got);
    if (!want || !got) {
        CHECK(0, "out of memory");
    } else {
        uint32_t nw = ref_scan(&job, start, count, want);
        for (int k = 0; k < n_impls; k++) {
            uint64_t ng = kiln_sha256d_cpu_scan(&impls[k], 2, &job, start, count, got, count);
            CHECK(ng == nw, "%s threaded: %llu candidates, want %u", impls[k].name, (unsigned long long)ng, nw);
            if (ng != nw) continue;
            qsort(got, (size_t)ng, sizeof *got, cmp_u32);
            CHECK(memcmp(got, want, (size_t)nw * sizeof *got) == 0, "%s threaded: candidate sets differ",
                  impls[k].name);
        }
    }
    free(want);
    free(got);
}

int main(void)
{
    n_impls = kiln_sha256d_cpu_impls(impls, MAX_IMPLS);
    printf("sha256d lane kernels on this CPU:");
    for (int k = 0; k < n_impls; k++) printf(" %s", impls[k].name);
    printf("\n");
    CHECK(n_impls >= 1 && strcmp(impls[n_impls - 1].name, "scalar") == 0, "scalar kernel missing");
    test_random_headers();
    test_range_end();
    test_small_cap();
    test_real_blocks();
    test_threaded_scan();
    for (int k = 0; k < n_impls; k++)
        if (impl_seconds[k] > 0)
            printf("%-10s %7.2f MH/s on one thread (informational; kiln bench measures)\n", impls[k].name,
                   impl_nonces[k] / impl_seconds[k] / 1e6);
    return check_summary();
}
