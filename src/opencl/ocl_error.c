/* OpenCL status codes as names in the library's messages. */
#include <stdio.h>

#include "ocl_state.h"

const char *kiln_ocl_error_name(cl_int err, char buf[32])
{
    switch (err) {
#define KILN_OCL_NAME(c) \
    case c: return #c;
        KILN_OCL_NAME(CL_DEVICE_NOT_FOUND)
        KILN_OCL_NAME(CL_DEVICE_NOT_AVAILABLE)
        KILN_OCL_NAME(CL_COMPILER_NOT_AVAILABLE)
        KILN_OCL_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        KILN_OCL_NAME(CL_OUT_OF_RESOURCES)
        KILN_OCL_NAME(CL_OUT_OF_HOST_MEMORY)
        KILN_OCL_NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
        KILN_OCL_NAME(CL_BUILD_PROGRAM_FAILURE)
        KILN_OCL_NAME(CL_INVALID_VALUE)
        KILN_OCL_NAME(CL_INVALID_PLATFORM)
        KILN_OCL_NAME(CL_INVALID_DEVICE)
        KILN_OCL_NAME(CL_INVALID_CONTEXT)
        KILN_OCL_NAME(CL_INVALID_COMMAND_QUEUE)
        KILN_OCL_NAME(CL_INVALID_MEM_OBJECT)
        KILN_OCL_NAME(CL_INVALID_BINARY)
        KILN_OCL_NAME(CL_INVALID_BUILD_OPTIONS)
        KILN_OCL_NAME(CL_INVALID_PROGRAM)
        KILN_OCL_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
        KILN_OCL_NAME(CL_INVALID_KERNEL_NAME)
        KILN_OCL_NAME(CL_INVALID_KERNEL)
        KILN_OCL_NAME(CL_INVALID_ARG_INDEX)
        KILN_OCL_NAME(CL_INVALID_ARG_VALUE)
        KILN_OCL_NAME(CL_INVALID_ARG_SIZE)
        KILN_OCL_NAME(CL_INVALID_KERNEL_ARGS)
        KILN_OCL_NAME(CL_INVALID_WORK_DIMENSION)
        KILN_OCL_NAME(CL_INVALID_WORK_GROUP_SIZE)
        KILN_OCL_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
        KILN_OCL_NAME(CL_INVALID_EVENT)
        KILN_OCL_NAME(CL_INVALID_BUFFER_SIZE)
#undef KILN_OCL_NAME
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL driver installed)";
    default: snprintf(buf, 32, "OpenCL error %d", (int)err); return buf;
    }
}

kiln_status kiln_ocl_check(kiln_ctx *ctx, cl_int err, const char *what)
{
    if (err == CL_SUCCESS) return KILN_OK;
    char buf[32];
    return kiln_fail(ctx, KILN_ERR_DEVICE, "OpenCL %s failed: %s", what, kiln_ocl_error_name(err, buf));
}
