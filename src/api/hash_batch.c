/* Batch hashing and batch permutation: argument checks, the CPU backend (OpenMP over messages)
 * and the GPU backend with its CPU re-check. Re-hashing every GPU digest on the CPU would cost
 * what the GPU saves, so the check covers all of a small batch and a pseudo-random sample of a
 * large one (up to VERIFY_ALL messages and about 1/64 of the bytes, the first and last included). */
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "hash_internal.h"
#include "../hash/hash_desc.h"
#include "../core/ctx.h"
#include "../core/gpu.h"

#define VERIFY_ALL 256
#define VERIFY_MIN_BYTES (256u << 10)
#define GPU_CHUNK_BYTES (UINT64_C(1) << 30) /* messages per GPU call, so device memory stays bounded */
/* The CPU polls the interrupt every POLL_MESSAGES messages and every PIECE_BYTES of one message:
 * a few milliseconds of hashing either way. */
#define POLL_MESSAGES 256
#define PIECE_BYTES ((size_t)16 << 20)
#define PERM_CHUNK ((size_t)1 << 16) /* permutations between polls */

#define SMALL_BATCH_BYTES (UINT64_C(1) << 16)
static int threads_of(const kiln_ctx *ctx) { return ctx->threads > 0 ? ctx->threads : omp_get_num_procs(); }

static kiln_status check_outlen(kiln_ctx *ctx, kiln_hash_algo algo, size_t outlen)
{
    if ((size_t)algo >= kiln_hash_algo_count()) return kiln_fail(ctx, KILN_ERR_INPUT, "unknown hash algorithm %d", algo);
    if (kiln_hash_is_xof(algo) ? outlen == 0 : outlen != kiln_hash_digest_len(algo))
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s gives %zu-byte digests, not %zu", kiln_hash_algo_name(algo),
                         kiln_hash_digest_len(algo), outlen);
    return KILN_OK;
}

/* Message i of a batch given either way. */
static const uint8_t *msg_at(const uint8_t *data, const uint64_t *offsets, size_t msg_len, size_t i, size_t *len)
{
    if (offsets) {
        *len = (size_t)(offsets[i + 1] - offsets[i]);
        return data + offsets[i];
    }
    *len = msg_len;
    return data + i * msg_len;
}

/* Bytes of a batch hashed so far, counted across the threads only when a progress hook reads them. */
typedef struct batch_meter {
    int on;
    uint64_t done, total;
} batch_meter;

static void meter_add(batch_meter *b, uint64_t bytes)
{
    if (!b->on) return;
#pragma omp atomic
    b->done += bytes;
}

static void meter_report(const kiln_ctx *ctx, batch_meter *b)
{
    if (!b->on) return;
    uint64_t done;
#pragma omp atomic read
    done = b->done;
    kiln_ctx_report(ctx, "hash", "bytes", done, b->total);
}

/* Hashes one message, a piece of PIECE_BYTES at a time, polling the interrupt between pieces:
 * one long message must not hold a Ctrl-C for seconds. 1 when interrupted, else 0. */
static int hash_one(const kiln_ctx *ctx, kiln_hash_algo algo, const uint8_t *m, size_t len, uint8_t *out,
                    size_t outlen, batch_meter *b)
{
    kiln_hash_stream s;
    kiln_hash_init(&s, algo);
    for (size_t off = 0; off < len;) {
        size_t piece = len - off < PIECE_BYTES ? len - off : PIECE_BYTES;
        kiln_hash_update(&s, m + off, piece);
        off += piece;
        meter_add(b, piece);
        if (off < len) {
            meter_report(ctx, b);
            if (kiln_ctx_interrupt_requested(ctx)) return 1;
        }
    }
    kiln_hash_final(&s, out, outlen);
    return 0;
}

/* Messages of one short length through the algorithm's SIMD lanes, LANE_RUN at a time per
 * thread, polling between runs. */
