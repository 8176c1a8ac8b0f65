/* SHA-512, SHA-384 and SHA-512/256 on OpenCL: kernels/hash_batch.cl's kiln_sha512_batch_v<variant>,
 * a kernel a kiln_sha512_variant (src/prim/sha512.h). */
#include <stdio.h>

#include "../prim/sha512.h"
#include "ocl_hash_family.h"

static int check(const kiln_gpu_hash_params *p)
{
    return p->variant >= 0 && p->variant <= 2 && p->outlen == kiln_sha512_digest_len((kiln_sha512_variant)p->variant);
}

static kiln_status kernel(kiln_gpu *g, const kiln_gpu_hash_params *p, const kiln_ocl_digest_args *a, cl_kernel *k)
{
    char name[32];
    snprintf(name, sizeof name, "kiln_sha512_batch_v%d", p->variant);
    return kiln_ocl_digest_plain(g, name, a, k);
}

const kiln_ocl_hash_family kiln_ocl_hash_sha512 = {check, kernel};
