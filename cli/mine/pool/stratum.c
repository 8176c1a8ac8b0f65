#include "stratum.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln.h"
#include "linebuf.h"

#define FAIL(...)                                                                                         \
    do {                                                                                                  \
        snprintf(err, errlen, __VA_ARGS__);                                                               \
        return -1;                                                                                        \
    } while (0)

/* hex string of an even length up to 2*max bytes -> bytes; -1 otherwise */
static int hex_bytes(const json_t *v, uint8_t *out, size_t max, size_t *n)
{
    if (!json_is_string(v)) return -1;
    size_t len = json_string_length(v);
    if (len % 2 || len / 2 > max) return -1;
    if (len == 0) {
        *n = 0;
        return 0;
    }
    if (kiln_hex_decode(NULL, json_string_value(v), out, len / 2) != KILN_OK) return -1;
    *n = len / 2;
    return 0;
}

/* extranonce1 (hex) and extranonce2_size: the pool sets them for the whole session, so a bad
 * value is a protocol failure named precisely ("extranonce1 of 100 bytes exceeds ..."). */
static int extranonce_fields(const json_t *e1, const json_t *e2, uint8_t en1[POOL_EN1_MAX], size_t *en1_len,
                             int *en2_size, char *err, size_t errlen)
{
    if (!json_is_string(e1)) FAIL("extranonce1 is not a string");
    size_t digits = json_string_length(e1);
    if (digits / 2 > POOL_EN1_MAX)
        FAIL("extranonce1 of %zu bytes exceeds the %d-byte limit", digits / 2, POOL_EN1_MAX);
    if (hex_bytes(e1, en1, POOL_EN1_MAX, en1_len) != 0) FAIL("extranonce1 is not an even number of hex digits");
    if (!json_is_integer(e2)) FAIL("extranonce2_size is not an integer");
    json_int_t n = json_integer_value(e2);
    if (n < 0) FAIL("extranonce2_size %lld is negative", (long long)n);
    if (n > POOL_EN2_MAX) FAIL("extranonce2_size %lld exceeds the %d-byte limit", (long long)n, POOL_EN2_MAX);
    *en2_size = (int)n;
    return 0;
}

static int hex_u32(const json_t *v, uint32_t *out)
{
    return json_is_string(v) && json_string_length(v) == 8 ? pool_u32_from_hex(json_string_value(v), out) : -1;
}

static int parse_notify(const json_t *p, pool_job *job, char *err, size_t errlen)
{
    if (json_array_size(p) < 9) FAIL("mining.notify has %zu params, needs 9", json_array_size(p));
    const json_t *id = json_array_get(p, 0), *prev = json_array_get(p, 1), *c1 = json_array_get(p, 2),
                 *c2 = json_array_get(p, 3), *br = json_array_get(p, 4), *clean = json_array_get(p, 8);
    if (!json_is_string(id) || json_string_length(id) == 0 || json_string_length(id) > POOL_JOB_ID_MAX)
        FAIL("mining.notify: job id is not a string of 1..%d characters", POOL_JOB_ID_MAX);
    memcpy(job->id, json_string_value(id), json_string_length(id) + 1);
    if (strlen(job->id) != json_string_length(id)) FAIL("mining.notify: job id holds a NUL");
    if (!json_is_string(prev) || json_string_length(prev) != 64 ||
        pool_prevhash_from_hex(json_string_value(prev), job->prevhash) != 0)
        FAIL("mining.notify: prevhash is not 64 hex digits");
    if (!json_is_string(c1) || !json_is_string(c2)) FAIL("mining.notify: coinb1/coinb2 are not strings");
    size_t l1 = json_string_length(c1) / 2, l2 = json_string_length(c2) / 2;
    job->coinb = malloc(l1 + l2 + 1);
    if (!job->coinb) FAIL("out of memory");
    if (hex_bytes(c1, job->coinb, POOL_LINE_MAX, &job->coinb1_len) != 0) FAIL("mining.notify: coinb1 is not hex");
    if (hex_bytes(c2, job->coinb + l1, POOL_LINE_MAX, &job->coinb2_len) != 0) FAIL("mining.notify: coinb2 is not hex");
    if (!json_is_array(br) || json_array_size(br) > POOL_BRANCH_MAX)
        FAIL("mining.notify: merkle branch is not an array of at most %d hashes", POOL_BRANCH_MAX);
    job->nbranch = (int)json_array_size(br);
    for (int i = 0; i < job->nbranch; i++) {
        size_t n = 0;
        if (hex_bytes(json_array_get(br, (size_t)i), job->branch[i], 32, &n) != 0 || n != 32)
            FAIL("mining.notify: merkle branch entry %d is not 64 hex digits", i);
    }
    if (hex_u32(json_array_get(p, 5), &job->version) != 0) FAIL("mining.notify: version is not 8 hex digits");
    if (hex_u32(json_array_get(p, 6), &job->nbits) != 0) FAIL("mining.notify: nbits is not 8 hex digits");
    if (hex_u32(json_array_get(p, 7), &job->ntime) != 0) FAIL("mining.notify: ntime is not 8 hex digits");
    if (json_is_boolean(clean)) job->clean = json_is_true(clean);
    else if (json_is_integer(clean)) job->clean = json_integer_value(clean) != 0;
    else FAIL("mining.notify: clean_jobs is not a boolean");
    return 0;
}

