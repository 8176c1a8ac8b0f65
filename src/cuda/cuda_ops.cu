/* The CUDA backend's table of operations (core/gpu.h). */
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

static kiln_gpu_ops make_ops()
{
    kiln_gpu_ops ops;
    memset(&ops, 0, sizeof ops);
    ops.name = "cuda";
    ops.device_count = kiln_cuda_count_devices;
    ops.device_info = kiln_cuda_device_info;
    ops.open = kiln_cuda_open;
    ops.close = kiln_cuda_close;
    ops.sha256d_scan = kiln_cuda_sha256d_scan;
    ops.scrypt_scan = kiln_cuda_scrypt_scan;
    ops.scrypt_kdf_plan = kiln_cuda_scrypt_kdf_plan;
    ops.scrypt_kdf = kiln_cuda_scrypt_kdf;
    ops.hash_batch = kiln_cuda_hash_batch;
    ops.hash_bench = kiln_cuda_hash_bench;
    ops.keccak_f1600_batch = kiln_cuda_keccak_f1600_batch;
    ops.keccak_bench = kiln_cuda_keccak_bench;
    ops.merkle_upload = kiln_cuda_merkle_upload;
    ops.merkle_random = kiln_cuda_merkle_random;
    ops.merkle_build = kiln_cuda_merkle_build;
    ops.merkle_read = kiln_cuda_merkle_read;
    ops.merkle_raw = kiln_cuda_merkle_raw;
    ops.merkle_gather = kiln_cuda_merkle_gather;
    ops.merkle_build_staged = kiln_cuda_merkle_build_staged;
    ops.csr_from_edges = kiln_cuda_csr_from_edges;
    ops.rmat_csr = kiln_cuda_rmat_csr;
    ops.rmat_part_csr = kiln_cuda_rmat_part_csr;
    ops.mem_info = kiln_cuda_mem_info;
    ops.mem_peak = kiln_cuda_mem_peak;
    ops.pagerank = kiln_cuda_pagerank;
    ops.pr_part_open = kiln_cuda_pr_part_open;
    ops.pr_part_relabel = kiln_cuda_pr_part_relabel;
    ops.pr_part_put = kiln_cuda_pr_part_put;
    ops.pr_part_get = kiln_cuda_pr_part_get;
    ops.pr_part_launch = kiln_cuda_pr_part_launch;
    ops.pr_part_sums = kiln_cuda_pr_part_sums;
    ops.pr_part_share = kiln_cuda_pr_part_share;
    ops.pr_part_flip = kiln_cuda_pr_part_flip;
    ops.pr_part_share_seconds = kiln_cuda_pr_part_share_seconds;
    ops.pr_part_close = kiln_cuda_pr_part_close;
#ifdef KILN_HAVE_NCCL
    ops.comm_available = kiln_cuda_comm_available;
    ops.comm_id = kiln_cuda_comm_id;
    ops.comm_open = kiln_cuda_comm_open;
    ops.pr_part_allgather = kiln_cuda_pr_part_allgather;
    ops.comm_close = kiln_cuda_comm_close;
#endif
    ops.host_pinned_alloc = pinned_alloc;
    ops.host_pinned_free = pinned_free;
    return ops;
}

extern "C" const kiln_gpu_ops kiln_cuda_ops = make_ops();
