/* scrypt on an OpenCL device (kernels/scrypt.cl): the Litecoin search, one work-item per nonce
 * with its own 128 KiB scratchpad, and the KDF batch in three steps (PBKDF2 in, ROMix per lane,
 * PBKDF2 out). Scratchpads are 128 r N bytes a hash; a launch holds as many as fit in a quarter of
 * the device's memory and in its largest allocation (and, for the search, a few hundred per
 * compute unit), and the work goes through in as many launches as that takes. The straightforward
 * form: no lookup gap and no threads sharing a hash (the shape's fields are not used). */
#include <stdlib.h>
#include <string.h>

#include "ocl_work.h"

#define MAX_R 8 /* kernels/scrypt.cl's KILN_OCL_SCRYPT_MAX_R */
#define SEARCH_PER_UNIT 256 /* resident nonces a launch, per compute unit */
#define MAX_LAUNCH (UINT64_C(1) << 31)

/* Hashes of `per_hash` scratch bytes one launch may hold: a quarter of the device's memory, within
 * its largest allocation; 0 when not even one fits (the caller says so). */
static kiln_status scratch_lanes(kiln_gpu *g, uint64_t per_hash, uint64_t *lanes)
{
    cl_ulong max_alloc = 0, global = 0;
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL),
                 "clGetDeviceInfo (largest allocation)");
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL),
                 "clGetDeviceInfo (global memory)");
    uint64_t budget = global / 4 < max_alloc ? global / 4 : max_alloc;
    *lanes = budget / per_hash;
    if (*lanes == 0)
        return kiln_fail(g->ctx, KILN_ERR_INPUT,
                         "a scrypt scratchpad of %llu MiB does not fit %s (largest allocation %llu MiB, memory %llu MiB)",
                         (unsigned long long)(per_hash >> 20), g->name, (unsigned long long)(max_alloc >> 20),
                         (unsigned long long)(global >> 20));
    return KILN_OK;
}

static kiln_status little_endian(kiln_gpu *g)
{
    cl_bool little = CL_FALSE;
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, NULL),
                 "clGetDeviceInfo (endianness)");
    if (!little)
        return kiln_fail(g->ctx, KILN_ERR_DEVICE, "%s is big-endian: the OpenCL scrypt kernels need a little-endian device",
                         g->name);
    return KILN_OK;
}

#define ARG(k, i, v) KILN_OCL_TRY(g->ctx, clSetKernelArg((k), (i), sizeof(v), &(v)), "clSetKernelArg (scrypt)")

typedef struct search_res {
    cl_mem V, cand, count;
    cl_kernel k;
} search_res;

static kiln_status search(kiln_gpu *g, search_res *r, const kiln_scrypt_job *job, uint32_t start, uint64_t count,
                          uint32_t *cand, uint32_t cap, uint64_t *ncand, float *gpu_ms)
{
    const uint64_t per_hash = (uint64_t)128 * KILN_SCRYPT_LTC_N;
    uint64_t lanes;
    cl_uint units = 1;
    kiln_status st = scratch_lanes(g, per_hash, &lanes);
    if (st != KILN_OK) return st;
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL),
                 "clGetDeviceInfo (compute units)");
    if (lanes > (uint64_t)units * SEARCH_PER_UNIT) lanes = (uint64_t)units * SEARCH_PER_UNIT;
    if (lanes > count) lanes = count;
    cl_int err;
    r->V = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)(lanes * per_hash), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (scrypt scratchpads)");
    r->cand = clCreateBuffer(g->context, CL_MEM_WRITE_ONLY, (cap ? cap : 1) * sizeof(cl_uint), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (candidates)");
    r->count = clCreateBuffer(g->context, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (candidate count)");
    if ((st = kiln_ocl_kernel(g, "kiln_scrypt_ltc_search", &r->k)) != KILN_OK) return st;
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 0, sizeof *job, job), "clSetKernelArg (scrypt)");
    ARG(r->k, 3, r->V);
    ARG(r->k, 4, r->cand);
    ARG(r->k, 6, r->count);
    static const cl_uint arg[3] = {1, 2, 5};
    return kiln_ocl_search_launches(g, r->k, arg, r->cand, r->count, start, count, lanes, cand, cap, ncand, gpu_ms);
}

