/* The CUDA backend's tables of operations (core/gpu.h): the core table, and every kind's (trees,
 * graphs, and with NCCL the collective exchange). */
#include <string.h>

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

/* The kinds' tables (core/gpu_tree.h, gpu_graph.h, gpu_collective.h): CUDA fills every one. */
static kiln_gpu_tree_ops make_tree_ops()
{
    kiln_gpu_tree_ops t;
    memset(&t, 0, sizeof t);
    t.upload = kiln_cuda_merkle_upload;
    t.build = kiln_cuda_merkle_build;
    t.read = kiln_cuda_merkle_read;
    t.random = kiln_cuda_merkle_random;
    t.raw = kiln_cuda_merkle_raw;
    t.gather = kiln_cuda_merkle_gather;
    t.build_staged = kiln_cuda_merkle_build_staged;
    t.build_device = kiln_cuda_merkle_build_device;
    return t;
}

static kiln_gpu_pr_part_ops make_part_ops()
{
    kiln_gpu_pr_part_ops p;
    memset(&p, 0, sizeof p);
    p.open = kiln_cuda_pr_part_open;
    p.relabel = kiln_cuda_pr_part_relabel;
    p.put = kiln_cuda_pr_part_put;
    p.get = kiln_cuda_pr_part_get;
    p.launch = kiln_cuda_pr_part_launch;
    p.sums = kiln_cuda_pr_part_sums;
    p.share = kiln_cuda_pr_part_share;
    p.flip = kiln_cuda_pr_part_flip;
    p.share_via_host = 0; /* peer copies, or device copies on one GPU */
    p.share_seconds = kiln_cuda_pr_part_share_seconds;
    p.close = kiln_cuda_pr_part_close;
    return p;
}
static const kiln_gpu_pr_part_ops cuda_part_ops = make_part_ops();

static kiln_gpu_graph_ops make_graph_ops()
{
    kiln_gpu_graph_ops g;
    memset(&g, 0, sizeof g);
    g.pagerank = kiln_cuda_pagerank;
    g.csr_from_edges = kiln_cuda_csr_from_edges;
    g.rmat_csr = kiln_cuda_rmat_csr;
    g.rmat_part_csr = kiln_cuda_rmat_part_csr;
    g.mem_peak = kiln_cuda_mem_peak;
    g.parts = &cuda_part_ops;
    return g;
}

#ifdef KILN_HAVE_NCCL
static kiln_gpu_collective_ops make_collective_ops()
{
    kiln_gpu_collective_ops c;
    memset(&c, 0, sizeof c);
    c.available = kiln_cuda_comm_available;
    c.id = kiln_cuda_comm_id;
    c.open = kiln_cuda_comm_open;
    c.allgather = kiln_cuda_pr_part_allgather;
    c.close = kiln_cuda_comm_close;
    return c;
}
static const kiln_gpu_collective_ops cuda_collective_ops = make_collective_ops();
#endif

static const kiln_gpu_tree_ops cuda_tree_ops = make_tree_ops();
static const kiln_gpu_graph_ops cuda_graph_ops = make_graph_ops();

static kiln_gpu_ops make_ops()
{
    kiln_gpu_ops ops;
    memset(&ops, 0, sizeof ops);
    ops.name = "cuda";
    ops.device_count = kiln_cuda_count_devices;
    ops.device_info = kiln_cuda_device_info;
    ops.open = kiln_cuda_open;
    ops.close = kiln_cuda_close;
    ops.search = search;
    ops.batch = batch;
    ops.batch_plan = batch_plan;
    ops.batch_bench = batch_bench;
    ops.hash_device = kiln_cuda_hash_device;
    ops.kdf_device = kiln_cuda_scrypt_kdf_device;
    ops.mem_info = kiln_cuda_mem_info;
    ops.host_pinned_alloc = pinned_alloc;
    ops.host_pinned_free = pinned_free;
    ops.tree = &cuda_tree_ops;
    ops.graph = &cuda_graph_ops;
#ifdef KILN_HAVE_NCCL
    ops.collective = &cuda_collective_ops;
#endif
    /* the transition's copies (core/gpu.h) */
    ops.csr_from_edges = kiln_cuda_csr_from_edges;
    ops.rmat_csr = kiln_cuda_rmat_csr;
    ops.rmat_part_csr = kiln_cuda_rmat_part_csr;
    return ops;
}

extern "C" const kiln_gpu_ops kiln_cuda_ops = make_ops();
