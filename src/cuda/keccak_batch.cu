/* Batches of messages on the GPU: one thread per message, the Keccak state in registers (the
 * unrolled permutation of src/prim/keccak.h; kernels in keccak_batch_kernels.cuh). Messages
 * shorter than one block take a kernel with a single permutation and, for the fixed-output
 * functions, the digest size as a constant, so the last round computes only the lanes that are
 * written. The plumbing below (copies, the staged ring, device memory, the bench) is every
 * family's: each family's kernels and their launch are in its own file (sha256_batch.cu,
 * sha512_batch.cu, ...), found through KILN_HASH_GPU_FAMILIES (hash_family.cuh); Keccak's are
 * here. */
#include <cub/cub.cuh>
#include <stdlib.h>

#include "cuda_state.h"
#include "device_memory.cuh"
#include "stage.h"
#include "event_timer.cuh"
#include "hash_family.cuh"
#include "keccak_batch_kernels.cuh"

namespace {

using namespace kiln_hashk;

/* The Keccak rates with a batch kernel, one row each (KILN_KECCAK_BATCH_RATES). */
typedef cudaError_t (*rate_launch)(bool, const batch_args &, unsigned, cudaStream_t);
struct rate_row {
    unsigned rate;
    rate_launch launch;
};
#define KILN_KECCAK_BATCH_ROW(R, D, A) {R, launch_keccak<R, D, A>},
const rate_row kRates[] = {KILN_KECCAK_BATCH_RATES(KILN_KECCAK_BATCH_ROW)};
#undef KILN_KECCAK_BATCH_ROW

rate_launch find_rate(unsigned rate)
{
    for (const rate_row &r : kRates)
        if (r.rate == rate) return r.launch;
    return nullptr;
}

/* Keccak's batch kernels: the 32- and 64-byte messages of SHA3-256 and Keccak-256 (a Merkle
 * level's pairs) through the kernel whose length is a constant, else the rate's kernel, with a
 * single permutation when every message is shorter than the rate. */
cudaError_t keccak_launch(const kiln_gpu_hash_params *p, const batch_args &a, uint64_t max_len, unsigned blocks,
                          cudaStream_t s)
{
    if (!a.offsets && p->rate == 136 && p->outlen == 32 && (a.msg_len == 32 || a.msg_len == 64))
        return launch_keccak_fixed136(a.msg_len, a, blocks, s);
    rate_launch l = find_rate(p->rate);
    return l ? l(max_len < p->rate, a, blocks, s) : cudaErrorInvalidValue;
}

bool keccak_check(const kiln_gpu_hash_params *p)
{
    return find_rate(p->rate) && p->outlen > 0 && p->outlen <= 0xffffffffu;
}

} // namespace

const kiln_cuda_hash_family kiln_cuda_hash_keccak = {keccak_check, keccak_launch};

namespace {

/* The families of KILN_HASH_GPU_FAMILIES, by kiln_hash_gpu_family value (NONE has none). */
#define KILN_CUDA_HASH_FAMILY_ENTRY(algo, ID, name) &kiln_cuda_hash_##name,
const kiln_cuda_hash_family *const kFamilies[] = {nullptr, KILN_HASH_GPU_FAMILIES(KILN_CUDA_HASH_FAMILY_ENTRY)};
#undef KILN_CUDA_HASH_FAMILY_ENTRY
static_assert(sizeof kFamilies / sizeof kFamilies[0] == KILN_HASH_GPU_FAMILY_END, "a family without its row");

const kiln_cuda_hash_family *family_of(const kiln_gpu_hash_params *p)
{
    return p->family > KILN_HASH_GPU_NONE && p->family < KILN_HASH_GPU_FAMILY_END ? kFamilies[p->family] : nullptr;
}

/* Launches the kernel for p on a (device pointers already set; p checked). max_len: the longest message. */
cudaError_t launch(const kiln_gpu_hash_params *p, const batch_args &a, uint64_t max_len, cudaStream_t s)
{
    unsigned blocks = (unsigned)((a.n + TPB - 1) / TPB);
    const kiln_cuda_hash_family *f = family_of(p);
    return f ? f->launch(p, a, max_len, blocks, s) : cudaErrorInvalidValue;
}

/* Device buffers of one batch, freed on every path out. */
struct buffers {
    uint64_t *data = nullptr, *offsets = nullptr;
    uint8_t *out = nullptr;
    ~buffers()
    {
        cudaFree(data);
        cudaFree(offsets);
        cudaFree(out);
    }
};

kiln_status check_params(kiln_gpu *st, const kiln_gpu_hash_params *p)
{
    const kiln_cuda_hash_family *f = family_of(p);
    bool ok = f && f->check(p);
    if (!ok)
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "no GPU kernel for hash family %d (rate %u) with %zu output bytes",
                         (int)p->family, p->rate, p->outlen);
    return KILN_OK;
}

