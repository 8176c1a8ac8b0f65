/* The sha256d nonce search: one work-item per nonce, the job's midstate (src/core/sha256d_job.h,
 * computed once on the host) and prim's compression. Not yet the folded per-nonce schedule of
 * src/cuda/sha256d_scan.cu: this is the reference form, every nonce through kiln_sha256d_job_hash.
 * A candidate is a nonce whose most significant hash word meets the target's (the host checks
 * the whole hash); the count goes on past cap, the stored ones stop there. */
#include "../../core/sha256d_job.h"

__kernel void kiln_sha256d_search(kiln_sha256d_job job, uint start, uint count, __global uint *cand, uint cap,
                                  __global volatile uint *ncand)
{
    uint k = (uint)get_global_id(0);
    if (k >= count) return;
    uint nonce = start + k;
    uint32_t digest[8];
    kiln_sha256d_job_hash(&job, nonce, digest);
    if (kiln_bswap32(digest[7]) <= job.target[7]) {
        uint slot = atomic_inc(ncand);
        if (slot < cap) cand[slot] = nonce;
    }
}
