#include "sha256d_cpu.h"

#include "../core/cpu_dispatch.h"
#include "../core/cpu_scan.h"
#include "sha256d_simd.h"

/* Real Bitcoin mainnet headers (tests/data/headers.json: genesis and block 840000) and their
 * nonces. A block hash meets its target, so the top 32 bits of the hash (byte-swapped digest
 * word 7) are zero: with target[7] = 0, a window of nonces around the real one must yield that
 * nonce alone. The two windows put it in different lanes. */
static const struct known_block {
    const char *header_hex; /* nonce bytes included; the job ignores them */
    uint32_t nonce, before;
} known[] = {
    {"0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f61"
     "7fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c",
     2083236893u, 9},
    {"00e05f2aab948491071265ad552351d0ad625745668da54b0172010000000000000000004f89a5d73bd4d4887f25981fe81892cc"
     "afda10c27f52d6f3dd28183a7c411b03b7072366194203177d9863ea",
     3932395645u, 3},
};

static int hexval(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

static int selftest(const void *impl)
{
    const kiln_sha256d_impl *im = impl;
    for (size_t b = 0; b < sizeof known / sizeof *known; b++) {
        uint8_t header[80], target[32] = {0};
        for (int i = 0; i < 80; i++)
            header[i] = (uint8_t)(hexval(known[b].header_hex[2 * i]) * 16 + hexval(known[b].header_hex[2 * i + 1]));
        kiln_sha256d_job job;
        kiln_sha256d_job_init(&job, header, target);
        uint32_t cand[20];
        uint64_t n = im->fn(&job, known[b].nonce - known[b].before, 20, cand, 20);
        if (n != 1 || cand[0] != known[b].nonce) return 0;
    }
    return 1;
}

static const kiln_sha256d_impl scalar = {"scalar", kiln_sha256d_lanes_scalar};

KILN_CPU_LADDER(ranking, "scalar", scalar,
    {"avx512x16", KILN_NEEDS_AVX512, &(const kiln_sha256d_impl){"avx512x16", kiln_sha256d_lanes_avx512}, selftest},
    {"avx2x8", KILN_NEEDS_AVX2, &(const kiln_sha256d_impl){"avx2x8", kiln_sha256d_lanes_avx2}, selftest},
    {"sha-ni", KILN_NEEDS_SHANI, &(const kiln_sha256d_impl){"sha-ni", kiln_sha256d_lanes_shani}, selftest})

int kiln_sha256d_cpu_impls(kiln_sha256d_impl *out, int cap)
{ return kiln_cpu_ranked_copy(ranking(), out, sizeof *out, cap); }

const char *kiln_sha256d_cpu_name(void) { return ranking()->usable[0]->name; }

static uint64_t scan_piece(const void *impl, const void *job, uint32_t start, uint32_t n, uint32_t *cand, uint32_t cap,
                           void *scratch)
{
    (void)scratch;
    return ((const kiln_sha256d_impl *)impl)->fn(job, start, n, cand, cap);
}

/* Pieces small enough to balance the threads and large enough that each SIMD lane kernel call
 * amortises its setup. */
#define PIECE (1u << 14)

uint64_t kiln_sha256d_cpu_scan(const kiln_sha256d_impl *impl, int threads, const kiln_sha256d_job *job,
                               uint32_t start, uint64_t count, uint32_t *cand, uint32_t cap)
{
    return kiln_cpu_scan_pieces(scan_piece, impl, job, PIECE, 0, threads, start, count, cand, cap);
}

uint64_t kiln_sha256d_cpu_search(int threads, const void *job, uint32_t start, uint64_t count, uint32_t *cand,
                              uint32_t cap)
{
    return kiln_sha256d_cpu_scan(ranking()->usable[0]->impl, threads, job, start, count, cand, cap);
}
