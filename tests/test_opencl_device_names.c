/* A device set's failure is reported under its device's own name (kiln_gpu_each, issue 36 item 7):
 * "opencl:N (device i of k): ..." on OpenCL, "cuda:N (device i of k): ..." on CUDA, never the
 * other backend's word. The label itself is checked on made-up contexts of both backends (no
 * device needed); then a real OpenCL set (the device twice, "opencl:0,0") is stopped from inside
 * its device threads, and the message must name opencl. The OpenCL device strings: an absent
 * device, a malformed one, "auto". */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/gpu.h"
#include "kiln.h"
#include "opencl_device.h"

static pthread_t main_thread;

/* "Stop" from any thread but the caller's: only a device thread of kiln_gpu_each asks it. */
static int stop_in_device_threads(void *user)
{
    (void)user;
    return !pthread_equal(pthread_self(), main_thread);
}

static void test_labels(void)
{
    kiln_ctx c;
    memset(&c, 0, sizeof c);
    char label[64];
    c.ngpu = 2;
    c.gpu_ordinal[0] = 0;
    c.gpu_ordinal[1] = 3;
    c.backend = KILN_BACKEND_OPENCL;
    kiln_gpu_label(&c, 1, label, sizeof label);
    CHECK_STR(label, "opencl:3 (device 2 of 2)");
    kiln_gpu_label(&c, 0, label, sizeof label);
    CHECK_STR(label, "opencl:0 (device 1 of 2)");
    c.backend = KILN_BACKEND_CUDA;
    kiln_gpu_label(&c, 1, label, sizeof label);
    CHECK_STR(label, "cuda:3 (device 2 of 2)");
    kiln_gpu_label(&c, 1, label, 8); /* cut, still a string */
    CHECK_STR(label, "cuda:3 ");
}

static void test_opencl_set(void)
{
    const char *dev = test_opencl_device(), *colon = strchr(dev, ':');
    const char *ord = colon ? colon + 1 : "0";
    char set[64];
    snprintf(set, sizeof set, "opencl:%s,%s", ord, ord);
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(ctx && kiln_ctx_set_device(ctx, set) == KILN_OK, "%s: %s", set, kiln_last_error(ctx));
    if (!ctx || kiln_ctx_device_count(ctx) != 2) {
        kiln_ctx_free(ctx);
        return;
    }
    main_thread = pthread_self();
    kiln_ctx_set_interrupt(ctx, stop_in_device_threads, NULL);
    enum { N = 64, LEN = 64 };
    static uint8_t data[N * LEN], out[N * 32];
    kiln_status st = kiln_hash_batch_fixed(ctx, KILN_HASH_SHA256, data, LEN, N, out, 32);
    const char *msg = kiln_last_error(ctx);
    char want[80];
    snprintf(want, sizeof want, "opencl:%s (device ", ord);
    CHECK(st == KILN_STOPPED && strncmp(msg, want, strlen(want)) == 0 && strstr(msg, " of 2): interrupted") &&
              !strstr(msg, "cuda"),
          "%s: status %d, message '%s' (want '%s... of 2): interrupted')", set, (int)st, msg, want);
    kiln_ctx_free(ctx);
}

/* The device strings: an absent OpenCL device is a device error naming it, a malformed one bad
 * input, and neither changes the context; "auto" never picks OpenCL (used only when asked for). */
static void test_opencl_specs(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, test_opencl_device()) == KILN_OK, "%s: %s", test_opencl_device(), kiln_last_error(ctx));
    CHECK(kiln_ctx_set_device(ctx, "opencl:99") == KILN_ERR_DEVICE && strstr(kiln_last_error(ctx), "opencl:99"),
          "opencl:99: %s", kiln_last_error(ctx));
    CHECK(kiln_ctx_set_device(ctx, "opencl:x") == KILN_ERR_INPUT, "opencl:x");
    CHECK(kiln_ctx_backend(ctx) == KILN_BACKEND_OPENCL && kiln_ctx_device_count(ctx) == 1, "still %s", test_opencl_device());
    kiln_ctx_free(ctx);
    ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, "auto") == KILN_OK && kiln_ctx_backend(ctx) != KILN_BACKEND_OPENCL, "auto");
    kiln_ctx_free(ctx);
}

int main(void)
{
    test_labels();
    int missing = test_opencl_missing();
    if (missing == 0) test_opencl_specs();
    if (missing == 0) test_opencl_set();
    else if (missing != TEST_SKIP) CHECK(0, "no OpenCL device where one is required");
    return check_summary();
}
