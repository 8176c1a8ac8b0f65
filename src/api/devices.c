#include <stdio.h>
#include <string.h>

#include "../core/cpu_features.h"
#include "../core/ctx.h"
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

const char *kiln_backend_name(kiln_backend backend)
{
    return backend == KILN_BACKEND_CUDA ? "cuda" : backend == KILN_BACKEND_OPENCL ? "opencl" : "cpu";
}

kiln_status kiln_device_get(int index, kiln_device_info *out)
{
    if (!out || index < 0) return KILN_ERR_INPUT;
    memset(out, 0, sizeof *out);
    if (index == 0) {
        const kiln_cpu_features *f = kiln_cpu();
        out->backend = KILN_BACKEND_CPU;
        snprintf(out->name, sizeof out->name, "%s", kiln_cpu_model());
        out->units = kiln_cpu_cores();
        int n = snprintf(out->features, sizeof out->features, "%s%s%s", f->avx512 ? "avx512 " : "",
                         f->avx2 ? "avx2 " : "", f->sha_ni ? "sha-ni " : "");
        kiln_cpu_dispatch_report(out->features + n, sizeof out->features - (size_t)n);
        return KILN_OK;
    }
    int cuda = kiln_cuda_device_count();
    if (index <= cuda) return kiln_gpu_backend_of(KILN_BACKEND_CUDA)->device_info(NULL, index - 1, out);
    if (index - cuda > kiln_opencl_device_count()) return KILN_ERR_DEVICE;
    return kiln_gpu_backend_of(KILN_BACKEND_OPENCL)->device_info(NULL, index - 1 - cuda, out);
}
