/* The CUDA backend's entry points for a build without nvcc: no devices, every call fails. */
#include <stdio.h>

#include "../cuda/cuda_backend.h"

int kiln_cuda_compiled(void) { return 0; }
int kiln_cuda_device_count(void) { return 0; }

kiln_status kiln_cuda_device_info(int ordinal, kiln_device_info *out, char *err, size_t errlen)
{
    (void)ordinal;
    (void)out;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

kiln_status kiln_cuda_open(int ordinal, kiln_cuda_state **out, char *err, size_t errlen)
{
    (void)ordinal;
    *out = NULL;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

void kiln_cuda_close(kiln_cuda_state *st) { (void)st; }

kiln_status kiln_cuda_sha256d_scan(kiln_cuda_state *st, const kiln_sha256d_job *job, uint32_t start, uint64_t count,
                                   int tpb, int ipt, uint32_t *cand, uint32_t cap, uint64_t *ncand, float *gpu_ms,
                                   char *err, size_t errlen)
{
    (void)st, (void)job, (void)start, (void)count, (void)tpb, (void)ipt, (void)cand, (void)cap, (void)gpu_ms;
    *ncand = 0;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

kiln_status kiln_cuda_csr_from_edges(kiln_cuda_state *st, const uint32_t *src, const uint32_t *dst, uint64_t count,
                                     uint64_t n, int undirected, int drop_loops, kiln_cuda_csr *out, char *err,
                                     size_t errlen)
{
    (void)st, (void)src, (void)dst, (void)count, (void)n, (void)undirected, (void)drop_loops, (void)out;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

kiln_status kiln_cuda_hash_batch(kiln_cuda_state *st, const kiln_cuda_hash_params *p, const uint8_t *data,
                                 const uint64_t *offsets, size_t msg_len, size_t n, uint8_t *out, float *gpu_ms,
                                 char *err, size_t errlen)
{
    (void)st, (void)p, (void)data, (void)offsets, (void)msg_len, (void)n, (void)out, (void)gpu_ms;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

kiln_status kiln_cuda_rmat_csr(kiln_cuda_state *st, const kiln_rmat_spec *spec, int undirected, kiln_cuda_csr *out,
                               char *err, size_t errlen)
{
    (void)st, (void)spec, (void)undirected, (void)out;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

kiln_status kiln_cuda_hash_bench(kiln_cuda_state *st, const kiln_cuda_hash_params *p, size_t msg_len, size_t n,
                                 int with_offsets, int reps, float *median_ms, uint8_t *sample_msgs,
                                 uint8_t *sample_out, size_t nsample, char *err, size_t errlen)
{
    (void)st, (void)p, (void)msg_len, (void)n, (void)with_offsets, (void)reps, (void)median_ms, (void)sample_msgs,
        (void)sample_out, (void)nsample;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

kiln_status kiln_cuda_pagerank(kiln_cuda_state *st, const kiln_cuda_pr_graph *g, const kiln_cuda_pr_params *p,
                               double *ranks, kiln_cuda_pr_stats *stats, char *err, size_t errlen)
{
    (void)st, (void)g, (void)p, (void)ranks, (void)stats;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

kiln_status kiln_cuda_keccak_f1600_batch(kiln_cuda_state *st, int layout, uint64_t *states, size_t n, float *gpu_ms,
                                         char *err, size_t errlen)
{
    (void)st, (void)layout, (void)states, (void)n, (void)gpu_ms;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

static kiln_status no_cuda(char *err, size_t errlen)
{
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

kiln_status kiln_cuda_merkle_upload(kiln_cuda_state *st, const uint8_t *leaves, uint64_t n, char *err, size_t errlen)
{
    (void)st, (void)leaves, (void)n;
    return no_cuda(err, errlen);
}

kiln_status kiln_cuda_merkle_random(kiln_cuda_state *st, uint64_t n, uint64_t seed, int field, char *err,
                                    size_t errlen)
{
    (void)st, (void)n, (void)seed, (void)field;
    return no_cuda(err, errlen);
}

kiln_status kiln_cuda_merkle_build(kiln_cuda_state *st, kiln_merkle_algo algo, uint64_t n,
                                   const kiln_cuda_merkle_cfg *cfg, int *launches, float *gpu_ms, char *err,
                                   size_t errlen)
{
    (void)st, (void)algo, (void)n, (void)cfg, (void)launches, (void)gpu_ms;
    return no_cuda(err, errlen);
}

kiln_status kiln_cuda_merkle_read(kiln_cuda_state *st, uint64_t first, uint64_t count, uint8_t *out, char *err,
                                  size_t errlen)
{
    (void)st, (void)first, (void)count, (void)out;
    return no_cuda(err, errlen);
}

kiln_status kiln_cuda_merkle_raw(kiln_cuda_state *st, kiln_merkle_algo algo, uint64_t n, int tpb, float *gpu_ms,
                                 char *err, size_t errlen)
{
    (void)st, (void)algo, (void)n, (void)tpb, (void)gpu_ms;
    return no_cuda(err, errlen);
}

void kiln_cuda_merkle_release(kiln_cuda_state *st) { (void)st; }
kiln_status kiln_cuda_keccak_bench(kiln_cuda_state *st, int layout, size_t n, int iters, int reps, float *median_ms,
                                   uint64_t *sample_before, uint64_t *sample_after, size_t nsample, char *err,
                                   size_t errlen)
{
    (void)st, (void)layout, (void)n, (void)iters, (void)reps, (void)median_ms, (void)sample_before,
        (void)sample_after, (void)nsample;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

kiln_status kiln_cuda_scrypt_scan(kiln_cuda_state *st, const kiln_scrypt_job *job, uint32_t start, uint64_t count,
                                  const kiln_cuda_scrypt_cfg *cfg, uint32_t *cand, uint32_t cap, uint64_t *ncand,
                                  float *gpu_ms, char *err, size_t errlen)
{
    (void)st, (void)job, (void)start, (void)count, (void)cfg, (void)cand, (void)cap, (void)gpu_ms;
    *ncand = 0;
    return no_cuda(err, errlen);
}

kiln_status kiln_cuda_scrypt_kdf_plan(kiln_cuda_state *st, const kiln_cuda_scrypt_kdf_cfg *cfg, uint64_t lanes_total,
                                      size_t out_len, uint64_t *slots, uint32_t *gap, char *err, size_t errlen)
{
    (void)st, (void)cfg, (void)lanes_total, (void)out_len;
    *slots = 0;
    *gap = 0;
    return no_cuda(err, errlen);
}

kiln_status kiln_cuda_scrypt_kdf(kiln_cuda_state *st, const kiln_cuda_scrypt_kdf_cfg *cfg, const kiln_scrypt_input *in,
                                 size_t count, uint8_t *out, size_t out_len, char *err, size_t errlen)
{
    (void)st, (void)cfg, (void)in, (void)count, (void)out, (void)out_len;
    return no_cuda(err, errlen);
}
