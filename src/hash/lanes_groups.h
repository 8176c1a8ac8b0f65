/* Equal-length messages back to back, cut into groups for a SIMD lanes kernel (Keccak's and
 * SHA-512's batches): the one loop that points each lane at its message and its digest. */
#ifndef KILN_HASH_LANES_GROUPS_H
#define KILN_HASH_LANES_GROUPS_H

#include <stddef.h>
#include <stdint.h>

/* One group: lanes messages of len bytes (msg[k]) to their digests (out[k]), with the caller's arg. */
typedef void (*kiln_lanes_group_fn)(void *arg, const uint8_t *const *msg, size_t len, uint8_t *const *out);

/* Runs group over messages [0, m) of n, m the largest multiple of lanes (lanes at most 16; none
 * when lanes < 2), digests of outlen bytes back to back in out; returns m, the first message
 * left for the caller to hash one at a time. */
static inline size_t kiln_lanes_groups(unsigned lanes, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out,
                                       size_t outlen, kiln_lanes_group_fn group, void *arg)
{
    const uint8_t *in[16];
    uint8_t *o[16];
    size_t i = 0;
    for (; lanes > 1 && lanes <= 16 && n - i >= lanes; i += lanes) {
        for (unsigned k = 0; k < lanes; k++) {
            in[k] = data + (i + k) * msg_len;
            o[k] = out + (i + k) * outlen;
        }
        group(arg, in, msg_len, o);
    }
    return i;
}

#endif
