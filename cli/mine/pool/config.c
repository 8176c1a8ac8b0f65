/* kiln mine -c FILE: the JSON configuration file of cpuminer and cgminer, read into option names
 * and values for cmd_mine's table (pool.h). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "pool.h"

typedef struct config_hold {
    json_t *root;
    char **bufs; /* numbers written as text */
    int nbufs;
} config_hold;

typedef struct config_out {
    const char *cmd, *path;
    const char **keys, **vals;
    int n, max;
    config_hold *h;
} config_out;

static int add(config_out *o, const char *key, const char *val)
{
    if (o->n == o->max) {
        cli_error(EXIT_USAGE, o->cmd, "%s: more than %d settings", o->path, o->max);
        return -1;
    }
    o->keys[o->n] = key;
    o->vals[o->n++] = val;
    return 0;
}

/* One value of key: a string, a number (as written), true (a flag); false and null add nothing. */
static int add_value(config_out *o, const char *key, const json_t *v)
{
    char num[64];
    switch (json_typeof(v)) {
    case JSON_STRING: return add(o, key, json_string_value(v));
    case JSON_TRUE: return add(o, key, NULL);
    case JSON_FALSE:
    case JSON_NULL: return 0;
    case JSON_INTEGER: snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); break;
    case JSON_REAL: snprintf(num, sizeof num, "%.17g", json_real_value(v)); break;
    default:
        cli_error(EXIT_USAGE, o->cmd, "%s: \"%s\" must be a string, a number or a boolean", o->path, key);
        return -1;
    }
    char *copy = strdup(num);
    if (!copy) {
        cli_error(EXIT_DEVICE, o->cmd, "out of memory");
        return -1;
    }
    o->h->bufs[o->h->nbufs++] = copy;
    return add(o, key, copy);
}

/* cgminer's "pools": [{"url", "user", "pass"}, ...]: every url a --pool; kiln has one worker for
 * all its pools, so the users (and passwords) given must agree. */
static int add_pools(config_out *o, const json_t *pools)
{
    const char *user = NULL, *pass = NULL;
    size_t i;
    json_t *p;
    if (!json_is_array(pools)) goto bad;
    json_array_foreach(pools, i, p) {
        const json_t *url = json_object_get(p, "url"), *u = json_object_get(p, "user"), *pw = json_object_get(p, "pass");
        if (!json_is_object(p) || !json_is_string(url) || (u && !json_is_string(u)) || (pw && !json_is_string(pw)))
            goto bad;
        if (add(o, "pool", json_string_value(url)) != 0) return -1;
        const char *us = u ? json_string_value(u) : NULL, *ps = pw ? json_string_value(pw) : NULL;
        if ((us && user && strcmp(us, user) != 0) || (ps && pass && strcmp(ps, pass) != 0)) {
            cli_error(EXIT_USAGE, o->cmd, "%s: the pools name different users or passwords; kiln mines for one worker",
                      o->path);
            return -1;
        }
        if (us && !user && add(o, "user", user = us) != 0) return -1;
        if (ps && !pass && add(o, "pass", pass = ps) != 0) return -1;
    }
    return 0;
bad:
    cli_error(EXIT_USAGE, o->cmd, "%s: \"pools\" must be an array of {\"url\", \"user\", \"pass\"} objects", o->path);
    return -1;
}

int pool_config_read(const char *cmd, const char *path, const char **keys, const char **vals, int max, void **hold)
{
    json_error_t err;
    config_hold *h = calloc(1, sizeof *h);
    if (h) h->bufs = calloc((size_t)max, sizeof *h->bufs);
    if (!h || !h->bufs) {
        free(h);
        cli_error(EXIT_DEVICE, cmd, "out of memory");
        return -1;
    }
    *hold = h;
    h->root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!h->root) {
        if (err.line < 1) cli_error(EXIT_USAGE, cmd, "%s: %s", path, err.text);
        else cli_error(EXIT_USAGE, cmd, "%s:%d: %s", path, err.line, err.text);
        return -1;
    }
    if (!json_is_object(h->root)) {
        cli_error(EXIT_USAGE, cmd, "%s: a configuration is one JSON object of option names", path);
        return -1;
    }
    config_out o = {cmd, path, keys, vals, 0, max, h};
    const char *key;
    json_t *v;
    json_object_foreach(h->root, key, v) {
        int rc = 0;
        if (strcmp(key, "pools") == 0) {
            rc = add_pools(&o, v);
        } else if (json_is_array(v)) {
            size_t i;
            json_t *e;
            json_array_foreach(v, i, e) if (rc == 0) rc = add_value(&o, key, e);
        } else {
            rc = add_value(&o, key, v);
        }
        if (rc != 0) return -1;
    }
    return o.n;
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
