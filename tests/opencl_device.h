/* The OpenCL device the OpenCL tests run on: KILN_TEST_OPENCL_DEVICE (the GPU host lists PoCL's
 * CPU device before the GPU, scripts/gpu-opencl.sh names the GPU), else opencl:0. */
#ifndef KILN_TESTS_OPENCL_DEVICE_H
#define KILN_TESTS_OPENCL_DEVICE_H

#include <stdlib.h>

static inline const char *test_opencl_device(void)
{
    const char *d = getenv("KILN_TEST_OPENCL_DEVICE");
    return d && *d ? d : "opencl:0";
}

#endif
