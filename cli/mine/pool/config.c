/* kiln mine -c FILE: the JSON configuration file of cpuminer and cgminer, read into kiln mine's
 * options (pool.h). Each key is kiln's long option name, or cpuminer's or cgminer's name for one
 * (mapped here, docs/MINING.md lists them); a key that has no meaning in kiln is refused with
 * the reason. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/interrupt.h"
#include "pool.h"

#define CONFIG_MAX_BYTES (1 << 20) /* a configuration is a few settings: more is not one */
#define API_PORT_DEFAULT "4028" /* cgminer's --api-port default */

typedef struct config_hold {
    json_t *root;
    char **bufs; /* strings made here: numbers as text, split userpass, the API address */
    int nbufs, cap;
} config_hold;

typedef struct config_out {
    const char *cmd, *path;
    pool_setting *s;
    int n, max;
    config_hold *h;
} config_out;

/* cpuminer's and cgminer's names for kiln's options (the rest are the same word). */
static const struct {
    const char *key, *opt;
} renamed[] = {
    {"url", "--pool"}, /* cpuminer -o/--url, cgminer -o/--url */
    {"cert", "--cafile"}, /* cpuminer --cert: the pool's CA certificate (PEM) */
};

/* cgminer's keys that ask for what kiln always does: kiln mines for a backup pool only while the
 * first is down (cgminer's "failover-only"), and drops a share whose job is gone rather than send
 * it (cgminer's "no-submit-stale"). Accepted, as true or false. */
static const char *const kiln_does[] = {"failover-only", "no-submit-stale"};

/* Keys of cpuminer and cgminer that mean nothing in kiln, and why. */
static const struct {
    const char *key, *why;
} refused[] = {
    {"proxy", "kiln connects to the pool itself, through no proxy (reach one behind a proxy through a tunnel, ssh -L)"},
    {"socks-proxy", "kiln connects to the pool itself, through no proxy (reach one behind a proxy through a tunnel, ssh -L)"},
    {"debug", "kiln has no debug log; every exchange with the pool that matters is logged already"},
    {"protocol-dump", "kiln has no protocol dump; every exchange with the pool that matters is logged already"},
    {"background", "kiln does not fork into the background: run it under a service manager (systemd) or nohup"},
    {"syslog", "kiln logs to stderr, which a service manager (systemd) takes to the system log"},
    {"scantime", "kiln works on a Stratum job until the pool sends the next; it has no getwork scan time"},
    {"no-longpoll", "kiln speaks Stratum to pools (and getblocktemplate to a node, --rpc); it has no getwork long polling"},
    {"no-getwork", "kiln speaks Stratum to pools (and getblocktemplate to a node, --rpc); it has no getwork"},
    {"no-gbt", "kiln uses getblocktemplate only with --rpc (solo mining against a node)"},
    {"no-stratum", "kiln mines for pools through Stratum only"},
    {"coinbase-sig", "kiln writes its own coinbase text"},
    {"load-balance", "kiln's only multipool strategy is failover (cgminer's default)"},
    {"balance", "kiln's only multipool strategy is failover (cgminer's default)"},
    {"round-robin", "kiln's only multipool strategy is failover (cgminer's default)"},
    {"rotate", "kiln's only multipool strategy is failover (cgminer's default)"},
    {"quota", "kiln's only multipool strategy is failover (cgminer's default); give the pool as \"url\""},
    {"api-groups", "kiln's endpoint is read-only: no command needs a group"},
    {"api-mcast", "kiln's endpoint does not answer multicast discovery"},
    {"include", "a kiln configuration is one file"},
    {"config", "a kiln configuration is one file"},
    {"json", "the output format is chosen on the command line (--json)"},
};

static int fail(config_out *o, int code, const char *fmt, const char *a, const char *b)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    cli_error(code, o->cmd, "%s: %s", o->path, msg);
    return -code;
}

static const char *keep(config_out *o, char *s)
{
    config_hold *h = o->h;
    if (s && h->nbufs == h->cap) {
        int cap = h->cap ? 2 * h->cap : 16;
        char **b = realloc(h->bufs, (size_t)cap * sizeof *b);
        if (b) {
            h->bufs = b;
            h->cap = cap;
        }
    }
    if (!s || h->nbufs == h->cap) {
        free(s);
        return NULL;
    }
    return h->bufs[h->nbufs++] = s;
}

/* keep(strdup(s)) as an out-of-memory failure's line; NULL after it. */
static const char *copy(config_out *o, const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    const char *k = keep(o, c);
    if (!k) cli_error(EXIT_DEVICE, o->cmd, "out of memory");
    return k;
}

