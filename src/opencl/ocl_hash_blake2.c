/* BLAKE2b and BLAKE2s on OpenCL, unkeyed and of the default digest length: kernels/hash_batch.cl's
 * kiln_blake2b_batch and kiln_blake2s_batch, by the kiln_blake2_variant (src/prim/blake2.h). */
#include "../prim/blake2.h"
#include "ocl_hash_family.h"

static int check(const kiln_gpu_hash_params *p)
{
    return (p->variant == KILN_BLAKE2_VARIANT_B && p->outlen == KILN_BLAKE2B_OUT) ||
           (p->variant == KILN_BLAKE2_VARIANT_S && p->outlen == KILN_BLAKE2S_OUT);
}

static kiln_status kernel(kiln_gpu *g, const kiln_gpu_hash_params *p, const kiln_ocl_digest_args *a, cl_kernel *k)
{
    return kiln_ocl_digest_plain(g, p->variant == KILN_BLAKE2_VARIANT_S ? "kiln_blake2s_batch" : "kiln_blake2b_batch",
                                 a, k);
}

const kiln_ocl_hash_family kiln_ocl_hash_blake2 = {check, kernel};
