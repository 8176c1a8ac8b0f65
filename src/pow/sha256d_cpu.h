/* The CPU backend of the sha256d search: lane kernels (scalar, SIMD) behind one signature, and
 * the threaded driver that spreads a range over the cores. */
#ifndef KILN_POW_SHA256D_CPU_H
#define KILN_POW_SHA256D_CPU_H

#include <stdint.h>

#include "kiln.h"
#include "../core/sha256d_job.h"

/* Tries nonces start .. start+count-1 (start + count <= 2^32). Nonces whose digest passes the
 * early test (byte-swapped digest word 7 <= job->target[7]) are written to cand, at most cap of
 * them; returns how many passed. Candidates are re-verified by the caller. */
typedef uint64_t (*kiln_sha256d_lanes_fn)(const kiln_sha256d_job *job, uint32_t start, uint32_t count,
                                          uint32_t *cand, uint32_t cap);

typedef struct kiln_sha256d_impl {
    const char *name; /* "scalar", "avx2x8", "avx512x16", "sha-ni" */
    kiln_sha256d_lanes_fn fn;
} kiln_sha256d_impl;

uint64_t kiln_sha256d_lanes_scalar(const kiln_sha256d_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                   uint32_t cap);

/* Every implementation this CPU can run and whose known-answer self-test passed, fastest first
 * (core/cpu_dispatch.h); the first is the one to use. Returns how many (at most cap). */
int kiln_sha256d_cpu_impls(kiln_sha256d_impl *out, int cap);

/* The name of the first of them, the one the search uses ("avx512x16"). */
const char *kiln_sha256d_cpu_name(void);

/* Scans with `threads` threads (0 = all cores) using impl; candidate semantics as above, in no
 * particular order. Returns UINT64_MAX when a thread's buffer could not be allocated. */
uint64_t kiln_sha256d_cpu_scan(const kiln_sha256d_impl *impl, int threads, const kiln_sha256d_job *job,
                               uint32_t start, uint64_t count, uint32_t *cand, uint32_t cap);

/* The search with the dispatched kernel (a kiln_cpu_search_fn; job is a kiln_sha256d_job). */
uint64_t kiln_sha256d_cpu_search(int threads, const void *job, uint32_t start, uint64_t count, uint32_t *cand,
                              uint32_t cap);

#endif
