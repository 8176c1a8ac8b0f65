/* The CUDA backend as the rest of the library sees it: plain C functions, implemented in the .cu
 * files when kiln is built with CUDA and by cuda_none.c otherwise. Errors are written to err. */
#ifndef KILN_CUDA_BACKEND_H
#define KILN_CUDA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "kiln.h"
#include "../core/sha256d_job.h"
#include "../prim/rmat.h"
#include "../core/scrypt_job.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_cuda_state kiln_cuda_state;

int kiln_cuda_compiled(void);
/* GPUs the runtime can see; 0 when there is no driver or no device. */
int kiln_cuda_device_count(void);
kiln_status kiln_cuda_device_info(int ordinal, kiln_device_info *out, char *err, size_t errlen);

/* Per-context device state (selected device, found-nonce buffers, events). */
kiln_status kiln_cuda_open(int ordinal, kiln_cuda_state **out, char *err, size_t errlen);
void kiln_cuda_close(kiln_cuda_state *st);

/* One launch over [start, start+count), count <= 2^32 - start. Writes up to cap candidate nonces
 * (byte-swapped digest word 7 <= job->target[7]) to cand, unordered, and their total number to
 * *ncand (which may exceed cap). tpb/ipt of 0 pick the defaults. *gpu_ms receives the kernel
 * time measured with events. */
kiln_status kiln_cuda_sha256d_scan(kiln_cuda_state *st, const kiln_sha256d_job *job, uint32_t start, uint64_t count,
                                   int tpb, int ipt, uint32_t *cand, uint32_t cap, uint64_t *ncand, float *gpu_ms,
                                   char *err, size_t errlen);

/* ---- graphs and PageRank (graph_build.cu, pagerank.cu) */

/* A CSR of in-edges built on the device and copied back into malloc'ed host arrays. */
typedef struct kiln_cuda_csr {
    uint64_t n, m;
    uint64_t *offsets; /* n + 1 */
    uint32_t *sources; /* m, ascending within each row */
    uint32_t *outdeg; /* n */
    uint64_t edges_read, self_loops_removed, duplicates_removed;
} kiln_cuda_csr;

/* Edges (host, vertex indices below n) -> CSR: keys (dst, src) sorted with CUB's radix sort,
 * duplicates merged (cub::DeviceSelect::Unique), self loops dropped when drop_loops, both
 * directions when undirected, offsets by cub::DeviceScan. The same arrays as the CPU build. */
kiln_status kiln_cuda_csr_from_edges(kiln_cuda_state *st, const uint32_t *src, const uint32_t *dst, uint64_t count,
                                     uint64_t n, int undirected, int drop_loops, kiln_cuda_csr *out, char *err,
                                     size_t errlen);
/* RMAT edges generated on the device (src/prim/rmat.h), labels permuted, self loops dropped. */
kiln_status kiln_cuda_rmat_csr(kiln_cuda_state *st, const kiln_rmat_spec *spec, int undirected, kiln_cuda_csr *out,
                               char *err, size_t errlen);

typedef struct kiln_cuda_pr_graph {
    uint64_t n, m, dangling;
    const uint64_t *offsets;
    const uint32_t *sources;
    const uint32_t *outdeg;
} kiln_cuda_pr_graph;

typedef struct kiln_cuda_pr_params {
    double damping, tol;
    int max_iter;
    int use_double; /* float64 ranks instead of float32 */
    int reorder; /* relabel by descending in-degree (else process the rows through an index list) */
    int repeat; /* timed runs of the loop from x0; the median is reported */
} kiln_cuda_pr_params;

typedef struct kiln_cuda_pr_stats {
    int iterations, converged;
    double residual;
    double loop_ms; /* median over the runs, device events */
    double setup_s;
} kiln_cuda_pr_stats;

/* PageRank on the device; ranks[n] receives x in the graph's vertex order. */
kiln_status kiln_cuda_pagerank(kiln_cuda_state *st, const kiln_cuda_pr_graph *g, const kiln_cuda_pr_params *p,
                               double *ranks, kiln_cuda_pr_stats *stats, char *err, size_t errlen);
/* ---- Merkle trees (merkle.cu). The whole tree lives in device memory owned by the state, level
 * after level as kiln_merkle_level_offset lays it out; it stays there between levels and calls. */
typedef struct kiln_cuda_merkle_cfg {
    int method; /* KILN_MERKLE_LEVELS or KILN_MERKLE_SUBTREES */
    int k; /* levels per launch of the subtree kernel, 1..12 */
    int tpb; /* threads per block */
    int graph; /* replay the launch sequence as a CUDA graph */
} kiln_cuda_merkle_cfg;

/* Level 0 := n leaves from the host (the device tree grows as needed). */
kiln_status kiln_cuda_merkle_upload(kiln_cuda_state *st, const uint8_t *leaves, uint64_t n, char *err, size_t errlen);
/* Level 0 := n pseudo-random leaves from seed; field != 0 makes each u64 a canonical Goldilocks element. */
kiln_status kiln_cuda_merkle_random(kiln_cuda_state *st, uint64_t n, uint64_t seed, int field, char *err,
                                    size_t errlen);
/* Builds every level above level 0; *launches receives the kernel launches, *gpu_ms their event time. */
kiln_status kiln_cuda_merkle_build(kiln_cuda_state *st, kiln_merkle_algo algo, uint64_t n,
                                   const kiln_cuda_merkle_cfg *cfg, int *launches, float *gpu_ms, char *err,
                                   size_t errlen);
