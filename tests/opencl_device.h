/* What the OpenCL tests share: the device they run on, KILN_TEST_OPENCL_DEVICE (the GPU host
 * lists PoCL's CPU device before the GPU, scripts/device.sh names the GPU), else opencl:0;
 * and whether there is one at all. */
#ifndef KILN_TESTS_OPENCL_DEVICE_H
#define KILN_TESTS_OPENCL_DEVICE_H

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "kiln.h"

static inline const char *test_opencl_device(void)
{
    const char *d = getenv("KILN_TEST_OPENCL_DEVICE");
    return d && *d ? d : "opencl:0";
}

/* 0 when this build has OpenCL and the machine a device; else the test's exit code, having said
 * why: TEST_SKIP, or 1 where KILN_REQUIRE_OPENCL (CI, after installing PoCL) asks for one. */
static inline int test_opencl_missing(void)
{
    const int required = getenv("KILN_REQUIRE_OPENCL") != NULL;
#ifdef KILN_HAVE_OPENCL
    if (kiln_opencl_device_count() > 0) return 0;
    printf("no OpenCL device%s\n", required ? " (KILN_REQUIRE_OPENCL: a failure)" : ": skipped");
#else
    printf("kiln built without OpenCL%s\n", required ? " (KILN_REQUIRE_OPENCL: a failure)" : ": skipped");
#endif
    return required ? 1 : TEST_SKIP;
}

#endif
