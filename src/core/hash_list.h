/* The hash algorithms kiln has and the GPU batch families they bring, listed once. Two kinds of
 * line:
 *   H(name)              an algorithm: its descriptor kiln_hash_<name> (src/hash/hash_desc.h),
 *                        defined beside its code (src/hash/<family>_algos.c);
 *   F(name, ID, family)  an algorithm that brings a GPU batch family of its own: the algorithm, as
 *                        H(name), and the family KILN_HASH_GPU_<ID> (core/gpu.h), whose backends'
 *                        descriptors are kiln_cuda_hash_<family> (src/cuda/<family>_batch.cu) and
 *                        kiln_ocl_hash_<family> (src/opencl/ocl_hash_<family>.c); the algorithms
 *                        after it may name that family too (sha256d and sha224 run on SHA-256's).
 * An algorithm's id (kiln_hash_algo) is its place among all the lines, so the KILN_HASH_* constants
 * of kiln.h keep the first twelve; a family's value is its place among the F lines (NONE is 0),
 * which nothing outside the process stores. A new algorithm is one line at the end: F when it
 * brings a GPU family, else H. Everything that enumerates hashes (the workload registry, `kiln
 * hash`, bench, Python: src/hash/hash_list.c) or GPU families (the enum, both backends' tables)
 * is made from this list. An F line says in a comment which parameters (variant, rate, domain)
 * its family's descriptors set; their details are written beside its descriptors and kernels. */
#ifndef KILN_CORE_HASH_LIST_H
#define KILN_CORE_HASH_LIST_H

#define KILN_HASH_LIST(H, F)                                                                                           \
    F(sha256, SHA256, sha256) /* variant 0: SHA-256, 1: sha256d, 2: SHA-224 (its IV, 28 bytes out) */                  \
    H(sha256d)                                                                                                         \
    F(sha3_224, KECCAK, keccak) /* rate and domain */                                                                  \
    H(sha3_256) H(sha3_384) H(sha3_512) H(shake128) H(shake256) H(keccak224) H(keccak256) H(keccak384) H(keccak512)    \
    F(sha512, SHA512, sha512) /* variant: a kiln_sha512_variant (src/prim/sha512.h) */                                 \
    H(sha384) H(sha512_256) H(sha224)                                                                                  \
    F(sha1, SHA1, sha1) /* no parameters */                                                                            \
    F(md5, MD5, md5) /* no parameters */                                                                               \
    F(blake2b, BLAKE2, blake2) /* variant: a kiln_blake2_variant (src/prim/blake2.h); unkeyed, default digest only */  \
    H(blake2s)                                                                                                         \
    F(blake3, BLAKE3, blake3) /* unkeyed, any output length */

/* The GPU families alone, as X(name, ID, family): the F lines. */
#define KILN_HASH_LIST_SKIP_(name)
#define KILN_HASH_GPU_FAMILIES(X) KILN_HASH_LIST(KILN_HASH_LIST_SKIP_, X)

#endif
