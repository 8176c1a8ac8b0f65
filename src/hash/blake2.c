/* Streaming BLAKE2b and BLAKE2s on the host (RFC 7693 section 3.3), around the compressions of
 * src/prim/blake2.h. BLAKE2 marks the last block in its compression (the flag f0), so a full
 * block is only compressed once more input follows it: the buffer may end up holding a whole
 * block, which final compresses. Whole blocks are compressed straight from the caller's data. */
#include <string.h>

#include "blake2_host.h"
#include "lanes_groups.h"

static unsigned block_of(kiln_blake2_variant v) { return v == KILN_BLAKE2_VARIANT_S ? KILN_BLAKE2S_BLOCK : KILN_BLAKE2B_BLOCK; }

/* n blocks at p, each counted whole, except that with `last` set the last one counts last_len
 * bytes and carries the final flags. One loop per variant with the chaining value and the counter
 * in locals, the compression inlined into it (flatten: gcc 12 at -O3 kept it a call, and BLAKE2b
 * measured some 5% slower than OpenSSL's, which loops over the blocks the same way; inlined, 5 to
 * 10% faster: docs/PERFORMANCE.md). */
#if defined(__GNUC__)
#define FLATTEN __attribute__((flatten))
#else
#define FLATTEN
#endif
FLATTEN static void blocks_b(kiln_blake2_ctx *c, const uint8_t *p, size_t n, int last, unsigned last_len)
{
    uint64_t h[8], t0 = c->t[0], t1 = c->t[1];
    memcpy(h, c->h, sizeof h);
    for (size_t i = 0; i < n; i++, p += KILN_BLAKE2B_BLOCK) {
        const int fin = last && i + 1 == n;
        const uint64_t add = fin ? last_len : KILN_BLAKE2B_BLOCK;
        t0 += add;
        t1 += t0 < add;
        kiln_blake2b_compress_bytes(h, p, t0, t1, fin ? ~UINT64_C(0) : 0, fin ? c->last_node : 0);
    }
    memcpy(c->h, h, sizeof h);
    c->t[0] = t0, c->t[1] = t1;
}

FLATTEN static void blocks_s(kiln_blake2_ctx *c, const uint8_t *p, size_t n, int last, unsigned last_len)
{
    uint32_t h[8];
    uint64_t t = c->t[0];
    for (int i = 0; i < 8; i++) h[i] = (uint32_t)c->h[i];
    for (size_t i = 0; i < n; i++, p += KILN_BLAKE2S_BLOCK) {
        const int fin = last && i + 1 == n;
        t += fin ? last_len : KILN_BLAKE2S_BLOCK;
        kiln_blake2s_compress_bytes(h, p, (uint32_t)t, (uint32_t)(t >> 32), fin ? 0xffffffffu : 0,
                                    fin ? (uint32_t)c->last_node : 0);
    }
    for (int i = 0; i < 8; i++) c->h[i] = h[i];
    c->t[0] = t;
}

static void blocks(kiln_blake2_ctx *c, const uint8_t *p, size_t n, int last, unsigned last_len)
{
    if (n == 0) return;
    if (c->variant == KILN_BLAKE2_VARIANT_B) blocks_b(c, p, n, last, last_len);
    else blocks_s(c, p, n, last, last_len);
}

