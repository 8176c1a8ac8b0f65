#include "dev_stats.h"

#include <stdio.h>
#include <string.h>

#include "common/json_out.h"
#include "common/progress.h"
#include "health_out.h"

void dev_stats_id_on(kiln_backend backend, const int *ordinals, int n, int i, char *out, size_t len)
{
    int seen = 0, repeats = 0;
    for (int j = 0; j < n; j++) {
        if (ordinals[j] != ordinals[i]) continue;
        if (j < i) seen++;
        repeats++;
    }
    char spec[32];
    kiln_device_spec(ordinals[i] < 0 ? KILN_BACKEND_CPU : backend, ordinals[i] & 0xffff, spec, sizeof spec);
    if (ordinals[i] >= 0 && repeats > 1) snprintf(out, len, "%s#%d", spec, seen & 0xf);
    else snprintf(out, len, "%s", spec);
}

void dev_stats_init(dev_stats *s, const kiln_ctx *ctx, double temp_limit, health_log_fn log)
{
    memset(s, 0, sizeof *s);
    s->n = kiln_ctx_device_count(ctx);
    if (s->n > MON_MAX_DEVICES) s->n = MON_MAX_DEVICES; /* cannot happen: the library holds 16 too */
    int ordinals[MON_MAX_DEVICES];
    for (int i = 0; i < s->n; i++) ordinals[i] = kiln_ctx_device_ordinal(ctx, i);
    for (int i = 0; i < s->n; i++) {
        dev_stat *d = &s->d[i];
        d->ordinal = ordinals[i];
        const kiln_backend b = kiln_ctx_backend(ctx);
        int index = d->ordinal < 0 ? 0 : kiln_device_index(b, d->ordinal);
        if (index < 0) index = 0; /* cannot happen: the context holds only devices present */
        dev_stats_id_on(b, ordinals, s->n, i, d->id, sizeof d->id);
        kiln_device_info info;
        if (s->n == 1 || kiln_device_get(index, &info) != KILN_OK)
            snprintf(d->name, sizeof d->name, "%s", kiln_ctx_device_name(ctx));
        else snprintf(d->name, sizeof d->name, "%s", info.name);
        health_watch_init_index(&d->hw, index, temp_limit, log);
        memcpy(d->hw.id, d->id, sizeof d->hw.id < sizeof d->id ? sizeof d->hw.id : sizeof d->id);
        d->hw.id[sizeof d->hw.id - 1] = '\0';
    }
}

kiln_status dev_stats_scan(dev_stats *s, kiln_ctx *ctx, const kiln_scan_job *job, kiln_scan_result *res)
{
    kiln_status st = kiln_scan_devices(ctx, job, res, s->scan, MON_MAX_DEVICES);
    for (int i = 0; i < s->n; i++) {
        s->d[i].hashes += s->scan[i].hashes;
        s->d[i].seconds += s->scan[i].seconds;
        s->scan[i].hashes = 0;
        s->scan[i].seconds = 0;
    }
    return st;
}

uint64_t dev_stats_hashes(const dev_stats *s, int i) { return s->d[i].hashes + s->scan[i].hashes; }

double dev_stats_seconds(const dev_stats *s, int i) { return s->d[i].seconds + s->scan[i].seconds; }

int dev_stats_poll(dev_stats *s, double now)
{
    int paused = 0;
    for (int i = 0; i < s->n; i++) paused |= health_watch_poll(&s->d[i].hw, now);
    s->paused = paused;
    return paused;
}

void dev_stats_publish(dev_stats *s, mon_snapshot *p, mon_rates *total, uint64_t hashes, double now)
{
    mon_rates_add(total, now, hashes);
    p->hashes = hashes;
    p->rate_5s = mon_rates_get(total, now, hashes, 5);
    p->rate_60s = mon_rates_get(total, now, hashes, 60);
    p->ndev = s->n;
    for (int i = 0; i < s->n; i++) {
        dev_stat *d = &s->d[i];
        mon_device *o = &p->dev[i];
        uint64_t h = dev_stats_shown(s, i, hashes);
        snprintf(o->id, sizeof o->id, "%s", d->id);
        snprintf(o->name, sizeof o->name, "%s", d->name);
        o->ordinal = d->ordinal;
        o->hashes = h;
        o->seconds = dev_stats_seconds(s, i);
        mon_rates_add(&d->rates, now, h);
        o->rate_5s = s->n == 1 ? p->rate_5s : mon_rates_get(&d->rates, now, h, 5);
        o->rate_60s = s->n == 1 ? p->rate_60s : mon_rates_get(&d->rates, now, h, 60);
        o->paused = d->hw.paused;
        o->health = d->hw.h;
    }
    mon_publish(p);
}

void dev_stats_rates(dev_stats *s, int since_mark, int with_health, char *out, size_t n)
{
    size_t k = 0;
    out[0] = '\0';
    if (s->n < 2) return;
    for (int i = 0; i < s->n && k < n; i++) {
        dev_stat *d = &s->d[i];
        uint64_t h = dev_stats_hashes(s, i);
        double t = dev_stats_seconds(s, i), dt = since_mark ? t - d->mark_seconds : t;
        uint64_t dh = since_mark ? h - d->mark_hashes : h;
        char r[32], hl[96] = "";
        format_rate(dt > 0 ? (double)dh / dt : 0, "H/s", r, sizeof r);
        if (with_health) health_format(&d->hw.h, hl, sizeof hl);
        int w = snprintf(out + k, n - k, "%s%s %s%s%s%s", i ? ", " : "", d->id, r, hl[0] ? " " : "", hl,
                         d->hw.paused ? " PAUSED" : "");
        if (w < 0) break;
        k += (size_t)w;
        if (since_mark) {
            d->mark_hashes = h;
            d->mark_seconds = t;
        }
    }
}

void dev_stats_print(const dev_stats *s)
{
    for (int i = 0; s->n > 1 && i < s->n; i++) {
        double t = dev_stats_seconds(s, i);
        printf("device=%s hashes=%llu seconds=%.3f rate=%.0f\n", s->d[i].id, (unsigned long long)dev_stats_hashes(s, i),
               t, t > 0 ? (double)dev_stats_hashes(s, i) / t : 0);
    }
}

uint64_t dev_stats_shown(const dev_stats *s, int i, uint64_t total)
{
    return s->n == 1 ? total : dev_stats_hashes(s, i);
}

void dev_stats_json_out(const dev_stats *s, const char *key, uint64_t total)
{
    json_array(key);
    for (int i = 0; i < s->n; i++) {
        const dev_stat *d = &s->d[i];
        double t = dev_stats_seconds(s, i);
        uint64_t h = dev_stats_shown(s, i, total);
        json_object(NULL);
        json_str("id", d->id);
        json_int("ordinal", d->ordinal);
        json_str("name", d->name);
        json_u64("hashes", h);
        json_num("seconds", t, "%.6f");
        json_num("rate", t > 0 ? (double)h / t : 0, "%.0f");
        health_json_out("health", &d->hw.h);
        json_close();
    }
    json_close();
}
