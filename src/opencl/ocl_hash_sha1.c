/* SHA-1 on OpenCL: kernels/hash_batch.cl's kiln_sha1_batch. */
#include "../prim/sha1.h"
#include "ocl_hash_family.h"

static int check(const kiln_gpu_hash_params *p) { return p->outlen == KILN_SHA1_DIGEST; }

static kiln_status kernel(kiln_gpu *g, const kiln_gpu_hash_params *p, const kiln_ocl_digest_args *a, cl_kernel *k)
{
    (void)p;
    return kiln_ocl_digest_plain(g, "kiln_sha1_batch", a, k);
}

const kiln_ocl_hash_family kiln_ocl_hash_sha1 = {check, kernel};
