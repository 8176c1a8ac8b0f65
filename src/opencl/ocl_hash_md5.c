/* MD5 on OpenCL: kernels/hash_batch.cl's kiln_md5_batch. */
#include "../prim/md5.h"
#include "ocl_hash_family.h"

static int check(const kiln_gpu_hash_params *p) { return p->outlen == KILN_MD5_DIGEST; }

static kiln_status kernel(kiln_gpu *g, const kiln_gpu_hash_params *p, const kiln_ocl_digest_args *a, cl_kernel *k)
{
    (void)p;
    return kiln_ocl_digest_plain(g, "kiln_md5_batch", a, k);
}

const kiln_ocl_hash_family kiln_ocl_hash_md5 = {check, kernel};
