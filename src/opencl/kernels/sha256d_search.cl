/* The sha256d nonce search, through the per-nonce work every GPU backend shares
 * (src/core/sha256d_nonce.h: the job folded once on the host, the first block's rounds 3..63 and
 * the second hash's rounds 0..60, digest word 7 alone). A candidate is a nonce whose most
 * significant hash word meets the target's (the host checks the whole hash); the count goes on
 * past cap, the stored ones stop there.
 *
 * The launch shape is CUDA's (src/cuda/sha256d_scan.cu): a work-group of L items tries L * npt
 * consecutive offsets, group g those from g * L * npt, an item every L-th of them. Each pass of the
 * loop then gives a group L adjacent nonces, as one launch of npt = 1 does, and the last group may
 * run past count: those nonces are hashed but never kept. */
#include "../../core/sha256d_nonce.h"

__kernel void kiln_sha256d_search(kiln_sha256d_folded c, uint start, uint count, __global uint *cand, uint cap,
                                  __global volatile uint *ncand, uint npt)
{
    uint lsz = (uint)get_local_size(0);
    /* below 2^32: a launch is at most 2^31 nonces, plus one group's worth of padding */
    uint base = (uint)get_group_id(0) * lsz * npt + (uint)get_local_id(0);
    /* kept rolled as CUDA's loop: the body is a whole double SHA-256, unrolling buys nothing but
     * code size and registers */
#pragma unroll 1
    for (uint i = 0; i < npt; i++) {
        uint off = base + i * lsz;
        if (kiln_sha256d_top(&c, start + off) <= c.target7 && off < count) {
            uint slot = atomic_inc(ncand);
            if (slot < cap) cand[slot] = start + off;
        }
    }
}
