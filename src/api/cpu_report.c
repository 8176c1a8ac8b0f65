#include "cpu_report.h"

#include <stdio.h>

#include "../hash/hash_desc.h"
#include "../pow/sha256d_cpu.h"
#include "../scrypt/scrypt_cpu.h"
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
    kiln_sha256d_impl sha256d;
    kiln_scrypt_impl scrypt;
    kiln_sha256d_cpu_impls(&sha256d, 1);
    kiln_scrypt_cpu_impls(&scrypt, 1);
    if (used < len) snprintf(out + used, len - used, "sha256d=%s scrypt=%s", sha256d.name, scrypt.name);
}
