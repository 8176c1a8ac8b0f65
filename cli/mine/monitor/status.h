/* The endpoint's two documents, from one published snapshot (mon.h): GET /status as JSON
 * (docs/MONITOR.md lists the fields) and GET /metrics in Prometheus' text exposition format
 * 0.0.4. Both malloc'ed; NULL when memory runs out. */
#ifndef KILN_CLI_STATUS_H
#define KILN_CLI_STATUS_H

#include "mon.h"

#include <jansson.h>

/* A reading as the documents write it: {"source": ...} and the readings that exist. */
json_t *status_health_json(const kiln_health *h);
char *status_json(const mon_snapshot *s, double now);
char *status_metrics(const mon_snapshot *s, double now);

#endif