static int parse_reconnect(const json_t *p, stratum_msg *m, char *err, size_t errlen)
{
    size_t n = json_array_size(p);
    const json_t *host = json_array_get(p, 0), *port = json_array_get(p, 1), *wait = json_array_get(p, 2);
    if (n >= 1 && !json_is_null(host)) {
        if (!json_is_string(host) || json_string_length(host) > POOL_HOST_MAX)
            FAIL("client.reconnect: host is not a string");
        snprintf(m->host, sizeof m->host, "%s", json_string_value(host));
    }
    if (n >= 2 && !json_is_null(port)) {
        if (json_is_integer(port) && json_integer_value(port) > 0 && json_integer_value(port) < 65536)
            snprintf(m->port, sizeof m->port, "%d", (int)json_integer_value(port));
        else if (json_is_string(port) && json_string_length(port) >= 1 && json_string_length(port) <= 5)
            snprintf(m->port, sizeof m->port, "%s", json_string_value(port));
        else FAIL("client.reconnect: bad port");
    }
    if (n >= 3 && !json_is_null(wait)) {
        if (!json_is_integer(wait) || json_integer_value(wait) < 0) FAIL("client.reconnect: bad wait time");
        json_int_t w = json_integer_value(wait);
        m->wait_s = w > 3600 ? 3600 : (int)w;
    }
    return 0;
}

static int parse_method(stratum_msg *m, const json_t *params, char *err, size_t errlen)
{
    const char *meth = m->method;
    const json_t *p0 = json_array_get(params, 0);
    if (strcmp(meth, "mining.notify") == 0) {
        m->kind = ST_NOTIFY;
        return parse_notify(params, &m->job, err, errlen);
    }
    if (strcmp(meth, "mining.set_difficulty") == 0) {
        m->kind = ST_SET_DIFFICULTY;
        if (!json_is_number(p0)) FAIL("mining.set_difficulty: difficulty is not a number");
        m->difficulty = json_number_value(p0);
        if (!(m->difficulty > 0) || !isfinite(m->difficulty))
            FAIL("mining.set_difficulty: difficulty %g is not > 0", m->difficulty);
        return 0;
    }
    if (strcmp(meth, "mining.set_extranonce") == 0) {
        m->kind = ST_SET_EXTRANONCE;
        char why[160];
        if (extranonce_fields(p0, json_array_get(params, 1), m->en1, &m->en1_len, &m->en2_size, why, sizeof why))
            FAIL("mining.set_extranonce: %s", why);
        return 0;
    }
    if (strcmp(meth, "client.reconnect") == 0) {
        m->kind = ST_RECONNECT;
        return parse_reconnect(params, m, err, errlen);
    }
    if (strcmp(meth, "mining.set_version_mask") == 0) {
        m->kind = ST_SET_VERSION_MASK;
        if (hex_u32(p0, &m->mask) != 0) FAIL("mining.set_version_mask: mask is not 8 hex digits");
        return 0;
    }
    if (strcmp(meth, "client.get_version") == 0) {
        m->kind = ST_GET_VERSION;
        return 0;
    }
    if (strcmp(meth, "client.show_message") == 0) {
        m->kind = ST_SHOW_MESSAGE;
        if (!json_is_string(p0)) FAIL("client.show_message: message is not a string");
        snprintf(m->text, sizeof m->text, "%s", json_string_value(p0));
        return 0;
    }
    m->kind = ST_UNKNOWN;
    return 0;
}

