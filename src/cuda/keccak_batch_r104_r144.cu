/* Instantiates the Keccak batch kernels of rates 104 and 144 (see keccak_batch_kernels.cuh). */
#include "keccak_batch_kernels.cuh"

template cudaError_t kiln_hashk::launch_keccak<104, 48, false>(bool, const kiln_hashk::batch_args &, unsigned,
                                                         cudaStream_t);
template cudaError_t kiln_hashk::launch_keccak<144, 28, false>(bool, const kiln_hashk::batch_args &, unsigned,
                                                         cudaStream_t);
