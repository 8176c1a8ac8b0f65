/* The OpenCL backend's trees, graphs and scrypt: the operations of core/gpu.h's table that
 * ocl_ops.c registers (ocl_tree.c, ocl_pagerank.c), and the scrypt entries the search and batch
 * dispatches call (ocl_scrypt.c). */
#ifndef KILN_OPENCL_WORK_H
#define KILN_OPENCL_WORK_H

#include "ocl_state.h"

kiln_status kiln_ocl_tree_upload(kiln_gpu *g, const uint8_t *leaves, uint64_t n);
kiln_status kiln_ocl_tree_build(kiln_gpu *g, kiln_merkle_algo algo, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                                int *launches, float *gpu_ms);
kiln_status kiln_ocl_tree_read(kiln_gpu *g, uint64_t first, uint64_t count, uint8_t *out);

kiln_status kiln_ocl_pagerank(kiln_gpu *g, const kiln_gpu_pr_graph *graph, const kiln_gpu_pr_params *p, double *ranks,
                              kiln_gpu_pr_stats *stats);

/* A search kernel's launches over [start, start + count), at most per_launch nonces each: its
 * arguments first, n and room at the indices arg[0..2] (the job and buffers already set), its
 * candidate buffer cand_buf and 32-bit count count_buf. The launches' candidates are joined into
 * cand (up to cap; *ncand counts them all); the interrupt is read between launches (ocl_search.c). */
kiln_status kiln_ocl_search_launches(kiln_gpu *g, cl_kernel k, const cl_uint arg[3], cl_mem cand_buf, cl_mem count_buf,
                                     uint32_t start, uint64_t count, uint64_t per_launch, uint32_t *cand, uint32_t cap,
                                     uint64_t *ncand, float *gpu_ms);

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

#endif
