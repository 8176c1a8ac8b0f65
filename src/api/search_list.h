/* The nonce searches, one descriptor each (core/search_desc.h) kept beside its code: adding a
 * proof of work is its descriptor and one line in search_list.c. */
#ifndef KILN_API_SEARCH_LIST_H
#define KILN_API_SEARCH_LIST_H

#include "../core/search_desc.h"

/* The search of algo, or NULL for a value out of kiln_algo's range. */
const kiln_search_desc *kiln_search_desc_of(kiln_algo algo);

#endif