static int add(config_out *o, const char *key, const char *opt, const char *val, int from_pools)
{
    if (o->n == o->max) {
        char n[24];
        snprintf(n, sizeof n, "%d", o->max);
        return fail(o, EXIT_USAGE, "more than %s settings%s", n, "");
    }
    o->s[o->n++] = (pool_setting){opt, val, key, from_pools};
    return 0;
}

/* A value as option text: a string, a number as written, NULL for true (a switch); *none for
 * false and null (the setting is left out). 0 or -code. */
static int value_text(config_out *o, const char *key, const json_t *v, const char **text, int *none)
{
    char num[64];
    *text = NULL;
    *none = 0;
    switch (json_typeof(v)) {
    case JSON_STRING: *text = json_string_value(v); return 0;
    case JSON_TRUE: return 0;
    case JSON_FALSE:
    case JSON_NULL: *none = 1; return 0;
    case JSON_INTEGER: snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); break;
    case JSON_REAL: snprintf(num, sizeof num, "%.17g", json_real_value(v)); break;
    default: return fail(o, EXIT_USAGE, "\"%s\" must be a string, a number or a boolean%s", key, "");
    }
    return (*text = copy(o, num, strlen(num))) ? 0 : -EXIT_DEVICE;
}

static const char *why_refused(const char *key)
{
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (strcmp(key, refused[i].key) == 0) return refused[i].why;
    return NULL;
}

/* user:pass (cpuminer's and cgminer's -O) split at the first colon; which = 0: the user, 1: the
 * password, 2: both; each added. */
static int add_userpass(config_out *o, const char *key, const char *up, int from_pools, int which)
{
    const char *colon = up ? strchr(up, ':') : NULL;
    if (!colon) return fail(o, EXIT_USAGE, "\"%s\" is USER:PASS, with a colon%s", key, "");
    const char *user = copy(o, up, (size_t)(colon - up)), *pass = user ? copy(o, colon + 1, strlen(colon + 1)) : NULL;
    if (!pass) return -EXIT_DEVICE;
    int rc = which != 1 ? add(o, key, "--user", user, from_pools) : 0;
    return rc || which == 0 ? rc : add(o, key, "--pass", pass, from_pools);
}

/* The string member `name` of pool i (1-based), NULL when absent; *bad set when not a string. */
static const char *member(const json_t *p, const char *name, int *bad)
{
    const json_t *v = json_object_get(p, name);
    if (v && !json_is_string(v)) *bad = 1;
    return json_string_value(v);
}

/* cgminer's "pools": [{"url", "user", "pass"} or {"url", "userpass"}, ...], tried in order, each
 * with its own credentials: every pool names its user, or none does (then --user, or the file's
 * "user", is every pool's); a pool without a password, among pools with one, has kiln's "x". */
static int add_pools(config_out *o, const json_t *pools)
{
    size_t i;
    json_t *p;
    int with_user = 0, any_pass = 0, rc;
    if (!json_is_array(pools) || json_array_size(pools) == 0)
        return fail(o, EXIT_USAGE, "\"pools\" must be a non-empty array of {\"url\", \"user\", \"pass\"} objects%s%s", "", "");
    json_array_foreach(pools, i, p) {
        char n[24];
        snprintf(n, sizeof n, "%zu", i + 1);
        if (!json_is_object(p)) return fail(o, EXIT_USAGE, "pool %s of \"pools\" is not an object%s", n, "");
        const char *k;
        json_t *v;
        json_object_foreach(p, k, v) {
            const char *why = why_refused(k);
            if (why) return fail(o, EXIT_USAGE, "\"%s\" (in \"pools\"): %s", k, why);
            if (strcmp(k, "url") && strcmp(k, "user") && strcmp(k, "pass") && strcmp(k, "userpass"))
                return fail(o, EXIT_USAGE, "unknown setting \"%s\" in \"pools\" (a pool has \"url\", \"user\", \"pass\" or \"userpass\")%s", k, "");
        }
        int bad = 0;
        const char *url = member(p, "url", &bad), *user = member(p, "user", &bad), *pass = member(p, "pass", &bad),
                   *up = member(p, "userpass", &bad);
        if (bad) return fail(o, EXIT_USAGE, "pool %s of \"pools\": \"url\", \"user\", \"pass\" and \"userpass\" are strings%s", n, "");
        if (!url) return fail(o, EXIT_USAGE, "pool %s of \"pools\" has no \"url\"%s", n, "");
        if (up && (user || pass)) return fail(o, EXIT_USAGE, "pool %s of \"pools\": give \"userpass\" or \"user\" and \"pass\", not both%s", n, "");
        const int has_user = up || user;
        if (i > 0 && has_user != with_user)
            return fail(o, EXIT_USAGE, "pool %s of \"pools\" %s: every pool names its own, or none does", n,
                        has_user ? "names a user and pool 1 does not" : "names no user");
        with_user = has_user;
        any_pass |= up || pass;
        if ((rc = add(o, "pools", "--pool", url, 1)) != 0) return rc;
        if (up) rc = add_userpass(o, "userpass", up, 1, 0);
        else if (user) rc = add(o, "user", "--user", user, 1);
        if (rc) return rc;
    }
    /* the passwords after the pools, in their order: one per pool once any pool names one */
    json_array_foreach(pools, i, p) {
        int bad = 0;
        const char *pass = member(p, "pass", &bad), *up = member(p, "userpass", &bad);
        if (!any_pass) break;
        rc = up ? add_userpass(o, "userpass", up, 1, 1) : add(o, "pass", "--pass", pass ? pass : "x", 1);
        if (rc) return rc;
    }
    return 0;
}

