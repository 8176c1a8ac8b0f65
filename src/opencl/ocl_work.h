/* The OpenCL backend's trees, graphs and scrypt: the operations of the tree and graph tables
 * (core/gpu_tree.h, gpu_graph.h) that ocl_ops.c registers (ocl_tree.c, ocl_pagerank.c), and the
 * scrypt entries the search and batch dispatches call (ocl_scrypt.c). */
#ifndef KILN_OPENCL_WORK_H
#define KILN_OPENCL_WORK_H

#include "ocl_state.h"

kiln_status kiln_ocl_tree_upload(kiln_gpu *g, const uint8_t *leaves, uint64_t n);
kiln_status kiln_ocl_tree_build(kiln_gpu *g, kiln_merkle_algo algo, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                                int *launches, float *gpu_ms);
kiln_status kiln_ocl_tree_read(kiln_gpu *g, uint64_t first, uint64_t count, uint8_t *out);
/* Leaves from rows (ocl_rows.c). */
kiln_status kiln_ocl_merkle_rows(kiln_gpu *g, kiln_merkle_algo algo, kiln_merkle_leaf_hash leaf, const uint8_t *rows,
                                 uint64_t n, size_t row_elems, uint8_t *leaves);

kiln_status kiln_ocl_pagerank(kiln_gpu *g, const kiln_gpu_pr_graph *graph, const kiln_gpu_pr_params *p, double *ranks,
                              kiln_gpu_pr_stats *stats);

/* What the PageRank parts (ocl_pagerank_part.c) share with the one-device path (ocl_pagerank.c):
 * kernels/pagerank.cl's work-group size and bin table size; the sums' type (*sbytes: 8 where the
 * device has float64, else 4; a failure when dbl asks for float64 without it) and how many edges a
 * staged work-group holds in local memory; the iteration and fold kernels of a rank type, offset
 * width and weighting, checked to run in groups of KILN_OCL_PR_WG; the stable sort by descending
 * degree (-1: out of memory); the rows laid out in new labels (row i is vertex rows_old[i] of gr,
 * its sources at src + noff[i] ascending, weighted: each edge's share of its source's out-weight at
 * w + noff[i] in the rank type); the bin table of rows in descending degree order whose offsets the
 * kernel reads at row0 + i (-1 when they do not fit). */
#define KILN_OCL_PR_WG 256
#define KILN_OCL_PR_BIN_WORDS 39
kiln_status kiln_ocl_pr_shape(kiln_gpu *g, int dbl, size_t *sbytes, uint32_t *stage_cap);
kiln_status kiln_ocl_pr_kernels(kiln_gpu *g, int dbl, int wide, int weighted, cl_kernel *iter, cl_kernel *fold);
/* What the iteration and fold kernels take, a whole graph's or a part's: the buffers, the groups
 * a pass, the sums' size (sbytes), the local staging bytes, the damping, 1 / n and the fold's
 * convergence threshold (negative: never, the host decides). */
typedef struct kiln_ocl_pr_args {
    cl_mem off, src, odeg, w, tp, tq, y0, y1, state, sums, part, bins;
    cl_uint groups;
    size_t sbytes, stage_bytes;
    double damping, inv_n, threshold;
} kiln_ocl_pr_args;
kiln_status kiln_ocl_pr_set_args(kiln_gpu *g, cl_kernel iter, cl_kernel fold, const kiln_ocl_pr_args *a);
int kiln_ocl_pr_sort_by_degree(uint64_t n, const uint32_t *deg, uint32_t *order);
kiln_status kiln_ocl_pr_layout_rows(kiln_ctx *ctx, const kiln_gpu_pr_graph *gr, uint32_t *rows_old, uint64_t rows,
                                    const uint32_t *old2new, const uint64_t *noff, int dbl, uint32_t *src, void *w);
int kiln_ocl_pr_part_bins(const uint64_t *noff, uint64_t rows, uint64_t row0, uint32_t stage_cap, cl_ulong *bins,
                          uint64_t *groups);

/* PageRank over row parts (core/gpu_graph.h's kiln_gpu_pr_part_ops, ocl_pagerank_part.c). */
KILN_GPU_PR_PART_DECLARE(kiln_ocl);

