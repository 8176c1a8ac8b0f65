/* What every digest batch kernel reads its messages with, whichever .cl file it is in: message i
 * of the batch (data[offsets[i] - base, offsets[i + 1] - base) with offsets, else
 * data[i * msg_len, ...)) and its bytes as whole words. A family's kernels take the six arguments
 * data, offsets, with_offsets, base, msg_len, n first (src/opencl/ocl_hash_family.h sets them). */
#ifndef KILN_OCL_HASH_MESSAGE_H
#define KILN_OCL_HASH_MESSAGE_H

#include "../../prim/bytes.h"

static void kiln_ocl_message(__global const ulong *offsets, int with_offsets, ulong base, ulong msg_len, ulong i,
                             ulong *off, ulong *len)
{
    if (with_offsets) {
        *off = offsets[i] - base;
        *len = offsets[i + 1] - offsets[i];
    } else {
        *off = i * msg_len;
        *len = msg_len;
    }
}

static void kiln_ocl_copy_in(uchar *dst, __global const uchar *src, uint n)
{
    for (uint k = 0; k < n; k++) dst[k] = src[k];
}

/* Message bytes as whole words, as the CUDA kernels read them (src/cuda/hash_device.cuh): d is the
 * batch as 8-byte words, and the host pads it with 16 readable bytes, so the 8 bytes at any offset
 * are one aligned load, or two and a funnel of shifts where the offset is not a multiple of 8. No
 * byte loads, and no byte-indexed private array (which would live in local memory). */
static inline ulong kiln_ocl_load8(__global const ulong *d, ulong off)
{
    const ulong w = off >> 3;
    const uint sh = (uint)(off & 7) * 8;
    const ulong lo = d[w];
    if (sh == 0) return lo;
    return (lo >> sh) | (d[w + 1] << (64 - sh));
}

/* The low n bytes of v (n in 0..8). */
static inline ulong kiln_ocl_low_bytes(ulong v, uint n)
{
    return n >= 8 ? v : v & (((ulong)1 << (8 * n)) - 1);
}

static inline ulong kiln_ocl_bswap64(ulong v)
{
    return (ulong)kiln_bswap32((uint)v) << 32 | kiln_bswap32((uint)(v >> 32));
}

#endif
