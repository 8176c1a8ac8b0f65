/* A proof of work's nonce search, described once beside its code (src/pow/sha256d_search.c,
 * src/scrypt/scrypt_search.c) and listed by the search dispatcher (src/api/scan.c): the PoW hash
 * that re-checks every candidate on the CPU, the per-job state, the CPU search, and the GPU search
 * as data (a kiln_gpu_search for whichever backend runs it). */
#ifndef KILN_CORE_SEARCH_DESC_H
#define KILN_CORE_SEARCH_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "cpu_scan.h"
#include "ctx.h"
#include "gpu.h"
#include "scrypt_job.h"
#include "sha256d_job.h"

/* The per-job state of one search: the member its descriptor's prepare fills. */
typedef union kiln_search_state {
    kiln_sha256d_job sha256d;
    kiln_scrypt_job scrypt;
} kiln_search_state;

typedef struct kiln_search_desc {
    kiln_algo algo;
    const char *name; /* in the CPU dispatch report ("sha256d=avx512x16") */
    /* the name of the CPU kernel the dispatch chose, into out */
    void (*cpu_impl)(char *out, size_t len);
    /* PoW hash of an 80-byte header, raw bytes compared as a little-endian number */
    void (*pow_hash)(const uint8_t header[KILN_HEADER_SIZE], uint8_t hash[32]);
    /* the per-job state, once per kiln_scan */
    void (*prepare)(kiln_search_state *s, const uint8_t header[KILN_HEADER_SIZE], const uint8_t target[32]);
    kiln_cpu_search_fn cpu_search;
    const char *cpu_memory; /* what a CPU search allocates, for its out-of-memory message */
    /* the GPU search of state s with the launch shape the context holds */
    void (*gpu_work)(const kiln_ctx *ctx, const kiln_search_state *s, kiln_gpu_search *w);
    uint64_t cpu_first_chunk, gpu_first_chunk; /* launch sizes to start the ramp from */
    double gpu_range_s; /* GPU range time to aim for (0: the dispatcher's); may span several launches */
} kiln_search_desc;

extern const kiln_search_desc kiln_sha256d_search;
extern const kiln_search_desc kiln_scrypt_search;

#endif
