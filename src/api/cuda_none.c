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

kiln_status kiln_cuda_scrypt_scan(kiln_cuda_state *st, const kiln_scrypt_job *job, uint32_t start, uint64_t count,
                                  const kiln_cuda_scrypt_cfg *cfg, uint32_t *cand, uint32_t cap, uint64_t *ncand,
                                  float *gpu_ms, char *err, size_t errlen)
{
    (void)st, (void)job, (void)start, (void)count, (void)cfg, (void)cand, (void)cap, (void)gpu_ms;
    *ncand = 0;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

kiln_status kiln_cuda_scrypt_kdf_plan(kiln_cuda_state *st, const kiln_cuda_scrypt_kdf_cfg *cfg, uint64_t lanes_total,
                                      size_t out_len, uint64_t *slots, uint32_t *gap, char *err, size_t errlen)
{
    (void)st, (void)cfg, (void)lanes_total, (void)out_len;
    *slots = 0;
    *gap = 0;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}

kiln_status kiln_cuda_scrypt_kdf(kiln_cuda_state *st, const kiln_cuda_scrypt_kdf_cfg *cfg, const kiln_scrypt_input *in,
                                 size_t count, uint8_t *out, size_t out_len, char *err, size_t errlen)
{
    (void)st, (void)cfg, (void)in, (void)count, (void)out, (void)out_len;
    snprintf(err, errlen, "kiln was built without CUDA");
    return KILN_ERR_DEVICE;
}
