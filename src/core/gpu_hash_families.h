/* The GPU batch kernel families, listed once. A hash descriptor (src/hash/hash_desc.h) names one
 * by its kiln_hash_gpu_family value, KILN_HASH_GPU_<ID>; each GPU backend keeps its family's launch
 * and parameter check in the family's own file, as a descriptor named after <name>
 * (src/cuda/<name>_batch.cu: kiln_cuda_hash_<name>; src/opencl/ocl_hash_<name>.c:
 * kiln_ocl_hash_<name>), and finds it through this list. A new family is one line at the end:
 * the enum's values follow the lines (NONE is 0), and nothing outside this process stores them.
 * Each line: X(ID, name). What a family's parameters (variant, rate, domain) mean is its own
 * business, written beside its descriptors. */
#ifndef KILN_CORE_GPU_HASH_FAMILIES_H
#define KILN_CORE_GPU_HASH_FAMILIES_H

#define KILN_HASH_GPU_FAMILIES(X)                                                                                      \
    X(SHA256, sha256) /* variant 0: SHA-256, 1: sha256d, 2: SHA-224 (its IV, 28 bytes out) */                          \
    X(KECCAK, keccak) /* rate and domain */                                                                            \
    X(SHA512, sha512) /* variant: a kiln_sha512_variant (src/prim/sha512.h) */                                         \
    X(SHA1, sha1) /* no parameters */                                                                                  \
    X(MD5, md5) /* no parameters */                                                                                    \
    X(BLAKE2, blake2) /* variant: a kiln_blake2_variant (src/prim/blake2.h); unkeyed, default digest only */           \
    X(BLAKE3, blake3) /* unkeyed, any output length */

#endif
