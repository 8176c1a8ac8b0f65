#include "status.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/printf_attr.h"

json_t *status_health_json(const kiln_health *h)
{
    json_t *o = json_pack("{s:s}", "source", h->source);
    if (!o) return NULL;
    /* absent readings are left out, not written as -1 */
    if (h->temperature_c >= 0) json_object_set_new(o, "temperature_c", json_real(h->temperature_c));
    if (h->power_w >= 0) json_object_set_new(o, "power_w", json_real(h->power_w));
    if (h->power_limit_w >= 0) json_object_set_new(o, "power_limit_w", json_real(h->power_limit_w));
    if (h->sm_clock_mhz >= 0) json_object_set_new(o, "sm_clock_mhz", json_integer(h->sm_clock_mhz));
    if (h->mem_clock_mhz >= 0) json_object_set_new(o, "mem_clock_mhz", json_integer(h->mem_clock_mhz));
    if (h->fan_percent >= 0) json_object_set_new(o, "fan_percent", json_integer(h->fan_percent));
    if (h->utilization_percent >= 0) json_object_set_new(o, "utilization_percent", json_integer(h->utilization_percent));
    return o;
}

static json_t *reasons_json(const mon_reason *tab)
{
    json_t *o = json_pack("{}"); /* not json_object(): cli/common/json_out.c takes that name in this program */
    for (int i = 0; o && i < MON_REASONS; i++)
        if (tab[i].count) json_object_set_new(o, tab[i].text, json_integer((json_int_t)tab[i].count));
    return o;
}

