/* Fixed-endian loads and stores; byte-wise so they are safe on any alignment. */
#ifndef KILN_PRIM_BYTES_H
#define KILN_PRIM_BYTES_H

#include "kiln_hd.h"

KILN_HD uint32_t kiln_load_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

KILN_HD uint32_t kiln_load_le32(const uint8_t *p)
{
    return ((uint32_t)p[3] << 24) | ((uint32_t)p[2] << 16) | ((uint32_t)p[1] << 8) | (uint32_t)p[0];
}

KILN_HD void kiln_store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

KILN_HD void kiln_store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* 64-bit big-endian words, as SHA-512 reads and writes them. */
KILN_HD uint64_t kiln_load_be64(const uint8_t *p)
{
    return ((uint64_t)kiln_load_be32(p) << 32) | kiln_load_be32(p + 4);
}

KILN_HD void kiln_store_be64(uint8_t *p, uint64_t v)
{
    kiln_store_be32(p, (uint32_t)(v >> 32));
    kiln_store_be32(p + 4, (uint32_t)v);
}

/* 32-bit left rotation by n in 1..31 (Salsa20, SHA-1, MD5): one funnel shift on an NVIDIA GPU. */
KILN_HD uint32_t kiln_rotl32(uint32_t x, int n)
{
#if defined(__CUDA_ARCH__)
    return __funnelshift_l(x, x, n);
#else
    return (x << n) | (x >> (32 - n));
#endif
}

/* One PRMT on an NVIDIA GPU; elsewhere the compiler's byte swap. */
KILN_HD uint32_t kiln_bswap32(uint32_t v)
{
#if defined(__CUDA_ARCH__)
    return __byte_perm(v, 0, 0x0123);
#elif defined(KILN_OPENCL_C) && defined(KILN_OCL_NV)
    /* NVIDIA's OpenCL compiler (KILN_OCL_NV): the same PRMT in inline PTX; written with shifts it
     * stays four shifts and masks */
    uint32_t r;
    __asm__ volatile("prmt.b32 %0, %1, 0, 0x0123;" : "=r"(r) : "r"(v));
    return r;
#else
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
#endif
}

#endif
