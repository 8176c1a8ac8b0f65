/* The OpenCL backend's digest and permutation batches on the first OpenCL device (PoCL's CPU
 * device in CI): (a) the NIST CAVP and Keccak team known answers of tests/data, every byte-length
 * entry of a file in one batch through an offset table; (b) every digest against the CPU on
 * pseudo-random batches, fixed lengths around each block size and mixed lengths through offsets;
 * (c) Keccak-f[1600] states against the CPU and the zero state's known image; (d) the program
 * binary lands in the cache folder and a second context builds from it. Skipped (77) without an
 * OpenCL device, unless KILN_REQUIRE_OPENCL is set (CI), where that is a failure. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "check.h"
#include "opencl_device.h"
#include "kiln.h"
#include "rsp.h"

static uint64_t rng = 0x6b696c6e2d6f636cull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static kiln_hash_algo algo_of(const char *name)
{
    kiln_hash_algo a = KILN_HASH_SHA256;
    CHECK(kiln_hash_algo_from_name(NULL, name, &a) == KILN_OK, "algorithm %s", name);
    return a;
}

/* Every byte-length entry of a KAT file, one batch; outlen 0: each entry's own output length
 * (SHAKE's variable-output files), one batch per entry. */
static void kat_file(kiln_ctx *ctx, const char *path, const char *algo, size_t outlen)
{
    size_t len;
    char *text = rsp_slurp(test_data(path), &len);
    CHECK(text != NULL, "cannot read %s", path);
    if (!text) return;
    kiln_hash_algo a = algo_of(algo);
    rsp_reader r;
    rsp_init(&r, text, len);
    rsp_entry e;
    size_t n = 0, cap = 4096, bytes = 0;
    uint8_t *data = malloc(1 << 20), *want = malloc(cap * 64);
    uint64_t *off = malloc((cap + 1) * sizeof *off);
    off[0] = 0;
    int got;
    while ((got = rsp_next(&r, &e)) == 1) {
        size_t mlen = e.len_bits >= 0 ? (size_t)e.len_bits / 8 : e.msg_len;
        if ((e.len_bits >= 0 && e.len_bits % 8) || bytes + mlen > (1 << 20) || n == cap) {
            rsp_entry_free(&e);
            continue;
        }
        if (outlen == 0) { /* its own length: a batch of one */
            uint8_t d[512];
            uint64_t o[2] = {0, mlen};
            CHECK(e.md_len <= sizeof d, "%s line %ld: output too long", path, e.line);
            if (e.md_len <= sizeof d)
                CHECK(kiln_hash_batch(ctx, a, e.msg, o, 1, d, e.md_len) == KILN_OK &&
                          memcmp(d, e.md, e.md_len) == 0,
                      "%s line %ld on %s: %s", path, e.line, kiln_ctx_device_name(ctx), kiln_last_error(ctx));
            n++;
        } else {
            CHECK(e.md_len == outlen, "%s line %ld: %zu-byte digest", path, e.line, e.md_len);
            memcpy(data + bytes, e.msg, mlen);
            memcpy(want + n * outlen, e.md, outlen);
            bytes += mlen;
            off[++n] = bytes;
        }
        rsp_entry_free(&e);
    }
    CHECK(got == 0, "%s: %s", path, r.err);
    CHECK(n > 10, "%s: only %zu entries", path, n);
    if (outlen) {
        uint8_t *out = malloc(n * outlen);
        kiln_status st = kiln_hash_batch(ctx, a, data, off, n, out, outlen);
        CHECK(st == KILN_OK, "%s: %s", path, kiln_last_error(ctx));
        for (size_t i = 0; st == KILN_OK && i < n; i++)
            CHECK(memcmp(out + i * outlen, want + i * outlen, outlen) == 0, "%s: entry %zu differs", path, i);
        free(out);
    }
    free(text);
    free(data);
    free(want);
    free(off);
}

/* FIPS 180-4's "abc" examples, for the algorithms tests/data has no CAVP file of. */
static void abc(kiln_ctx *ctx, const char *algo, const char *hex)
{
    uint8_t want[64], got[64];
    size_t outlen = strlen(hex) / 2;
    CHECK(kiln_hex_decode(NULL, hex, want, outlen) == KILN_OK, "hex");
    CHECK(kiln_hash_batch_fixed(ctx, algo_of(algo), (const uint8_t *)"abc", 3, 1, got, outlen) == KILN_OK &&
              memcmp(got, want, outlen) == 0,
          "%s(\"abc\") on OpenCL: %s", algo, kiln_last_error(ctx));
}

/* n messages against the CPU's one-shot hash: fixed length (offsets NULL) or through offsets. */
static void against_cpu(kiln_ctx *ctx, const char *algo, size_t outlen, size_t msg_len, int mixed, size_t n)
{
    kiln_hash_algo a = algo_of(algo);
    uint64_t *off = malloc((n + 1) * sizeof *off);
    off[0] = 0;
    for (size_t i = 0; i < n; i++) off[i + 1] = off[i] + (mixed ? next() % 420 : msg_len);
    uint8_t *data = malloc(off[n] + 1), *out = malloc(n * outlen), *want = malloc(outlen);
    for (uint64_t k = 0; k < off[n]; k++) data[k] = (uint8_t)next();
    kiln_status st = mixed ? kiln_hash_batch(ctx, a, data, off, n, out, outlen)
                           : kiln_hash_batch_fixed(ctx, a, data, msg_len, n, out, outlen);
    CHECK(st == KILN_OK, "%s batch: %s", algo, kiln_last_error(ctx));
    for (size_t i = 0; st == KILN_OK && i < n; i++) {
        kiln_hash(a, data + off[i], (size_t)(off[i + 1] - off[i]), want, outlen);
        CHECK(memcmp(out + i * outlen, want, outlen) == 0, "%s message %zu (%llu bytes, %s) differs from the CPU",
              algo, i, (unsigned long long)(off[i + 1] - off[i]), mixed ? "offsets" : "fixed");
    }
    free(off);
    free(data);
    free(out);
    free(want);
}

