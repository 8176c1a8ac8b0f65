#include "cpu_dispatch.h"

#include <string.h>

#include "cpu_features.h"

unsigned kiln_cpu_have(void)
{
    const kiln_cpu_features *f = kiln_cpu();
    return (f->avx2 ? KILN_NEEDS_AVX2 : 0u) | (f->avx512 ? KILN_NEEDS_AVX512 : 0u) | (f->sha_ni ? KILN_NEEDS_SHANI : 0u) |
           (f->bmi ? KILN_NEEDS_BMI : 0u);
}

void kiln_cpu_rank(const kiln_cpu_candidate *cands, int n, unsigned have, kiln_cpu_ranking *r)
{
    r->n = 0;
    for (int i = 0; i < n && r->n < KILN_CPU_MAX_CANDIDATES; i++) {
        /* the features first: a self-test of code the CPU cannot run would fault */
        if ((cands[i].needs & ~have) != 0) continue;
        if (cands[i].selftest && !cands[i].selftest(cands[i].impl)) continue;
        r->usable[r->n++] = &cands[i];
    }
}

int kiln_cpu_ranked_copy(const kiln_cpu_ranking *r, void *out, size_t size, int cap)
{
    int n = r->n < cap ? r->n : cap;
    for (int i = 0; i < n; i++) memcpy((char *)out + (size_t)i * size, r->usable[i]->impl, size);
    return n;
}
