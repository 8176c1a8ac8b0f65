/* The text formats of `kiln hash`, as GNU coreutils' sha256sum writes and reads them:
 *   <hex>  <name>        (a name holding '\\' or a newline is escaped, the line then starts with '\\')
 * and --check lines in the same format, a '*' (binary mode marker) allowed instead of the second
 * space. */
#ifndef KILN_CLI_HASH_LINES_H
#define KILN_CLI_HASH_LINES_H

#include <stddef.h>
#include <stdint.h>

/* One parsed --check line. The pointers point into the line, which the parser modifies (the name
 * is unescaped in place). */
typedef struct check_line {
    const char *hex; /* hex digest, hex_len characters */
    size_t hex_len;
    const char *name; /* NUL-terminated */
} check_line;

/* Parses one line (without its '\n'; a trailing '\r' is dropped). Returns 0 when well formed:
 * a nonempty even number of hex digits, a space, a space or '*', a nonempty name, and valid
 * escapes when the line starts with '\\'. Returns -1 otherwise. */
int check_line_parse(char *line, check_line *out);

/* Writes `<hex>  <name>\n` to buf (coreutils escaping). Returns the length written, or the
 * length needed (excluding the NUL) if it exceeds cap, as snprintf does. */
size_t hash_line_format(char *buf, size_t cap, const char *hex, const char *name);

/* Decodes 2*n hex digits (either case) into n bytes; 0 on success, -1 on a non-hex digit. */
int hex_to_bytes(const char *hex, size_t n, uint8_t *out);

#endif
