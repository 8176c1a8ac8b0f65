#include "rpc.h"

#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RPC_REPLY_MAX (64u << 20) /* a template of 4 MB of transactions is about 10 MB of JSON */

struct rpc_conn {
    CURL *h;
    char url[512];
    char userpwd[512];
    long id;
    const volatile int *abort_flag;
};

typedef struct buf {
    char *p;
    size_t n, cap;
    int over;
} buf;

static size_t on_data(char *d, size_t size, size_t nm, void *user)
{
    buf *b = user;
    size_t n = size * nm;
    if (b->n + n + 1 > RPC_REPLY_MAX) {
        b->over = 1;
        return 0;
    }
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < b->n + n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) return 0;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
    b->p[b->n] = '\0';
    return n;
}

rpc_conn *rpc_open(const rpc_auth *a, char *err, size_t errlen)
{
    static int inited;
    if (!inited) {
        curl_global_init(CURL_GLOBAL_DEFAULT); /* the miner calls this before starting any thread */
        inited = 1;
    }
    if (strncmp(a->url, "http://", 7) != 0 && strncmp(a->url, "https://", 8) != 0) {
        snprintf(err, errlen, "--rpc '%s' is not an http:// URL", a->url);
        return NULL;
    }
    rpc_conn *c = calloc(1, sizeof *c);
    if (!c || strlen(a->url) >= sizeof c->url) {
        snprintf(err, errlen, "--rpc URL too long");
        free(c);
        return NULL;
    }
    strcpy(c->url, a->url);
    if (a->cookie_file) {
        FILE *f = fopen(a->cookie_file, "r");
        if (!f) {
            snprintf(err, errlen, "cannot read --rpc-cookie %s: %s", a->cookie_file, strerror(errno));
            free(c);
            return NULL;
        }
        size_t n = fread(c->userpwd, 1, sizeof c->userpwd - 1, f);
        fclose(f);
        c->userpwd[n] = '\0';
        c->userpwd[strcspn(c->userpwd, "\r\n")] = '\0';
        if (!strchr(c->userpwd, ':')) {
            snprintf(err, errlen, "--rpc-cookie %s does not hold user:password", a->cookie_file);
            free(c);
            return NULL;
        }
    } else if (a->user) {
        snprintf(c->userpwd, sizeof c->userpwd, "%s:%s", a->user, a->pass ? a->pass : "");
    }
    c->h = curl_easy_init();
    if (!c->h) {
        snprintf(err, errlen, "cannot start libcurl");
        free(c);
        return NULL;
    }
    return c;
}

void rpc_set_abort(rpc_conn *c, const int *flag)
{
    c->abort_flag = flag;
}

static int on_xfer(void *user, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d)
{
    (void)a;
    (void)b;
    (void)c;
    (void)d;
    const rpc_conn *conn = user;
    return conn->abort_flag && *conn->abort_flag;
}

void rpc_close(rpc_conn *c)
{
    if (!c) return;
    curl_easy_cleanup(c->h);
    memset(c->userpwd, 0, sizeof c->userpwd);
    free(c);
}

int rpc_call(rpc_conn *c, const char *method, const char *params, double timeout_s, char **result, char *err,
             size_t errlen)
{
    *result = NULL;
    size_t rl = strlen(method) + strlen(params) + 64;
    char *req = malloc(rl);
    if (!req) return snprintf(err, errlen, "%s: out of memory", method), -1;
    snprintf(req, rl, "{\"jsonrpc\":\"1.0\",\"id\":%ld,\"method\":\"%s\",\"params\":%s}", ++c->id, method, params);
    buf b = {0};
    struct curl_slist *hdr = curl_slist_append(NULL, "Content-Type: application/json");
    CURL *h = c->h;
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, c->url);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, req);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)(timeout_s * 1000));
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_xfer);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, c);
    if (c->userpwd[0]) {
        curl_easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
        curl_easy_setopt(h, CURLOPT_USERPWD, c->userpwd);
    }
    CURLcode cc = curl_easy_perform(h);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(hdr);
    free(req);
    int rc = -1;
    if (cc != CURLE_OK) {
        const char *step = cc == CURLE_COULDNT_CONNECT || cc == CURLE_COULDNT_RESOLVE_HOST ? "connect"
                           : cc == CURLE_OPERATION_TIMEDOUT                               ? "wait for the reply"
                                                                                          : "HTTP";
        if (b.over) snprintf(err, errlen, "%s: the reply is larger than %u bytes", method, RPC_REPLY_MAX);
        else snprintf(err, errlen, "%s: %s to %s failed: %s", method, step, c->url, curl_easy_strerror(cc));
        goto out;
    }
    if (status == 401 || status == 403) {
        snprintf(err, errlen, "%s: HTTP status %ld from %s: %s", method, status, c->url,
                 status == 401 ? "the node refused the RPC credentials" : "the node refuses this client (its rpcallowip?)");
        goto out;
    }
    json_error_t je;
    json_t *o = b.p ? json_loadb(b.p, b.n, 0, &je) : NULL;
    if (!o || !json_is_object(o)) {
        if (status != 200) snprintf(err, errlen, "%s: HTTP status %ld from %s", method, status, c->url);
        else snprintf(err, errlen, "%s: the reply is not a JSON-RPC object", method);
        json_decref(o);
        goto out;
    }
    json_t *e = json_object_get(o, "error");
    if (e && !json_is_null(e)) {
        json_t *code = json_is_object(e) ? json_object_get(e, "code") : NULL;
        json_t *msg = json_is_object(e) ? json_object_get(e, "message") : NULL;
        snprintf(err, errlen, "%s: RPC error %lld: %s", method, json_is_integer(code) ? (long long)json_integer_value(code) : 0LL,
                 json_is_string(msg) ? json_string_value(msg) : "(no message)");
    } else if (!json_object_get(o, "result")) {
        snprintf(err, errlen, "%s: the reply has no result (HTTP status %ld)", method, status);
    } else {
        *result = json_dumps(json_object_get(o, "result"), JSON_ENCODE_ANY | JSON_COMPACT);
        rc = *result ? 0 : -1;
        if (rc) snprintf(err, errlen, "%s: out of memory", method);
    }
    json_decref(o);
out:
    free(b.p);
    return rc;
}

char *rpc_quote(const char *s)
{
    json_t *j = json_string(s);
    char *out = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    json_decref(j);
    return out;
}

int rpc_result_string(const char *result, char *out, size_t n)
{
    json_t *j = json_loads(result, JSON_DECODE_ANY, NULL);
    int kind = json_is_null(j) ? 0 : json_is_string(j) ? 1 : 2;
    snprintf(out, n, "%s", kind == 1 ? json_string_value(j) : result);
    json_decref(j);
    return kind;
}

int rpc_member_string(const char *result, const char *key, char *out, size_t n)
{
    json_t *j = json_loads(result, 0, NULL);
    json_t *v = json_is_object(j) ? json_object_get(j, key) : NULL;
    int r = json_is_string(v) ? 0 : -1;
    if (!r) snprintf(out, n, "%s", json_string_value(v));
    json_decref(j);
    return r;
}
