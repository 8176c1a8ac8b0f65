/* The vector files of `kiln pagerank` (--personalization, --nstart, --dangling): one
 * `node<TAB>value` line per listed node (spaces also separate), original node ids, '#' comment
 * lines and blank lines skipped, LF or CRLF. Values are decimal numbers, finite and >= 0; a node
 * not listed gets 0, as a node missing from NetworkX's dict does. Lines are bounded
 * (PR_VECTOR_LINE_MAX), so any file is read in constant memory beyond the vector itself. */
#ifndef KILN_CLI_PR_VECTORS_H
#define KILN_CLI_PR_VECTORS_H

#include "kiln.h"

#define PR_VECTOR_LINE_MAX 4096

/* Reads the vector file at path over g's vertices into a new array *out (nodes values, internal
 * order). what names the vector in messages ("personalization"). Returns 0, or prints
 * "kiln CMD: FILE:LINE: message" (unknown or repeated node, bad or negative number, long line),
 * "kiln CMD: FILE: ..." (all zero, unreadable) and returns the exit code (2 bad input, 3 read
 * error, 128 + signal when interrupted). */
int pr_vector_read(const char *cmd, const char *path, const char *what, const kiln_graph *g, double **out);

#endif