/* The loopback addresses cgminer's "api-allow" may list ([G:]IP[/prefix], comma-separated) for
 * kiln to honour it: kiln's endpoint has no allow-list, only the address it listens on. */
static int allow_loopback_only(const char *allow, char *bad, size_t n)
{
    for (const char *s = allow;; s++) {
        size_t len = strcspn(s, ",");
        const char *e = s;
        if (len > 2 && e[1] == ':' && e[0] != ':') e += 2; /* a group letter */
        size_t al = len - (size_t)(e - s);
        int loop = (al >= 4 && strncmp(e, "127.", 4) == 0) || (al >= 3 && strncmp(e, "::1", 3) == 0 && (al == 3 || e[3] == '/'));
        if (!loop) {
            snprintf(bad, n, "%.*s", (int)len, s);
            return 0;
        }
        s += len;
        if (!*s) return 1;
    }
}

/* cgminer's API keys, read together: "api-listen": true serves on "api-port" (default 4028), on
 * loopback, or on every address with "api-network": true, unless "api-allow" lists loopback only.
 * "api-listen" as a string is kiln's [ADDR:]PORT. */
static int add_api(config_out *o, const json_t *root)
{
    const json_t *listen = json_object_get(root, "api-listen"), *port = json_object_get(root, "api-port"),
                 *net = json_object_get(root, "api-network"), *allow = json_object_get(root, "api-allow");
    const char *port_s = API_PORT_DEFAULT, *allow_s = NULL;
    int none, rc;
    if (net && !json_is_boolean(net)) return fail(o, EXIT_USAGE, "\"api-network\" is true or false%s%s", "", "");
    if (allow && !(allow_s = json_string_value(allow)))
        return fail(o, EXIT_USAGE, "\"api-allow\" is a string, [G:]IP[/PREFIX],...%s%s", "", "");
    if (port && (rc = value_text(o, "api-port", port, &port_s, &none)) != 0) return rc;
    if (port && (!port_s || none)) return fail(o, EXIT_USAGE, "\"api-port\" is a port number%s%s", "", "");
    if (allow_s) {
        char bad[256];
        if (!allow_loopback_only(allow_s, bad, sizeof bad))
            return fail(o, EXIT_USAGE,
                        "\"api-allow\": kiln's endpoint has no allow-list (it is read-only, and serves whoever reaches "
                        "the address it listens on), so \"%s\" cannot be kept; list only 127.0.0.1%s",
                        bad, "");
    }
    if (!listen || json_is_false(listen) || json_is_null(listen)) return 0;
    if (json_is_string(listen)) {
        if (port || net) return fail(o, EXIT_USAGE, "\"api-listen\" as kiln's [ADDR:]PORT takes no \"%s\" (that is for \"api-listen\": true)", port ? "api-port" : "api-network", "");
        return add(o, "api-listen", "--api-listen", json_string_value(listen), 0);
    }
    if (!json_is_true(listen)) return fail(o, EXIT_USAGE, "\"api-listen\" is true (cgminer) or [ADDR:]PORT (kiln)%s%s", "", "");
    char addr[300];
    snprintf(addr, sizeof addr, "%s:%s", json_is_true(net) && !allow_s ? "0.0.0.0" : "127.0.0.1", port_s);
    const char *a = copy(o, addr, strlen(addr));
    return a ? add(o, "api-listen", "--api-listen", a, 0) : -EXIT_DEVICE;
}

static int is_api_key(const char *key)
{
    return strcmp(key, "api-listen") == 0 || strcmp(key, "api-port") == 0 || strcmp(key, "api-network") == 0 ||
           strcmp(key, "api-allow") == 0;
}

/* One top-level key: refused with its reason, mapped, or kiln's own option name (an array: one
 * option per element). */