#define LANE_RUN 256
#define LANE_MAX_LEN 4096
static kiln_status cpu_lanes(kiln_ctx *ctx, const kiln_hash_desc *d, const uint8_t *data, size_t msg_len, size_t n,
                             uint8_t *out)
{
    const long long runs = (long long)((n + LANE_RUN - 1) / LANE_RUN);
    int stop = 0;
    batch_meter b = {kiln_ctx_has_progress(ctx), 0, (uint64_t)msg_len * n};
#pragma omp parallel for num_threads(threads_of(ctx)) schedule(dynamic, 1) if (b.total >= SMALL_BATCH_BYTES && runs > 1)
    for (long long r = 0; r < runs; r++) {
        int halt;
#pragma omp atomic read
        halt = stop;
        if (halt) continue;
        const size_t first = (size_t)r * LANE_RUN, count = n - first < LANE_RUN ? n - first : LANE_RUN;
        d->lanes(d, data + first * msg_len, msg_len, count, out + first * d->digest);
        meter_add(&b, (uint64_t)count * msg_len);
        meter_report(ctx, &b);
        if (kiln_ctx_interrupt_requested(ctx)) {
#pragma omp atomic write
            stop = 1;
        }
    }
    return stop ? kiln_interrupted(ctx) : KILN_OK;
}

static kiln_status cpu_batch(kiln_ctx *ctx, kiln_hash_algo algo, const uint8_t *data, const uint64_t *offsets,
                             size_t msg_len, size_t n, uint8_t *out, size_t outlen)
{
    const kiln_hash_desc *d = kiln_hash_desc_of(algo);
    if (!offsets && d->lanes && outlen == d->digest && msg_len <= LANE_MAX_LEN && n > 1)
        return cpu_lanes(ctx, d, data, msg_len, n, out);
    long long nn = (long long)n;
    int stop = 0;
    batch_meter b = {kiln_ctx_has_progress(ctx), 0, offsets ? offsets[n] - offsets[0] : (uint64_t)msg_len * n};
    /* small batches on the calling thread (a team's wake-up costs more than they do) */
#pragma omp parallel for num_threads(threads_of(ctx)) schedule(dynamic, 64) if (b.total >= SMALL_BATCH_BYTES && n > 64)
    for (long long i = 0; i < nn; i++) {
        int halt;
#pragma omp atomic read
        halt = stop;
        if (halt) continue; /* the remaining iterations only drain */
        size_t len;
        const uint8_t *m = msg_at(data, offsets, msg_len, (size_t)i, &len);
        halt = hash_one(ctx, algo, m, len, out + (size_t)i * outlen, outlen, &b);
        if (!halt && i % POLL_MESSAGES == 0) {
            meter_report(ctx, &b);
            halt = kiln_ctx_interrupt_requested(ctx);
        }
        if (halt) {
#pragma omp atomic write
            stop = 1;
        }
    }
    return stop ? kiln_interrupted(ctx) : KILN_OK;
}

/* Index of the k-th checked message of n: the first, the last, then pseudo-random ones (a fixed
 * sequence per batch) so a systematic GPU fault at any index can be caught. */
static size_t sample_index(size_t n, size_t k, uint64_t seed)
{
    if (n <= VERIFY_ALL) return k;
    if (k < 2) return k == 0 ? 0 : n - 1;
    uint64_t z = (seed + k) * 0x9e3779b97f4a7c15ull;
    z ^= z >> 29;
    return (size_t)(z % n);
}

kiln_status kiln_hash_verify_sample(kiln_ctx *ctx, kiln_hash_algo algo, const uint8_t *data, const uint64_t *offsets,
                                    size_t msg_len, size_t n, const uint8_t *out, size_t outlen)
{
    uint8_t *want = malloc(outlen);
    if (!want) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    /* at most VERIFY_ALL messages and, beyond the first two, about 1/64 of the batch's bytes, so
     * the check stays small next to the GPU's work for long messages too */
    uint64_t total = offsets ? offsets[n] - offsets[0] : (uint64_t)msg_len * n, budget = total / 64, done = 0;
    if (budget < VERIFY_MIN_BYTES) budget = VERIFY_MIN_BYTES;
    size_t checks = n < VERIFY_ALL ? n : VERIFY_ALL;
    uint64_t seed = (uint64_t)n * 0x2545f4914f6cdd1dull ^ (uint64_t)(uintptr_t)out;
    kiln_status st = KILN_OK;
    for (size_t k = 0; k < checks && st == KILN_OK && (k < 2 || done < budget); k++) {
        size_t i = sample_index(n, k, seed), len;
        const uint8_t *m = msg_at(data, offsets, msg_len, i, &len);
        kiln_hash(algo, m, len, want, outlen);
        done += len;
        if (memcmp(want, out + i * outlen, outlen) != 0)
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "GPU %s digest of message %zu differs from the CPU's",
                           kiln_hash_algo_name(algo), i);
    }
    free(want);
    return st;
}

