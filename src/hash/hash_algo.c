/* The hashing front end: a stream type that forwards to the algorithm's family (hash_desc.h), so
 * `kiln hash` and the batch API treat every algorithm alike. */
#include <string.h>

#include "hash_desc.h"

size_t kiln_hash_algo_count(void) { return kiln_hash_desc_count(); }

/* A field of the algorithm's descriptor, or `none` for an id that names no algorithm. */
#define FIELD(algo, field, none) (kiln_hash_desc_of(algo) ? kiln_hash_desc_of(algo)->field : (none))

size_t kiln_hash_digest_len(kiln_hash_algo algo) { return FIELD(algo, digest, 0); }
size_t kiln_hash_block_len(kiln_hash_algo algo) { return FIELD(algo, block, 0); }
int kiln_hash_is_xof(kiln_hash_algo algo) { return FIELD(algo, xof, 0); }
unsigned kiln_hash_rate(kiln_hash_algo algo) { return FIELD(algo, rate, 0); }
uint8_t kiln_hash_domain(kiln_hash_algo algo) { return FIELD(algo, domain, 0); }
const char *kiln_hash_algo_hashlib_name(kiln_hash_algo algo) { return FIELD(algo, hashlib, NULL); }

const char *kiln_hash_algo_tag(kiln_hash_algo algo, int i)
{
    return i >= 0 && i < 2 ? FIELD(algo, tags[i], NULL) : NULL;
}

kiln_status kiln_hash_init(kiln_hash_stream *s, kiln_hash_algo algo) { return kiln_hash_init_params(s, algo, NULL); }

static int params_empty(const kiln_hash_params *p)
{
    return !p->digest_len && !p->key_len && !p->salt_len && !p->person_len && !p->context && !p->context_len && !p->tree;
}

kiln_status kiln_hash_init_params(kiln_hash_stream *s, kiln_hash_algo algo, const kiln_hash_params *p)
{
    const kiln_hash_desc *d = kiln_hash_desc_of(algo);
    if (!s || !d) return KILN_ERR_INPUT;
    s->algo = algo;
    s->out_len = d->digest;
    if (!p || (params_empty(p) && !d->family->init_params)) {
        d->family->init(s, d);
        return KILN_OK;
    }
    if (!d->family->init_params) return KILN_ERR_INPUT;
    return d->family->init_params(s, d, p);
}

kiln_status kiln_hash_update(kiln_hash_stream *s, const void *data, size_t len)
{
    const kiln_hash_desc *d = s ? kiln_hash_desc_of(s->algo) : NULL;
    if (!d || (len && !data)) return KILN_ERR_INPUT;
    return d->family->update(s, data, len);
}

kiln_status kiln_hash_final(kiln_hash_stream *s, uint8_t *out, size_t outlen)
{
    const kiln_hash_desc *d = s ? kiln_hash_desc_of(s->algo) : NULL;
    if (!d || !out || (d->xof ? outlen < 1 : outlen != s->out_len)) return KILN_ERR_INPUT;
    d->family->final(s, d, out, outlen);
    return KILN_OK;
}

kiln_status kiln_hash(kiln_hash_algo algo, const void *data, size_t len, uint8_t *out, size_t outlen)
{
    kiln_hash_stream s;
    kiln_status st = kiln_hash_init(&s, algo);
    if (st == KILN_OK) st = kiln_hash_update(&s, data, len);
    if (st == KILN_OK) st = kiln_hash_final(&s, out, outlen);
    return st;
}
