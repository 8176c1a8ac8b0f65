/* The mining loops' view of their device's health: a reading at most once a second (NVML or the
 * test fake, kiln_device_health), and --temp-limit: a device above the limit pauses, and resumes
 * once it has cooled TEMP_RESUME_BELOW degrees under it; both changes are logged.
 *
 * The loops stop scanning while paused (pool mining keeps the connection served; solo mining
 * waits in its progress callback, between launches). Tests drive it without a GPU through
 * KILN_HEALTH_FAKE (include/kiln.h), rewriting the fake temperature while kiln mines. */
#ifndef KILN_CLI_HEALTH_WATCH_H
#define KILN_CLI_HEALTH_WATCH_H

#include "kiln.h"

#define TEMP_RESUME_BELOW 5.0
#define HEALTH_PERIOD_S 1.0

typedef void (*health_log_fn)(const char *msg);
/* The mining loops' logger: "kiln mine: MSG" on stderr, under any progress line. */
void health_log_mine(const char *msg);

typedef struct health_watch {
    int index; /* kiln_device_get's */
    char id[16]; /* "cpu", "cuda:0", "opencl:0": kiln_device_spec */
    double limit; /* --temp-limit; 0: none */
    int paused, warned;
    double next; /* the next reading is due */
    kiln_health h; /* the last reading */
    health_log_fn log;
} health_watch;

/* The pause decision alone: the new paused state for a reading (temp < 0: none). */
int temp_guard_step(int paused, double limit, double temp);

/* Watches the device of kiln_device_get index `index` (0 the CPU, 1.. the GPUs). */
void health_watch_init_index(health_watch *w, int index, double limit, health_log_fn log);
/* Reads the health when a reading is due and applies the limit; 1 while the device must rest. */
int health_watch_poll(health_watch *w, double now);
/* "71 C 250 W 1980/2619 MHz fan 40%" with what is known, or "" when the source is unavailable. */
void health_format(const kiln_health *h, char *out, size_t n);

#endif
