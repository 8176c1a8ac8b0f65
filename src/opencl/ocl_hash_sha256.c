/* SHA-256, sha256d and SHA-224 on OpenCL: kernels/hash_batch.cl's kiln_sha256_batch, the variant
 * an argument (0 SHA-256, 1 sha256d, 2 SHA-224). */
#include "ocl_hash_family.h"

static int check(const kiln_gpu_hash_params *p)
{
    return p->variant >= 0 && p->variant <= 2 && p->outlen == (p->variant == 2 ? 28u : 32u);
}

static kiln_status kernel(kiln_gpu *g, const kiln_gpu_hash_params *p, const kiln_ocl_digest_args *a, cl_kernel *k)
{
    const cl_int variant = p->variant;
    kiln_status st = kiln_ocl_digest_open(g, "kiln_sha256_batch", a, k);
    if (st == KILN_OK) st = kiln_ocl_digest_arg(g, *k, 6, sizeof variant, &variant);
    return st == KILN_OK ? kiln_ocl_digest_arg(g, *k, 7, sizeof a->out, &a->out) : st;
}

const kiln_ocl_hash_family kiln_ocl_hash_sha256 = {check, kernel};
