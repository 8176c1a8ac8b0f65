/* Instantiates the Keccak batch kernels of rate 136, and the fixed-length ones (see
 * keccak_batch_kernels.cuh). */
#include "keccak_batch_kernels.cuh"

template cudaError_t kiln_hashk::launch_keccak<136, 32, true>(bool, const kiln_hashk::batch_args &, unsigned,
                                                         cudaStream_t);

cudaError_t kiln_hashk::launch_keccak_fixed136(uint64_t len, const batch_args &a, unsigned blocks, cudaStream_t s)
{
    if (len == 32) keccak_fixed_kernel<136, 32, 32><<<blocks, TPB, 0, s>>>(a);
    else if (len == 64) keccak_fixed_kernel<136, 32, 64><<<blocks, TPB, 0, s>>>(a);
    else return cudaErrorNotSupported;
    return cudaGetLastError();
}