kiln_status kiln_ocl_scrypt_search(kiln_gpu *g, const kiln_scrypt_job *job, uint32_t start, uint64_t count,
                                   uint32_t *cand, uint32_t cap, uint64_t *ncand, float *gpu_ms)
{
    *ncand = 0;
    if (count == 0) return KILN_OK;
    kiln_status st = little_endian(g);
    if (st != KILN_OK) return st;
    search_res r = {0};
    st = search(g, &r, job, start, count, cand, cap, ncand, gpu_ms);
    if (r.V) clReleaseMemObject(r.V);
    if (r.cand) clReleaseMemObject(r.cand);
    if (r.count) clReleaseMemObject(r.count);
    if (r.k) clReleaseKernel(r.k);
    return st;
}

/* ---- the KDF batch */

typedef struct kdf_res {
    cl_mem arena, items, B, V, out;
    cl_kernel in, romix, fin;
    uint8_t *h_arena;
    cl_ulong *h_items;
} kdf_res;

/* Items [first, first + n): their passwords and salts packed into one arena, 4 ulongs an item. */
static kiln_status pack(kiln_gpu *g, kdf_res *r, const kiln_scrypt_input *in, size_t first, size_t n)
{
    size_t bytes = 0;
    for (size_t i = first; i < first + n; i++) bytes += in[i].password_len + in[i].salt_len;
    r->h_arena = malloc(bytes ? bytes : 1);
    r->h_items = malloc(n * 4 * sizeof *r->h_items);
    if (!r->h_arena || !r->h_items) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        const kiln_scrypt_input *x = &in[first + i];
        r->h_items[4 * i] = at;
        r->h_items[4 * i + 1] = x->password_len;
        if (x->password_len) memcpy(r->h_arena + at, x->password, x->password_len);
        at += x->password_len;
        r->h_items[4 * i + 2] = at;
        r->h_items[4 * i + 3] = x->salt_len;
        if (x->salt_len) memcpy(r->h_arena + at, x->salt, x->salt_len);
        at += x->salt_len;
    }
    cl_int err;
    r->arena = clCreateBuffer(g->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes ? bytes : 1, r->h_arena, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (passwords and salts)");
    r->items = clCreateBuffer(g->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4 * sizeof *r->h_items,
                              r->h_items, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (items)");
    return KILN_OK;
}

static void kdf_release_chunk(kdf_res *r)
{
    cl_mem *m[] = {&r->arena, &r->items, &r->B, &r->out};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        if (*m[i]) clReleaseMemObject(*m[i]);
        *m[i] = NULL;
    }
    free(r->h_arena);
    free(r->h_items);
    r->h_arena = NULL;
    r->h_items = NULL;
}

/* Items [first, first + n) into out (out_len bytes each), ROMix `lanes` lanes a launch. */
static kiln_status kdf_chunk(kiln_gpu *g, kdf_res *r, const kiln_gpu_scrypt_kdf_cfg *cfg, const kiln_gpu_batch_io *io,
                             size_t first, size_t n, uint64_t lanes, float *ms)
{
    kiln_status st = pack(g, r, io->in, first, n);
    if (st != KILN_OK) return st;
    const cl_uint bpi = 4 * cfg->r * cfg->p, out_len = (cl_uint)io->item_len, out_blocks = (out_len + 31) / 32;
    const cl_ulong nn = n, N = cfg->N;
    const cl_uint rr = cfg->r;
    cl_int err;
    r->B = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)n * bpi * 32, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (scrypt B)");
    r->out = clCreateBuffer(g->context, CL_MEM_WRITE_ONLY, (size_t)n * out_len, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (keys)");
    float t;
    ARG(r->in, 0, r->arena);
    ARG(r->in, 1, r->items);
    ARG(r->in, 2, nn);
    ARG(r->in, 3, bpi);
    ARG(r->in, 4, r->B);
    if ((st = kiln_ocl_run(g, r->in, (size_t)n * bpi, &t)) != KILN_OK) return st;
    *ms += t;
    const uint64_t total = (uint64_t)n * cfg->p;
    ARG(r->romix, 0, r->B);
    ARG(r->romix, 3, N);
    ARG(r->romix, 4, rr);
    ARG(r->romix, 5, r->V);
    for (uint64_t done = 0; done < total;) {
        cl_ulong lane0 = done, count = total - done < lanes ? total - done : lanes;
        ARG(r->romix, 1, lane0);
        ARG(r->romix, 2, count);
        if ((st = kiln_ocl_run(g, r->romix, (size_t)count, &t)) != KILN_OK) return st;
        *ms += t;
        done += count;
        if (kiln_ctx_interrupt_requested(g->ctx)) return kiln_interrupted(g->ctx);
    }
    ARG(r->fin, 0, r->arena);
    ARG(r->fin, 1, r->items);
    ARG(r->fin, 2, nn);
    ARG(r->fin, 3, bpi);
    ARG(r->fin, 4, r->B);
    ARG(r->fin, 5, out_blocks);
    ARG(r->fin, 6, out_len);
    ARG(r->fin, 7, r->out);
    if ((st = kiln_ocl_run(g, r->fin, (size_t)n * out_blocks, &t)) != KILN_OK) return st;
    *ms += t;
    KILN_OCL_TRY(g->ctx,
                 clEnqueueReadBuffer(g->queue, r->out, CL_TRUE, 0, (size_t)n * out_len,
                                     (uint8_t *)io->out + first * io->item_len, 0, NULL, NULL),
                 "clEnqueueReadBuffer (keys)");
    return KILN_OK;
}

