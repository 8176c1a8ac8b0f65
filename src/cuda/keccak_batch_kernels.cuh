/* The Keccak batch kernels (one thread per message, the state in registers), shared by the files
 * that instantiate them: each rate's kernels compile in a file of their own so the build runs them
 * in parallel. keccak_batch.cu launches them through launch_keccak. */
#ifndef KILN_CUDA_KECCAK_BATCH_KERNELS_CUH
#define KILN_CUDA_KECCAK_BATCH_KERNELS_CUH

#include <cuda_runtime.h>

#include "hash_device.cuh"

namespace kiln_hashk {

constexpr int TPB = 256;

struct batch_args {
    const uint64_t *data; /* device copy, padded by 16 readable bytes */
    const uint64_t *offsets; /* NULL: fixed length */
    uint64_t base; /* offsets[0] */
    uint64_t msg_len;
    uint64_t n;
    uint8_t domain;
    unsigned outlen;
    uint8_t *out;
};

__device__ __forceinline__ bool message(const batch_args &a, uint64_t i, uint64_t *off, uint64_t *len)
{
    if (i >= a.n) return false;
    if (a.offsets) {
        uint64_t o = a.offsets[i];
        *off = o - a.base;
        *len = a.offsets[i + 1] - o;
    } else {
        *off = i * a.msg_len;
        *len = a.msg_len;
    }
    return true;
}

/* A zero Keccak state, in registers. */
__device__ __forceinline__ void zero_state(uint64_t s[25])
{
#pragma unroll
    for (int k = 0; k < 25; k++) s[k] = 0;
}

/* This thread's message i (its bytes [off, off + len) of a.data) and a zero state s; false past
 * the end of the batch. */
__device__ __forceinline__ bool start(const batch_args &a, uint64_t *i, uint64_t *off, uint64_t *len, uint64_t s[25])
{
    *i = (uint64_t)blockIdx.x * TPB + threadIdx.x;
    if (!message(a, *i, off, len)) return false;
    zero_state(s);
    return true;
}

template <int RATE>
__device__ __forceinline__ void squeeze_all(uint64_t s[25], uint8_t *o, unsigned outlen)
{
    bool aligned8 = (outlen & 7) == 0;
    for (;;) {
        unsigned take = outlen < RATE ? outlen : RATE;
        kiln_dev::squeeze_block<RATE>(s, o, take, aligned8);
        outlen -= take;
        if (outlen == 0) break;
        o += take;
        kiln_keccak_f1600(s);
    }
}

/* Every message shorter than RATE bytes: one padded block, one permutation. DIGEST != 0 is the
 * output size known at compile time (fixed-output functions). */
template <int RATE, int DIGEST>
__global__ void __launch_bounds__(TPB) keccak_short_kernel(const batch_args a)
{
    uint64_t i, off, len, s[25];
    if (!start(a, &i, &off, &len, s)) return;
    kiln_dev::absorb_last<RATE>(s, a.data, off, (unsigned)len, a.domain);
    kiln_keccak_f1600(s);
    if constexpr (DIGEST != 0) kiln_dev::squeeze_block<RATE>(s, a.out + i * DIGEST, DIGEST, (DIGEST & 7) == 0);
    else squeeze_all<RATE>(s, a.out + i * a.outlen, a.outlen);
}

template <int RATE>
__global__ void __launch_bounds__(TPB) keccak_long_kernel(const batch_args a)
{
    uint64_t i, off, len, s[25];
    if (!start(a, &i, &off, &len, s)) return;
    for (;;) {
        bool last = len < RATE;
        if (last) kiln_dev::absorb_last<RATE>(s, a.data, off, (unsigned)len, a.domain);
        else kiln_dev::absorb_block<RATE>(s, a.data, off);
        kiln_keccak_f1600(s);
        if (last) break;
        off += RATE;
        len -= RATE;
    }
    squeeze_all<RATE>(s, a.out + i * a.outlen, a.outlen);
}

/* Fixed-length batches of LEN-byte messages (LEN < RATE, a multiple of 16): the message length,
 * padding position and digest size are constants, so the first round's zero lanes and the last
 * round's unused lanes cost nothing. Messages and digests are 16-byte aligned in device memory. */
template <int RATE, int DIGEST, int LEN>
__global__ void __launch_bounds__(TPB) keccak_fixed_kernel(const batch_args a)
{
    static_assert(LEN < RATE && LEN % 16 == 0 && DIGEST % 16 == 0, "fixed kernel shape");
    uint64_t i = (uint64_t)blockIdx.x * TPB + threadIdx.x;
    if (i >= a.n) return;
    uint64_t s[25];
    zero_state(s);
    const ulonglong2 *m = (const ulonglong2 *)(a.data + i * (LEN / 8));
#pragma unroll
    for (int k = 0; k < LEN / 16; k++) {
        ulonglong2 v = __ldg(m + k);
        s[2 * k] = v.x;
        s[2 * k + 1] = v.y;
    }
    s[LEN / 8] = a.domain;
    s[RATE / 8 - 1] ^= 0x8000000000000000ull;
    kiln_keccak_f1600(s);
    ulonglong2 *o = (ulonglong2 *)(a.out + i * DIGEST);
#pragma unroll
    for (int k = 0; k < DIGEST / 16; k++) o[k] = make_ulonglong2(s[2 * k], s[2 * k + 1]);
}

/* SHA3-256 and Keccak-256 of fixed-length 32- or 64-byte messages (a 256-bit word, or two, as
 * Ethereum hashes them); cudaErrorNotSupported for other lengths. In keccak_batch_r136.cu. */
cudaError_t launch_keccak_fixed136(uint64_t len, const batch_args &a, unsigned blocks, cudaStream_t s);

/* Launches the kernel for a batch: DIGEST != 0 is the fixed output size of the rate's hash
 * functions; ANY_OUTLEN also provides the one-block kernel for other lengths (SHAKE). */
template <int RATE, int DIGEST, bool ANY_OUTLEN>
cudaError_t launch_keccak(bool all_short, const batch_args &a, unsigned blocks, cudaStream_t s)
{
    if (all_short && a.outlen == (unsigned)DIGEST) {
        keccak_short_kernel<RATE, DIGEST><<<blocks, TPB, 0, s>>>(a);
    } else if (all_short && ANY_OUTLEN) {
        if constexpr (ANY_OUTLEN) keccak_short_kernel<RATE, 0><<<blocks, TPB, 0, s>>>(a);
    } else {
        keccak_long_kernel<RATE><<<blocks, TPB, 0, s>>>(a);
    }
    return cudaGetLastError();
}

} // namespace kiln_hashk

/* Instantiated in keccak_batch_r*.cu. */
#define KILN_KECCAK_BATCH_RATES(X) X(144, 28, false) X(136, 32, true) X(104, 48, false) X(72, 64, false) X(168, 0, true)
#define KILN_KECCAK_BATCH_EXTERN(R, D, A)                                                                  \
    extern template cudaError_t kiln_hashk::launch_keccak<R, D, A>(bool, const kiln_hashk::batch_args &, \
                                                                   unsigned, cudaStream_t);
KILN_KECCAK_BATCH_RATES(KILN_KECCAK_BATCH_EXTERN)

#endif