/* Fills a device buffer with pseudo-random bytes (splitmix64 of the word index). */
__global__ void fill_random(uint64_t *d, uint64_t words, uint64_t seed)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t z = (i + seed) * 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        d[i] = z ^ (z >> 31);
    }
}

__global__ void fill_offsets(uint64_t *o, uint64_t n, uint64_t len)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += (uint64_t)gridDim.x * blockDim.x)
        o[i] = i * len;
}

} // namespace

namespace {

/* A batch whose messages come through the staged ring: the messages whose bytes have landed are
 * launched as each chunk lands, from a multiple of 8 (so a launch's first message, at a fixed
 * length, and its first digest stay 8-byte aligned) and with 16 bytes of margin past their end
 * (the kernels' padded reads) until the last chunk. */
struct staged_batch {
    const kiln_gpu_hash_params *p;
    batch_args a; /* the whole batch */
    const uint64_t *h_offsets; /* the caller's, absolute; NULL: fixed length */
    uint64_t data_len, max_len, next; /* next: the first message not launched */
    cudaStream_t s;
};

uint64_t msg_end(const staged_batch *b, uint64_t i)
{
    return b->h_offsets ? b->h_offsets[i + 1] - b->a.base : (i + 1) * b->a.msg_len;
}

kiln_status launch_landed_in(kiln_gpu *st, staged_batch *b, size_t end)
{
    uint64_t k = b->a.n;
    if (end < b->data_len) { /* the most messages [next, k) wholly landed, with the margin */
        uint64_t lo = b->next, hi = b->a.n;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo + 1) / 2;
            if (msg_end(b, mid - 1) + 16 <= end) lo = mid;
            else hi = mid - 1;
        }
        k = lo & ~(uint64_t)7;
    }
    if (k <= b->next) return KILN_OK;
    batch_args sa = b->a;
    sa.n = k - b->next;
    sa.out = b->a.out + b->next * b->p->outlen;
    if (sa.offsets) sa.offsets += b->next;
    else sa.data += b->next * b->a.msg_len / 8;
    KILN_CUDA_TRY(launch(b->p, sa, b->max_len, b->s), "hash batch kernel launch");
    b->next = k;
    return KILN_OK;
}

struct landed_ctx {
    kiln_gpu *st;
    staged_batch *b;
};

kiln_status launch_landed(void *user, size_t end)
{
    landed_ctx *c = (landed_ctx *)user;
    return launch_landed_in(c->st, c->b, end);
}

/* Batches of at least this many bytes of messages (or digests) go through the staged ring. */
constexpr uint64_t STAGE_MIN_BYTES = (uint64_t)8 << 20;

