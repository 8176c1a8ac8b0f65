/* OpenCL devices: every platform's devices in one list (platform order, then the platform's own
 * order), so that opencl:N names one device whichever vendor's driver it comes from; what each
 * is; a handle (context and in-order queue) on one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_state.h"

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

/* Every device of every platform, up to MAX_DEVICES, with its platform; the count. */
static int list_devices(cl_platform_id *plats, cl_device_id *devs)
{
    cl_platform_id p[MAX_PLATFORMS];
    cl_uint np = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, p, &np) != CL_SUCCESS) return 0; /* no ICD: no devices */
    if (np > MAX_PLATFORMS) np = MAX_PLATFORMS;
    int n = 0;
    for (cl_uint i = 0; i < np && n < MAX_DEVICES; i++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, (cl_uint)(MAX_DEVICES - n), devs + n, &nd) != CL_SUCCESS) continue;
        if (nd > (cl_uint)(MAX_DEVICES - n)) nd = (cl_uint)(MAX_DEVICES - n);
        for (cl_uint k = 0; k < nd; k++) plats[n + (int)k] = p[i];
        n += (int)nd;
    }
    return n;
}

int kiln_ocl_device_count(void)
{
    cl_platform_id p[MAX_DEVICES];
    cl_device_id d[MAX_DEVICES];
    return list_devices(p, d);
}

kiln_status kiln_ocl_device_at(kiln_ctx *ctx, int ordinal, cl_platform_id *platform, cl_device_id *device)
{
    cl_platform_id p[MAX_DEVICES];
    cl_device_id d[MAX_DEVICES];
    int n = list_devices(p, d);
    if (ordinal < 0 || ordinal >= n)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "no OpenCL device opencl:%d (%d present)", ordinal, n);
    *platform = p[ordinal];
    *device = d[ordinal];
    return KILN_OK;
}

int kiln_ocl_host_cores(int ordinal)
{
    cl_platform_id p[MAX_DEVICES];
    cl_device_id d[MAX_DEVICES];
    cl_device_type type = 0;
    return ordinal >= 0 && ordinal < list_devices(p, d) &&
           clGetDeviceInfo(d[ordinal], CL_DEVICE_TYPE, sizeof type, &type, NULL) == CL_SUCCESS &&
           (type & CL_DEVICE_TYPE_CPU) != 0;
}

/* A string property into buf, cut to fit (empty when it cannot be read): the call itself refuses
 * a buffer shorter than the whole string. */
static void device_str(cl_device_id d, cl_device_info what, char *buf, size_t n)
{
    buf[0] = '\0';
    size_t len = 0;
    if (clGetDeviceInfo(d, what, 0, NULL, &len) != CL_SUCCESS || len == 0) return;
    char *all = malloc(len + 1);
    if (!all) return;
    if (clGetDeviceInfo(d, what, len, all, NULL) == CL_SUCCESS) {
        all[len] = '\0';
        snprintf(buf, n, "%s", all);
    }
    free(all);
}

kiln_status kiln_ocl_device_info(kiln_ctx *ctx, int ordinal, kiln_device_info *out)
{
    cl_platform_id p = NULL;
    cl_device_id d = NULL;
    kiln_status st = kiln_ocl_device_at(ctx, ordinal, &p, &d);
    if (st != KILN_OK) return st;
    memset(out, 0, sizeof *out);
    out->backend = KILN_BACKEND_OPENCL;
    out->index = ordinal;
    device_str(d, CL_DEVICE_NAME, out->name, sizeof out->name);
    device_str(d, CL_DRIVER_VERSION, out->driver, sizeof out->driver);
    char platform[256] = "";
    if (clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof platform - 1, platform, NULL) != CL_SUCCESS) platform[0] = '\0';
    platform[sizeof platform - 1] = '\0';
    snprintf(out->platform, sizeof out->platform, "%.*s", (int)sizeof out->platform - 1, platform);
    cl_uint units = 0;
    cl_ulong mem = 0;
    KILN_OCL_TRY(ctx, clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL),
                 "clGetDeviceInfo (compute units)");
    KILN_OCL_TRY(ctx, clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL),
                 "clGetDeviceInfo (global memory)");
    out->units = (int)units;
    out->memory_bytes = mem;
    /* the OpenCL version the device supports ("OpenCL 3.0 ...") where CUDA gives its compute
     * capability */
    char ver[256];
    device_str(d, CL_DEVICE_VERSION, ver, sizeof ver);
    if (sscanf(ver, "OpenCL %d.%d", &out->cc_major, &out->cc_minor) != 2) out->cc_major = out->cc_minor = 0;
    return KILN_OK;
}

kiln_status kiln_ocl_open(kiln_ctx *ctx, int ordinal, kiln_gpu **out)
{
    *out = NULL;
    kiln_gpu *g = calloc(1, sizeof *g);
    if (!g) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    g->ctx = ctx;
    g->ordinal = ordinal;
    kiln_status st = kiln_ocl_device_at(ctx, ordinal, &g->platform, &g->device);
    cl_int err = CL_SUCCESS;
    if (st == KILN_OK) {
        device_str(g->device, CL_DEVICE_NAME, g->name, sizeof g->name);
        cl_uint vendor = 0;
        if (clGetDeviceInfo(g->device, CL_DEVICE_VENDOR_ID, sizeof vendor, &vendor, NULL) != CL_SUCCESS) vendor = 0;
        /* -w: a driver's compiler writes its warnings to the process's stderr (PoCL's clang: "6
         * warnings generated." over merkle.cl), and the library never prints */
        snprintf(g->build_options, sizeof g->build_options, "-cl-std=CL1.2 -w%s",
                 vendor == 0x10de ? " -D KILN_OCL_NV=1" : "");
        cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)g->platform, 0};
        g->context = clCreateContext(props, 1, &g->device, NULL, NULL, &err);
        st = kiln_ocl_check(ctx, err, "clCreateContext");
    }
    if (st == KILN_OK) {
        g->queue = clCreateCommandQueue(g->context, g->device, CL_QUEUE_PROFILING_ENABLE, &err);
        st = kiln_ocl_check(ctx, err, "clCreateCommandQueue");
    }
    if (st == KILN_OK) *out = g;
    else kiln_ocl_close(g);
    return st;
}

void kiln_ocl_close(kiln_gpu *g)
{
    if (!g) return;
    if (g->tree) clReleaseMemObject(g->tree);
    for (int i = 0; i < g->scrypt_nbuf; i++) clReleaseMemObject(g->scrypt_v[i]);
    kiln_ocl_release_programs(g);
    if (g->queue) clReleaseCommandQueue(g->queue);
    if (g->context) clReleaseContext(g->context);
    free(g);
}
