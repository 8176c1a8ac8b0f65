/* The device handle behind kiln_gpu and the CUDA entry points the operations table (cuda_ops.cu)
 * is made of; internal to src/cuda, the rest of the library reaches them only through
 * core/gpu.h. Each entry point's contract is the one of its member in a table: the core table
 * (core/gpu.h) or a kind's (core/gpu_tree.h, gpu_graph.h, gpu_collective.h). */
#ifndef KILN_CUDA_STATE_H
#define KILN_CUDA_STATE_H

#include <cuda_runtime.h>

#include "../core/gpu.h"

/* Capacity of the device's found-nonce buffer; more candidates than this in one launch make the
 * host split the launch (it only happens with very easy targets). */
#define KILN_CUDA_CAND_CAP 4096u

struct kiln_gpu {
    kiln_ctx *ctx; /* where this handle's errors go */
    int ordinal;
    int sm_count;
    cudaStream_t stream;
    cudaEvent_t ev_start, ev_stop;
    uint32_t *d_cand; /* KILN_CUDA_CAND_CAP nonces */
    unsigned long long *d_count; /* candidates found, may exceed the capacity */
    uint32_t *h_cand; /* pinned copies */
    unsigned long long *h_count;
    struct kiln_cuda_merkle *merkle; /* device tree and graph of merkle.cu, made on first use */
    void *scratch; /* large per-context work memory (scrypt scratchpads), grown on demand */
    size_t scratch_bytes;
    /* the most device memory seen in use (cudaMemGetInfo) at the fullest points of the graph
     * builds and the PageRank parts' setup: kiln_cuda_note_memory */
    uint64_t mem_peak;
    struct kiln_cuda_stage *stage; /* page-locked buffers of the staged copies (stage.h), made on first use */
};

/* At least `bytes` of the handle's scratch in *out (old contents not kept). Implemented in device.cu. */
kiln_status kiln_cuda_scratch(kiln_gpu *st, size_t bytes, void **out);

/* Evaluates a CUDA runtime call; on failure records "CUDA what failed: message" in the handle's
 * context and returns KILN_ERR_DEVICE from the enclosing function (whose handle is `st`). */
#define KILN_CUDA_TRY(call, what)                                                                  \
    do {                                                                                           \
        cudaError_t kiln_e_ = (call);                                                              \
        if (kiln_e_ != cudaSuccess)                                                                \
            return kiln_fail(st->ctx, KILN_ERR_DEVICE, "CUDA %s failed: %s", (what),               \
                             cudaGetErrorString(kiln_e_));                                         \
    } while (0)

/* device.cu */
int kiln_cuda_count_devices(void);
kiln_status kiln_cuda_device_info(kiln_ctx *ctx, int ordinal, kiln_device_info *out);
kiln_status kiln_cuda_open(kiln_ctx *ctx, int ordinal, kiln_gpu **out);
void kiln_cuda_close(kiln_gpu *st);

/* free and total bytes on the handle's device; the in-use sample behind mem_peak (call with the
 * device current), and the peak itself */
kiln_status kiln_cuda_mem_info(kiln_gpu *st, uint64_t *free_bytes, uint64_t *total_bytes);
void kiln_cuda_note_memory(kiln_gpu *st);
uint64_t kiln_cuda_mem_peak(kiln_gpu *st);

/* sha256d_scan.cu, scrypt_scan.cu, scrypt_kdf.cu */
kiln_status kiln_cuda_sha256d_scan(kiln_gpu *st, const kiln_sha256d_job *job, uint32_t start, uint64_t count,
                                   kiln_launch launch, uint32_t *cand, uint32_t cap, uint64_t *ncand, float *gpu_ms);
kiln_status kiln_cuda_scrypt_scan(kiln_gpu *st, const kiln_scrypt_job *job, uint32_t start, uint64_t count,
                                  const kiln_gpu_scrypt_cfg *cfg, uint32_t *cand, uint32_t cap, uint64_t *ncand,
                                  float *gpu_ms);
kiln_status kiln_cuda_scrypt_kdf_plan(kiln_gpu *st, const kiln_gpu_scrypt_kdf_cfg *cfg, uint64_t lanes_total,
                                      size_t out_len, uint64_t *slots, uint32_t *gap);
kiln_status kiln_cuda_scrypt_kdf(kiln_gpu *st, const kiln_gpu_scrypt_kdf_cfg *cfg, const kiln_scrypt_input *in,
                                 size_t count, uint8_t *out, size_t out_len);

/* Device memory in and out, on the caller's stream, no host wait (docs/DEVICE_MEMORY.md): item i's
 * password is pw[pw_off[i] .. pw_off[i+1]), its salt salt[salt_off[i] .. salt_off[i+1]) (offset
 * tables on the device, clamped to the buffers), its key at out + i * out_len. */
kiln_status kiln_cuda_scrypt_kdf_device(kiln_gpu *st, const kiln_gpu_scrypt_kdf_cfg *cfg, const void *pw, size_t pw_bytes,
                                        const uint64_t *pw_off, const void *salt, size_t salt_bytes,
                                        const uint64_t *salt_off, size_t count, void *out, size_t out_len, void *stream);

/* keccak_batch.cu, keccak_perm.cu */
kiln_status kiln_cuda_hash_batch(kiln_gpu *st, const kiln_gpu_hash_params *p, const uint8_t *data,
                                 const uint64_t *offsets, size_t msg_len, size_t n, uint8_t *out, float *gpu_ms);