char *status_json(const mon_snapshot *s, double now)
{
    json_t *devs = json_pack("[]");
    for (int i = 0; devs && i < s->ndev; i++) {
        const mon_device *d = &s->dev[i];
        json_array_append_new(devs, json_pack("{s:s, s:i, s:s, s:I, s:f, s:f, s:f, s:b, s:o}", "id", d->id, "ordinal",
                                              d->ordinal, "name", d->name, "hashes", (json_int_t)d->hashes,
                                              "busy_seconds", d->seconds, "rate_5s", d->rate_5s, "rate_60s",
                                              d->rate_60s, "paused", d->paused, "health", status_health_json(&d->health)));
    }
    json_t *o = json_pack(
        "{s:f, s:s, s:s, s:s, s:b, s:s, s:f, s:f, s:I, s:f, s:f, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o}, s:o}",
        "uptime", now - s->started, "mode", s->mode, "algo", s->algo, "source", s->source, "online", s->online, "job",
        s->job, "difficulty", s->difficulty, "local_difficulty", s->local_difficulty, "hashes", (json_int_t)s->hashes,
        "rate_5s", s->rate_5s, "rate_60s", s->rate_60s, "shares", "found", (json_int_t)s->found, "sent",
        (json_int_t)s->sent, "accepted", (json_int_t)s->accepted, "rejected", (json_int_t)s->rejected, "stale",
        (json_int_t)s->stale, "blocks", (json_int_t)s->blocks, "rejected_reasons", reasons_json(s->rejected_why),
        "stale_reasons", reasons_json(s->stale_why), "devices", devs);
    if (!o) return NULL;
    json_object_set_new(o, "temp_limit", s->temp_limit > 0 ? json_real(s->temp_limit) : json_pack("n"));
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

typedef struct buf {
    char *p;
    size_t len, cap;
    int failed;
} buf;

static void add(buf *b, const char *fmt, ...) CLI_PRINTF(2, 3);
static void add(buf *b, const char *fmt, ...)
{
    for (;;) {
        if (b->failed) return;
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if (b->p && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
}

/* A label value as the text format writes it: backslash, quote and newline escaped. */
static const char *label(const char *s, char *out, size_t n)
{
    size_t j = 0;
    for (; *s && j + 3 < n; s++) {
        if (*s == '\\' || *s == '"') out[j++] = '\\';
        if (*s == '\n') {
            out[j++] = '\\';
            out[j++] = 'n';
            continue;
        }
        out[j++] = *s;
    }
    out[j] = '\0';
    return out;
}

static void family(buf *b, const char *name, const char *type, const char *help)
{
    add(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

char *status_metrics(const mon_snapshot *s, double now)
{
    buf b = {0};
    char l[200];
    family(&b, "kiln_uptime_seconds", "gauge", "Seconds since mining started.");
    add(&b, "kiln_uptime_seconds %.3f\n", now - s->started);
    family(&b, "kiln_hashrate_hps", "gauge", "Hashes per second of each device over the last 5 s or 60 s.");
    for (int i = 0; i < s->ndev; i++) {
        add(&b, "kiln_hashrate_hps{device=\"%s\",window=\"5s\"} %.0f\n", s->dev[i].id, s->dev[i].rate_5s);
        add(&b, "kiln_hashrate_hps{device=\"%s\",window=\"60s\"} %.0f\n", s->dev[i].id, s->dev[i].rate_60s);
    }
    family(&b, "kiln_hashrate_total_hps", "gauge", "Hashes per second of all devices over the last 5 s or 60 s.");
    add(&b, "kiln_hashrate_total_hps{window=\"5s\"} %.0f\nkiln_hashrate_total_hps{window=\"60s\"} %.0f\n", s->rate_5s,
        s->rate_60s);
    family(&b, "kiln_hashes_total", "counter", "Nonces tried by each device.");
    for (int i = 0; i < s->ndev; i++)
        add(&b, "kiln_hashes_total{device=\"%s\"} %llu\n", s->dev[i].id, (unsigned long long)s->dev[i].hashes);
    family(&b, "kiln_device_busy_seconds_total", "counter",
           "Seconds each device spent in its own launches (its rate: hashes over these).");
    for (int i = 0; i < s->ndev; i++)
        add(&b, "kiln_device_busy_seconds_total{device=\"%s\"} %.3f\n", s->dev[i].id, s->dev[i].seconds);
    family(&b, "kiln_shares_total", "counter",
           "Shares by result: found (passed the CPU check), accepted, rejected, stale (not sent).");
    add(&b, "kiln_shares_total{result=\"found\"} %llu\n", (unsigned long long)s->found);
    add(&b, "kiln_shares_total{result=\"accepted\"} %llu\n", (unsigned long long)s->accepted);
    add(&b, "kiln_shares_total{result=\"rejected\"} %llu\n", (unsigned long long)s->rejected);
    add(&b, "kiln_shares_total{result=\"stale\"} %llu\n", (unsigned long long)s->stale);
    family(&b, "kiln_shares_reason_total", "counter", "Rejected and stale shares by reason.");
    for (int i = 0; i < MON_REASONS; i++) {
        if (s->rejected_why[i].count)
            add(&b, "kiln_shares_reason_total{result=\"rejected\",reason=\"%s\"} %llu\n",
                label(s->rejected_why[i].text, l, sizeof l), (unsigned long long)s->rejected_why[i].count);
        if (s->stale_why[i].count)
            add(&b, "kiln_shares_reason_total{result=\"stale\",reason=\"%s\"} %llu\n",
                label(s->stale_why[i].text, l, sizeof l), (unsigned long long)s->stale_why[i].count);
    }
    family(&b, "kiln_blocks_total", "counter", "Shares whose hash also met the network target.");
    add(&b, "kiln_blocks_total %llu\n", (unsigned long long)s->blocks);
    family(&b, "kiln_difficulty", "gauge", "The pool's share difficulty, and the local one kiln mines at.");
    add(&b, "kiln_difficulty{kind=\"pool\"} %.17g\nkiln_difficulty{kind=\"local\"} %.17g\n", s->difficulty,
        s->local_difficulty);
    family(&b, "kiln_online", "gauge", "1 while connected to the pool or node.");
    add(&b, "kiln_online{source=\"%s\"} %d\n", label(s->source, l, sizeof l), s->online);
    family(&b, "kiln_device_paused", "gauge", "1 while --temp-limit rests the device.");
    for (int i = 0; i < s->ndev; i++) add(&b, "kiln_device_paused{device=\"%s\"} %d\n", s->dev[i].id, s->dev[i].paused);
    if (s->temp_limit > 0) {
        family(&b, "kiln_temp_limit_celsius", "gauge", "The --temp-limit.");
        add(&b, "kiln_temp_limit_celsius %g\n", s->temp_limit);
    }
    /* health readings only where they exist: an absent series reads as "unknown", a 0 would not */
    static const struct {
        const char *name, *help;
    } hf[] = {{"kiln_gpu_temperature_celsius", "GPU die temperature."},
              {"kiln_gpu_power_watts", "Power drawn now."},
              {"kiln_gpu_power_limit_watts", "Enforced power limit."},
              {"kiln_gpu_clock_mhz", "SM and memory clocks."},
              {"kiln_gpu_fan_percent", "Fan speed, percent of its maximum."},
              {"kiln_gpu_utilization_percent", "Time a kernel ran over the last sample period."}};
    for (size_t f = 0; f < sizeof hf / sizeof hf[0]; f++) {
        int header = 0;
        for (int i = 0; i < s->ndev; i++) {
            const kiln_health *h = &s->dev[i].health;
            const char *id = s->dev[i].id;
            double v[2] = {-1, -1};
            if (f == 0) v[0] = h->temperature_c;
            if (f == 1) v[0] = h->power_w;
            if (f == 2) v[0] = h->power_limit_w;
            if (f == 3) v[0] = h->sm_clock_mhz, v[1] = h->mem_clock_mhz;
            if (f == 4) v[0] = h->fan_percent;
            if (f == 5) v[0] = h->utilization_percent;
            if (v[0] < 0) continue;
            if (!header++) family(&b, hf[f].name, "gauge", hf[f].help);
            if (f == 3) {
                add(&b, "%s{device=\"%s\",clock=\"sm\"} %g\n", hf[f].name, id, v[0]);
                if (v[1] >= 0) add(&b, "%s{device=\"%s\",clock=\"mem\"} %g\n", hf[f].name, id, v[1]);
            } else {
                add(&b, "%s{device=\"%s\"} %g\n", hf[f].name, id, v[0]);
            }
        }
    }
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