static kiln_status kdf(kiln_gpu *g, kdf_res *r, const kiln_gpu_scrypt_kdf_cfg *cfg, const kiln_gpu_batch_io *io,
                       float *ms)
{
    if (cfg->N < 2 || (cfg->N & (cfg->N - 1)) || cfg->r < 1 || cfg->p < 1)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "scrypt: N must be a power of two >= 2, r and p >= 1");
    if (cfg->r > MAX_R)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "the OpenCL scrypt KDF takes r up to %d (r = %u asked)", MAX_R, cfg->r);
    if (io->item_len == 0 || io->item_len > 0xffffffffu || (uint64_t)cfg->r * cfg->p > (UINT64_C(1) << 24))
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "scrypt: key length or r * p out of the OpenCL kernels' range");
    kiln_status st = little_endian(g);
    if (st != KILN_OK) return st;
    if (cfg->N > UINT64_MAX / 128 / cfg->r) return kiln_fail(g->ctx, KILN_ERR_INPUT, "scrypt: 128 r N overflows");
    const uint64_t per_lane = (uint64_t)128 * cfg->r * cfg->N;
    uint64_t lanes;
    if ((st = scratch_lanes(g, per_lane, &lanes)) != KILN_OK) return st;
    /* items a chunk: B (128 r p bytes an item) within 64 MiB, and no more lanes than one ROMix
     * launch holds unless one item alone has more */
    uint64_t b_item = (uint64_t)128 * cfg->r * cfg->p, items = (UINT64_C(64) << 20) / b_item;
    if (items > lanes / cfg->p) items = lanes / cfg->p;
    if (items < 1) items = 1;
    if (lanes > items * cfg->p) lanes = items * cfg->p;
    cl_int err;
    r->V = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)(lanes * per_lane), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (scrypt scratchpads)");
    if ((st = kiln_ocl_kernel(g, "kiln_scrypt_kdf_in", &r->in)) != KILN_OK ||
        (st = kiln_ocl_kernel(g, "kiln_scrypt_kdf_romix", &r->romix)) != KILN_OK ||
        (st = kiln_ocl_kernel(g, "kiln_scrypt_kdf_out", &r->fin)) != KILN_OK)
        return st;
    for (size_t first = 0; first < io->n && st == KILN_OK;) {
        size_t n = io->n - first < items ? io->n - first : (size_t)items;
        st = kdf_chunk(g, r, cfg, io, first, n, lanes, ms);
        kdf_release_chunk(r);
        first += n;
    }
    return st;
}

kiln_status kiln_ocl_scrypt_kdf(kiln_gpu *g, const kiln_gpu_scrypt_kdf_cfg *cfg, const kiln_gpu_batch_io *io,
                                float *gpu_ms)
{
    float ms = 0;
    if (io->n == 0) return KILN_OK;
    kdf_res r;
    memset(&r, 0, sizeof r);
    kiln_status st = kdf(g, &r, cfg, io, &ms);
    kdf_release_chunk(&r);
    if (r.V) clReleaseMemObject(r.V);
    if (r.in) clReleaseKernel(r.in);
    if (r.romix) clReleaseKernel(r.romix);
    if (r.fin) clReleaseKernel(r.fin);
    if (gpu_ms) *gpu_ms = ms;
    return st;
}