/* The copies and launches of one batch (buffers allocated); leaves work in flight. */
kiln_status enqueue_batch(kiln_gpu *st, const kiln_gpu_hash_params *p, const uint8_t *data, const uint64_t *offsets,
                          uint64_t data_len, uint64_t max_len, const batch_args &a, uint8_t *out, bool stage_in,
                          bool stage_out)
{
    const size_t n = a.n;
    KILN_CUDA_TRY(cudaEventRecord(st->ev_start, st->stream), "cudaEventRecord");
    if (stage_in) {
        kiln_status s = KILN_OK;
        if (offsets) s = kiln_cuda_stage_in(st, (uint8_t *)a.offsets, (const uint8_t *)offsets, (n + 1) * sizeof(uint64_t),
                                            KILN_CUDA_STAGE_BYTES, NULL, NULL, NULL);
        staged_batch b = {p, a, offsets, data_len, max_len, 0, st->stream};
        landed_ctx c = {st, &b};
        if (s == KILN_OK)
            s = kiln_cuda_stage_in(st, (uint8_t *)a.data, data, data_len, KILN_CUDA_STAGE_BYTES, NULL, launch_landed, &c);
        if (s != KILN_OK) return s;
    } else {
        if (data_len)
            KILN_CUDA_TRY(cudaMemcpyAsync((void *)a.data, data, data_len, cudaMemcpyHostToDevice, st->stream), "cudaMemcpyAsync");
        if (offsets)
            KILN_CUDA_TRY(cudaMemcpyAsync((void *)a.offsets, offsets, (n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice,
                                          st->stream),
                          "cudaMemcpyAsync");
        KILN_CUDA_TRY(launch(p, a, max_len, st->stream), "hash batch kernel launch");
    }
    KILN_CUDA_TRY(cudaEventRecord(st->ev_stop, st->stream), "cudaEventRecord");
    if (stage_out) return kiln_cuda_stage_out(st, out, a.out, n * p->outlen);
    KILN_CUDA_TRY(cudaMemcpyAsync(out, a.out, n * p->outlen, cudaMemcpyDeviceToHost, st->stream), "cudaMemcpyAsync");
    return KILN_OK;
}

} // namespace

kiln_status kiln_cuda_hash_batch(kiln_gpu *st, const kiln_gpu_hash_params *p, const uint8_t *data,
                                            const uint64_t *offsets, size_t msg_len, size_t n, uint8_t *out,
                                            float *gpu_ms)
{
    *gpu_ms = 0;
    kiln_status s = check_params(st, p);
    if (s != KILN_OK) return s;
    if (n == 0) return KILN_OK;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    uint64_t base = offsets ? offsets[0] : 0;
    uint64_t data_len = offsets ? offsets[n] - base : (uint64_t)msg_len * n, max_len = msg_len;
    if (offsets) {
        max_len = 0;
        for (size_t i = 0; i < n; i++)
            if (offsets[i + 1] - offsets[i] > max_len) max_len = offsets[i + 1] - offsets[i];
    }
    buffers b;
    size_t padded = (size_t)(data_len + 16 + 7) / 8 * 8;
    KILN_CUDA_TRY(cudaMalloc(&b.data, padded), "cudaMalloc (messages)");
    /* the kernels' reads past the last message land in these bytes (masked, but defined) */
    KILN_CUDA_TRY(cudaMemsetAsync((uint8_t *)b.data + data_len, 0, padded - data_len, st->stream), "cudaMemsetAsync");
    if (offsets) KILN_CUDA_TRY(cudaMalloc(&b.offsets, (n + 1) * sizeof(uint64_t)), "cudaMalloc (offsets)");
    KILN_CUDA_TRY(cudaMalloc(&b.out, n * p->outlen), "cudaMalloc (digests)");
    const bool stage_in = data_len >= STAGE_MIN_BYTES, stage_out = (uint64_t)n * p->outlen >= STAGE_MIN_BYTES;
    if ((stage_in || stage_out) && (s = kiln_cuda_stage_open(st, KILN_CUDA_STAGE_BYTES)) != KILN_OK) return s;
    batch_args a = {b.data, b.offsets, base, msg_len, n, p->domain, (unsigned)p->outlen, b.out};
    s = enqueue_batch(st, p, data, offsets, data_len, max_len, a, out, stage_in, stage_out);
    /* nothing stays in flight before the buffers are freed, whatever happened */
    s = kiln_cuda_stage_finish(st, s, "hash batch kernel");
    if (s != KILN_OK) return s;
    KILN_CUDA_TRY(cudaEventElapsedTime(gpu_ms, st->ev_start, st->ev_stop), "cudaEventElapsedTime");
    return KILN_OK;
}

