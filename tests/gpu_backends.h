/* The GPU backends a workload test runs on, written once for every backend (issue 40): each
 * backend this build has (CUDA, OpenCL) on its test device: cuda:0; KILN_TEST_OPENCL_DEVICE, else
 * opencl:0 (the GPU host lists PoCL's CPU device before the GPU and names the GPU there). A backend
 * without a device here is skipped inside the test, saying so; the test returns TEST_SKIP only when
 * no backend has one. KILN_REQUIRE_OPENCL (CI, after installing PoCL) makes a missing OpenCL
 * device a failure. KILN_TEST_BACKEND=cuda or opencl runs that backend alone (a compute-sanitizer
 * run wants the CUDA part only). */
#ifndef KILN_TESTS_GPU_BACKENDS_H
#define KILN_TESTS_GPU_BACKENDS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kiln.h"
#include "opencl_device.h"

typedef struct test_gpu {
    kiln_backend backend;
    const char *name; /* "cuda", "opencl": the word of messages and device sets */
    const char *device; /* the device spec the context runs on */
    kiln_ctx *ctx;
} test_gpu;

enum { TEST_GPU_MAX = 2 };

/* 1 when KILN_TEST_QUICK or KILN_TEST_SMALL is set and not "0": the small sizes (sanitizer runs). */
static inline int test_quick(void)
{
    const char *q = getenv("KILN_TEST_QUICK"), *s = getenv("KILN_TEST_SMALL");
    return (q && *q && strcmp(q, "0") != 0) || (s && *s && strcmp(s, "0") != 0);
}

static inline int test_gpu_wanted(const char *name)
{
    const char *only = getenv("KILN_TEST_BACKEND");
    return !only || !*only || strcmp(only, name) == 0;
}

/* Opens a context on each backend present into gpus[]; returns how many. */
static inline int test_gpu_open(test_gpu gpus[TEST_GPU_MAX])
{
    int n = 0;
    if (test_gpu_wanted("cuda")) {
        if (kiln_cuda_device_count() > 0)
            gpus[n++] = (test_gpu){KILN_BACKEND_CUDA, "cuda", "cuda:0", NULL};
        else
            printf("cuda: no CUDA GPU in this build or machine: skipped\n");
    }
    if (test_gpu_wanted("opencl")) {
        const int missing = test_opencl_missing(); /* says why when it is not 0 */
        if (missing == 0) gpus[n++] = (test_gpu){KILN_BACKEND_OPENCL, "opencl", test_opencl_device(), NULL};
        else if (missing != TEST_SKIP) CHECK(0, "no OpenCL device where KILN_REQUIRE_OPENCL asks for one");
    }
    for (int i = 0; i < n; i++) {
        gpus[i].ctx = kiln_ctx_new();
        CHECK(gpus[i].ctx && kiln_ctx_set_device(gpus[i].ctx, gpus[i].device) == KILN_OK &&
                  kiln_ctx_backend(gpus[i].ctx) == gpus[i].backend,
              "%s: %s", gpus[i].device, gpus[i].ctx ? kiln_last_error(gpus[i].ctx) : "out of memory");
    }
    return n;
}

/* Frees the contexts; the test's exit code: the tally, or TEST_SKIP when no backend ran and
 * nothing failed. */
static inline int test_gpu_close(test_gpu *gpus, int n)
{
    for (int i = 0; i < n; i++) kiln_ctx_free(gpus[i].ctx);
    if (n == 0 && check_failed == 0) {
        printf("no GPU backend with a device: skipped\n");
        return TEST_SKIP;
    }
    return check_summary();
}

/* The body of a test_gpu_* program: runs run(g, cpu) on each backend present, cpu a context on
 * the CPU (the reference), and returns the exit code. */
typedef void (*test_gpu_fn)(const test_gpu *g, kiln_ctx *cpu);
static inline int test_gpu_each(test_gpu_fn run)
{
    test_gpu gpus[TEST_GPU_MAX];
    const int n = test_gpu_open(gpus);
    kiln_ctx *cpu = kiln_ctx_new();
    CHECK(cpu && kiln_ctx_set_device(cpu, "cpu") == KILN_OK, "cpu");
    for (int i = 0; i < n && cpu; i++) {
        printf("---- %s\n", gpus[i].device);
        run(&gpus[i], cpu);
    }
    kiln_ctx_free(cpu);
    return test_gpu_close(gpus, n);
}

/* The test device k times as a set ("opencl:0,0", "cuda:0,0,0"): the several-device paths on
 * logical devices of one device. */
static inline void test_gpu_set(const test_gpu *g, int k, char *out, size_t size)
{
    const char *colon = strchr(g->device, ':');
    const char *ord = colon ? colon + 1 : "0";
    snprintf(out, size, "%s:%s", g->name, ord);
    for (int i = 1; i < k; i++) snprintf(out + strlen(out), size - strlen(out), ",%s", ord);
}

#endif
