/* What the process can hold, checked before the library allocates for a size an input declares
 * (a Matrix Market header, a CSR cache header, an RMAT scale, scrypt's N) or grows to (a SNAP edge
 * list): such an input is refused at once, naming the limit, instead of being read until the
 * allocator or the kernel's OOM killer gives up. The one place that knows the limits. */
#ifndef KILN_CORE_MEM_LIMIT_H
#define KILN_CORE_MEM_LIMIT_H

#include <stdint.h>

#include "ctx.h"

/* Peak bytes per vertex of a load and a CPU PageRank: the CSR build's four vertex arrays (28), the
 * original ids (8) and the two rank vectors (16). */
#define KILN_GRAPH_NODE_BYTES 52u
/* Peak bytes per arc once vertex indices are known: the 32-bit pair (8), the build's scatter
 * array (4) and the final sources (4). */
#define KILN_GRAPH_ARC_BYTES 16u
/* Peak bytes per SNAP edge: the 64-bit pair as parsed (16), the remapped pair (8) and the sort of
 * both ids with its scratch (32), all alive during the remap. */
#define KILN_SNAP_EDGE_BYTES 56u

/* KILN_OK when `bytes` fit in the smallest of physical memory, the process's address-space and
 * data limits (ulimit -v, ulimit -d) and the context's kiln_ctx_set_memory_limit; otherwise KILN_ERR_INPUT with the message
 * "<what>: needs 32.0 GiB, more than this host's 16.0 GiB of physical memory", what formatted
 * from fmt. */
kiln_status kiln_mem_check(kiln_ctx *ctx, double bytes, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
