/* The table of hash descriptors, by id, made from the one list of core/hash_list.h (which says
 * how an algorithm is added). Everything that enumerates hashes (the workload registry, `kiln
 * hash`, bench, Python) reads this table. */
#include "hash_desc.h"

#define DECLARE(n) extern const kiln_hash_desc kiln_hash_##n;
#define DECLARE_F(n, ID, family) DECLARE(n)
KILN_HASH_LIST(DECLARE, DECLARE_F)
#define ENTRY(n) &kiln_hash_##n,
#define ENTRY_F(n, ID, family) ENTRY(n)
static const kiln_hash_desc *const list[] = {KILN_HASH_LIST(ENTRY, ENTRY_F)};

size_t kiln_hash_desc_count(void) { return sizeof list / sizeof list[0]; }

const kiln_hash_desc *kiln_hash_desc_of(kiln_hash_algo algo)
{
    return (size_t)algo < kiln_hash_desc_count() ? list[algo] : NULL;
}
