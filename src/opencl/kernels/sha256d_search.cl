/* The sha256d nonce search: one work-item per nonce, through the per-nonce work every GPU backend
 * shares (src/core/sha256d_nonce.h: the job folded once on the host, the first block's rounds 3..63
 * and the second hash's rounds 0..60, digest word 7 alone). A candidate is a nonce whose most
 * significant hash word meets the target's (the host checks the whole hash); the count goes on
 * past cap, the stored ones stop there. */
#include "../../core/sha256d_nonce.h"

__kernel void kiln_sha256d_search(kiln_sha256d_folded c, uint start, uint count, __global uint *cand, uint cap,
                                  __global volatile uint *ncand)
{
    uint k = (uint)get_global_id(0);
    if (k >= count) return;
    uint nonce = start + k;
    if (kiln_sha256d_top(&c, nonce) <= c.target7) {
        uint slot = atomic_inc(ncand);
        if (slot < cap) cand[slot] = nonce;
    }
}
