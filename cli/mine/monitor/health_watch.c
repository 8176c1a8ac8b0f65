#include "health_watch.h"

#include <stdio.h>
#include <string.h>

#include "common/progress.h"

void health_log_mine(const char *msg)
{
    progress_clear();
    fprintf(stderr, "kiln mine: %s\n", msg);
}

int temp_guard_step(int paused, double limit, double temp)
{
    if (limit <= 0 || temp < 0) return paused;
    if (!paused) return temp > limit;
    return temp > limit - TEMP_RESUME_BELOW;
}

void health_watch_init_index(health_watch *w, int index, double limit, health_log_fn log)
{
    memset(w, 0, sizeof *w);
    w->index = index;
    kiln_device_info info; /* its backend and ordinal, named as a device spec names it */
    if (kiln_device_get(index, &info) == KILN_OK) kiln_device_spec(info.backend, info.index, w->id, sizeof w->id);
    else snprintf(w->id, sizeof w->id, "device %d", index & 0xffff);
    w->limit = limit;
    w->log = log;
    kiln_device_health(w->index, &w->h);
}

int health_watch_poll(health_watch *w, double now)
{
    if (now < w->next) return w->paused;
    w->next = now + HEALTH_PERIOD_S;
    kiln_device_health(w->index, &w->h);
    char msg[200];
    if (w->limit > 0 && w->h.temperature_c < 0) {
        if (!w->warned && w->log) {
            snprintf(msg, sizeof msg, "--temp-limit %g: %s has no temperature reading (health %s); mining without the limit",
                     w->limit, w->id, w->h.source);
            w->log(msg);
        }
        w->warned = 1;
        return w->paused;
    }
    int p = temp_guard_step(w->paused, w->limit, w->h.temperature_c);
    if (p != w->paused && w->log) {
        if (p) snprintf(msg, sizeof msg, "%s at %.0f C, above --temp-limit %g C: paused", w->id, w->h.temperature_c, w->limit);
        else snprintf(msg, sizeof msg, "%s at %.0f C, %g C under --temp-limit %g C: resumed", w->id, w->h.temperature_c,
                      TEMP_RESUME_BELOW, w->limit);
        w->log(msg);
    }
    w->paused = p;
    return p;
}

void health_format(const kiln_health *h, char *out, size_t n)
{
    size_t k = 0;
    out[0] = '\0';
#define ADD(...)                                                                                                      \
    do {                                                                                                              \
        if (k < n) k += (size_t)snprintf(out + k, n - k, __VA_ARGS__);                                                \
    } while (0)
    if (h->temperature_c >= 0) ADD("%.0f C", h->temperature_c);
    if (h->power_w >= 0) ADD("%s%.0f W", k ? " " : "", h->power_w);
    if (h->sm_clock_mhz >= 0) ADD("%s%d/%d MHz", k ? " " : "", h->sm_clock_mhz, h->mem_clock_mhz);
    if (h->fan_percent >= 0) ADD("%sfan %d%%", k ? " " : "", h->fan_percent);
#undef ADD
}
