/* JSON-RPC 1.0 over HTTP to a Bitcoin-style node (libcurl, one handle per connection so the
 * longpoll and the miner's calls do not wait on each other). Errors name the step: connect,
 * HTTP status (401: the credentials), the RPC error's code and message, or the reply's shape. */
#ifndef KILN_SOLO_RPC_H
#define KILN_SOLO_RPC_H

#include <stddef.h>

typedef struct rpc_conn rpc_conn;

typedef struct rpc_auth {
    const char *url; /* http://HOST:PORT[/path] */
    const char *user, *pass; /* or */
    const char *cookie_file; /* Bitcoin Core's .cookie: "__cookie__:<password>" */
} rpc_auth;

/* Reads the credentials (the cookie file now). NULL with the reason in err. */
rpc_conn *rpc_open(const rpc_auth *a, char *err, size_t errlen);
void rpc_close(rpc_conn *c);
/* A call in flight on c ends (as an error) soon after *flag becomes nonzero; the flag is read
 * without a lock, as a stop request that may be seen a moment late. */
void rpc_set_abort(rpc_conn *c, const int *flag);
/* Calls method with params (a JSON array text) and waits at most timeout_s. On success *result
 * is the "result" member as JSON text (malloc'd; "null" for null) and 0 is returned; otherwise -1
 * with the step and reason in err. */
int rpc_call(rpc_conn *c, const char *method, const char *params, double timeout_s, char **result, char *err,
             size_t errlen);

/* Helpers over result texts, so that callers need not include jansson (whose names collide with
 * cli/common/json_out.h). A JSON string literal for s (malloc'd, NULL without memory). */
char *rpc_quote(const char *s);
/* result is null: 0; a string: 1, copied to out; anything else: 2, its text copied to out. */
int rpc_result_string(const char *result, char *out, size_t n);
/* The string member key of an object result, copied to out: 0, or -1 when there is none. */
int rpc_member_string(const char *result, const char *key, char *out, size_t n);

#endif
