#include "health_out.h"

#include "common/json_out.h"

void health_json_out(const char *key, const kiln_health *h)
{
    json_object(key);
    json_str("source", h->source);
    if (h->temperature_c >= 0) json_num("temperature_c", h->temperature_c, "%.1f");
    if (h->power_w >= 0) json_num("power_w", h->power_w, "%.3f");
    if (h->power_limit_w >= 0) json_num("power_limit_w", h->power_limit_w, "%.3f");
    if (h->sm_clock_mhz >= 0) json_int("sm_clock_mhz", h->sm_clock_mhz);
    if (h->mem_clock_mhz >= 0) json_int("mem_clock_mhz", h->mem_clock_mhz);
    if (h->fan_percent >= 0) json_int("fan_percent", h->fan_percent);
    if (h->utilization_percent >= 0) json_int("utilization_percent", h->utilization_percent);
    json_close();
}
