/* The CPU backend of the Litecoin scrypt search: lane kernels (scalar, AVX2, AVX-512) behind one
 * signature, and the threaded driver that spreads a range over the cores. */
#ifndef KILN_SCRYPT_CPU_H
#define KILN_SCRYPT_CPU_H

#include <stdint.h>

#include "kiln.h"
#include "../core/cpu_dispatch.h"
#include "../core/scrypt_job.h"

/* Tries nonces start .. start+count-1 (start + count <= 2^32). Nonces whose PoW hash passes the
 * early test (top 32 bits <= job->target_top) are written to cand, at most cap of them; returns
 * how many passed. V is scratch of kiln_scrypt_impl.lanes * 32 * 1024 words. */
typedef uint64_t (*kiln_scrypt_lanes_fn)(const kiln_scrypt_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                         uint32_t cap, uint32_t *V);

typedef struct kiln_scrypt_impl {
    const char *name; /* "scalar", "avx2x8", "avx512x16" */
    int lanes; /* hashes computed together */
    kiln_scrypt_lanes_fn fn;
} kiln_scrypt_impl;

uint64_t kiln_scrypt_lanes_scalar(const kiln_scrypt_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                  uint32_t cap, uint32_t *V);
#if defined(KILN_X86_KERNELS) /* each built with its own instruction-set flags */
uint64_t kiln_scrypt_lanes_avx512(const kiln_scrypt_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                  uint32_t cap, uint32_t *V);
uint64_t kiln_scrypt_lanes_avx2(const kiln_scrypt_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                uint32_t cap, uint32_t *V);
#endif

/* Every implementation this CPU can run and whose known-answer self-test passed, fastest first
 * (core/cpu_dispatch.h); the first is the one to use. Returns how many (at most cap). */
int kiln_scrypt_cpu_impls(kiln_scrypt_impl *out, int cap);

/* The name of the first of them, the one the search uses ("avx512x16"). */
const char *kiln_scrypt_cpu_name(void);

/* Scans with `threads` threads (0 = all cores) using impl; candidate semantics as above, in no
 * particular order. Returns UINT64_MAX when a thread's scratch could not be allocated. */
uint64_t kiln_scrypt_cpu_scan(const kiln_scrypt_impl *impl, int threads, const kiln_scrypt_job *job, uint32_t start,
                              uint64_t count, uint32_t *cand, uint32_t cap);

/* The PoW hash of one header on the CPU through the general KDF code: the reference every
 * candidate is verified with. hash = the 32 raw output bytes. */
void kiln_scrypt_pow_hash(const uint8_t header[80], uint8_t hash[32]);

/* The search with the dispatched kernel (a kiln_cpu_search_fn; job is a kiln_scrypt_job). */
uint64_t kiln_scrypt_cpu_search(int threads, const void *job, uint32_t start, uint64_t count, uint32_t *cand,
                              uint32_t cap);

#endif
