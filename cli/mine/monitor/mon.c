#include "mon.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static mon_snapshot latest;
static int have;

void mon_publish(const mon_snapshot *s)
{
    pthread_mutex_lock(&lock);
    latest = *s;
    have = 1;
    pthread_mutex_unlock(&lock);
}

int mon_read(mon_snapshot *out)
{
    pthread_mutex_lock(&lock);
    int ok = have;
    if (ok) *out = latest;
    pthread_mutex_unlock(&lock);
    return ok ? 0 : -1;
}

void mon_reason_add(mon_reason tab[MON_REASONS], const char *text)
{
    for (int i = 0; i < MON_REASONS - 1; i++) {
        if (tab[i].count == 0) snprintf(tab[i].text, sizeof tab[i].text, "%s", text);
        else if (strncmp(tab[i].text, text, sizeof tab[i].text - 1) != 0) continue;
        tab[i].count++;
        return;
    }
    snprintf(tab[MON_REASONS - 1].text, sizeof tab[0].text, "other");
    tab[MON_REASONS - 1].count++;
}

void mon_rates_add(mon_rates *r, double now, uint64_t hashes)
{
    int last = (r->head + MON_RATE_SAMPLES - 1) % MON_RATE_SAMPLES;
    if (r->n && now - r->t[last] < 1.0) return;
    r->t[r->head] = now;
    r->h[r->head] = hashes;
    r->head = (r->head + 1) % MON_RATE_SAMPLES;
    if (r->n < MON_RATE_SAMPLES) r->n++;
}

double mon_rates_get(const mon_rates *r, double now, uint64_t hashes, double window)
{
    /* the newest sample at least `window` old, else the oldest one */
    int pick = -1;
    for (int k = 1; k <= r->n; k++) {
        int i = (r->head + MON_RATE_SAMPLES - k) % MON_RATE_SAMPLES;
        pick = i;
        if (now - r->t[i] >= window) break;
    }
    if (pick < 0 || now <= r->t[pick] || hashes < r->h[pick]) return 0;
    return (double)(hashes - r->h[pick]) / (now - r->t[pick]);
}
