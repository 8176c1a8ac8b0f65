/* The text formats of `kiln hash`, as GNU coreutils' sha256sum (9.1) writes and reads them:
 *   <hex>  <name>              the default; '*' instead of the second space marks binary mode
 *   TAG (<name>) = <hex>       --tag (BSD style); OpenSSL's "TAG(<name>)= <hex>" reads the same
 * A name holding '\\', a newline or a carriage return is escaped ("\\\\", "\\n", "\\r") and the
 * line then starts with '\\', so every name survives a line-based list. Verdicts ("<name>: OK")
 * escape a name only when it holds a newline, as sha256sum -c does.
 *
 * Lists are read through a bounded line reader: a line longer than the limit is reported as one
 * improperly formatted line, never a reason to grow, so a list of any size (or /dev/urandom)
 * is checked in constant memory. Everything here is pure text handling, fuzzed by
 * fuzz/fuzz_checklist.c. */
#ifndef KILN_CLI_HASH_LINES_H
#define KILN_CLI_HASH_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "kiln.h"

/* The longest output of an extendable-output hash (--length), in bytes. */
#define HASH_MAX_LENGTH (1u << 20)
/* The longest name a list line carries: Linux's PATH_MAX. */
#define HASH_NAME_MAX 4096
/* The longest list line: the longest digest in hex, the longest name escaped, a tag and the
 * separators. Longer lines are improperly formatted. */
#define HASH_LINE_MAX (2 * HASH_MAX_LENGTH + 2 * HASH_NAME_MAX + 64)

/* One parsed list line. The pointers point into the line, which the parser modifies (the name
 * is unescaped in place). */
typedef struct check_line {
    const char *tag; /* the algorithm tag of a BSD-style line, tag_len characters; NULL otherwise */
    size_t tag_len;
    const char *hex; /* hex digest, hex_len characters */
    size_t hex_len;
    const char *name; /* NUL-terminated, nonempty */
} check_line;

enum { CHECK_LINE_BAD = -1, CHECK_LINE_OK = 0, CHECK_LINE_SKIP = 1 };

/* How a list separates digest and name, decided by its first untagged line as coreutils does:
 * two characters ("  " or " *") or, for BSD `md5 -r` lists, one space or tab. Mixing the two
 * in one list is refused, so a name cannot gain or lose a leading space by an attacker's edit. */
enum { CHECK_SEP_UNKNOWN = -1, CHECK_SEP_TWO = 0, CHECK_SEP_ONE = 1 };

/* Parses line[0..len) (without its '\n'; line[len] must be writable). Returns CHECK_LINE_OK
 * with *out filled, CHECK_LINE_SKIP for an empty line or a '#' comment, CHECK_LINE_BAD when
 * improperly formatted: no nonempty even run of hex digits, a NUL byte, an empty name, a bad
 * escape. *sep is the list's separator state (start with CHECK_SEP_UNKNOWN). A trailing '\r'
 * (a list written on Windows) is dropped. The digest's length is for the caller to judge. */
int check_line_parse(char *line, size_t len, int *sep, check_line *out);

/* Writes a list line with its '\n': `<hex>  <name>`, or `TAG (<name>) = <hex>` when tag is not
 * NULL, escaped as coreutils does. Returns the length written, or the length needed (without
 * the NUL) when it exceeds cap, as snprintf does. */
size_t hash_line_format(char *buf, size_t cap, const char *tag, const char *hex, const char *name);
/* The same, with binary set: `<hex> *<name>`, the binary-mode marker sha256sum -b writes (the
 * digest is the same: GNU reads every file as bytes on Linux). A --tag line has no marker. */
size_t hash_line_format_mode(char *buf, size_t cap, const char *tag, const char *hex, const char *name, int binary);

/* Writes name as a verdict or a message shows it (no '\n' added): escaped with a leading '\\'
 * when it holds a newline, so that one result is one line. Returns as hash_line_format. */
size_t check_name_format(char *buf, size_t cap, const char *name);

/* Decodes 2*n hex digits (either case) into n bytes; 0 on success, -1 on a non-hex digit. */
int hex_to_bytes(const char *hex, size_t n, uint8_t *out);

/* The tag --tag writes for algo ("SHA256", "SHA3-256", ...). */
const char *hash_tag_name(kiln_hash_algo algo);
/* The algorithm a tag names (coreutils', OpenSSL's and kiln's spellings, case as written), or
 * -1 for a tag kiln does not know. */
int hash_tag_algo(const char *tag, size_t len);

/* 1 when algo (not an extendable-output hash) also makes digests of `bytes` bytes besides its
 * default, through kiln_hash_init_params' digest_len (BLAKE2b: 1..64, BLAKE2s: 1..32), else 0. */
int hash_digest_len_ok(kiln_hash_algo algo, size_t bytes);
/* hash_tag_algo, and b2sum's tags of a digest length: "BLAKE2b-256" is the tag "BLAKE2b" with a
 * 256-bit digest (bits a multiple of 8, no leading zero, a length hash_digest_len_ok takes).
 * *outlen: the digest bytes the tag names, 0 for the algorithm's default. -1 for an unknown tag. */
int hash_tag_algo_len(const char *tag, size_t len, size_t *outlen);

/* A list read line by line from a file descriptor in a buffer of max_line + 2 bytes. */
typedef struct line_reader {
    int fd;
    char *buf;
    size_t max_line, head, len; /* unread bytes are buf[head .. len) */
    int eof, skipping; /* skipping: the rest of a line already past max_line */
    uint64_t lineno; /* number of the line last returned, from 1 */
} line_reader;

enum { LINE_END = 0, LINE_OK = 1, LINE_TOO_LONG = 2, LINE_ERROR = -1 };

/* 0, or -1 when out of memory. The reader does not own fd. */
int line_reader_init(line_reader *lr, int fd, size_t max_line);
void line_reader_free(line_reader *lr);
/* The next line: LINE_OK with *line (NUL-terminated, without its '\n', valid until the next
 * call) and *len; LINE_TOO_LONG for a line longer than max_line, consumed to its end; LINE_END
 * at the end of the input (a last line without '\n' is still a line); LINE_ERROR with errno
 * set when a read fails (EINTR included, so that the caller can look at its interrupt flag;
 * calling again after EINTR goes on where it stopped). */
int line_reader_next(line_reader *lr, char **line, size_t *len);

#endif
