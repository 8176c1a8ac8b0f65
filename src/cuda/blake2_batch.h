/* BLAKE2b-512 and BLAKE2s-256 of a batch of messages on the GPU, launched by the hash batch code
 * (keccak_batch.cu's plumbing: batch_args, one thread per message, TPB threads a block). */
#ifndef KILN_CUDA_BLAKE2_BATCH_H
#define KILN_CUDA_BLAKE2_BATCH_H

#include <cuda_runtime.h>

#include "keccak_batch_kernels.cuh"

/* Launches `blocks` blocks of kiln_hashk::TPB threads on stream s: message i of a (fixed length or
 * offsets, device pointers set) to a.out + i * D, unkeyed sequential hashing with the default
 * digest, D = 64 bytes for KILN_BLAKE2_VARIANT_B, 32 for _S (src/prim/blake2.h); a.outlen and
 * a.domain are not read. a.out must be 8-byte aligned. cudaErrorInvalidValue for another variant,
 * else the launch's error. */
cudaError_t kiln_cuda_blake2_batch_launch(const kiln_hashk::batch_args &a, int variant, unsigned blocks, cudaStream_t s);

#endif
