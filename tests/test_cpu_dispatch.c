/* The one CPU dispatcher (src/core/cpu_dispatch.h): candidates are skipped when the CPU lacks a
 * feature they need (without running their self-test) or when their known-answer self-test fails,
 * and the first remaining one is used. The candidates here are SHA-256 compressions checked
 * against FIPS 180-4's SHA-256("abc"); one of them is deliberately broken. Then the real choices
 * this machine made are checked against what it reports. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "api/cpu_report.h"
#include "check.h"
#include "core/cpu_dispatch.h"
#include "core/cpu_features.h"
#include "hash/blake3_host.h"
#include "kiln.h"
#include "prim/sha256.h"
#include "pow/sha256d_cpu.h"
#include "scrypt/scrypt_cpu.h"

typedef void (*compress_fn)(uint32_t st[8], const uint8_t block[64]);

static int selftests_run;

static void good(uint32_t st[8], const uint8_t block[64]) { kiln_sha256_compress_bytes(st, block); }

static void broken(uint32_t st[8], const uint8_t block[64])
{
    kiln_sha256_compress_bytes(st, block);
    st[3] ^= 1u << 17; /* a single flipped bit, as a wrong rotate count might give */
}

struct impl {
    compress_fn fn;
};

/* FIPS 180-4 example: SHA-256("abc"), one padded block. */
static int abc_selftest(const void *impl)
{
    static const uint32_t abc[8] = {0xba7816bfu, 0x8f01cfeau, 0x414140deu, 0x5dae2223u,
                                    0xb00361a3u, 0x96177a9cu, 0xb410ff61u, 0xf20015adu};
    uint8_t block[64] = {'a', 'b', 'c', 0x80};
    block[63] = 24;
    uint32_t st[8];
    selftests_run++;
    kiln_sha256_iv(st);
    ((const struct impl *)impl)->fn(st, block);
    return memcmp(st, abc, sizeof abc) == 0;
}

static const struct impl good_impl = {good}, broken_impl = {broken};