kiln_status kiln_cuda_hash_bench(kiln_gpu *st, const kiln_gpu_hash_params *p, size_t msg_len,
                                            size_t n, int with_offsets, int reps, float *median_ms,
                                            uint8_t *sample_msgs, uint8_t *sample_out, size_t nsample)
{
    *median_ms = 0;
    kiln_status s = check_params(st, p);
    if (s != KILN_OK) return s;
    if (n == 0 || reps < 1 || reps > 1000 || nsample > n) return kiln_fail(st->ctx, KILN_ERR_INPUT, "bad benchmark size");
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    buffers b;
    uint64_t data_len = (uint64_t)msg_len * n, words = (data_len + 16 + 7) / 8;
    KILN_CUDA_TRY(cudaMalloc(&b.data, words * 8), "cudaMalloc (messages)");
    KILN_CUDA_TRY(cudaMalloc(&b.out, n * p->outlen), "cudaMalloc (digests)");
    fill_random<<<1024, 256, 0, st->stream>>>(b.data, words, 0x6b696c6eull);
    KILN_CUDA_TRY(cudaGetLastError(), "fill kernel launch");
    if (with_offsets) {
        KILN_CUDA_TRY(cudaMalloc(&b.offsets, (n + 1) * sizeof(uint64_t)), "cudaMalloc (offsets)");
        fill_offsets<<<1024, 256, 0, st->stream>>>(b.offsets, n, msg_len);
        KILN_CUDA_TRY(cudaGetLastError(), "fill kernel launch");
    }
    batch_args a = {b.data, b.offsets, 0, msg_len, n, p->domain, (unsigned)p->outlen, b.out};
    KILN_CUDA_TRY(launch(p, a, msg_len, st->stream), "hash kernel launch"); /* warm-up */
    s = kiln_cuda_time_median(
        st, reps, "hash benchmark", median_ms, [&] { return launch(p, a, msg_len, st->stream); },
        [](int) { return cudaSuccess; });
    if (s != KILN_OK) return s;
    for (size_t k = 0; k < nsample; k++) {
        size_t i = k * (n / nsample);
        KILN_CUDA_TRY(cudaMemcpy(sample_msgs + k * msg_len, (const uint8_t *)b.data + i * msg_len, msg_len,
                                 cudaMemcpyDeviceToHost),
                      "cudaMemcpy");
        KILN_CUDA_TRY(cudaMemcpy(sample_out + k * p->outlen, b.out + i * p->outlen, p->outlen, cudaMemcpyDeviceToHost),
                      "cudaMemcpy");
    }
    return KILN_OK;
}

/* ---- device memory in, device memory out (docs/DEVICE_MEMORY.md) */
namespace {

/* offsets clamped to the data: out[i] = min(in[i], limit); the max scan after it makes them
 * non-decreasing, so a bad table gives wrong digests, never a read outside the data */
__global__ void clamp_offsets(const uint64_t *__restrict__ in, uint64_t count, uint64_t limit, uint64_t *__restrict__ out)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (uint64_t)gridDim.x * blockDim.x)
        out[i] = in[i] < limit ? in[i] : limit;
}

struct max_op {
    __device__ __forceinline__ uint64_t operator()(uint64_t a, uint64_t b) const { return a > b ? a : b; }
};

constexpr uint64_t DEVICE_LAUNCH_MAX = (uint64_t)1 << 30; /* messages a launch, a multiple of 8 */

/* kiln's temporaries of one device batch, freed in the stream's order on every path out */
struct device_temps {
    cudaStream_t s;
    void *data = nullptr, *offs = nullptr, *scan = nullptr, *out = nullptr;
    ~device_temps()
    {
        kiln_cuda_free_async(data, s);
        kiln_cuda_free_async(offs, s);
        kiln_cuda_free_async(scan, s);
        kiln_cuda_free_async(out, s);
    }
};

} // namespace