static void store_le(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void kiln_blake2_init_param(kiln_blake2_ctx *c, kiln_blake2_variant v, const kiln_blake2_param *p)
{
    /* the parameter block (section 2.5; BLAKE2s's node offset is 6 bytes, its depth and inner
     * length follow at 14 and 15), XORed into the IV word by word */
    const int b = v == KILN_BLAKE2_VARIANT_B;
    const unsigned salt_at = b ? 32 : 16, salt_max = b ? KILN_BLAKE2B_SALT : KILN_BLAKE2S_SALT;
    uint8_t pb[64] = {0};
    pb[0] = (uint8_t)p->outlen;
    pb[1] = (uint8_t)p->key_len;
    pb[2] = (uint8_t)p->fanout;
    pb[3] = (uint8_t)p->depth;
    store_le(pb + 4, p->leaf_size, 4);
    store_le(pb + 8, p->node_offset, b ? 8 : 6);
    pb[b ? 16 : 14] = (uint8_t)p->node_depth;
    pb[b ? 17 : 15] = (uint8_t)p->inner_size;
    if (p->salt_len) memcpy(pb + salt_at, p->salt, p->salt_len < salt_max ? p->salt_len : salt_max);
    if (p->person_len) memcpy(pb + salt_at + salt_max, p->person, p->person_len < salt_max ? p->person_len : salt_max);

    memset(c, 0, sizeof *c);
    c->variant = v;
    c->outlen = p->outlen;
    c->last_node = p->last_node ? ~UINT64_C(0) : 0;
    if (b) {
        const uint64_t iv[8] = {KILN_BLAKE2B_IV_LIST};
        for (int i = 0; i < 8; i++) c->h[i] = iv[i] ^ kiln_blake2_load_le64(pb + 8 * i);
    } else {
        const uint32_t iv[8] = {KILN_BLAKE2S_IV_LIST};
        for (int i = 0; i < 8; i++) c->h[i] = iv[i] ^ kiln_load_le32(pb + 4 * i);
        c->last_node &= 0xffffffffu;
    }
    /* a key is the first block, zero-padded (section 3.3) */
    if (p->key_len) {
        memcpy(c->buf, p->key, p->key_len);
        c->buflen = block_of(v);
    }
}

void kiln_blake2_init(kiln_blake2_ctx *c, kiln_blake2_variant v, unsigned outlen)
{
    const kiln_blake2_param p = {.outlen = outlen, .fanout = 1, .depth = 1};
    kiln_blake2_init_param(c, v, &p);
}

void kiln_blake2_update(kiln_blake2_ctx *c, const void *data, size_t len)
{
    const uint8_t *in = data;
    const unsigned block = block_of(c->variant);
    if (len == 0) return;
    if (c->buflen) {
        if (c->buflen < block) {
            size_t take = block - c->buflen < len ? block - c->buflen : len;
            memcpy(c->buf + c->buflen, in, take);
            c->buflen += (unsigned)take;
            in += take;
            len -= take;
        }
        if (len == 0) return; /* the buffered block may be the last */
        blocks(c, c->buf, 1, 0, 0);
        c->buflen = 0;
    }
    /* whole blocks from the input, keeping the last (possibly whole) one for final */
    size_t n = (len - 1) / block;
    blocks(c, in, n, 0, 0);
    in += n * block;
    len -= n * block;
    memcpy(c->buf, in, len);
    c->buflen = (unsigned)len;
}

void kiln_blake2_final(kiln_blake2_ctx *c, uint8_t *out)
{
    const unsigned block = block_of(c->variant);
    memset(c->buf + c->buflen, 0, block - c->buflen);
    blocks(c, c->buf, 1, 1, c->buflen);
    const unsigned word = c->variant == KILN_BLAKE2_VARIANT_B ? 8 : 4;
    uint8_t full[KILN_BLAKE2B_OUT];
    for (int i = 0; i < 8; i++) store_le(full + word * i, c->h[i], word);
    memcpy(out, full, c->outlen);
}

/* ---- a lane kernel over a batch, BLAKE2s's and BLAKE2b's alike (blake2s_batch.c, blake2b_batch.c) */

typedef struct lanes_run {
    const kiln_blake2s_lanes_impl *l;
    unsigned outlen;
} lanes_run;

static void run_group(void *arg, const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    const lanes_run *r = arg;
    r->l->hash(r->outlen, msg, len, out);
}

int kiln_blake2_lanes_kat(const kiln_blake2s_lanes_impl *l, unsigned outlen, const kiln_lanes_kat *kat)
{
    lanes_run r = {l, outlen};
    return kiln_lanes_kat_check(kat, l->lanes, run_group, &r);
}

void kiln_blake2_lanes_batch(const kiln_blake2s_lanes_impl *l, kiln_blake2_variant v, unsigned outlen,
                             const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    lanes_run r = {l, outlen};
    for (size_t i = kiln_lanes_groups(l->lanes, data, msg_len, n, out, outlen, run_group, &r); i < n; i++) {
        kiln_blake2_ctx c;
        kiln_blake2_init(&c, v, outlen);
        kiln_blake2_update(&c, data + i * msg_len, msg_len);
        kiln_blake2_final(&c, out + i * outlen);
    }
}
