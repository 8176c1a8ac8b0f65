/* The hash algorithms kiln has, listed once: an algorithm's id (kiln_hash_algo) is its place here,
 * so the KILN_HASH_* constants of kiln.h keep the first twelve and a new algorithm goes at the
 * end, one line naming its descriptor (kiln_hash_<name>, defined beside its code). Everything that
 * enumerates hashes (the workload registry, `kiln hash`, bench, Python) reads this list. */
#include "hash_desc.h"

#define HASHES(X)                                                                                                      \
    X(sha256) X(sha256d) X(sha3_224) X(sha3_256) X(sha3_384) X(sha3_512) X(shake128) X(shake256) X(keccak224)          \
    X(keccak256) X(keccak384) X(keccak512)                                                                         \
    X(sha512) X(sha384) X(sha512_256)                                                                               \
    X(sha224) X(sha1) X(md5)                                                                                        \
    X(blake2b) X(blake2s)                                                                           \
    X(blake3)

#define DECLARE(n) extern const kiln_hash_desc kiln_hash_##n;
HASHES(DECLARE)
#define ENTRY(n) &kiln_hash_##n,
static const kiln_hash_desc *const list[] = {HASHES(ENTRY)};

size_t kiln_hash_desc_count(void) { return sizeof list / sizeof list[0]; }

const kiln_hash_desc *kiln_hash_desc_of(kiln_hash_algo algo)
{
    return (size_t)algo < kiln_hash_desc_count() ? list[algo] : NULL;
}
