/* kiln devices: the CPU and every GPU this build can use. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "opts.h"

int cmd_devices(int argc, char **argv)
{
    int json = 0;
    cli_option opts[] = {{"--json", OPT_FLAG, &json, NULL, "print the devices as a JSON array", .modes = 0}};
    cli_command c = CLI_COMMAND("devices", "[--json]", NULL, opts);
    int code = cli_parse(&c, argc, argv);
    if (code) return code == CLI_HELP ? EXIT_OK : code;
    int n = 1 + kiln_cuda_device_count();
    if (json) printf("[");
    for (int i = 0; i < n; i++) {
        kiln_device_info d;
        if (kiln_device_get(i, &d) != KILN_OK) return cli_error(EXIT_DEVICE, "devices", "cannot query device %d", i);
        if (json) {
            printf("%s{\"device\": \"%s\", \"name\": \"%s\", \"units\": %d", i ? ", " : "",
                   i ? "cuda" : "cpu", d.name, d.units);
            if (i) printf(", \"index\": %d, \"compute_capability\": \"%d.%d\", \"memory_bytes\": %llu}", d.index,
                          d.cc_major, d.cc_minor, (unsigned long long)d.memory_bytes);
            else printf(", \"features\": \"%s\"}", d.features);
        } else if (i == 0) {
            printf("cpu       %s, %d cores, %s\n", d.name, d.units, d.features);
        } else {
            char id[16];
            snprintf(id, sizeof id, "cuda:%d", d.index);
            printf("%-9s %s, %d SMs, compute %d.%d, %.0f GiB\n", id, d.name, d.units, d.cc_major, d.cc_minor,
                   (double)d.memory_bytes / (1024.0 * 1024 * 1024));
        }
    }
    if (json) {
        printf("]\n");
        return EXIT_OK;
    }
    /* what each device can run, from the registry: a GPU runs the kinds listed for it */
    printf("\nworkloads (name, kinds, devices, what):\n");
    static const char *const kind_names[] = {"search", "hash", "kdf", "tree", "graph", "permutation"};
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
    return EXIT_OK;
}
