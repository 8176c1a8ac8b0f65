/* Ascending sorts of integer arrays (a CSR row's sources, packed keys), in place: insertion sort
 * where most rows are, an introsort past that (sort.c). */
#ifndef KILN_CORE_SORT_H
#define KILN_CORE_SORT_H

#include <stdint.h>

void kiln_sort_u32(uint32_t *a, uint64_t n);
void kiln_sort_u64(uint64_t *a, uint64_t n);

#endif
