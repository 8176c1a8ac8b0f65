/* Host-side Keccak-f[1600] implementations, picked once at run time: the portable code from
 * src/prim/keccak.h, or AVX-512 when the CPU has it. */
#ifndef KILN_HASH_KECCAK_HOST_H
#define KILN_HASH_KECCAK_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "../core/cpu_dispatch.h"

typedef struct kiln_keccak_host_impl {
    const char *name;
    void (*permute)(uint64_t s[25]);
    /* XORs n consecutive rate-byte blocks into s, permuting after each. */
    void (*absorb)(uint64_t s[25], const uint8_t *blocks, size_t n, unsigned rate);
} kiln_keccak_host_impl;

const kiln_keccak_host_impl *kiln_keccak_host(void);
const kiln_keccak_host_impl *kiln_keccak_host_portable(void);

/* AVX-512 (keccak_zmm.c); only call when kiln_cpu()->avx512. */
#if defined(KILN_X86_KERNELS)
void kiln_keccak_f1600_zmm(uint64_t s[25]);
void kiln_keccak_absorb_zmm(uint64_t s[25], const uint8_t *blocks, size_t n, unsigned rate);
#endif

#endif
