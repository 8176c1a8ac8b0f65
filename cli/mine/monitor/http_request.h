/* The monitoring endpoint's reading of an HTTP/1.x request head: the request line and the header
 * lines up to the blank line. Bodies are never read (every answer closes the connection). Input
 * from anyone who can connect: bounded, and fuzzed (fuzz/fuzz_http_request.c). */
#ifndef KILN_CLI_HTTP_REQUEST_H
#define KILN_CLI_HTTP_REQUEST_H

#include <stddef.h>

#define HTTP_MAX_HEAD 8192 /* bytes of request line and headers; more is refused with 431 */
#define HTTP_MAX_PATH 255

typedef struct http_request {
    char method[16];
    char path[HTTP_MAX_PATH + 1]; /* the target up to '?' */
} http_request;

/* The head at buf[0..len): 0 while it is incomplete, the head's length once it is whole and well
 * formed, or minus the status to answer: 400 (malformed), 414 (target too long), 431 (head over
 * HTTP_MAX_HEAD), 505 (not HTTP/1.x). */
int http_parse(const char *buf, size_t len, http_request *out);

#endif
