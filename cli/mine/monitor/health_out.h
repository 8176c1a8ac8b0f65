/* A device's health as the CLI's --json documents write it (json_out.h): an object under `key`
 * with "source" and the readings that exist (absent ones are left out, as in /status). */
#ifndef KILN_CLI_HEALTH_OUT_H
#define KILN_CLI_HEALTH_OUT_H

#include "kiln.h"

void health_json_out(const char *key, const kiln_health *h);

#endif
