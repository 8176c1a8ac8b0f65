/* KILN_HD marks functions compiled for both the host and the device, so the CPU backend, the
 * tests and the CUDA kernels run the very same code. */
#ifndef KILN_PRIM_HD_H
#define KILN_PRIM_HD_H

#if defined(__CUDACC__)
#define KILN_HD __host__ __device__ __forceinline__
#else
#define KILN_HD static inline
#endif

#endif
