/* KILN_HD marks functions compiled for both the host and the device, so the CPU backend, the
 * tests and the GPU kernels (CUDA, and OpenCL C through src/opencl's embedded sources) run the
 * very same code. KILN_TABLE declares a constant table every compilation reads: program-scope
 * data must live in OpenCL's __constant address space, the host keeps it file-local. The
 * fixed-width integer types come from here, so each primitive's header includes only this. */
#ifndef KILN_PRIM_HD_H
#define KILN_PRIM_HD_H

/* OpenCL C compilers define one or both (__OPENCL_C_VERSION__ from 1.2 on, __OPENCL_VERSION__
 * from the platform): either is OpenCL C. */
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define KILN_OPENCL_C 1
#endif

#if defined(KILN_OPENCL_C)
/* OpenCL C has no <stdint.h>: its fixed-width types under the names the primitives use (size_t
 * is built in). Pointer parameters are private memory (OpenCL C 1.2): kernels copy their items in
 * and out. */
typedef uchar uint8_t;
typedef uint uint32_t;
typedef int int32_t;
typedef ulong uint64_t;
typedef long int64_t;
#define UINT64_C(c) c##UL /* <stdint.h>'s constant macros, which the primitives use */
#define UINT32_C(c) c##U
#define KILN_HD static inline
#define KILN_TABLE __constant
/* Loops over a block's words: unrolled, their arrays become registers. nvcc unrolls them on its
 * own, so elsewhere this is empty. */
#define KILN_OCL_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#include <stddef.h>
#include <stdint.h>
#define KILN_HD __host__ __device__ __forceinline__
#define KILN_TABLE static const
#else
#include <stddef.h>
#include <stdint.h>
#define KILN_HD static inline
#define KILN_TABLE static const
#endif

#ifndef KILN_OCL_UNROLL
#define KILN_OCL_UNROLL
#endif

/* KILN_HD, and inlined on the host too: for helpers written once over parameters (a field, a width)
 * that only fold to fast code once inlined into a caller passing constants. Device compilers inline
 * them anyway; GCC and Clang would otherwise keep a generic copy of each. */
#if !defined(KILN_OPENCL_C) && !defined(__CUDACC__) && defined(__GNUC__)
#define KILN_HD_INLINE static inline __attribute__((always_inline))
#else
#define KILN_HD_INLINE KILN_HD
#endif

#endif
