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

kiln_status kiln_cuda_rmat_csr(kiln_cuda_state *st, const kiln_rmat_spec *spec, int undirected, kiln_cuda_csr *out,
                               char *err, size_t errlen)
{
    (void)st, (void)spec, (void)undirected, (void)out;
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