static void format_error(const json_t *e, char *out, size_t n)
{
    if (!e || json_is_null(e)) {
        out[0] = '\0';
        return;
    }
    if (json_is_array(e) && json_is_integer(json_array_get(e, 0)) && json_is_string(json_array_get(e, 1))) {
        snprintf(out, n, "%lld %s", (long long)json_integer_value(json_array_get(e, 0)),
                 json_string_value(json_array_get(e, 1)));
        return;
    }
    if (json_is_string(e)) {
        snprintf(out, n, "%s", json_string_value(e));
        return;
    }
    char *s = json_dumps(e, JSON_COMPACT | JSON_ENCODE_ANY);
    snprintf(out, n, "%s", s ? s : "(error)");
    free(s);
}

int stratum_parse(const char *line, size_t len, stratum_msg *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->int_id = -1;
    json_error_t je;
    json_t *root = json_loadb(line, len, 0, &je);
    if (!root) FAIL("not JSON (%s at column %d)", je.text, je.column);
    m->root = root;
    int rc = -1;
    if (!json_is_object(root)) {
        snprintf(err, errlen, "not a JSON object");
        goto out;
    }
    m->id = json_object_get(root, "id");
    if (json_is_integer(m->id) && json_integer_value(m->id) >= 0) m->int_id = json_integer_value(m->id);
    const json_t *method = json_object_get(root, "method");
    if (method && !json_is_null(method)) {
        if (!json_is_string(method) || json_string_length(method) >= sizeof m->method) {
            snprintf(err, errlen, "method is not a short string");
            goto out;
        }
        memcpy(m->method, json_string_value(method), json_string_length(method) + 1);
        const json_t *params = json_object_get(root, "params");
        if (params && !json_is_null(params) && !json_is_array(params)) {
            snprintf(err, errlen, "%s: params is not an array", m->method);
            goto out;
        }
        rc = parse_method(m, params, err, errlen); /* json_array_* of NULL are safe: size 0 */
        goto out;
    }
    const json_t *result = json_object_get(root, "result"), *error = json_object_get(root, "error");
    if (!result && !error) {
        snprintf(err, errlen, "neither a method call nor a response");
        goto out;
    }
    m->kind = ST_RESPONSE;
    m->result = (json_t *)result;
    format_error(error, m->error, sizeof m->error);
    rc = 0;
out:
    if (rc != 0) stratum_msg_clear(m);
    return rc;
}

void stratum_msg_clear(stratum_msg *m)
{
    pool_job_free(&m->job);
    if (m->root) json_decref(m->root);
    m->root = m->id = m->result = NULL;
}

int stratum_subscribe_result(const json_t *result, char *session, size_t session_n, uint8_t en1[POOL_EN1_MAX],
                             size_t *en1_len, int *en2_size, char *err, size_t errlen)
{
    session[0] = '\0';
    if (!json_is_array(result) || json_array_size(result) < 3) FAIL("subscribe result is not [subscriptions, extranonce1, size]");
    const json_t *subs = json_array_get(result, 0), *e1 = json_array_get(result, 1), *e2 = json_array_get(result, 2);
    if (extranonce_fields(e1, e2, en1, en1_len, en2_size, err, errlen) != 0) return -1;
    /* subscriptions: [["mining.notify", id], ...] or one pair; the notify id resumes a session */
    if (json_is_array(subs) && json_is_string(json_array_get(subs, 0))) {
        const json_t *pair = subs;
        if (strcmp(json_string_value(json_array_get(pair, 0)), "mining.notify") == 0 &&
            json_is_string(json_array_get(pair, 1)))
            snprintf(session, session_n, "%s", json_string_value(json_array_get(pair, 1)));
    } else if (json_is_array(subs)) {
        for (size_t i = 0; i < json_array_size(subs); i++) {
            const json_t *pair = json_array_get(subs, i);
            const json_t *name = json_array_get(pair, 0), *sid = json_array_get(pair, 1);
            if (json_is_string(name) && strcmp(json_string_value(name), "mining.notify") == 0 && json_is_string(sid)) {
                snprintf(session, session_n, "%s", json_string_value(sid));
                break;
            }
        }
    }
    return 0;
}

