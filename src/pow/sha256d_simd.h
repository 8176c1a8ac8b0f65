/* SIMD and SHA-extension lane kernels for the sha256d search (see sha256d_cpu.h for the
 * signature). Each is compiled only when the compiler can target it, and called only when the
 * CPU reports it. */
#ifndef KILN_POW_SHA256D_SIMD_H
#define KILN_POW_SHA256D_SIMD_H

#include "sha256d_cpu.h"

#if defined(KILN_HAVE_AVX512)
uint64_t kiln_sha256d_lanes_avx512(const kiln_sha256d_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                   uint32_t cap);
#endif
#if defined(KILN_HAVE_AVX2)
uint64_t kiln_sha256d_lanes_avx2(const kiln_sha256d_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                 uint32_t cap);
#endif
#if defined(KILN_HAVE_SHANI)
uint64_t kiln_sha256d_lanes_shani(const kiln_sha256d_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                  uint32_t cap);
#endif

#endif
