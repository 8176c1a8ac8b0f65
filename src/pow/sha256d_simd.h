/* SIMD and SHA-extension lane kernels for the sha256d search (see sha256d_cpu.h for the
 * signature). Each is built on x86-64 only (KILN_X86_KERNELS), with its own instruction-set flags,
 * and called only when the CPU reports it. */
#ifndef KILN_POW_SHA256D_SIMD_H
#define KILN_POW_SHA256D_SIMD_H

#include "../core/cpu_dispatch.h"
#include "sha256d_cpu.h"

#if defined(KILN_X86_KERNELS)
uint64_t kiln_sha256d_lanes_avx512(const kiln_sha256d_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                   uint32_t cap);
uint64_t kiln_sha256d_lanes_avx2(const kiln_sha256d_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                 uint32_t cap);
uint64_t kiln_sha256d_lanes_shani(const kiln_sha256d_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                  uint32_t cap);
#endif

#endif
