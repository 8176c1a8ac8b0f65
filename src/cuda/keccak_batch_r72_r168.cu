/* Instantiates the Keccak batch kernels of rates 72 and 168 (see keccak_batch_kernels.cuh). */
#include "keccak_batch_kernels.cuh"

template cudaError_t kiln_hashk::launch_keccak<72, 64, false>(bool, const kiln_hashk::batch_args &, unsigned,
                                                         cudaStream_t);
template cudaError_t kiln_hashk::launch_keccak<168, 0, true>(bool, const kiln_hashk::batch_args &, unsigned,
                                                         cudaStream_t);
