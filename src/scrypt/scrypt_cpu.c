#include "scrypt_cpu.h"

#include <stdlib.h>

#include "../core/cpu_dispatch.h"
#include "../core/cpu_scan.h"

/* A real Litecoin mainnet header of July 2013 (Litecoin Core's scrypt_tests.cpp, vector 0; in
 * tests/data/litecoin_pow.json) with its nonce. Its PoW hash 00000000002bef41... meets its
 * target, so its top 32 bits are zero: with target_top = 0, the nonce and its two neighbours must
 * yield the nonce alone. */
static const char known_header[] = "020000004c1271c211717198227392b029a64a7971931d351b387bb80db027f270411e398a07046f"
                                   "7d4a08dd815412a8712f874a7ebf0507e3878bd24e20a3b73fd750a667d2f451eac7471b00de6659";
#define KNOWN_NONCE 0x5966de00u

static int hexval(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

static int selftest(const void *impl)
{
    const kiln_scrypt_impl *im = impl;
    uint8_t header[80], target[32] = {0};
    for (int i = 0; i < 80; i++) header[i] = (uint8_t)(hexval(known_header[2 * i]) * 16 + hexval(known_header[2 * i + 1]));
    kiln_scrypt_job job;
    kiln_scrypt_job_init(&job, header, target);
    uint32_t *V = NULL;
    if (posix_memalign((void **)&V, 64, (size_t)im->lanes * 32 * KILN_SCRYPT_LTC_N * sizeof *V) != 0) return 0;
    uint32_t cand[3];
    uint64_t n = im->fn(&job, KNOWN_NONCE - 1, 3, cand, 3, V);
    free(V);
    return n == 1 && cand[0] == KNOWN_NONCE;
}

static const kiln_scrypt_impl scalar = {"scalar", 1, kiln_scrypt_lanes_scalar};

KILN_CPU_LADDER(ranking, "scalar", scalar,
    {"avx512x16", KILN_NEEDS_AVX512, &(const kiln_scrypt_impl){"avx512x16", 16, kiln_scrypt_lanes_avx512}, selftest},
    {"avx2x8", KILN_NEEDS_AVX2, &(const kiln_scrypt_impl){"avx2x8", 8, kiln_scrypt_lanes_avx2}, selftest})

int kiln_scrypt_cpu_impls(kiln_scrypt_impl *out, int cap)
{ return kiln_cpu_ranked_copy(ranking(), out, sizeof *out, cap); }

const char *kiln_scrypt_cpu_name(void) { return ranking()->usable[0]->name; }

static uint64_t scan_piece(const void *impl, const void *job, uint32_t start, uint32_t n, uint32_t *cand, uint32_t cap,
                           void *scratch)
{
    return ((const kiln_scrypt_impl *)impl)->fn(job, start, n, cand, cap, scratch);
}

/* A piece is a few lane groups: small enough to balance two threads over a short range, large
 * enough that the per-call setup is nothing beside 1024-step ROMix. Each thread's scratch is V
 * (lanes * 128 KiB). */
#define GROUPS_PER_PIECE 2u

uint64_t kiln_scrypt_cpu_scan(const kiln_scrypt_impl *impl, int threads, const kiln_scrypt_job *job, uint32_t start,
                              uint64_t count, uint32_t *cand, uint32_t cap)
{
    size_t v_bytes = (size_t)impl->lanes * 32 * KILN_SCRYPT_LTC_N * sizeof(uint32_t);
    return kiln_cpu_scan_pieces(scan_piece, impl, job, GROUPS_PER_PIECE * (uint32_t)impl->lanes, v_bytes, threads, start,
                                count, cand, cap);
}

uint64_t kiln_scrypt_cpu_search(int threads, const void *job, uint32_t start, uint64_t count, uint32_t *cand,
                              uint32_t cap)
{
    return kiln_scrypt_cpu_scan(ranking()->usable[0]->impl, threads, job, start, count, cand, cap);
}