int main(void)
{
    /* a broken fastest candidate falls back to the next one that passes */
    const kiln_cpu_candidate list[] = {
        {"broken", 0, &broken_impl, abc_selftest},
        {"good", 0, &good_impl, abc_selftest},
        {"floor", 0, &good_impl, NULL},
    };
    kiln_cpu_ranking r;
    kiln_cpu_rank(list, 3, 0, &r);
    CHECK(r.n == 2, "%d usable, want 2", r.n);
    CHECK_STR(r.usable[0]->name, "good");
    CHECK_STR(r.usable[1]->name, "floor");
    CHECK(selftests_run == 2, "%d self-tests run, want 2", selftests_run);

    /* a candidate needing a feature the CPU lacks is skipped before its self-test could fault */
    const kiln_cpu_candidate needs[] = {
        {"avx512", KILN_NEEDS_AVX512, &good_impl, abc_selftest},
        {"broken-sha-ni", KILN_NEEDS_SHANI, &broken_impl, abc_selftest},
        {"avx2", KILN_NEEDS_AVX2, &good_impl, abc_selftest},
        {"floor", 0, &good_impl, NULL},
    };
    selftests_run = 0;
    kiln_cpu_rank(needs, 4, KILN_NEEDS_AVX2 | KILN_NEEDS_SHANI, &r);
    CHECK(r.n == 2, "%d usable, want 2", r.n);
    CHECK_STR(r.usable[0]->name, "avx2");
    CHECK(selftests_run == 2, "%d self-tests run, want 2 (broken-sha-ni, avx2)", selftests_run);
    kiln_cpu_rank(needs, 4, KILN_NEEDS_AVX512 | KILN_NEEDS_AVX2 | KILN_NEEDS_SHANI, &r);
    CHECK(r.n == 3 && strcmp(r.usable[0]->name, "avx512") == 0, "with AVX-512: %d usable, first %s", r.n,
          r.usable[0]->name);
    kiln_cpu_rank(needs, 4, 0, &r);
    CHECK(r.n == 1 && strcmp(r.usable[0]->name, "floor") == 0, "with nothing: %d usable", r.n);

    /* the real choices: the fastest kernel the CPU has (the library's own kernels all pass their
     * known-answer self-tests here, or the lane tests would fail too), and the report names them */
    const kiln_cpu_features *f = kiln_cpu();
    kiln_sha256d_impl d;
    kiln_scrypt_impl s;
    CHECK(kiln_sha256d_cpu_impls(&d, 1) == 1, "no sha256d kernel");
    CHECK(kiln_scrypt_cpu_impls(&s, 1) == 1, "no scrypt kernel");
    const char *want_d = f->avx512 ? "avx512x16" : f->avx2 ? "avx2x8" : f->sha_ni ? "sha-ni" : "scalar";
    const char *want_s = f->avx512 ? "avx512x16" : f->avx2 ? "avx2x8" : "scalar";
#if !defined(KILN_X86_KERNELS)
    want_d = want_s = "scalar";
#endif
    CHECK_STR(d.name, want_d);
    CHECK_STR(s.name, want_s);
    char report[192], want[192];
    kiln_cpu_dispatch_report(report, sizeof report);
    /* SHA-512: the compression (AVX2 where there is AVX2), then the lanes (the widest the CPU has) */
    const char *want_512 = f->avx2 ? "avx2" : "portable";
    const char *want_lanes = f->avx512 ? "avx512x8" : f->avx2 ? "avx2x4" : "portable";
#if !defined(KILN_X86_KERNELS)
    want_512 = want_lanes = "portable";
#endif
    /* Keccak: the one-state permutation, then the same widest lanes as SHA-512's */
    /* SHA-1: the SHA extensions where the CPU has them; MD5 and BLAKE2: the portable compression,
     * then their lanes (the widest the CPU has); BLAKE3: its lanes kernel
     * (test_blake3_dispatch checks its choice) */
    const char *want_sha1 = f->sha_ni ? "sha-ni" : "portable";
    const char *want_lanes32 = f->avx512 ? "avx512x16" : f->avx2 ? "avx2x8" : "portable";
#if !defined(KILN_X86_KERNELS)
    want_sha1 = want_lanes32 = "portable";
#endif
    /* BLAKE2: BLAKE2b's lanes (64-bit words, SHA-512's widths), then BLAKE2s's */
    snprintf(want, sizeof want,
             "sha256=%s keccak=%s/%s sha512=%s/%s sha1=%s md5=portable/%s blake2=portable/%s/%s blake3=%s sha256d=%s "
             "scrypt=%s",
             kiln_sha256_impl(), kiln_keccak_impl(), want_lanes, want_512, want_lanes, want_sha1, want_lanes32, want_lanes,
             want_lanes32, kiln_blake3_many()->name, want_d, want_s);
    CHECK_STR(report, want);
    printf("%s\n", report);
    /* the report whole, past kiln_device_info's 160 bytes (md5's and BLAKE2's lanes took it
     * past them: `kiln devices` printed "... blake3=avx512 " and no more) */
    char whole[1024];
    const size_t len = kiln_cpu_report(whole, sizeof whole);
    kiln_device_info cpu;
    CHECK(len == strlen(whole) && len > 0, "kiln_cpu_report: length %zu of '%s'", len, whole);
    CHECK(strstr(whole, " scrypt=") && strstr(whole, " sha256d=") && strstr(whole, "md5="),
          "the whole report names every dispatch: '%s'", whole);
    CHECK(kiln_device_get(0, &cpu) == KILN_OK && strncmp(cpu.features, whole, sizeof cpu.features - 1) == 0,
          "kiln_device_info's features are the report's start: '%s'", cpu.features);
    char small[8];
    CHECK(kiln_cpu_report(small, sizeof small) == len && strlen(small) == sizeof small - 1,
          "a short buffer is cut and terminated, the length still the whole's");
    return check_summary();
}