int stratum_configure_result(const json_t *result, uint32_t *mask)
{
    if (!json_is_object(result) || !json_is_true(json_object_get(result, "version-rolling"))) return 0;
    return hex_u32(json_object_get(result, "version-rolling.mask"), mask) == 0;
}

int stratum_result_true(const json_t *result) { return json_is_true(result); }

const char *stratum_id_text(const json_t *id, char *out, size_t n)
{
    if (!id) {
        snprintf(out, n, "none");
        return out;
    }
    char *s = json_dumps(id, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!s) {
        snprintf(out, n, "?");
        return out;
    }
    size_t len = strlen(s);
    if (len > 64) { /* an id is for matching, not for reading: a long one is shown cut */
        s[61] = s[62] = s[63] = '.';
        len = 64;
    }
    for (size_t i = 0; i < len && i + 1 < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        out[i] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
    }
    out[len < n ? len : n - 1] = '\0';
    free(s);
    return out;
}

/* Serializes and frees v: one compact line with its newline. */
static char *line_of(json_t *v)
{
    if (!v) return NULL;
    char *s = json_dumps(v, JSON_COMPACT);
    json_decref(v);
    if (!s) return NULL;
    size_t n = strlen(s);
    char *line = realloc(s, n + 2);
    if (!line) {
        free(s);
        return NULL;
    }
    line[n] = '\n';
    line[n + 1] = '\0';
    return line;
}

static json_t *request(int64_t id, const char *method, json_t *params)
{
    if (!params) return NULL;
    return json_pack("{s:I, s:s, s:o}", "id", (json_int_t)id, "method", method, "params", params);
}

char *stratum_configure(int64_t id, uint32_t mask)
{
    char hex[9];
    snprintf(hex, sizeof hex, "%08x", mask);
    return line_of(request(id, "mining.configure",
                           json_pack("[[s], {s:s, s:i}]", "version-rolling", "version-rolling.mask", hex,
                                     "version-rolling.min-bit-count", 2)));
}

char *stratum_subscribe(int64_t id, const char *agent, const char *session)
{
    json_t *params = session && *session ? json_pack("[s, s]", agent, session) : json_pack("[s]", agent);
    return line_of(request(id, "mining.subscribe", params));
}

char *stratum_authorize(int64_t id, const char *user, const char *pass)
{
    return line_of(request(id, "mining.authorize", json_pack("[s, s]", user, pass)));
}

char *stratum_submit(int64_t id, const char *user, const char *job_id, const uint8_t *en2, size_t en2_len,
                     uint32_t ntime, uint32_t nonce, int with_version, uint32_t version_bits)
{
    char en2hex[2 * POOL_EN2_MAX + 1], t[9], n[9], v[9];
    kiln_hex_encode(en2, en2_len, 0, en2hex);
    snprintf(t, sizeof t, "%08x", ntime);
    snprintf(n, sizeof n, "%08x", nonce);
    snprintf(v, sizeof v, "%08x", version_bits);
    json_t *params = with_version ? json_pack("[s, s, s, s, s, s]", user, job_id, en2hex, t, n, v)
                                  : json_pack("[s, s, s, s, s]", user, job_id, en2hex, t, n);
    return line_of(request(id, "mining.submit", params));
}

char *stratum_answer(json_t *id, json_t *result, int code, const char *message)
{
    json_t *idv = id ? json_incref(id) : json_null();
    if (result) return line_of(json_pack("{s:o, s:o, s:n}", "id", idv, "result", result, "error"));
    return line_of(json_pack("{s:o, s:n, s:[i, s, n]}", "id", idv, "result", "error", code, message));
}
