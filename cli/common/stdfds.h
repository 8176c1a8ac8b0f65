/* The three standard descriptors, guarded at start-up (docs/RELIABILITY.md): a closed standard
 * stream (`<&-`, `>&-`, `2>&-`) is noted and its number held on /dev/null, so that no file kiln
 * or a library under it opens later (a GPU driver's device file, an output file) takes its place
 * and is read as standard input or written as standard output. Each is held in the direction it
 * cannot be used in: standard input open for writing only, the other two for reading only, so
 * that reading `-` from a closed standard input still fails with EBADF (exit 2) and writing to a
 * closed standard output or error still fails with EBADF, as they did before the guard. */
#ifndef KILN_CLI_STDFDS_H
#define KILN_CLI_STDFDS_H

/* Guards descriptors 0, 1 and 2: call it first thing in main, before anything can open a file. */
void cli_std_guard(void);
/* 1 when descriptor fd (0, 1 or 2) was closed when kiln started, else 0. */
int cli_std_closed(int fd);

#endif
