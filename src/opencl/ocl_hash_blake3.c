/* BLAKE3 on OpenCL, unkeyed, any output length: kernels/hash_batch.cl's kiln_blake3_batch, the
 * length an argument. */
#include "ocl_hash_family.h"

static int check(const kiln_gpu_hash_params *p) { return p->outlen > 0 && p->outlen <= 0xffffffffu; }

static kiln_status kernel(kiln_gpu *g, const kiln_gpu_hash_params *p, const kiln_ocl_digest_args *a, cl_kernel *k)
{
    const cl_uint outlen = (cl_uint)p->outlen;
    kiln_status st = kiln_ocl_digest_open(g, "kiln_blake3_batch", a, k);
    if (st == KILN_OK) st = kiln_ocl_digest_arg(g, *k, 6, sizeof outlen, &outlen);
    return st == KILN_OK ? kiln_ocl_digest_arg(g, *k, 7, sizeof a->out, &a->out) : st;
}

const kiln_ocl_hash_family kiln_ocl_hash_blake3 = {check, kernel};