kiln_gpu_hash_params kiln_hash_gpu_params(kiln_hash_algo algo, size_t outlen)
{
    const kiln_hash_desc *d = kiln_hash_desc_of(algo);
    kiln_gpu_hash_params p = {d->gpu, d->rate, d->domain, d->variant, outlen};
    return p;
}

/* One GPU batch over the context's devices: each takes a contiguous run of messages (balanced by
 * bytes) and hashes it chunk by chunk, every chunk's sample re-checked on the CPU. */
typedef struct gpu_batch_run {
    kiln_ctx *ctx;
    kiln_hash_algo algo;
    kiln_gpu_hash_params p;
    const uint8_t *data;
    const uint64_t *offsets;
    size_t msg_len, outlen;
    uint8_t *out;
    size_t first[KILN_MAX_GPUS + 1]; /* device i hashes messages [first[i], first[i+1]) */
    uint64_t total;
    _Atomic uint64_t done; /* bytes hashed by all devices, for the progress report */
} gpu_batch_run;

static uint64_t bytes_before(const gpu_batch_run *b, size_t i)
{
    return b->offsets ? b->offsets[i] - b->offsets[0] : (uint64_t)b->msg_len * i;
}

static kiln_status gpu_batch_part(void *arg, int device, kiln_gpu *g)
{
    gpu_batch_run *b = arg;
    kiln_ctx *ctx = b->ctx;
    const uint64_t *offsets = b->offsets;
    const size_t msg_len = b->msg_len, outlen = b->outlen, end = b->first[device + 1];
    for (size_t first = b->first[device]; first < end;) {
        kiln_ctx_report(ctx, "hash", "bytes", atomic_load(&b->done), b->total);
        if (kiln_ctx_interrupt_requested(ctx)) return kiln_interrupted(ctx);
        /* as many messages as fit the chunk's bytes, at least one */
        size_t count = 1;
        if (offsets) {
            while (first + count < end && offsets[first + count + 1] - offsets[first] <= GPU_CHUNK_BYTES) count++;
        } else {
            size_t per = msg_len ? (size_t)(GPU_CHUNK_BYTES / msg_len) : end - first;
            count = per < 1 ? 1 : per;
            if (count > end - first) count = end - first;
        }
        /* the device copy starts at the chunk's first byte; the CPU check keeps absolute offsets */
        const uint8_t *data = b->data;
        const uint8_t *chunk = !data ? NULL : offsets ? data + offsets[first] : data + first * msg_len;
        float ms;
        const kiln_gpu_batch w = {.kind = KILN_GPU_BATCH_DIGEST, .by.digest = b->p};
        const kiln_gpu_batch_io io = {count, chunk, offsets ? offsets + first : NULL, msg_len, b->out + first * outlen};
        kiln_status st = ctx->gpu->batch(g, &w, &io, &ms);
        if (st != KILN_OK) return st;
        st = kiln_hash_verify_sample(ctx, b->algo, offsets ? data : chunk, offsets ? offsets + first : NULL, msg_len,
                                     count, b->out + first * outlen, outlen);
        if (st != KILN_OK) return st;
        atomic_fetch_add(&b->done, bytes_before(b, first + count) - bytes_before(b, first));
        first += count;
    }
    return KILN_OK;
}

static kiln_status gpu_batch(kiln_ctx *ctx, kiln_hash_algo algo, const uint8_t *data, const uint64_t *offsets,
                             size_t msg_len, size_t n, uint8_t *out, size_t outlen)
{
    gpu_batch_run b = {ctx, algo, kiln_hash_gpu_params(algo, outlen), data, offsets, msg_len, outlen, out, {0}, 0, 0};
    b.total = bytes_before(&b, n);
    /* device i's run starts at the first message at or past i/k of the bytes */
    const int k = ctx->ngpu;
    b.first[k] = n;
    for (int i = 1; i < k; i++) {
        uint64_t want = b.total / (uint64_t)k * (uint64_t)i;
        size_t lo = b.first[i - 1], hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (bytes_before(&b, mid) < want) lo = mid + 1;
            else hi = mid;
        }
        b.first[i] = lo;
    }
    return kiln_gpu_each(ctx, gpu_batch_part, &b);
}

