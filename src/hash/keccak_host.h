/* Host-side Keccak-f[1600] implementations, picked once at run time: the portable code from
 * src/prim/keccak.h, AVX2 (with BMI) or AVX-512 when the CPU has it. */
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

/* Copies the first cap usable implementations, fastest first (the same ranking kiln_keccak_host
 * takes the first of), to out; returns how many. Tests and benchmarks force a kernel by name
 * through it. */
int kiln_keccak_host_impls(kiln_keccak_host_impl *out, int cap);

/* Sponges over several messages of one length at once, lanes of them a call: the digest (outlen
 * <= rate bytes) of each msg[k] (len bytes) into out[k]. Ranked like the permutations, with a
 * self-test against the one-state sponge. */
typedef struct kiln_keccak_lanes_impl {
    const char *name;
    unsigned lanes;
    void (*hash)(const uint8_t *const *msg, size_t len, unsigned rate, uint8_t domain, uint8_t *const *out,
                 size_t outlen);
} kiln_keccak_lanes_impl;

const kiln_keccak_lanes_impl *kiln_keccak_lanes(void);
int kiln_keccak_lanes_impls(kiln_keccak_lanes_impl *out, int cap);

/* n messages of msg_len bytes back to back, their outlen-byte digests (outlen <= rate) back to back:
 * whole groups through the chosen lanes, the rest one at a time. */
void kiln_keccak_batch(unsigned rate, uint8_t domain, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out,
                       size_t outlen);

/* AVX-512 (keccak_zmm.c); only call when kiln_cpu()->avx512. */
#if defined(KILN_X86_KERNELS)
void kiln_keccak_f1600_zmm(uint64_t s[25]);
void kiln_keccak_absorb_zmm(uint64_t s[25], const uint8_t *blocks, size_t n, unsigned rate);
/* AVX2 + BMI1/BMI2 (keccak_avx2.c); only call when kiln_cpu()->avx2 and ->bmi. */
void kiln_keccak_f1600_avx2(uint64_t s[25]);
void kiln_keccak_absorb_avx2(uint64_t s[25], const uint8_t *blocks, size_t n, unsigned rate);
/* four messages at once (keccak4_avx2.c); only call when kiln_cpu()->avx2. */
void kiln_keccak_x4_avx2(const uint8_t *const *msg, size_t len, unsigned rate, uint8_t domain, uint8_t *const *out,
                         size_t outlen);
/* eight messages at once (keccak8_avx512.c); only call when kiln_cpu()->avx512. */
void kiln_keccak_x8_avx512(const uint8_t *const *msg, size_t len, unsigned rate, uint8_t domain, uint8_t *const *out,
                           size_t outlen);
#endif

#endif