/* Every layout (its own kernel: one state a work-item looped or unrolled, or 25 work-items a
 * state) on 37 states, a partial work-group in each, against the CPU and the known answer. */
static void permutations(kiln_ctx *ctx)
{
    enum { N = 37 };
    static const kiln_keccak_layout layouts[] = {KILN_KECCAK_LAYOUT_AUTO, KILN_KECCAK_LAYOUT_THREAD,
                                                 KILN_KECCAK_LAYOUT_UNROLLED, KILN_KECCAK_LAYOUT_LANE};
    uint64_t s[N * 25], want[N * 25], start[N * 25];
    for (size_t k = 0; k < N * 25; k++) start[k] = want[k] = k < 25 ? 0 : next();
    kiln_ctx *cpu = kiln_ctx_new();
    CHECK(kiln_keccak_f1600_batch(cpu, want, N, KILN_KECCAK_LAYOUT_AUTO) == KILN_OK, "CPU permutation");
    kiln_ctx_free(cpu);
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        const char *name = kiln_keccak_layout_name(layouts[l]);
        memcpy(s, start, sizeof s);
        CHECK(kiln_keccak_f1600_batch(ctx, s, N, layouts[l]) == KILN_OK, "OpenCL permutation (%s): %s", name,
              kiln_last_error(ctx));
        CHECK(memcmp(s, want, sizeof s) == 0, "OpenCL Keccak-f[1600] (%s layout) differs from the CPU", name);
        /* Keccak-f[1600] of the zero state, lane 0 (KeccakF-1600-IntermediateValues.txt) */
        CHECK(s[0] == 0xF1258F7940E1DDE7ull, "%s layout: zero state's lane 0: %016llx", name, (unsigned long long)s[0]);
    }
}

static int cache_files(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, ".bin") != NULL;
    if (d) closedir(d);
    return n;
}

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
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, test_opencl_device()) == KILN_OK, "%s: %s", test_opencl_device(), kiln_last_error(ctx));
    CHECK(kiln_ctx_backend(ctx) == KILN_BACKEND_OPENCL, "backend");

    abc(ctx, "sha256", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(cache_files(dir) == 1, "the program binary is cached in %s", dir);
    abc(ctx, "sha256d", "4f8b42c22dd3729b519ba6f68d2da7cc5b2d606d05daed5ad5128cc03e6c6358");
    abc(ctx, "sha384", "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
                       "8086072ba1e7cc2358baeca134c825a7");

    kat_file(ctx, "sha3/SHA3_256ShortMsg.rsp", "sha3-256", 32);
    kat_file(ctx, "sha3/SHA3_512ShortMsg.rsp", "sha3-512", 64);
    kat_file(ctx, "sha3/SHA3_256LongMsg.rsp", "sha3-256", 32);
    kat_file(ctx, "sha3/SHAKE128ShortMsg.rsp", "shake128", 16);
    kat_file(ctx, "sha3/SHAKE256ShortMsg.rsp", "shake256", 32);
    kat_file(ctx, "sha3/SHAKE256VariableOut.subset.rsp", "shake256", 0);
    kat_file(ctx, "keccak/ShortMsgKAT_256.txt", "keccak256", 32);
    kat_file(ctx, "sha2/SHA512ShortMsg.rsp", "sha512", 64);
    kat_file(ctx, "sha2/SHA512_256ShortMsg.rsp", "sha512-256", 32);

    static const struct {
        const char *algo;
        size_t outlen;
    } algos[] = {{"sha256", 32},  {"sha256d", 32},  {"sha3-224", 28},  {"sha3-256", 32},    {"sha3-384", 48},
                 {"sha3-512", 64}, {"shake128", 300}, {"shake256", 7},   {"keccak256", 32}, {"keccak512", 64},
                 {"sha512", 64},  {"sha384", 48},   {"sha512-256", 32}};
    /* each side of the block sizes (64, 72, 104, 128, 136, 144, 168) and of their padding limits */
    /* and 32 and 64, the lengths of the SHA3-256/Keccak-256 kernels whose message length is a constant */
    static const size_t lens[] = {0, 1, 32, 55, 56, 63, 64, 71, 72, 111, 112, 127, 128, 135, 136, 168, 169, 300};
    for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++) {
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) against_cpu(ctx, algos[i].algo, algos[i].outlen, lens[l], 0, 5);
        against_cpu(ctx, algos[i].algo, algos[i].outlen, 0, 1, 61);
    }
    permutations(ctx);
    kiln_ctx_free(ctx);

    /* a second context loads the cached binary (same answers, no new file) */
    ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, test_opencl_device()) == KILN_OK, "%s: %s", test_opencl_device(), kiln_last_error(ctx));
    abc(ctx, "sha256", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(cache_files(dir) == 1, "one cached binary in %s", dir);
    kiln_ctx_free(ctx);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "rm");
    return check_summary();
#endif
}