kiln_status kiln_hash_batch(kiln_ctx *ctx, kiln_hash_algo algo, const uint8_t *data, const uint64_t *offsets,
                            size_t n, uint8_t *out, size_t outlen)
{
    if (!ctx) return KILN_ERR_INPUT;
    kiln_status st = check_outlen(ctx, algo, outlen);
    if (st != KILN_OK) return st;
    if (n == 0) return KILN_OK;
    if (!offsets || !out) return kiln_fail(ctx, KILN_ERR_INPUT, "missing offsets or output");
    for (size_t i = 0; i < n; i++)
        if (offsets[i + 1] < offsets[i])
            return kiln_fail(ctx, KILN_ERR_INPUT, "offsets decrease at message %zu", i);
    if (offsets[n] > offsets[0] && !data) return kiln_fail(ctx, KILN_ERR_INPUT, "missing message data");
    if (ctx->backend == KILN_BACKEND_CPU) return cpu_batch(ctx, algo, data, offsets, 0, n, out, outlen);
    return gpu_batch(ctx, algo, data, offsets, 0, n, out, outlen);
}

kiln_status kiln_hash_batch_fixed(kiln_ctx *ctx, kiln_hash_algo algo, const uint8_t *data, size_t msg_len, size_t n,
                                  uint8_t *out, size_t outlen)
{
    if (!ctx) return KILN_ERR_INPUT;
    kiln_status st = check_outlen(ctx, algo, outlen);
    if (st != KILN_OK) return st;
    if (n == 0) return KILN_OK;
    if (!out || (msg_len && !data)) return kiln_fail(ctx, KILN_ERR_INPUT, "missing messages or output");
    if (msg_len && n > SIZE_MAX / msg_len) return kiln_fail(ctx, KILN_ERR_INPUT, "batch size overflows");
    if (ctx->backend == KILN_BACKEND_CPU) return cpu_batch(ctx, algo, data, NULL, msg_len, n, out, outlen);
    return gpu_batch(ctx, algo, data, NULL, msg_len, n, out, outlen);
}

/* ---------------------------------------------------------------- device memory (docs/DEVICE_MEMORY.md) */

static kiln_status batch_device(kiln_ctx *ctx, kiln_hash_algo algo, const void *data, size_t data_len,
                                const uint64_t *offsets, size_t msg_len, size_t n, void *out, size_t outlen, void *stream)
{
    if (!ctx) return KILN_ERR_INPUT;
    kiln_status st = check_outlen(ctx, algo, outlen);
    if (st != KILN_OK || n == 0) return st;
    if (n > SIZE_MAX / 8 - 1 || n > SIZE_MAX / outlen || (!offsets && msg_len && n > SIZE_MAX / msg_len))
        return kiln_fail(ctx, KILN_ERR_INPUT, "batch size overflows");
    if (ctx->backend == KILN_BACKEND_CPU || !ctx->gpu)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "messages in device memory need a GPU context, not the CPU");
    if (!ctx->gpu->hash_device) return kiln_gpu_lacks(ctx, "hash messages in device memory");
    const kiln_gpu_hash_params p = kiln_hash_gpu_params(algo, outlen);
    if (p.family == KILN_HASH_GPU_NONE)
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s has no GPU kernel: hash it from host memory", kiln_hash_algo_name(algo));
    kiln_gpu *g;
    if ((st = kiln_ctx_gpu(ctx, 0, &g)) != KILN_OK) return st;
    return ctx->gpu->hash_device(g, &p, data, data_len, offsets, msg_len, n, out, stream);
}

kiln_status kiln_hash_batch_device(kiln_ctx *ctx, kiln_hash_algo algo, const void *data, size_t data_len,
                                   const uint64_t *offsets, size_t n, void *out, size_t outlen, void *stream)
{
    if (ctx && n && !offsets) return kiln_fail(ctx, KILN_ERR_INPUT, "missing offsets");
    return batch_device(ctx, algo, data, data_len, offsets, 0, n, out, outlen, stream);
}

