/* One way to choose among CPU implementations of the same thing (a SHA-256 compression, a
 * Keccak-f[1600], a lane kernel): a list ranked fastest first, each entry naming the CPU features
 * it needs and a known-answer self-test. Once per process the list is filtered to the entries the
 * CPU can run and whose self-test passes, in rank order; the first is the one used. As Bitcoin
 * Core's SHA256AutoDetect does, a kernel is checked on this machine before it is trusted, so a
 * miscompiled or mis-detected path falls back to the next one instead of giving wrong hashes.
 * The last entry of every list is portable and needs nothing. */
#ifndef KILN_CORE_CPU_DISPATCH_H
#define KILN_CORE_CPU_DISPATCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

/* The SIMD and SHA-extension kernels (src files named *_avx2.c, *_avx512.c, *_shani.c,
 * keccak_zmm.c) are built on x86-64 with GCC or Clang, each with its own instruction-set flags
 * (src/CMakeLists.txt); whether the CPU has them is asked at run time (cpu_features.h). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define KILN_X86_KERNELS 1
#endif

enum { KILN_NEEDS_AVX2 = 1u, KILN_NEEDS_AVX512 = 2u, KILN_NEEDS_SHANI = 4u, KILN_NEEDS_BMI = 8u };

typedef struct kiln_cpu_candidate {
    const char *name;
    unsigned needs; /* KILN_NEEDS_* bits */
    const void *impl; /* the implementation, as the caller's own type */
    int (*selftest)(const void *impl); /* nonzero when impl reproduces external known answers */
} kiln_cpu_candidate;

#define KILN_CPU_MAX_CANDIDATES 8

typedef struct kiln_cpu_ranking {
    const kiln_cpu_candidate *usable[KILN_CPU_MAX_CANDIDATES]; /* rank order; usable[0] is used */
    int n;
} kiln_cpu_ranking;

/* The KILN_NEEDS_* bits this CPU (and its OS) offers. */
unsigned kiln_cpu_have(void);

/* Fills r from cands[0..n) (n <= KILN_CPU_MAX_CANDIDATES), in order: the entries whose needs are
 * all in `have` and whose self-test passes. Tests call it directly; everything else goes through
 * KILN_CPU_DISPATCH. */
void kiln_cpu_rank(const kiln_cpu_candidate *cands, int n, unsigned have, kiln_cpu_ranking *r);

/* Copies the first cap usable implementations of r to out (each `size` bytes, the caller's own
 * type), in rank order; returns how many. */
int kiln_cpu_ranked_copy(const kiln_cpu_ranking *r, void *out, size_t size, int cap);

/* Defines `static const kiln_cpu_ranking *fn(void)`, ranking the static array `cands` on the
 * first call of the process (pthread_once) and returning the same ranking ever after. Hashing
 * paths call it once per message: after the first call it costs one inlined acquire load. */
#define KILN_CPU_DISPATCH(fn, cands)                                                   \
    static kiln_cpu_ranking fn##_ranking;                                             \
    static pthread_once_t fn##_once = PTHREAD_ONCE_INIT;                              \
    static atomic_int fn##_ready;                                                     \
    static void fn##_rank(void)                                                       \
    {                                                                                 \
        kiln_cpu_rank((cands), (int)(sizeof(cands) / sizeof *(cands)), kiln_cpu_have(), &fn##_ranking); \
        atomic_store_explicit(&fn##_ready, 1, memory_order_release);                  \
    }                                                                                 \
    static inline const kiln_cpu_ranking *fn(void)                                    \
    {                                                                                 \
        if (!atomic_load_explicit(&fn##_ready, memory_order_acquire)) pthread_once(&fn##_once, fn##_rank); \
        return &fn##_ranking;                                                         \
    }

/* Its arguments where the x86 kernels are built (KILN_X86_KERNELS), nothing elsewhere. */
#if defined(KILN_X86_KERNELS)
#define KILN_X86_ONLY(...) __VA_ARGS__
#else
#define KILN_X86_ONLY(...)
#endif

/* The usual list and its KILN_CPU_DISPATCH(fn): the x86 kernels' entries given after `floor`
 * ({name, needs, &impl, selftest}, fastest first; left out where they are not built, so an impl
 * written in place as a compound literal names x86-only code safely), then the portable floor:
 * `floor` named floor_name, which needs nothing and no self-test because it is the reference the
 * test suite checks. */
#define KILN_CPU_LADDER(fn, floor_name, floor, ...)                                               \
    static const kiln_cpu_candidate fn##_candidates[] = {KILN_X86_ONLY(__VA_ARGS__, ){(floor_name), 0, &(floor), NULL}}; \
    KILN_CPU_DISPATCH(fn, fn##_candidates)

#endif
