/* MD5 of a batch of messages on the GPU, launched by the hash batch code (keccak_batch.cu's
 * plumbing: batch_args, one thread per message, TPB threads a block). */
#ifndef KILN_CUDA_MD5_BATCH_H
#define KILN_CUDA_MD5_BATCH_H

#include <cuda_runtime.h>

#include "keccak_batch_kernels.cuh"

/* Launches `blocks` blocks of kiln_hashk::TPB threads on stream s: message i of a (fixed length
 * or offsets, device pointers set) to a.out + 16 i; a.outlen and a.domain are not read. a.out
 * must be 4-byte aligned. The launch's error. */
cudaError_t kiln_cuda_md5_batch_launch(const kiln_hashk::batch_args &a, unsigned blocks, cudaStream_t s);

#endif
