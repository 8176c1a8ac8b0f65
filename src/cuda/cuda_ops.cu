/* The CUDA backend's tables of operations (core/gpu.h): the core table, and every kind's (trees,
 * graphs, and with NCCL the collective exchange). */
#include "cuda_state.h"

static void *pinned_alloc(size_t bytes)
{
    void *p = nullptr;
    if (cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocPortable) != cudaSuccess) {
        (void)cudaGetLastError();
        return nullptr;
    }
    return p;
}

static void pinned_free(void *p)
{
    if (p) cudaFreeHost(p);
}

/* The kinds of work, each sent to the kernel its descriptor names. */
static kiln_status search(kiln_gpu *g, const kiln_gpu_search *w, uint32_t start, uint64_t count, uint32_t *cand,
                          uint32_t cap, uint64_t *ncand, float *gpu_ms)
{
    switch (w->kind) {
    case KILN_GPU_SEARCH_SHA256D:
        return kiln_cuda_sha256d_scan(g, w->job.sha256d, start, count, w->shape.sha256d, cand, cap, ncand, gpu_ms);
    case KILN_GPU_SEARCH_SCRYPT:
        return kiln_cuda_scrypt_scan(g, w->job.scrypt, start, count, &w->shape.scrypt, cand, cap, ncand, gpu_ms);
    }
    return kiln_fail(g->ctx, KILN_ERR_INPUT, "cuda: no search kernel of kind %d", (int)w->kind);
}

static kiln_status batch(kiln_gpu *g, const kiln_gpu_batch *w, const kiln_gpu_batch_io *io, float *gpu_ms)
{
    float ms = 0;
    if (!gpu_ms) gpu_ms = &ms;
    switch (w->kind) {
    case KILN_GPU_BATCH_DIGEST:
        return kiln_cuda_hash_batch(g, &w->by.digest, (const uint8_t *)io->in, io->offsets, io->item_len, io->n,
                                    (uint8_t *)io->out, gpu_ms);
    case KILN_GPU_BATCH_PERMUTE:
        return kiln_cuda_keccak_f1600_batch(g, w->by.permute, (uint64_t *)io->out, io->n, gpu_ms);
    case KILN_GPU_BATCH_KDF:
        return kiln_cuda_scrypt_kdf(g, &w->by.kdf, (const kiln_scrypt_input *)io->in, io->n, (uint8_t *)io->out,
                                    io->item_len);
    }
    return kiln_fail(g->ctx, KILN_ERR_INPUT, "cuda: no batch kernel of kind %d", (int)w->kind);
}

static kiln_status batch_plan(kiln_gpu *g, const kiln_gpu_batch *w, uint64_t n, size_t item_len, uint64_t *slots,
                              uint32_t *gap)
{
    if (w->kind != KILN_GPU_BATCH_KDF) return kiln_fail(g->ctx, KILN_ERR_INPUT, "cuda: only a KDF batch has a plan");
    return kiln_cuda_scrypt_kdf_plan(g, &w->by.kdf, n, item_len, slots, gap);
}

static kiln_status batch_bench(kiln_gpu *g, const kiln_gpu_batch *w, const kiln_gpu_bench_spec *b, float *median_ms,
                               void *sample_in, void *sample_out)
{
    switch (w->kind) {
    case KILN_GPU_BATCH_DIGEST:
        return kiln_cuda_hash_bench(g, &w->by.digest, b->item_len, b->n, b->with_offsets, b->reps, median_ms,
                                    (uint8_t *)sample_in, (uint8_t *)sample_out, b->nsample);
    case KILN_GPU_BATCH_PERMUTE:
        return kiln_cuda_keccak_bench(g, w->by.permute, b->n, (int)b->item_len, b->reps, median_ms,
                                      (uint64_t *)sample_in, (uint64_t *)sample_out, b->nsample);
    case KILN_GPU_BATCH_KDF:
        break;
    }
    return kiln_fail(g->ctx, KILN_ERR_INPUT, "cuda: no bench for a batch of kind %d", (int)w->kind);
}

/* The kinds' tables (core/gpu_tree.h, gpu_graph.h, gpu_collective.h): CUDA fills every one, every
 * member in its order (designated initializers in C++ must follow it, and -Wextra wants them all). */
static const kiln_gpu_tree_ops cuda_tree_ops = {
    .upload = kiln_cuda_merkle_upload,
    .build = kiln_cuda_merkle_build,
    .read = kiln_cuda_merkle_read,
    .random = kiln_cuda_merkle_random,
    .raw = kiln_cuda_merkle_raw,
    .gather = kiln_cuda_merkle_gather,
    .build_staged = kiln_cuda_merkle_build_staged,
    .build_device = kiln_cuda_merkle_build_device,
    .rows = kiln_cuda_merkle_rows,
};

static const kiln_gpu_pr_part_ops cuda_part_ops = {
    .open = kiln_cuda_pr_part_open,
    .relabel = kiln_cuda_pr_part_relabel,
    .put = kiln_cuda_pr_part_put,
    .get = kiln_cuda_pr_part_get,
    .launch = kiln_cuda_pr_part_launch,
    .sums = kiln_cuda_pr_part_sums,
    .share = kiln_cuda_pr_part_share,
    .flip = kiln_cuda_pr_part_flip,
    .share_via_host = 0, /* peer copies, or device copies on one GPU */
    .share_seconds = kiln_cuda_pr_part_share_seconds,
    .close = kiln_cuda_pr_part_close,
};

static const kiln_gpu_graph_ops cuda_graph_ops = {
    .pagerank = kiln_cuda_pagerank,
    .csr_from_edges = kiln_cuda_csr_from_edges,
    .rmat_csr = kiln_cuda_rmat_csr,
    .rmat_part_csr = kiln_cuda_rmat_part_csr,
    .mem_peak = kiln_cuda_mem_peak,
    .parts = &cuda_part_ops,
    .max_buffer = nullptr, /* CUDA caps a buffer only by the free memory */
    .pr_plan_new = kiln_cuda_pr_plan_new,
    .pr_plan_run = kiln_cuda_pr_plan_run,
    .pr_plan_free = kiln_cuda_pr_plan_free,
};

#ifdef KILN_HAVE_NCCL
static const kiln_gpu_collective_ops cuda_collective_ops = {
    .available = kiln_cuda_comm_available,
    .id = kiln_cuda_comm_id,
    .open = kiln_cuda_comm_open,
    .allgather = kiln_cuda_pr_part_allgather,
    .close = kiln_cuda_comm_close,
};
#define CUDA_COLLECTIVE (&cuda_collective_ops)
#else
#define CUDA_COLLECTIVE nullptr /* no nccl.h at build time */
#endif

extern "C" const kiln_gpu_ops kiln_cuda_ops = {
    .name = "cuda",
    .device_count = kiln_cuda_count_devices,
    .device_info = kiln_cuda_device_info,
    .open = kiln_cuda_open,
    .close = kiln_cuda_close,
    .search = search,
    .batch = batch,
    .batch_plan = batch_plan,
    .batch_bench = batch_bench,
    .hash_device = kiln_cuda_hash_device,
    .kdf_device = kiln_cuda_scrypt_kdf_device,
    .mem_info = kiln_cuda_mem_info,
    .host_pinned_alloc = pinned_alloc,
    .host_pinned_free = pinned_free,
    .host_cores = nullptr, /* a CUDA device never runs on the host's cores */
    .tree = &cuda_tree_ops,
    .graph = &cuda_graph_ops,
    .collective = CUDA_COLLECTIVE,
};
