/* A GPU hash family on OpenCL: its parameter check and its kernel's name and arguments, written in
 * the family's own file (ocl_hash_sha512.c defines kiln_ocl_hash_sha512; its kernels are in a .cl
 * file of kernels/) and found through the one list (KILN_HASH_GPU_FAMILIES, the F lines of
 * src/core/hash_list.h), so the batch and bench plumbing (ocl_batch.c, ocl_bench.c) names no
 * family. */
#ifndef KILN_OPENCL_OCL_HASH_FAMILY_H
#define KILN_OPENCL_OCL_HASH_FAMILY_H

#include "ocl_state.h"

/* A digest batch over device buffers: data padded with 16 readable bytes and 16-byte aligned (a
 * buffer's start), message i at offsets[i] - base (with_offsets) or i * msg_len, n messages. */
typedef struct kiln_ocl_digest_args {
    cl_mem data, offsets, out;
    int with_offsets;
    cl_ulong base, msg_len, n;
} kiln_ocl_digest_args;

typedef struct kiln_ocl_hash_family {
    /* whether p's parameters (variant, rate, outlen) are ones this family's kernels take */
    int (*check)(const kiln_gpu_hash_params *p);
    /* the kernel for p over a in *k (the caller's to release, also after a failure), its
     * arguments set; p already checked */
    kiln_status (*kernel)(kiln_gpu *g, const kiln_gpu_hash_params *p, const kiln_ocl_digest_args *a, cl_kernel *k);
} kiln_ocl_hash_family;

#define KILN_OCL_HASH_FAMILY_DECLARE(algo, ID, name) extern const kiln_ocl_hash_family kiln_ocl_hash_##name;
KILN_HASH_GPU_FAMILIES(KILN_OCL_HASH_FAMILY_DECLARE)
#undef KILN_OCL_HASH_FAMILY_DECLARE

/* Kernel `name` in *k with the six arguments every digest kernel takes first set (data, offsets,
 * with_offsets, base, msg_len, n: kernels/hash_batch.cl); the family sets the rest from 6 on. */
kiln_status kiln_ocl_digest_open(kiln_gpu *g, const char *name, const kiln_ocl_digest_args *a, cl_kernel *k);
/* Argument i of k: size bytes at v. */
kiln_status kiln_ocl_digest_arg(kiln_gpu *g, cl_kernel k, cl_uint i, size_t size, const void *v);
/* A kernel of those six arguments and then the digests (argument 6). */
kiln_status kiln_ocl_digest_plain(kiln_gpu *g, const char *name, const kiln_ocl_digest_args *a, cl_kernel *k);

#endif
