/* --json: the one writer of JSON on standard output (docs/JSON.md has every command's schema).
 *
 * A command run with --json prints exactly one JSON value and a newline, whatever happens: the
 * parser turns JSON mode on when --json is among the arguments (opts.c), the command writes its
 * result through these calls, and json_end, at its one exit, completes the document. When the
 * command fails or a signal stops it, json_end closes what is open and adds to the top object
 * "error" (the last message cli_error printed, without "kiln <cmd>: "), "exit" (the exit status),
 * and for a signal "interrupted": true and "signal"; when nothing was written yet, the document is
 * that object alone. Strings are escaped as JSON needs; bytes that are not UTF-8 (a file name may
 * hold any) are written as \udcXX, as Python's surrogateescape reads them back; a number that is
 * not finite is written as null.
 *
 * Without JSON mode every call does nothing and json_end returns its code. */
#ifndef KILN_CLI_JSON_OUT_H
#define KILN_CLI_JSON_OUT_H

#include <stdint.h>

/* Turns JSON mode on. */
void json_begin(void);
int json_on(void);

/* Each call writes one member of the object open now (key given) or one element of the array
 * open now (key NULL). The first json_object / json_array opens the document. */
void json_object(const char *key);
void json_array(const char *key);
/* Closes the object or array opened last. The document itself is closed by json_end only, so
 * that it can still take the "error" members. */
void json_close(void);
void json_str(const char *key, const char *s); /* NULL: null */
void json_u64(const char *key, uint64_t v);
void json_int(const char *key, long long v);
/* v with a printf format of the double conversions ("%.17g", "%.6e", "%.0f") */
void json_num(const char *key, double v, const char *fmt);
void json_bool(const char *key, int v);
void json_null(const char *key);
/* Members already written as text (", \"k\": v, ..."), appended to the object open now. */
void json_raw(const char *members);

/* Remembers msg as the command's error (cli_error calls it). */
void json_note_error(const char *msg);
/* Completes the document (see above) and returns code. */
int json_end(int code);

#endif
