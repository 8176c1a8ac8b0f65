/* Equal-length messages back to back, cut into groups for a SIMD lanes kernel (Keccak's and
 * SHA-512's batches): the one loop that points each lane at its message and its digest; and the
 * known-answer gate of the lanes kernels that hash a message a lane (MD5's, BLAKE2's). */
#ifndef KILN_HASH_LANES_GROUPS_H
#define KILN_HASH_LANES_GROUPS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../prim/bytes.h"

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

/* A lanes kernel's known answers: lane k hashes msg_len bytes of "1234567890" repeated, every byte
 * XORed with k (every message word differs between lanes, so a kernel that mixes lanes up fails);
 * lane 0's digest must be lane0 and lane k's first four bytes, big-endian, lead[k] (lead holds
 * max_lanes); then "abc" in every lane must give abc. Digests of digest_len bytes. */
typedef struct kiln_lanes_kat {
    size_t msg_len, digest_len; /* at most 160 and 64 */
    const uint8_t *lane0, *abc;
    const uint32_t *lead;
    unsigned max_lanes;
} kiln_lanes_kat;

/* Whether group, run as a kernel of `lanes` lanes, gives kat's answers. */
static inline int kiln_lanes_kat_check(const kiln_lanes_kat *kat, unsigned lanes, kiln_lanes_group_fn group, void *arg)
{
    uint8_t msgs[16][160], digests[16][64];
    const uint8_t *in[16];
    uint8_t *out[16];
    if (lanes == 0 || lanes > 16 || lanes > kat->max_lanes || kat->msg_len > 160 || kat->digest_len > 64) return 0;
    for (unsigned k = 0; k < lanes; k++) {
        for (size_t i = 0; i < kat->msg_len; i++) msgs[k][i] = (uint8_t)("1234567890"[i % 10] ^ k);
        in[k] = msgs[k];
        out[k] = digests[k];
    }
    group(arg, in, kat->msg_len, out);
    int ok = memcmp(digests[0], kat->lane0, kat->digest_len) == 0;
    for (unsigned k = 0; k < lanes; k++) ok &= kiln_load_be32(digests[k]) == kat->lead[k];
    for (unsigned k = 0; k < lanes; k++) in[k] = (const uint8_t *)"abc";
    group(arg, in, 3, out);
    for (unsigned k = 0; k < lanes; k++) ok &= memcmp(digests[k], kat->abc, kat->digest_len) == 0;
    return ok;
}

#endif
