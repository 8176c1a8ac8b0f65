/* Several devices in the mining statistics (cli/mine/monitor/dev_stats.c, status.c), without a GPU:
 * the device ids (an ordinal given twice gets "#K", so every Prometheus label is distinct), each
 * device's rate line from known counts, and the endpoint's documents for a snapshot of two logical
 * devices: /metrics in Prometheus' text format (one series per device label, the total its own
 * family), /status's "devices". Named test_pool_* because the documents need libjansson, as pool
 * mining does (tests/CMakeLists.txt leaves these out without it). */
#include <jansson.h>

#include "check.h"
#include "mine/monitor/dev_stats.h"
#include "mine/monitor/status.h"

static void test_ids(void)
{
    char id[16];
    const int two[] = {0, 0}, pair[] = {0, 1}, mixed[] = {1, 0, 1}, cpu[] = {-1};
    dev_stats_id_on(KILN_BACKEND_CUDA, two, 2, 0, id, sizeof id);
    CHECK_STR(id, "cuda:0#0");
    dev_stats_id_on(KILN_BACKEND_CUDA, two, 2, 1, id, sizeof id);
    CHECK_STR(id, "cuda:0#1");
    dev_stats_id_on(KILN_BACKEND_CUDA, pair, 2, 1, id, sizeof id);
    CHECK_STR(id, "cuda:1");
    dev_stats_id_on(KILN_BACKEND_CUDA, mixed, 3, 0, id, sizeof id);
    CHECK_STR(id, "cuda:1#0");
    dev_stats_id_on(KILN_BACKEND_CUDA, mixed, 3, 1, id, sizeof id);
    CHECK_STR(id, "cuda:0");
    dev_stats_id_on(KILN_BACKEND_CUDA, mixed, 3, 2, id, sizeof id);
    CHECK_STR(id, "cuda:1#1");
    dev_stats_id_on(KILN_BACKEND_CUDA, cpu, 1, 0, id, sizeof id);
    CHECK_STR(id, "cpu");
    /* an OpenCL set is named as its spec selects it (it was named cuda:N) */
    dev_stats_id_on(KILN_BACKEND_OPENCL, two, 2, 1, id, sizeof id);
    CHECK_STR(id, "opencl:0#1");
    dev_stats_id_on(KILN_BACKEND_OPENCL, pair, 2, 1, id, sizeof id);
    CHECK_STR(id, "opencl:1");
}

/* Two logical devices with known counts: 3000 nonces in 1 s and 2000 in 1 s. */
static void two_devices(dev_stats *s)
{
    memset(s, 0, sizeof *s);
    s->n = 2;
    for (int i = 0; i < 2; i++) {
        snprintf(s->d[i].id, sizeof s->d[i].id, "cuda:0#%d", i);
        snprintf(s->d[i].name, sizeof s->d[i].name, "NVIDIA H200");
        s->d[i].hw.h = (kiln_health){"unavailable", -1, -1, -1, -1, -1, -1, -1};
    }
    s->d[0].hashes = 3000;
    s->d[1].hashes = 2000;
    s->d[0].seconds = s->d[1].seconds = 1.0;
}

static void test_rates(void)
{
    dev_stats s;
    char line[256];
    two_devices(&s);
    dev_stats_rates(&s, 1, 0, line, sizeof line);
    CHECK_STR(line, "cuda:0#0 3.00 kH/s, cuda:0#1 2.00 kH/s");
    /* since the mark: the search under way counts (600 more nonces in 0.5 s of device 0) */
    s.scan[0].hashes = 600;
    s.scan[0].seconds = 0.5;
    s.d[1].hashes += 100;
    s.d[1].seconds += 0.25;
    CHECK(dev_stats_hashes(&s, 0) == 3600 && dev_stats_seconds(&s, 0) == 1.5, "device 0 with its search under way");
    dev_stats_rates(&s, 0, 0, line, sizeof line); /* since the start: 3600 in 1.5 s, 2100 in 1.25 s */
    CHECK_STR(line, "cuda:0#0 2.40 kH/s, cuda:0#1 1.68 kH/s");
    dev_stats_rates(&s, 1, 0, line, sizeof line); /* since the mark: 600 in 0.5 s, 100 in 0.25 s */
    CHECK_STR(line, "cuda:0#0 1.20 kH/s, cuda:0#1 400.00 H/s");
    s.d[1].hashes += 500;
    s.d[1].seconds += 0.5;
    dev_stats_rates(&s, 1, 0, line, sizeof line); /* and since that one */
    CHECK_STR(line, "cuda:0#0 0.00 H/s, cuda:0#1 1.00 kH/s");
    CHECK(dev_stats_shown(&s, 0, 99) == 3600, "a set shows each device's own count");
    s.n = 1;
    dev_stats_rates(&s, 0, 0, line, sizeof line);
    CHECK_STR(line, "");
    CHECK(dev_stats_shown(&s, 0, 99) == 99, "one device shows the loop's total");
}