static int add_key(config_out *o, const char *key, const json_t *v)
{
    const char *why = why_refused(key);
    if (why) return fail(o, EXIT_USAGE, "\"%s\": %s", key, why);
    if (strcmp(key, "pools") == 0) return add_pools(o, v);
    if (is_api_key(key)) return 0; /* add_api's */
    for (size_t i = 0; i < sizeof kiln_does / sizeof kiln_does[0]; i++)
        if (strcmp(key, kiln_does[i]) == 0) {
            if (!json_is_boolean(v)) return fail(o, EXIT_USAGE, "\"%s\" is true or false%s", key, "");
            return 0;
        }
    const char *opt = NULL;
    for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
        if (strcmp(key, renamed[i].key) == 0) opt = renamed[i].opt;
    if (!opt) {
        char name[128];
        if (strlen(key) > 100) return fail(o, EXIT_USAGE, "unknown setting \"%.100s...\"%s", key, "");
        snprintf(name, sizeof name, "--%s", key);
        if (!(opt = copy(o, name, strlen(name)))) return -EXIT_DEVICE;
    }
    size_t i, count = json_is_array(v) ? json_array_size(v) : 1;
    for (i = 0; i < count; i++) {
        const json_t *e = json_is_array(v) ? json_array_get(v, i) : v;
        const char *text;
        int none, rc = value_text(o, key, e, &text, &none);
        if (rc == 0 && !none) rc = strcmp(key, "userpass") == 0 && text ? add_userpass(o, key, text, 0, 2) : add(o, key, opt, text, 0);
        if (rc) return rc;
    }
    return 0;
}

/* The file's bytes, at most CONFIG_MAX_BYTES; a FIFO is read as the signals allow
 * (cli_wait_readable). 0 or the exit code after one line. */
static int load(const char *cmd, const char *path, char **text, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return cli_error(EXIT_USAGE, cmd, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        int e = errno;
        close(fd);
        return S_ISDIR(st.st_mode) ? cli_error(EXIT_USAGE, cmd, "%s: is a directory, not a configuration file", path)
                                   : cli_error(EXIT_USAGE, cmd, "%s: %s", path, strerror(e));
    }
    const int regular = S_ISREG(st.st_mode);
    char *buf = malloc(CONFIG_MAX_BYTES + 1);
    size_t n = 0;
    int code = buf ? EXIT_OK : cli_error(EXIT_DEVICE, cmd, "out of memory");
    while (code == EXIT_OK) {
        if (cli_interrupted() || (!regular && cli_wait_readable(fd))) {
            code = cli_interrupt_exit(cmd);
            break;
        }
        ssize_t got = read(fd, buf + n, CONFIG_MAX_BYTES + 1 - n);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got < 0) code = cli_error(EXIT_USAGE, cmd, "%s: %s", path, strerror(errno));
        else if (got == 0) break;
        else if ((n += (size_t)got) > CONFIG_MAX_BYTES)
            code = cli_error(EXIT_USAGE, cmd, "%s: larger than %d KiB; a configuration is a few settings", path,
                             CONFIG_MAX_BYTES >> 10);
    }
    close(fd);
    if (code) {
        free(buf);
        return code;
    }
    *text = buf;
    *len = n;
    return EXIT_OK;
}

int pool_config_parse(const char *cmd, const char *path, const char *text, size_t len, pool_setting *out, int max,
                      void **hold)
{
    json_error_t err;
    config_hold *h = calloc(1, sizeof *h);
    *hold = h;
    if (!h) return -cli_error(EXIT_DEVICE, cmd, "out of memory");
    h->root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!h->root) {
        if (err.line < 1) cli_error(EXIT_USAGE, cmd, "%s: %s", path, err.text);
        else cli_error(EXIT_USAGE, cmd, "%s:%d: %s", path, err.line, err.text);
        return -EXIT_USAGE;
    }
    if (!json_is_object(h->root))
        return -cli_error(EXIT_USAGE, cmd, "%s: a configuration is one JSON object of option names", path);
    config_out o = {cmd, path, out, 0, max, h};
    const char *key;
    json_t *v;
    int rc = 0;
    json_object_foreach(h->root, key, v) if (rc == 0) rc = add_key(&o, key, v);
    if (rc == 0) rc = add_api(&o, h->root);
    return rc ? rc : o.n;
}

int pool_config_read(const char *cmd, const char *path, pool_setting *out, int max, void **hold)
{
    char *text = NULL;
    size_t len = 0;
    *hold = NULL;
    int code = load(cmd, path, &text, &len);
    if (code) return -code;
    int n = pool_config_parse(cmd, path, text, len, out, max, hold);
    free(text);
    return n;
}

void pool_config_free(void *hold)
{
    config_hold *h = hold;
    if (!h) return;
    for (int i = 0; i < h->nbufs; i++) free(h->bufs[i]);
    free(h->bufs);
    if (h->root) json_decref(h->root);
    free(h);
}
