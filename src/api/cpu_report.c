#include "cpu_report.h"

#include <stdio.h>

#include "../hash/hash_desc.h"
#include "search_list.h"
#include "kiln.h"

/* Each hash family once (from the hash descriptors, in their order), then the searches' lanes. */
void kiln_cpu_dispatch_report(char *out, size_t len)
{
    if (!out || len == 0) return;
    const kiln_hash_family *seen[16];
    size_t nseen = 0, used = 0;
    out[0] = '\0';
    for (size_t a = 0; a < kiln_hash_desc_count() && used < len; a++) {
        const kiln_hash_family *f = kiln_hash_desc_of((kiln_hash_algo)a)->family;
        int dup = 0;
        for (size_t i = 0; i < nseen; i++) dup |= seen[i] == f;
        if (dup || nseen == sizeof seen / sizeof seen[0]) continue;
        seen[nseen++] = f;
        char impl[64];
        f->cpu_impl(impl, sizeof impl);
        int w = snprintf(out + used, len - used, "%s=%s ", f->name, impl);
        if (w < 0) return;
        used += (size_t)w;
    }
    for (int a = 0; a < KILN_ALGO_COUNT && used < len; a++) {
        const kiln_search_desc *s = kiln_search_desc_of((kiln_algo)a);
        char impl[64];
        s->cpu_impl(impl, sizeof impl);
        int w = snprintf(out + used, len - used, "%s%s=%s", a ? " " : "", s->name, impl);
        if (w < 0) return;
        used += (size_t)w;
    }
}