/* The text of the series `name{labels}`, or NULL; fails when it occurs twice. */
static const char *series(const char *doc, const char *head)
{
    size_t len = strlen(head);
    const char *hit = NULL;
    for (const char *p = doc; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
        if (strncmp(p, head, len) != 0 || p[len] != ' ') continue;
        CHECK(!hit, "%s: one series", head);
        hit = p + len + 1;
    }
    return hit;
}

static void test_documents(void)
{
    dev_stats s;
    mon_snapshot p;
    mon_rates total;
    two_devices(&s);
    memset(&p, 0, sizeof p);
    memset(&total, 0, sizeof total);
    snprintf(p.mode, sizeof p.mode, "pool");
    p.started = 100.0;
    /* two samples 1 s apart: the loop's 5000 then 10000 hashes, device 0 3000 then 6000 */
    dev_stats_publish(&s, &p, &total, 5000, 100.0);
    s.d[0].hashes = 6000;
    s.d[1].hashes = 4000;
    s.d[0].seconds = s.d[1].seconds = 2.0;
    dev_stats_publish(&s, &p, &total, 10000, 101.0);
    char *m = status_metrics(&p, 101.0);
    CHECK(m != NULL, "metrics written");
    if (!m) return;
    const char *v;
    CHECK((v = series(m, "kiln_hashes_total{device=\"cuda:0#0\"}")) && atof(v) == 6000, "hashes of cuda:0#0");
    CHECK((v = series(m, "kiln_hashes_total{device=\"cuda:0#1\"}")) && atof(v) == 4000, "hashes of cuda:0#1");
    CHECK((v = series(m, "kiln_device_busy_seconds_total{device=\"cuda:0#1\"}")) && atof(v) == 2.0, "busy seconds");
    CHECK((v = series(m, "kiln_hashrate_hps{device=\"cuda:0#0\",window=\"5s\"}")) && atof(v) == 3000,
          "cuda:0#0's rate over the window: 3000 nonces in 1 s (%s)", v ? v : "none");
    CHECK((v = series(m, "kiln_hashrate_total_hps{window=\"5s\"}")) && atof(v) == 5000, "the total's rate");
    CHECK((v = series(m, "kiln_device_paused{device=\"cuda:0#1\"}")) && atoi(v) == 0, "paused per device");
    CHECK(strstr(m, "# TYPE kiln_hashes_total counter\n") && strstr(m, "# TYPE kiln_device_busy_seconds_total counter\n"),
          "the families' types");
    CHECK(!strstr(m, "device=\"cuda:0\""), "no label shared by the two logical devices");
    free(m);

    char *j = status_json(&p, 101.0);
    json_error_t e;
    json_t *d = j ? json_loads(j, 0, &e) : NULL;
    json_t *devs = json_object_get(d, "devices");
    CHECK(json_array_size(devs) == 2, "/status: two devices");
    for (size_t i = 0; i < json_array_size(devs) && i < 2; i++) {
        json_t *x = json_array_get(devs, i);
        char want[16];
        snprintf(want, sizeof want, "cuda:0#%zu", i);
        CHECK(strcmp(json_string_value(json_object_get(x, "id")), want) == 0 &&
                  json_integer_value(json_object_get(x, "ordinal")) == 0 &&
                  json_integer_value(json_object_get(x, "hashes")) == (i ? 4000 : 6000) &&
                  json_real_value(json_object_get(x, "busy_seconds")) == 2.0,
              "/status: device %zu", i);
    }
    CHECK(json_integer_value(json_object_get(d, "hashes")) == 10000, "/status: the total");
    json_decref(d);
    free(j);
}

int main(void)
{
    test_ids();
    test_rates();
    test_documents();
    return check_summary();
}
