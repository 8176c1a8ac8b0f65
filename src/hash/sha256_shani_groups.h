/* The SHA-extension message schedule and rounds interleaved, shared by the compression
 * (sha256_shani.c) and the sha256d lane kernel (pow/sha256d_shani.c). The includer defines
 * SCHED(m0, m1, m2, m3) (m0 <- the next four schedule words from the sixteen in m0 .. m3) and
 * RNDS4(m, i) (rounds 4i .. 4i+3 with words m) for its own layout of the state. */
#ifndef KILN_HASH_SHA256_SHANI_GROUPS_H
#define KILN_HASH_SHA256_SHANI_GROUPS_H

/* Groups i .. i+3 (i >= 4, a multiple of 4) of four rounds each. */
#define GROUPS4(i)         \
    SCHED(m0, m1, m2, m3); \
    RNDS4(m0, (i));        \
    SCHED(m1, m2, m3, m0); \
    RNDS4(m1, (i) + 1);    \
    SCHED(m2, m3, m0, m1); \
    RNDS4(m2, (i) + 2);    \
    SCHED(m3, m0, m1, m2); \
    RNDS4(m3, (i) + 3)

#endif
