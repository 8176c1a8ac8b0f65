/* kiln scrypt --batch FILE: the file's lines as passwords, one per line. A password is the
 * line's bytes exactly, without its '\n' (a '\r' before it stays, NUL bytes too: scrypt takes
 * any bytes); an empty line is the empty password; a last line without '\n' is still one, and
 * the '\n' that ends the file starts none. Pure text handling, fuzzed by
 * fuzz/fuzz_scrypt_batch.c. */
#ifndef KILN_CLI_SCRYPT_BATCH_LINES_H
#define KILN_CLI_SCRYPT_BATCH_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "kiln.h"

/* The passwords text[0..len) holds. */
size_t batch_count(const uint8_t *text, size_t len);
/* Fills out[0..batch_count) with the passwords (pointing into text) and the one salt; returns
 * the count. */
size_t batch_split(const uint8_t *text, size_t len, const void *salt, size_t salt_len, kiln_scrypt_input *out);

#endif
