/* Instantiates the Keccak batch kernels of rate 136 (see keccak_batch_kernels.cuh). */
#include "keccak_batch_kernels.cuh"

template cudaError_t kiln_hashk::launch_keccak<136, 32, true>(bool, const kiln_hashk::batch_args &, unsigned,
                                                         cudaStream_t);