/* One launch of a search over nonces [first, first + n), keeping at most `room` candidates: it
 * enqueues its kernels, waits for them and gives their device time in *ms. */
typedef kiln_status (*kiln_ocl_search_launch)(kiln_gpu *g, void *arg, cl_uint first, cl_uint n, cl_uint room,
                                              float *ms);
/* A search's launches over [start, start + count) through `launch`, whose kernels write candidates
 * to cand_buf and count them in the 32-bit count_buf (zeroed here before each launch). The first
 * launch holds first_launch nonces, each later one what the last one's pace gives in a fraction of
 * a second (KILN_OCL_SEARCH_LAUNCH_S), at most per_launch. The launches' candidates are joined into
 * cand (up to cap; *ncand counts them all); the interrupt is read between launches (ocl_search.c). */
#define KILN_OCL_SEARCH_LAUNCH_S 0.2
kiln_status kiln_ocl_search_launches(kiln_gpu *g, kiln_ocl_search_launch launch, void *arg, cl_mem cand_buf,
                                     cl_mem count_buf, uint32_t start, uint64_t count, uint64_t first_launch,
                                     uint64_t per_launch, uint32_t *cand, uint32_t cap, uint64_t *ncand,
                                     float *gpu_ms);

/* The Litecoin search over [start, start + count) (count already checked against 2^32) in the
 * launch shape cfg: its candidates as kiln_ocl_search's; the KDF batch (io as core/gpu.h's KDF
 * batch) and its plan (the table's batch_plan; ocl_scrypt.c). */
kiln_status kiln_ocl_scrypt_search(kiln_gpu *g, const kiln_scrypt_job *job, const kiln_gpu_scrypt_cfg *cfg,
                                   uint32_t start, uint64_t count, uint32_t *cand, uint32_t cap, uint64_t *ncand,
                                   float *gpu_ms);
kiln_status kiln_ocl_scrypt_kdf(kiln_gpu *g, const kiln_gpu_scrypt_kdf_cfg *cfg, const kiln_gpu_batch_io *io,
                                float *gpu_ms);
kiln_status kiln_ocl_batch_plan(kiln_gpu *g, const kiln_gpu_batch *w, uint64_t n, size_t item_len, uint64_t *slots,
                                uint32_t *gap);

/* The buffers and kernel of one batch or batch bench (ocl_batch.c, ocl_bench.c), released on every
 * path out. */
typedef struct kiln_ocl_batch_res {
    cl_mem data, offsets, out;
    cl_kernel k;
} kiln_ocl_batch_res;

static inline void kiln_ocl_batch_release(kiln_ocl_batch_res *r)
{
    if (r->data) clReleaseMemObject(r->data);
    if (r->offsets) clReleaseMemObject(r->offsets);
    if (r->out) clReleaseMemObject(r->out);
    if (r->k) clReleaseKernel(r->k);
}

/* Milliseconds from the start of `first` to the end of `last`, by their profiling counters (0 where
 * those say nothing): the device time of the launches between two events of the in-order queue. */
static inline float kiln_ocl_span_ms(cl_event first, cl_event last)
{
    cl_ulong t0 = 0, t1 = 0;
    if (clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) != CL_SUCCESS || t1 < t0)
        return 0;
    return (float)((double)(t1 - t0) / 1e6);
}

/* The graph table's builds (ocl_graph_build.c) and the device memory they count on (ocl_memory.c:
 * the core table's mem_info, an estimate of what is free; max_buffer, the largest allocation). */
kiln_status kiln_ocl_csr_from_edges(kiln_gpu *g, const uint32_t *src, const uint32_t *dst, uint64_t count, uint64_t n,
                                    int undirected, int drop_loops, kiln_gpu_csr *out);
kiln_status kiln_ocl_rmat_csr(kiln_gpu *g, const kiln_rmat_spec *spec, int undirected, kiln_gpu_csr *out);
kiln_status kiln_ocl_rmat_part_csr(kiln_gpu *g, const kiln_rmat_spec *spec, int undirected, uint64_t v0, uint64_t v1,
                                   kiln_gpu_csr *out);
kiln_status kiln_ocl_mem_info(kiln_gpu *g, uint64_t *free_bytes, uint64_t *total_bytes);
uint64_t kiln_ocl_max_buffer(kiln_gpu *g);

#endif
