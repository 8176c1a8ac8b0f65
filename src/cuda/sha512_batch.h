/* SHA-512, SHA-384 and SHA-512/256 of a batch of messages on the GPU, launched by the hash batch
 * code (keccak_batch.cu's plumbing: batch_args, one thread per message, TPB threads a block). */
#ifndef KILN_CUDA_SHA512_BATCH_H
#define KILN_CUDA_SHA512_BATCH_H

#include <cuda_runtime.h>

#include "keccak_batch_kernels.cuh"

/* Launches `blocks` blocks of kiln_hashk::TPB threads on stream s: message i of a (fixed length
 * or offsets, device pointers set) to a.out + i * D, D = 64, 48 or 32 bytes for variant
 * KILN_SHA512_VARIANT_512, _384 or _512_256 (src/prim/sha512.h); a.outlen and a.domain are not
 * read. a.out must be 8-byte aligned. cudaErrorInvalidValue for another variant, else the
 * launch's error. */
cudaError_t kiln_cuda_sha512_batch_launch(const kiln_hashk::batch_args &a, int variant, unsigned blocks, cudaStream_t s);

#endif
