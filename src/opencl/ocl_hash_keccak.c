/* The Keccak sponges on OpenCL (kernels/hash_batch.cl): the 32- and 64-byte messages of a
 * fixed-length SHA3-256/Keccak-256 batch (a Merkle level's pairs) through the kernel whose length
 * is a constant (kiln_keccak_fixed136_l*), the hash algorithms' rates through a kernel each
 * (kiln_keccak_batch_r*), any other rate through the generic kernel. */
#include <stdio.h>

#include "ocl_hash_family.h"

static int check(const kiln_gpu_hash_params *p)
{
    return p->rate >= 8 && p->rate < 200 && p->rate % 8 == 0 && p->outlen > 0 && p->outlen <= 0xffffffffu;
}

static kiln_status kernel(kiln_gpu *g, const kiln_gpu_hash_params *p, const kiln_ocl_digest_args *a, cl_kernel *k)
{
    const int per_rate = p->rate == 72 || p->rate == 104 || p->rate == 136 || p->rate == 144 || p->rate == 168;
    const cl_uint rate = p->rate, domain = p->domain, outlen = (cl_uint)p->outlen;
    char name[40];
    kiln_status st;
    if (!a->with_offsets && p->rate == 136 && p->outlen == 32 && (a->msg_len == 32 || a->msg_len == 64)) {
        snprintf(name, sizeof name, "kiln_keccak_fixed136_l%u", (unsigned)a->msg_len);
        if ((st = kiln_ocl_kernel(g, name, k)) != KILN_OK ||
            (st = kiln_ocl_digest_arg(g, *k, 0, sizeof a->data, &a->data)) != KILN_OK ||
            (st = kiln_ocl_digest_arg(g, *k, 1, sizeof a->n, &a->n)) != KILN_OK ||
            (st = kiln_ocl_digest_arg(g, *k, 2, sizeof domain, &domain)) != KILN_OK)
            return st;
        return kiln_ocl_digest_arg(g, *k, 3, sizeof a->out, &a->out);
    }
    if (per_rate) {
        snprintf(name, sizeof name, "kiln_keccak_batch_r%u", p->rate);
        if ((st = kiln_ocl_digest_open(g, name, a, k)) != KILN_OK ||
            (st = kiln_ocl_digest_arg(g, *k, 6, sizeof domain, &domain)) != KILN_OK ||
            (st = kiln_ocl_digest_arg(g, *k, 7, sizeof outlen, &outlen)) != KILN_OK)
            return st;
        return kiln_ocl_digest_arg(g, *k, 8, sizeof a->out, &a->out);
    }
    if ((st = kiln_ocl_digest_open(g, "kiln_keccak_batch", a, k)) != KILN_OK ||
        (st = kiln_ocl_digest_arg(g, *k, 6, sizeof rate, &rate)) != KILN_OK ||
        (st = kiln_ocl_digest_arg(g, *k, 7, sizeof domain, &domain)) != KILN_OK ||
        (st = kiln_ocl_digest_arg(g, *k, 8, sizeof outlen, &outlen)) != KILN_OK)
        return st;
    return kiln_ocl_digest_arg(g, *k, 9, sizeof a->out, &a->out);
}

const kiln_ocl_hash_family kiln_ocl_hash_keccak = {check, kernel};
