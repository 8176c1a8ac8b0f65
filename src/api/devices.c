/* Device identity: the numbering of kiln_device_get (the CPU, then every CUDA GPU, then every
 * OpenCL device) and the one reader of device specs (kiln_device_parse, which kiln_ctx_set_device
 * and the CLI call). Names come from src/core/device_id.c. */
#include <stdio.h>
#include <string.h>

#include "../core/cpu_features.h"
#include "../core/ctx.h"
#include "../core/device_id.h"
#include "../core/gpu.h"
#include "gpu_backend.h"
#include "cpu_report.h"

static int count_of(kiln_backend backend)
{
    const kiln_gpu_ops *gpu = kiln_gpu_backend_of(backend);
    return gpu ? gpu->device_count() : 0;
}

int kiln_cuda_device_count(void) { return count_of(KILN_BACKEND_CUDA); }

int kiln_opencl_device_count(void) { return count_of(KILN_BACKEND_OPENCL); }

int kiln_device_total(void) { return 1 + count_of(KILN_BACKEND_CUDA) + count_of(KILN_BACKEND_OPENCL); }

int kiln_device_index(kiln_backend backend, int ordinal)
{
    if (backend == KILN_BACKEND_CPU) return 0;
    if (ordinal < 0 || ordinal >= count_of(backend)) return -1;
    return 1 + ordinal + (backend == KILN_BACKEND_OPENCL ? count_of(KILN_BACKEND_CUDA) : 0);
}

size_t kiln_cpu_report(char *out, size_t n)
{
    const kiln_cpu_features *f = kiln_cpu();
    char all[1024];
    int k = snprintf(all, sizeof all, "%s%s%s", f->avx512 ? "avx512 " : "", f->avx2 ? "avx2 " : "",
                     f->sha_ni ? "sha-ni " : "");
    kiln_cpu_dispatch_report(all + k, sizeof all - (size_t)k);
    if (out && n) snprintf(out, n, "%s", all);
    return strlen(all);
}

kiln_status kiln_device_get(int index, kiln_device_info *out)
{
    if (!out || index < 0) return KILN_ERR_INPUT;
    memset(out, 0, sizeof *out);
    if (index == 0) {
        out->backend = KILN_BACKEND_CPU;
        snprintf(out->name, sizeof out->name, "%s", kiln_cpu_model());
        out->units = kiln_cpu_cores();
        kiln_cpu_report(out->features, sizeof out->features);
        return KILN_OK;
    }
    /* kiln_device_index's numbering read backwards */
    const int cuda = count_of(KILN_BACKEND_CUDA);
    const kiln_backend b = index <= cuda ? KILN_BACKEND_CUDA : KILN_BACKEND_OPENCL;
    const int ordinal = index <= cuda ? index - 1 : index - 1 - cuda;
    if (ordinal >= count_of(b)) return KILN_ERR_DEVICE;
    return kiln_gpu_backend_of(b)->device_info(NULL, ordinal, out);
}

/* The ordinals of a LIST of "cuda:LIST" (N[,N]...) into ordinals; their number, or -1 (bad
 * syntax) or -2 (more than KILN_MAX_DEVICES). */
static int parse_list(const char *list, int ordinals[KILN_MAX_DEVICES])
{
    int n = 0;
    for (const char *p = list;;) {
        int ordinal = 0, digits = 0;
        for (; *p >= '0' && *p <= '9' && digits < 4; p++, digits++) ordinal = ordinal * 10 + (*p - '0');
        if (digits == 0) return -1;
        if (n == KILN_MAX_DEVICES) return -2;
        ordinals[n++] = ordinal;
        if (*p == '\0') return n;
        if (*p++ != ',') return -1;
    }
}

/* "B:LIST" or "B:all" for the GPU backend b, list pointing after the colon. */
static kiln_status parse_set(kiln_ctx *ctx, const char *spec, kiln_backend b, const char *list, kiln_device_set *out)
{
    const char *w = kiln_backend_name(b);
    if (strcmp(list, "all") == 0) {
        out->form = KILN_DEVICE_ALL;
        out->count = count_of(b) < KILN_MAX_DEVICES ? count_of(b) : KILN_MAX_DEVICES;
        for (int i = 0; i < out->count; i++) out->ordinals[i] = i;
        return KILN_OK;
    }
    int n = parse_list(list, out->ordinals);
    if (n == -2) return kiln_fail(ctx, KILN_ERR_INPUT, "device '%s' lists more than %d GPUs", spec, KILN_MAX_DEVICES);
    if (n < 0) return kiln_fail(ctx, KILN_ERR_INPUT, "bad device '%s' (expected %s:N, %s:N,M,... or %s:all)", spec, w, w, w);
    out->form = n == 1 ? KILN_DEVICE_ONE : KILN_DEVICE_LIST;
    out->count = n;
    return KILN_OK;
}

kiln_status kiln_device_parse(kiln_ctx *ctx, const char *spec, kiln_device_set *out)
{
    if (!out) return KILN_ERR_INPUT;
    memset(out, 0, sizeof *out);
    out->backend = KILN_BACKEND_CPU;
    out->count = 1;
    if (!spec) return kiln_fail(ctx, KILN_ERR_INPUT, "no device given");
    if (strcmp(spec, "auto") == 0) {
        /* never OpenCL: it runs only where it was asked for (include/kiln.h) */
        out->form = KILN_DEVICE_AUTO;
        if (count_of(KILN_BACKEND_CUDA) > 0) out->backend = KILN_BACKEND_CUDA;
        return KILN_OK;
    }
    out->form = KILN_DEVICE_FIRST;
    if (strcmp(spec, "cpu") == 0) return KILN_OK;
    static const kiln_backend gpus[] = {KILN_BACKEND_CUDA, KILN_BACKEND_OPENCL};
    for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
        const char *w = kiln_backend_name(gpus[i]);
        const size_t wl = strlen(w);
        if (strncmp(spec, w, wl) != 0 || (spec[wl] != '\0' && spec[wl] != ':')) continue;
        out->backend = gpus[i];
        return spec[wl] == '\0' ? KILN_OK : parse_set(ctx, spec, gpus[i], spec + wl + 1, out);
    }
    return kiln_fail(ctx, KILN_ERR_INPUT,
                     "unknown device '%s' (expected auto, cpu, cuda, cuda:N, cuda:N,M,..., cuda:all, opencl, "
                     "opencl:N, opencl:N,M,... or opencl:all)",
                     spec);
}