kiln_status kiln_cuda_hash_bench(kiln_gpu *st, const kiln_gpu_hash_params *p, size_t msg_len, size_t n,
                                 int with_offsets, int reps, float *median_ms, uint8_t *sample_msgs,
                                 uint8_t *sample_out, size_t nsample);
/* Device memory in and out, on the caller's stream, no host wait (docs/DEVICE_MEMORY.md): message
 * i is data[offsets[i] .. offsets[i+1]) (offsets on the device, relative to data, clamped to
 * data_len) or, offsets NULL, data[i * msg_len ..); digests packed into out. */
kiln_status kiln_cuda_hash_device(kiln_gpu *st, const kiln_gpu_hash_params *p, const void *data, size_t data_len,
                                  const uint64_t *offsets, size_t msg_len, size_t n, void *out, void *stream);
kiln_status kiln_cuda_keccak_f1600_batch(kiln_gpu *st, kiln_keccak_layout layout, uint64_t *states, size_t n,
                                         float *gpu_ms);
kiln_status kiln_cuda_keccak_bench(kiln_gpu *st, kiln_keccak_layout layout, size_t n, int iters, int reps,
                                   float *median_ms, uint64_t *sample_before, uint64_t *sample_after, size_t nsample);

/* pagerank_part.cu */
KILN_GPU_PR_PART_DECLARE(kiln_cuda);
kiln_status kiln_cuda_pr_part_allgather(kiln_gpu_comm *c, kiln_gpu_pr_part *const *parts, int count,
                                        const uint64_t *bounds);

/* nccl_lib.cu: NCCL opened at run time (NULL entry points without nccl.h) */
int kiln_cuda_comm_available(void);
kiln_status kiln_cuda_comm_id(kiln_ctx *ctx, void *id);
kiln_status kiln_cuda_comm_open(kiln_ctx *ctx, kiln_gpu_pr_part *const *parts, int nlocal, int nranks, int rank0,
                                const void *id, kiln_gpu_comm **out);
void kiln_cuda_comm_close(kiln_gpu_comm *c, int abort);

/* merkle.cu */
kiln_status kiln_cuda_merkle_upload(kiln_gpu *st, const uint8_t *leaves, uint64_t n);
kiln_status kiln_cuda_merkle_random(kiln_gpu *st, uint64_t n, uint64_t seed, int field);
kiln_status kiln_cuda_merkle_build(kiln_gpu *st, kiln_merkle_algo algo, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                                   int *launches, float *gpu_ms);
kiln_status kiln_cuda_merkle_read(kiln_gpu *st, uint64_t first, uint64_t count, uint8_t *out);
kiln_status kiln_cuda_merkle_raw(kiln_gpu *st, kiln_merkle_algo algo, uint64_t n, int tpb, float *gpu_ms);
kiln_status kiln_cuda_merkle_gather(kiln_gpu *st, const uint64_t *idx, uint64_t count, uint8_t *out);
kiln_status kiln_cuda_merkle_build_staged(kiln_gpu *st, kiln_merkle_algo algo, uint64_t n,
                                          const kiln_gpu_merkle_cfg *cfg, kiln_gpu_merkle_fill fill, void *user,
                                          int *launches);
/* The tree of n leaves in device memory (leaves, tree: the caller's; tree NULL: a temporary)
 * built on the caller's stream; the root into root_dev (device) and/or root_host (then the stream
 * is synchronized). Nothing else waits on the host. */
kiln_status kiln_cuda_merkle_build_device(kiln_gpu *st, kiln_merkle_algo algo, uint64_t n,
                                          const kiln_gpu_merkle_cfg *cfg, const void *leaves, void *tree,
                                          void *root_dev, uint8_t *root_host, void *stream);
/* Frees the device tree, graph, staging and gather buffers (called by kiln_cuda_close). */
void kiln_cuda_merkle_release(kiln_gpu *st);
/* merkle_rows.cu */
kiln_status kiln_cuda_merkle_rows(kiln_gpu *st, kiln_merkle_algo algo, kiln_merkle_leaf_hash leaf, const uint8_t *rows,
                                  uint64_t n, size_t row_elems, uint8_t *leaves);

/* graph_build.cu, pagerank.cu */
kiln_status kiln_cuda_csr_from_edges(kiln_gpu *st, const uint32_t *src, const uint32_t *dst, uint64_t count,
                                     uint64_t n, int undirected, int drop_loops, kiln_gpu_csr *out);
kiln_status kiln_cuda_rmat_csr(kiln_gpu *st, const kiln_rmat_spec *spec, int undirected, kiln_gpu_csr *out);
kiln_status kiln_cuda_rmat_part_csr(kiln_gpu *st, const kiln_rmat_spec *spec, int undirected, uint64_t v0, uint64_t v1,
                                    kiln_gpu_csr *out);
kiln_status kiln_cuda_pagerank(kiln_gpu *st, const kiln_gpu_pr_graph *g, const kiln_gpu_pr_params *p, double *ranks,
                               kiln_gpu_pr_stats *stats);
/* pagerank_device.cu: the graph table's pr_plan_new, pr_plan_run, pr_plan_free */
kiln_status kiln_cuda_pr_plan_new(kiln_gpu *st, const kiln_gpu_pr_graph *g, const kiln_gpu_pr_params *p,
                                  kiln_gpu_pr_plan **out);
kiln_status kiln_cuda_pr_plan_run(kiln_gpu_pr_plan *plan, const kiln_gpu_pr_params *p, double *ranks, void *stream,
                                  int wait, kiln_gpu_pr_stats *stats, kiln_gpu_pr_bad *bad);
void kiln_cuda_pr_plan_free(kiln_gpu_pr_plan *plan);

#endif
