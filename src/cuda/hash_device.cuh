/* Device helpers of the hash batch kernels: reading message bytes at any offset with aligned
 * 8-byte loads, and absorbing/squeezing a Keccak block with constant lane indices only, so the
 * state stays in registers whatever the message length. */
#ifndef KILN_CUDA_HASH_DEVICE_CUH
#define KILN_CUDA_HASH_DEVICE_CUH

#include <stdint.h>

#include "../prim/keccak.h"

namespace kiln_dev {

/* 8 bytes at byte offset off, little-endian. The buffer must stay readable 8 bytes past the last
 * byte used (the host pads it), since an unaligned offset reads two aligned words. */
__device__ __forceinline__ uint64_t load8(const uint64_t *__restrict__ d, uint64_t off)
{
    uint64_t w = off >> 3;
    unsigned sh = (unsigned)(off & 7) * 8;
    uint64_t lo = __ldg(d + w);
    if (sh == 0) return lo;
    uint64_t hi = __ldg(d + w + 1);
    return (lo >> sh) | (hi << (64 - sh));
}

/* The low n bytes of v (n in 0..8). */
__device__ __forceinline__ uint64_t low_bytes(uint64_t v, unsigned n)
{
    return n >= 8 ? v : v & ((1ull << (8 * n)) - 1);
}

/* XORs one whole rate block at off into the state. */
template <int RATE>
__device__ __forceinline__ void absorb_block(uint64_t s[25], const uint64_t *__restrict__ d, uint64_t off)
{
#pragma unroll
    for (int i = 0; i < RATE / 8; i++) s[i] ^= load8(d, off + 8 * i);
}

/* XORs the last rem (< RATE) message bytes at off and the padding: domain byte after the
 * message, 0x80 in the block's last byte. */
template <int RATE>
__device__ __forceinline__ void absorb_last(uint64_t s[25], const uint64_t *__restrict__ d, uint64_t off,
                                            unsigned rem, uint8_t domain)
{
    unsigned full = rem >> 3, part = rem & 7;
#pragma unroll
    for (int i = 0; i < RATE / 8; i++) {
        if ((unsigned)i < full) {
            s[i] ^= load8(d, off + 8 * i);
        } else if ((unsigned)i == full) {
            uint64_t v = part ? low_bytes(load8(d, off + 8 * i), part) : 0;
            s[i] ^= v ^ ((uint64_t)domain << (8 * part));
        }
    }
    s[RATE / 8 - 1] ^= 0x8000000000000000ull;
}

/* Writes the first take (<= RATE) bytes of the state to o; o is 8-byte aligned when aligned8. */
template <int RATE>
__device__ __forceinline__ void squeeze_block(const uint64_t s[25], uint8_t *__restrict__ o, unsigned take,
                                              bool aligned8)
{
#pragma unroll
    for (int i = 0; i < RATE / 8; i++) {
        unsigned b = 8 * i;
        if (b + 8 <= take && aligned8) {
            *(uint64_t *)(o + b) = s[i];
        } else if (b < take) {
#pragma unroll
            for (int j = 0; j < 8; j++)
                if (b + j < take) o[b + j] = (uint8_t)(s[i] >> (8 * j));
        }
    }
}

/* Big-endian 32-bit word of the SHA-256-padded message at byte position p (a multiple of 4) of a
 * message of len bytes at off, whose padded length is padded. */
__device__ __forceinline__ uint32_t sha256_word(const uint64_t *__restrict__ d, uint64_t off, uint64_t len,
                                                uint64_t padded, uint64_t p)
{
    if (p + 4 <= len) return __byte_perm((uint32_t)load8(d, off + p), 0, 0x0123);
    if (p >= padded - 8) {
        uint64_t bits = len * 8;
        return p == padded - 8 ? (uint32_t)(bits >> 32) : (uint32_t)bits;
    }
    if (p > len) return 0;
    /* the word holding the end of the message and the 0x80 marker */
    unsigned have = (unsigned)(len - p);
    uint32_t v = have ? (uint32_t)low_bytes(load8(d, off + p), have) : 0;
    v |= 0x80u << (8 * have);
    return __byte_perm(v, 0, 0x0123);
}

} // namespace kiln_dev

#endif
