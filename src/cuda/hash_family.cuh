/* A GPU hash family on CUDA: what the batch plumbing (keccak_batch.cu: copies, staging, device
 * memory, bench) needs of it, written in the family's own batch file (sha512_batch.cu defines
 * kiln_cuda_hash_sha512) and found through the one list (KILN_HASH_GPU_FAMILIES, the F lines of
 * src/core/hash_list.h), so the plumbing names no family. */
#ifndef KILN_CUDA_HASH_FAMILY_CUH
#define KILN_CUDA_HASH_FAMILY_CUH

#include <cuda_runtime.h>

#include "../core/gpu.h"
#include "keccak_batch_kernels.cuh"

struct kiln_cuda_hash_family {
    /* whether p's parameters (variant, rate, outlen) are ones this family's kernels take */
    bool (*check)(const kiln_gpu_hash_params *p);
    /* `blocks` blocks of kiln_hashk::TPB threads on stream s: message i of a (device pointers
     * set, a.out 8-byte aligned) to a.out + i * p->outlen; max_len is the longest message
     * (UINT64_MAX: not known); p already checked. The launch's error. */
    cudaError_t (*launch)(const kiln_gpu_hash_params *p, const kiln_hashk::batch_args &a, uint64_t max_len,
                          unsigned blocks, cudaStream_t s);
};

#define KILN_CUDA_HASH_FAMILY_DECLARE(algo, ID, name) extern const kiln_cuda_hash_family kiln_cuda_hash_##name;
KILN_HASH_GPU_FAMILIES(KILN_CUDA_HASH_FAMILY_DECLARE)
#undef KILN_CUDA_HASH_FAMILY_DECLARE

#endif
