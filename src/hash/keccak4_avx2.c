/* Keccak sponges over four messages of one length at once with AVX2 (keccak_lanes.h): each
 * 256-bit register holds the same lane of four states, the "times4" shape of XKCP's
 * KeccakP-1600-times4. For batches of equal-length messages (kiln_hash_batch, hash_batch in Python,
 * the CPU's Merkle trees), where one stream at a time leaves most of the core idle. AVX2 has no
 * 64-bit rotate: a rotation is two shifts and an OR, except by 8 and 56, which are byte shuffles.
 * Compiled with -mavx2 (src/CMakeLists.txt); called only when the CPU has AVX2. */
#include "keccak_host.h"

#if defined(KILN_X86_KERNELS)

#include <immintrin.h>

#define LANES 4
#define LANES_FN kiln_keccak_x4_avx2
#define TARGET __attribute__((target("avx2")))
typedef __m256i vec;

TARGET static inline vec rol(vec x, int n)
{
    if (n == 8)
        return _mm256_shuffle_epi8(x, _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2,
                                                       3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14));
    if (n == 56)
        return _mm256_shuffle_epi8(x, _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4,
                                                       5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8));
    return _mm256_or_si256(_mm256_slli_epi64(x, n), _mm256_srli_epi64(x, 64 - n));
}

#define ROL(x, n) rol((x), (n))
#define RC(r) _mm256_set1_epi64x((long long)kiln_keccak_rc(r))
#define SET_WORDS(w) _mm256_setr_epi64x((w)[0], (w)[1], (w)[2], (w)[3])
#define ZERO _mm256_setzero_si256()
#define STORE(dst, v) _mm256_storeu_si256((__m256i *)(void *)(dst), (v))

#include "keccak_lanes.h"

#endif
