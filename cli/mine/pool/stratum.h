/* The Stratum v1 message layer (JSON-RPC lines, jansson): incoming lines become typed messages,
 * outgoing requests become lines. No sockets and no state here. */
#ifndef KILN_POOL_STRATUM_H
#define KILN_POOL_STRATUM_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "job.h"
#include "url.h"

typedef enum stratum_kind {
    ST_RESPONSE, /* an answer to one of our requests: id, result / error */
    ST_NOTIFY, /* mining.notify: job */
    ST_SET_DIFFICULTY, /* difficulty */
    ST_SET_EXTRANONCE, /* en1, en2_size */
    ST_RECONNECT, /* client.reconnect: host/port (empty = same), wait */
    ST_SET_VERSION_MASK, /* mask */
    ST_GET_VERSION, /* client.get_version (a request: answer it) */
    ST_SHOW_MESSAGE, /* client.show_message: text */
    ST_UNKNOWN, /* any other method: method, and id when it is a request */
} stratum_kind;

typedef struct stratum_msg {
    stratum_kind kind;
    json_t *root; /* owns everything below that points into JSON */
    json_t *id; /* request or response id (borrowed; NULL or JSON null for notifications) */
    int64_t int_id; /* id as an integer, -1 when it is not one */
    char method[64];
    /* ST_RESPONSE */
    json_t *result; /* borrowed */
    char error[200]; /* "" when the error member is absent or null */
    /* ST_NOTIFY */
    pool_job job; /* job.coinb owned by the message until taken (set to NULL) */
    /* ST_SET_DIFFICULTY */
    double difficulty;
    /* ST_SET_EXTRANONCE */
    uint8_t en1[POOL_EN1_MAX];
    size_t en1_len;
    int en2_size;
    /* ST_RECONNECT */
    char host[POOL_HOST_MAX + 1];
    char port[8];
    int wait_s;
    /* ST_SET_VERSION_MASK */
    uint32_t mask;
    /* ST_SHOW_MESSAGE */
    char text[200];
} stratum_msg;

/* Parses one line. 0 on success (free with stratum_msg_clear); -1 for a malformed line with the
 * reason in err (nothing to free), m->method still naming the method when the line had one, so
 * the caller can tell a broken mining.set_extranonce from junk. Unknown methods are not errors
 * (ST_UNKNOWN). */
int stratum_parse(const char *line, size_t len, stratum_msg *m, char *err, size_t errlen);
void stratum_msg_clear(stratum_msg *m);

/* mining.subscribe's result: [subscriptions, extranonce1, extranonce2_size]. session gets the
 * mining.notify subscription id ("" if none), to offer on reconnect. 0 or -1 with err. */
int stratum_subscribe_result(const json_t *result, char *session, size_t session_n, uint8_t en1[POOL_EN1_MAX],
                             size_t *en1_len, int *en2_size, char *err, size_t errlen);
/* mining.configure's result: 1 and *mask when version rolling was granted, 0 otherwise. */
int stratum_configure_result(const json_t *result, uint32_t *mask);
/* mining.authorize / mining.submit result: 1 only for JSON true. */
int stratum_result_true(const json_t *result);
/* A JSON-RPC id as the pool sent it (ids may be strings): compact JSON, cleaned for the log and
 * cut at 64 characters; "none" when absent. Returns out. */
const char *stratum_id_text(const json_t *id, char *out, size_t n);

/* Requests and answers, each one line ending in "\n"; malloc'd (NULL when out of memory). */
char *stratum_configure(int64_t id, uint32_t mask);
char *stratum_subscribe(int64_t id, const char *agent, const char *session);
char *stratum_authorize(int64_t id, const char *user, const char *pass);
char *stratum_submit(int64_t id, const char *user, const char *job_id, const uint8_t *en2, size_t en2_len,
                     uint32_t ntime, uint32_t nonce, int with_version, uint32_t version_bits);
/* An answer to a pool's request: result (stolen reference) or, when result is NULL, an error. */
char *stratum_answer(json_t *id, json_t *result, int code, const char *message);

#endif