kiln_status kiln_hash_batch_fixed_device(kiln_ctx *ctx, kiln_hash_algo algo, const void *data, size_t msg_len,
                                         size_t n, void *out, size_t outlen, void *stream)
{
    return batch_device(ctx, algo, data, 0, NULL, msg_len, n, out, outlen, stream);
}

/* ---------------------------------------------------------------- permutation batches */

static const char *const layout_names[] = {"auto", "thread", "unrolled", "lane"};

kiln_status kiln_keccak_layout_from_name(kiln_ctx *ctx, const char *name, kiln_keccak_layout *layout)
{
    for (int i = 0; name && i < 4; i++)
        if (strcmp(name, layout_names[i]) == 0) {
            *layout = (kiln_keccak_layout)i;
            return KILN_OK;
        }
    return kiln_fail(ctx, KILN_ERR_INPUT, "unknown Keccak layout '%s' (expected auto, thread, unrolled or lane)",
                     name ? name : "");
}

const char *kiln_keccak_layout_name(kiln_keccak_layout layout)
{
    return (unsigned)layout < 4 ? layout_names[layout] : "unknown";
}

/* AUTO: the layout measured fastest on the H200 (docs/KECCAK.md). */
kiln_keccak_layout kiln_keccak_layout_resolve(kiln_keccak_layout layout)
{
    return layout == KILN_KECCAK_LAYOUT_AUTO ? KILN_KECCAK_LAYOUT_UNROLLED : layout;
}

kiln_status kiln_keccak_f1600_batch(kiln_ctx *ctx, uint64_t *states, size_t n, kiln_keccak_layout layout)
{
    if (!ctx) return KILN_ERR_INPUT;
    if ((unsigned)layout > KILN_KECCAK_LAYOUT_LANE) return kiln_fail(ctx, KILN_ERR_INPUT, "unknown Keccak layout");
    if (n == 0) return KILN_OK;
    if (!states) return kiln_fail(ctx, KILN_ERR_INPUT, "missing states");
    if (n > SIZE_MAX / 200) return kiln_fail(ctx, KILN_ERR_INPUT, "batch size overflows");
    if (ctx->backend == KILN_BACKEND_CPU) {
        for (size_t first = 0; first < n; first += PERM_CHUNK) {
            kiln_ctx_report(ctx, "permutation", "states", first, n);
            if (kiln_ctx_interrupt_requested(ctx)) return kiln_interrupted(ctx);
            long long end = (long long)(n - first < PERM_CHUNK ? n : first + PERM_CHUNK);
#pragma omp parallel for num_threads(threads_of(ctx)) schedule(static) if (end - (long long)first >= 256)
            for (long long i = (long long)first; i < end; i++) kiln_keccak_permute(states + 25 * (size_t)i);
        }
        return KILN_OK;
    }
    kiln_gpu *g;
    kiln_status st = kiln_ctx_gpu(ctx, 0, &g);
    if (st != KILN_OK) return st;
    /* keep the inputs of the sampled states to re-check them */
    size_t checks = n < VERIFY_ALL ? n : VERIFY_ALL;
    uint64_t *keep = malloc(checks * 200);
    size_t *idx = malloc(checks * sizeof *idx);
    if (!keep || !idx) {
        free(keep);
        free(idx);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    }
    uint64_t seed = (uint64_t)n * 0x2545f4914f6cdd1dull ^ (uint64_t)(uintptr_t)states;
    for (size_t k = 0; k < checks; k++) {
        idx[k] = sample_index(n, k, seed);
        memcpy(keep + 25 * k, states + 25 * idx[k], 200);
    }
    float ms;
    const kiln_gpu_batch w = {.kind = KILN_GPU_BATCH_PERMUTE, .by.permute = kiln_keccak_layout_resolve(layout)};
    const kiln_gpu_batch_io io = {n, states, NULL, 200, states};
    st = ctx->gpu->batch(g, &w, &io, &ms);
    for (size_t k = 0; k < checks && st == KILN_OK; k++) {
        kiln_keccak_permute(keep + 25 * k);
        if (memcmp(keep + 25 * k, states + 25 * idx[k], 200) != 0)
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "GPU Keccak-f[1600] of state %zu differs from the CPU's", idx[k]);
    }
    free(keep);
    free(idx);
    return st;
}
