/* A large regular file read ahead of its consumer (issue 38.2): a thread reads it in large blocks
 * into a small ring of buffers while the caller parses or hashes the block before, so that the
 * disk (or the page cache's copy) and the consumer's work overlap and a file is taken in at the
 * slower of the two, not at their sum. The file is read with read(), never mapped: a file that
 * shrinks under a mapping raises SIGBUS, one that shrinks under read() just ends early, which is
 * noticed (FILE_AHEAD_SHRANK) and reported as an error rather than a digest of half a file.
 *
 * Only regular files: a pipe, a FIFO, a terminal or standard input is read by its caller as
 * before (cli_wait_readable, one read at a time), since reading ahead of them gains nothing. */
#ifndef KILN_CLI_FILE_AHEAD_H
#define KILN_CLI_FILE_AHEAD_H

#include <stddef.h>
#include <stdint.h>

/* Files smaller than this are read directly: a thread would only add its start to the time. */
#define FILE_AHEAD_MIN ((uint64_t)8 << 20)

/* file_ahead_next's result when the file ended before the size it had when reading began. */
#define FILE_AHEAD_SHRANK (-1)

typedef struct file_ahead file_ahead;

/* A block for a consumer that keeps pace with a core's memcpy (a hash): 1 MiB, within a server
 * core's L2 or its L3 slice between the reader's copy and the hash (512 KiB and 2 MiB measured
 * the same on a loaded 2-core host); consumers that wake threads for each block take larger ones. */
#define FILE_AHEAD_BLOCK ((size_t)1 << 20)

/* Starts reading fd (a regular file, read from its current offset; it stays the caller's to
 * close, after file_ahead_stop) of size bytes, as fstat gave it, in blocks of `block` bytes (4 of
 * them held). NULL when no memory or thread could be had: the caller then reads fd itself, as
 * for a small file. */
file_ahead *file_ahead_start(int fd, uint64_t size, size_t block);

/* The next block of the file in *data (*len bytes, 0 at its end), valid until the next call or
 * file_ahead_stop. Returns 0; EINTR once a signal has arrived (cli_interrupted: a wait for a
 * slow disk looks at it ten times a second); FILE_AHEAD_SHRANK when the file ended before the
 * size it had at the start; or the errno of a failed read. Any nonzero result is final. */
int file_ahead_next(file_ahead *fa, const uint8_t **data, size_t *len);

/* Bytes the file had when reading began, and bytes handed out so far. */
uint64_t file_ahead_size(const file_ahead *fa);
uint64_t file_ahead_done(const file_ahead *fa);

/* Ends the reader (at its next block, at most one read later) and frees everything; NULL is
 * accepted. */
void file_ahead_stop(file_ahead *fa);

#endif
