/* The two SNAP parsers behind kiln_parse_snap (graph.h): the serial one reads lines through the
 * reader, so it takes any input (gzip, pipes, standard input); the chunked one reads a regular
 * uncompressed file at chosen offsets, in chunks cut at line ends and parsed on the context's
 * threads, and gives the same edges in the same order, or the same error, as the serial one. */
#ifndef KILN_GRAPH_SNAP_H
#define KILN_GRAPH_SNAP_H

#include <stddef.h>

#include "graph.h"
#include "reader.h"

/* Bytes of file a chunk covers when the caller does not choose: large enough that a round's
 * fork, join and copy cost little beside its parse, small enough that a round of 16 chunks
 * polls the interrupt within a few tens of milliseconds. */
#define KILN_SNAP_CHUNK_DEFAULT (4u << 20)

kiln_status kiln_parse_snap_serial(kiln_ctx *ctx, kiln_reader *r, unsigned flags, kiln_raw_edges *raw);
/* 1 when r can be read in chunks: a regular file opened by path, not compressed. */
int kiln_snap_can_chunk(const kiln_reader *r);
/* chunk: bytes of file per chunk, 0 for KILN_SNAP_CHUNK_DEFAULT (tests force small ones so that
 * chunk ends fall everywhere). r must satisfy kiln_snap_can_chunk; it is consumed to its end. */
kiln_status kiln_parse_snap_chunked(kiln_ctx *ctx, kiln_reader *r, unsigned flags, size_t chunk, kiln_raw_edges *raw);

#endif