/* Copies nodes [first, first + count) of the whole tree to the host. */
kiln_status kiln_cuda_merkle_read(kiln_cuda_state *st, uint64_t first, uint64_t count, uint8_t *out, char *err,
                                  size_t errlen);
/* One launch of the level kernel over level 0's n nodes (ceil(n/2) independent merges): the raw rate. */
kiln_status kiln_cuda_merkle_raw(kiln_cuda_state *st, kiln_merkle_algo algo, uint64_t n, int tpb, float *gpu_ms,
                                 char *err, size_t errlen);
/* Frees the device tree and graph (called by kiln_cuda_close). */
void kiln_cuda_merkle_release(kiln_cuda_state *st);
/* ---- Keccak / SHA-3 and the SHA-256 family over batches of messages (keccak_batch.cu) */

/* What to compute: a Keccak sponge (rate bytes, domain byte) or, with rate 0, SHA-256 (sha256d:
 * applied twice). outlen bytes per digest. */
typedef struct kiln_cuda_hash_params {
    unsigned rate;
    uint8_t domain;
    int sha256d;
    size_t outlen;
} kiln_cuda_hash_params;

/* n messages from host memory: message i is data[offsets[i]-offsets[0] .. offsets[i+1]-offsets[0])
 * or, with offsets NULL, data[i*msg_len .. (i+1)*msg_len). Digests go to out, packed. *gpu_ms:
 * the kernel time (events). */
kiln_status kiln_cuda_hash_batch(kiln_cuda_state *st, const kiln_cuda_hash_params *p, const uint8_t *data,
                                 const uint64_t *offsets, size_t msg_len, size_t n, uint8_t *out, float *gpu_ms,
                                 char *err, size_t errlen);

/* Benchmark over a device-resident batch of n pseudo-random messages of msg_len bytes (generated
 * on the device): with_offsets != 0 reads an offsets array as the general batch does. Runs one
 * warm-up launch and reps timed launches; *median_ms is the median kernel time. Copies the
 * messages and digests of nsample evenly spaced indices back (sample_msgs: nsample*msg_len bytes,
 * sample_out: nsample*outlen) for the caller to verify. */
kiln_status kiln_cuda_hash_bench(kiln_cuda_state *st, const kiln_cuda_hash_params *p, size_t msg_len, size_t n,
                                 int with_offsets, int reps, float *median_ms, uint8_t *sample_msgs,
                                 uint8_t *sample_out, size_t nsample, char *err, size_t errlen);

/* ---- raw Keccak-f[1600] batches in the three layouts (keccak_perm.cu); layout is a
 * kiln_keccak_layout other than AUTO */

kiln_status kiln_cuda_keccak_f1600_batch(kiln_cuda_state *st, int layout, uint64_t *states, size_t n, float *gpu_ms,
                                         char *err, size_t errlen);

/* Benchmark over n device-resident states permuted in place, iters permutations per load/store
 * (1: each state read and written once per permutation). sample_before/after: 25 lanes of nsample
 * evenly spaced states around the last timed launch (iters permutations apart). */
kiln_status kiln_cuda_keccak_bench(kiln_cuda_state *st, int layout, size_t n, int iters, int reps, float *median_ms,
                                   uint64_t *sample_before, uint64_t *sample_after, size_t nsample, char *err,
                                   size_t errlen);
/* ---- scrypt */

/* Litecoin search launch: 0 fields pick the defaults. */
typedef struct kiln_cuda_scrypt_cfg {
    int threads_per_block;
    int hashes_per_thread; /* nonces each resident hash slot runs per launch */
    int threads_per_hash; /* 1 or 4 */
    int lookup_gap; /* 1..16 */
} kiln_cuda_scrypt_cfg;

/* Litecoin scrypt over [start, start+count): the whole hash on the GPU; candidate semantics as
 * kiln_cuda_sha256d_scan's (top 32 bits of the PoW hash <= job->target_top). */
kiln_status kiln_cuda_scrypt_scan(kiln_cuda_state *st, const kiln_scrypt_job *job, uint32_t start, uint64_t count,
                                  const kiln_cuda_scrypt_cfg *cfg, uint32_t *cand, uint32_t cap, uint64_t *ncand,
                                  float *gpu_ms, char *err, size_t errlen);

typedef struct kiln_cuda_scrypt_kdf_cfg {
    uint64_t N;
    uint32_t r, p;
    int threads_per_block; /* 0 = default */
    int lookup_gap; /* 0 = automatic */
} kiln_cuda_scrypt_kdf_cfg;

/* How the batch KDF would run lanes_total lanes: lanes resident at once and the lookup gap (the
 * configured one, or the automatic choice). KILN_ERR_INPUT when one lane cannot fit. */
kiln_status kiln_cuda_scrypt_kdf_plan(kiln_cuda_state *st, const kiln_cuda_scrypt_kdf_cfg *cfg, uint64_t lanes_total,
                                      size_t out_len, uint64_t *slots, uint32_t *gap, char *err, size_t errlen);

/* Batch scrypt KDF: item i's out_len bytes at out + i * out_len. Parameters already checked.
 * KILN_ERR_INPUT when one lane's scratchpad cannot fit in device memory. */
kiln_status kiln_cuda_scrypt_kdf(kiln_cuda_state *st, const kiln_cuda_scrypt_kdf_cfg *cfg, const kiln_scrypt_input *in,
                                 size_t count, uint8_t *out, size_t out_len, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
