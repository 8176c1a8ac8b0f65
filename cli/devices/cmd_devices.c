/* kiln devices: the CPU, every CUDA GPU and every OpenCL device this build can use. */
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "common/json_out.h"
#include "common/opts.h"
#include "mine/monitor/health_out.h"
#include "mine/monitor/health_watch.h"

static const char *const kind_names[] = {"search", "hash", "kdf", "tree", "graph", "permutation"};

static void print_json(const kiln_device_info *d, int n)
{
    json_array(NULL);
    for (int i = 0; i < n; i++) {
        json_object(NULL);
        json_str("device", kiln_backend_name(d[i].backend));
        json_str("name", d[i].name);
        json_int("units", d[i].units);
        if (d[i].backend == KILN_BACKEND_OPENCL) {
            char ver[16];
            snprintf(ver, sizeof ver, "%d.%d", d[i].cc_major, d[i].cc_minor);
            json_int("index", d[i].index);
            json_str("platform", d[i].platform);
            json_str("driver", d[i].driver);
            json_str("opencl_version", ver);
            json_u64("memory_bytes", d[i].memory_bytes);
        } else if (i) {
            char cc[16];
            snprintf(cc, sizeof cc, "%d.%d", d[i].cc_major, d[i].cc_minor);
            json_int("index", d[i].index);
            json_str("compute_capability", cc);
            json_u64("memory_bytes", d[i].memory_bytes);
        } else {
            char features[1024];
            kiln_cpu_report(features, sizeof features);
            json_str("features", features);
        }
        kiln_health h;
        kiln_device_health(i, &h);
        health_json_out("health", &h);
        json_close();
    }
}

static void print_text(const kiln_device_info *d, int n)
{
    for (int i = 0; i < n; i++) {
        if (i == 0) {
            char features[1024];
            kiln_cpu_report(features, sizeof features);
            printf("cpu       %s, %d cores, %s\n", d[i].name, d[i].units, features);
            continue;
        }
        char id[16];
        kiln_device_spec(d[i].backend, d[i].index, id, sizeof id);
        if (d[i].backend == KILN_BACKEND_OPENCL) {
            printf("%-9s %s, %d compute units, OpenCL %d.%d, %.1f GiB, platform %s, driver %s\n", id, d[i].name,
                   d[i].units, d[i].cc_major, d[i].cc_minor, (double)d[i].memory_bytes / (1024.0 * 1024 * 1024),
                   d[i].platform, d[i].driver);
            continue;
        }
        kiln_health h;
        char hl[96];
        kiln_device_health(i, &h);
        health_format(&h, hl, sizeof hl);
        printf("%-9s %s, %d SMs, compute %d.%d, %.0f GiB, health: %s\n", id, d[i].name, d[i].units, d[i].cc_major,
               d[i].cc_minor, (double)d[i].memory_bytes / (1024.0 * 1024 * 1024), hl[0] ? hl : h.source);
    }
    /* what each device can run, from the registry: a GPU runs the kinds listed for it */
    printf("\nworkloads (name, kinds, devices, what):\n");
    for (size_t i = 0; i < kiln_workload_count(); i++) {
        const kiln_workload *w = kiln_workload_at(i);
        char kinds[64] = "", gpu[64] = "";
        for (int k = 0; k < 6; k++) {
            unsigned bit = 1u << k;
            if (w->kinds & bit) snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s", kinds[0] ? "," : "", kind_names[k]);
            if (w->gpu_kinds & bit) snprintf(gpu + strlen(gpu), sizeof gpu - strlen(gpu), "%s%s", gpu[0] ? "," : "", kind_names[k]);
        }
        const char *where = w->gpu_kinds == w->kinds ? "cpu gpu" : gpu[0] ? "cpu, gpu for " : "cpu";
        printf("  %-12s %-17s %s%s  %s\n", w->name, kinds, where, w->gpu_kinds == w->kinds ? "" : gpu, w->help);
    }
}

int cmd_devices(int argc, char **argv)
{
    cli_output out = {0, 0, 0};
    cli_option opts[] = {CLI_OPT_JSON(&out, 0)};
    cli_command c = CLI_COMMAND("devices", "[--json]", NULL, opts);
    int code = cli_parse(&c, argc, argv);
    if (code) return json_end(code == CLI_HELP ? EXIT_OK : code);
    /* every device is asked before anything is printed, so a failure leaves no half list */
    kiln_device_info d[1 + 64];
    int n = kiln_device_total();
    if (n > (int)(sizeof d / sizeof d[0])) n = (int)(sizeof d / sizeof d[0]);
    for (int i = 0; i < n; i++)
        if (kiln_device_get(i, &d[i]) != KILN_OK)
            return json_end(cli_error(EXIT_DEVICE, "devices", "cannot query device %d", i));
    if (out.json) print_json(d, n);
    else print_text(d, n);
    return json_end(EXIT_OK);
}
