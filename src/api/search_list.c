#include "search_list.h"

static const kiln_search_desc *const searches[KILN_ALGO_COUNT] = {
    [KILN_ALGO_SHA256D] = &kiln_sha256d_search,
    [KILN_ALGO_SCRYPT] = &kiln_scrypt_search,
};

const kiln_search_desc *kiln_search_desc_of(kiln_algo algo)
{
    return (unsigned)algo < KILN_ALGO_COUNT ? searches[algo] : NULL;
}
