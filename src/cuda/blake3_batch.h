/* BLAKE3 of a batch of messages on the GPU, launched by the hash batch code (keccak_batch.cu's
 * plumbing: batch_args, one thread per message, TPB threads a block). */
#ifndef KILN_CUDA_BLAKE3_BATCH_H
#define KILN_CUDA_BLAKE3_BATCH_H

#include <cuda_runtime.h>

#include "keccak_batch_kernels.cuh"

/* Launches `blocks` blocks of kiln_hashk::TPB threads on stream s: BLAKE3 (unkeyed) of message i
 * of a (fixed length or offsets, device pointers set), a.outlen bytes (any length >= 1) to
 * a.out + i * a.outlen; a.domain is not read. The launch's error. */
cudaError_t kiln_cuda_blake3_batch_launch(const kiln_hashk::batch_args &a, unsigned blocks, cudaStream_t s);

#endif
