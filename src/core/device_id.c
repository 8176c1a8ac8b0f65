/* Each backend's names, in one table (device_id.h); kiln_backend_name and kiln_device_spec are the
 * public face of it (include/kiln.h). */
#include <stdio.h>

#include "device_id.h"

typedef struct backend_names {
    const char *word, *noun, *runtime;
} backend_names;

static const backend_names *names_of(kiln_backend b)
{
    static const backend_names cpu = {"cpu", "CPU", "the CPU"};
    static const backend_names cuda = {"cuda", "CUDA GPU", "CUDA"};
    static const backend_names opencl = {"opencl", "OpenCL device", "OpenCL"};
    return b == KILN_BACKEND_CUDA ? &cuda : b == KILN_BACKEND_OPENCL ? &opencl : &cpu;
}

const char *kiln_backend_name(kiln_backend backend) { return names_of(backend)->word; }

const char *kiln_backend_noun(kiln_backend backend) { return names_of(backend)->noun; }

const char *kiln_backend_runtime(kiln_backend backend) { return names_of(backend)->runtime; }

const char *kiln_device_spec(kiln_backend backend, int ordinal, char *out, size_t n)
{
    if (!out || n == 0) return out;
    if (backend == KILN_BACKEND_CPU) snprintf(out, n, "cpu");
    else snprintf(out, n, "%s:%d", kiln_backend_name(backend), ordinal);
    return out;
}
