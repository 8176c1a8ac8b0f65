/* Keccak sponges over eight messages of one length at once with AVX-512 (keccak_lanes.h): each
 * 512-bit register holds the same lane of eight states. A rotation is one vprolq, and the compiler
 * folds chi's a ^ (~b & c) and theta's XORs into vpternlogq. Compiled with the AVX-512 flags
 * (src/CMakeLists.txt); called only when the CPU has AVX-512. */
#include "keccak_host.h"

#if defined(KILN_X86_KERNELS)

#include <immintrin.h>

#define LANES 8
#define LANES_FN kiln_keccak_x8_avx512
#define TARGET
typedef __m512i vec;

#define ROL(x, n) _mm512_rol_epi64((x), (n))
#define RC(r) _mm512_set1_epi64((long long)kiln_keccak_rc(r))
#define SET_WORDS(w) _mm512_loadu_si512((const void *)(w))
#define ZERO _mm512_setzero_si512()
#define STORE(dst, v) _mm512_storeu_si512((void *)(dst), (v))

#include "keccak_lanes.h"

#endif