kiln_status kiln_cuda_hash_device(kiln_gpu *st, const kiln_gpu_hash_params *p, const void *data, size_t data_len,
                                  const uint64_t *offsets, size_t msg_len, size_t n, void *out, void *stream)
{
    const cudaStream_t s = (cudaStream_t)stream;
    kiln_status r = check_params(st, p);
    if (r != KILN_OK || n == 0) return r;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    if (!offsets) data_len = msg_len * n;
    if ((r = kiln_cuda_check_device_ptr(st, data, data_len, "the messages")) != KILN_OK) return r;
    if (offsets && (r = kiln_cuda_check_device_ptr(st, offsets, (n + 1) * 8, "the offsets")) != KILN_OK) return r;
    if ((r = kiln_cuda_check_device_ptr(st, out, n * p->outlen, "the digests")) != KILN_OK) return r;
    device_temps t;
    t.s = s;
    /* the messages into an 8-byte aligned copy with 16 readable bytes past the end (the kernels'
     * word reads), device to device on the caller's stream */
    const size_t padded = (data_len + 16 + 7) / 8 * 8;
    if ((r = kiln_cuda_alloc_async(st, &t.data, padded, s, "the messages' aligned copy")) != KILN_OK) return r;
    if (data_len) KILN_CUDA_TRY(cudaMemcpyAsync(t.data, data, data_len, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync (messages)");
    KILN_CUDA_TRY(cudaMemsetAsync((uint8_t *)t.data + data_len, 0, padded - data_len, s), "cudaMemsetAsync");
    uint64_t *offs = nullptr;
    if (offsets) {
        const size_t m = n + 1;
        if ((r = kiln_cuda_alloc_async(st, &t.offs, 2 * m * sizeof(uint64_t), s, "the offsets' checked copy")) != KILN_OK) return r;
        uint64_t *clamped = (uint64_t *)t.offs;
        offs = clamped + m;
        clamp_offsets<<<1024, 256, 0, s>>>(offsets, m, data_len, clamped);
        KILN_CUDA_TRY(cudaGetLastError(), "offsets kernel launch");
        size_t scan_bytes = 0;
        KILN_CUDA_TRY(cub::DeviceScan::InclusiveScan(nullptr, scan_bytes, clamped, offs, max_op(), (int64_t)m, s), "cub scan");
        if ((r = kiln_cuda_alloc_async(st, &t.scan, scan_bytes, s, "the offsets' scan")) != KILN_OK) return r;
        KILN_CUDA_TRY(cub::DeviceScan::InclusiveScan(t.scan, scan_bytes, clamped, offs, max_op(), (int64_t)m, s), "cub scan");
    }
    /* digests straight into the caller's buffer when it is 8-byte aligned (the kernels' word stores) */
    uint8_t *dst = (uint8_t *)out;
    if ((uintptr_t)out & 7) {
        if ((r = kiln_cuda_alloc_async(st, &t.out, n * p->outlen, s, "the digests' aligned copy")) != KILN_OK) return r;
        dst = (uint8_t *)t.out;
    }
    /* offsets are relative to data, so base 0; the longest message is not known on the host, so
     * the kernels for any length */
    for (uint64_t first = 0; first < n; first += DEVICE_LAUNCH_MAX) {
        const uint64_t count = n - first < DEVICE_LAUNCH_MAX ? n - first : DEVICE_LAUNCH_MAX;
        batch_args a = {(const uint64_t *)t.data, offs ? offs + first : nullptr, 0, msg_len, count, p->domain,
                        (unsigned)p->outlen, dst + first * p->outlen};
        if (!offs) a.data += first * msg_len / 8;
        KILN_CUDA_TRY(launch(p, a, UINT64_MAX, s), "hash batch kernel launch");
    }
    if (dst != out) KILN_CUDA_TRY(cudaMemcpyAsync(out, dst, n * p->outlen, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync (digests)");
    return KILN_OK;
}
