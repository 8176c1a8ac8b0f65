/* Device health: NVML opened at run time, or a fake file for tests (include/kiln.h says how).
 *
 * NVML is dlopen'ed rather than linked so that one build runs on machines with and without the
 * NVIDIA driver, and so that the .deb does not depend on it. It is opened once and kept open for
 * the life of the process (nvmlShutdown at exit would race the threads still reading). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/ctx.h"

typedef struct nvml_dev *nvml_handle; /* nvmlDevice_t: an opaque pointer */
typedef int nvml_ret; /* nvmlReturn_t; NVML_SUCCESS is 0 */
typedef struct {
    unsigned gpu, memory;
} nvml_util;

enum { NVML_TEMPERATURE_GPU = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };

static struct {
    int ok;
    nvml_ret (*init)(void);
    nvml_ret (*count)(unsigned *);
    nvml_ret (*by_index)(unsigned, nvml_handle *);
    nvml_ret (*temperature)(nvml_handle, int, unsigned *);
    nvml_ret (*power)(nvml_handle, unsigned *);
    nvml_ret (*power_limit)(nvml_handle, unsigned *);
    nvml_ret (*clock)(nvml_handle, int, unsigned *);
    nvml_ret (*fan)(nvml_handle, unsigned *);
    nvml_ret (*util)(nvml_handle, nvml_util *);
} nv;
static pthread_once_t nv_once = PTHREAD_ONCE_INIT;

static void nv_open(void)
{
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
    /* POSIX lets a void * from dlsym become a function pointer; ISO C does not, hence the memcpy */
#define SYM(field, name)                                                                                              \
    do {                                                                                                              \
        void *p_ = dlsym(h, name);                                                                                    \
        memcpy(&nv.field, &p_, sizeof p_);                                                                            \
    } while (0)
    SYM(init, "nvmlInit_v2");
    SYM(count, "nvmlDeviceGetCount_v2");
    SYM(by_index, "nvmlDeviceGetHandleByIndex_v2");
    SYM(temperature, "nvmlDeviceGetTemperature");
    SYM(power, "nvmlDeviceGetPowerUsage");
    SYM(power_limit, "nvmlDeviceGetEnforcedPowerLimit");
    SYM(clock, "nvmlDeviceGetClockInfo");
    SYM(fan, "nvmlDeviceGetFanSpeed");
    SYM(util, "nvmlDeviceGetUtilizationRates");
#undef SYM
    if (!nv.init || !nv.count || !nv.by_index || nv.init() != 0) {
        dlclose(h);
        return;
    }
    nv.ok = 1;
}

static void absent(kiln_health *out, const char *source)
{
    memset(out, 0, sizeof *out);
    snprintf(out->source, sizeof out->source, "%s", source);
    out->temperature_c = out->power_w = out->power_limit_w = -1;
    out->sm_clock_mhz = out->mem_clock_mhz = out->fan_percent = out->utilization_percent = -1;
}

/* NVML's index for CUDA ordinal `ordinal`: CUDA numbers the GPUs CUDA_VISIBLE_DEVICES lists, in
 * its order; NVML numbers every GPU by PCI bus. Without the variable both follow the bus on a
 * machine of one GPU model. A list of UUIDs cannot be mapped here: -1. */
static int nvml_index(int ordinal)
{
    const char *v = getenv("CUDA_VISIBLE_DEVICES");
    if (!v || !*v) return ordinal;
    for (int i = 0;; i++) {
        char *end;
        long x = strtol(v, &end, 10);
        if (end == v || x < 0) return -1;
        if (i == ordinal) return (int)x;
        if (*end != ',') return -1;
        v = end + 1;
    }
}

static void read_nvml(int ordinal, kiln_health *out)
{
    pthread_once(&nv_once, nv_open);
    int idx = nvml_index(ordinal);
    unsigned n = 0;
    nvml_handle h;
    if (!nv.ok || idx < 0 || nv.count(&n) != 0 || (unsigned)idx >= n || nv.by_index((unsigned)idx, &h) != 0) return;
    snprintf(out->source, sizeof out->source, "nvml");
    unsigned u;
    if (nv.temperature && nv.temperature(h, NVML_TEMPERATURE_GPU, &u) == 0) out->temperature_c = u;
    if (nv.power && nv.power(h, &u) == 0) out->power_w = u / 1000.0; /* milliwatts */
    if (nv.power_limit && nv.power_limit(h, &u) == 0) out->power_limit_w = u / 1000.0;
    if (nv.clock && nv.clock(h, NVML_CLOCK_SM, &u) == 0) out->sm_clock_mhz = (int)u;
    if (nv.clock && nv.clock(h, NVML_CLOCK_MEM, &u) == 0) out->mem_clock_mhz = (int)u;
    if (nv.fan && nv.fan(h, &u) == 0) out->fan_percent = (int)u;
    nvml_util ut;
    if (nv.util && nv.util(h, &ut) == 0) out->utilization_percent = (int)ut.gpu;
}

/* The fake file's line for `index`, when there is one. */
static void read_fake(const char *path, int index, kiln_health *out)
{
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *p = line, *end;
        long i = strtol(p, &end, 10);
        if (end == p || i != index) continue;
        snprintf(out->source, sizeof out->source, "fake");
        for (p = end;;) {
            char key[16];
            double v;
            int used = 0;
            if (sscanf(p, " %15[a-z_]=%lf%n", key, &v, &used) != 2) break;
            p += used;
            if (strcmp(key, "temp") == 0) out->temperature_c = v;
            else if (strcmp(key, "power") == 0) out->power_w = v;
            else if (strcmp(key, "power_limit") == 0) out->power_limit_w = v;
            else if (strcmp(key, "sm_clock") == 0) out->sm_clock_mhz = (int)v;
            else if (strcmp(key, "mem_clock") == 0) out->mem_clock_mhz = (int)v;
            else if (strcmp(key, "fan") == 0) out->fan_percent = (int)v;
            else if (strcmp(key, "util") == 0) out->utilization_percent = (int)v;
        }
        break;
    }
    fclose(f);
}

kiln_status kiln_device_health(int index, kiln_health *out)
{
    if (!out || index < 0) return KILN_ERR_INPUT;
    absent(out, "unavailable");
    const char *fake = getenv("KILN_HEALTH_FAKE");
    if (fake && *fake) read_fake(fake, index, out);
    else {
        kiln_device_info info;
        /* NVML answers for NVIDIA's CUDA GPUs only; an OpenCL device stays "unavailable" */
        if (index > 0 && kiln_device_get(index, &info) == KILN_OK && info.backend == KILN_BACKEND_CUDA)
            read_nvml(info.index, out);
    }
    return KILN_OK;
}

int kiln_ctx_device_index(const kiln_ctx *ctx)
{
    if (!ctx || ctx->backend == KILN_BACKEND_CPU || ctx->ngpu < 1) return 0;
    const int index = kiln_device_index(ctx->backend, ctx->gpu_ordinal[0]);
    return index > 0 ? index : 0;
}
