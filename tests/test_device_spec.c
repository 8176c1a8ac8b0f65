/* Device identity through the public API alone (include/kiln.h): kiln_device_parse reads the spec
 * syntax kiln_ctx_set_device documents, with the messages users see for a bad one;
 * kiln_device_spec writes a device's name as a spec selects it; kiln_device_index and
 * kiln_device_total number the devices as kiln_device_get does. Needs no device: what depends on
 * the host (auto, all, the indices) is checked against the counts the library reports. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "kiln.h"

static void parses(const char *spec, kiln_device_form form, kiln_backend b, int count, const int *ordinals)
{
    kiln_device_set s;
    kiln_status st = kiln_device_parse(NULL, spec, &s);
    CHECK(st == KILN_OK, "%s: status %d", spec, (int)st);
    if (st != KILN_OK) return;
    CHECK(s.form == form, "%s: form %d, want %d", spec, (int)s.form, (int)form);
    CHECK(s.backend == b, "%s: backend %d, want %d", spec, (int)s.backend, (int)b);
    CHECK(s.count == count, "%s: count %d, want %d", spec, s.count, count);
    for (int i = 0; ordinals && i < count && i < s.count; i++)
        CHECK(s.ordinals[i] == ordinals[i], "%s: ordinal %d is %d, want %d", spec, i, s.ordinals[i], ordinals[i]);
}

static void refuses(kiln_ctx *ctx, const char *spec, const char *message)
{
    kiln_device_set s;
    CHECK(kiln_device_parse(ctx, spec, &s) == KILN_ERR_INPUT, "%s: accepted", spec);
    CHECK_STR(kiln_last_error(ctx), message);
}

static void test_parse(void)
{
    parses("cpu", KILN_DEVICE_FIRST, KILN_BACKEND_CPU, 1, NULL);
    parses("cuda", KILN_DEVICE_FIRST, KILN_BACKEND_CUDA, 1, (const int[]){0});
    parses("opencl", KILN_DEVICE_FIRST, KILN_BACKEND_OPENCL, 1, (const int[]){0});
    parses("cuda:3", KILN_DEVICE_ONE, KILN_BACKEND_CUDA, 1, (const int[]){3});
    parses("opencl:12", KILN_DEVICE_ONE, KILN_BACKEND_OPENCL, 1, (const int[]){12});
    parses("cuda:0,2,0", KILN_DEVICE_LIST, KILN_BACKEND_CUDA, 3, (const int[]){0, 2, 0});
    parses("opencl:1,0", KILN_DEVICE_LIST, KILN_BACKEND_OPENCL, 2, (const int[]){1, 0});
    /* auto takes a CUDA GPU when there is one, never OpenCL; all is every device of the backend */
    const int cuda = kiln_cuda_device_count(), opencl = kiln_opencl_device_count();
    parses("auto", KILN_DEVICE_AUTO, cuda > 0 ? KILN_BACKEND_CUDA : KILN_BACKEND_CPU, 1, NULL);
    const int first[KILN_MAX_DEVICES] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    parses("cuda:all", KILN_DEVICE_ALL, KILN_BACKEND_CUDA, cuda < KILN_MAX_DEVICES ? cuda : KILN_MAX_DEVICES, first);
    parses("opencl:all", KILN_DEVICE_ALL, KILN_BACKEND_OPENCL, opencl < KILN_MAX_DEVICES ? opencl : KILN_MAX_DEVICES,
           first);
    /* the most a set holds, and one more */
    parses("cuda:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15", KILN_DEVICE_LIST, KILN_BACKEND_CUDA, 16, first);

    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(ctx != NULL, "kiln_ctx_new");
    if (!ctx) return;
    const char *unknown = " (expected auto, cpu, cuda, cuda:N, cuda:N,M,..., cuda:all, opencl, opencl:N, "
                          "opencl:N,M,... or opencl:all)";
    char want[256];
    const char *bad[] = {"gpu", "CUDA", "cudax", "opencl0", "", "cpu:0", "auto:1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(want, sizeof want, "unknown device '%s'%s", bad[i], unknown);
        refuses(ctx, bad[i], want);
    }
    refuses(ctx, "cuda:", "bad device 'cuda:' (expected cuda:N, cuda:N,M,... or cuda:all)");
    refuses(ctx, "cuda:x", "bad device 'cuda:x' (expected cuda:N, cuda:N,M,... or cuda:all)");
    refuses(ctx, "cuda:1,", "bad device 'cuda:1,' (expected cuda:N, cuda:N,M,... or cuda:all)");
    refuses(ctx, "opencl:-1", "bad device 'opencl:-1' (expected opencl:N, opencl:N,M,... or opencl:all)");
    refuses(ctx, "opencl:12345", "bad device 'opencl:12345' (expected opencl:N, opencl:N,M,... or opencl:all)");
    refuses(ctx, "cuda:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "device 'cuda:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16' "
                                                                  "lists more than 16 GPUs");
    /* kiln_ctx_set_device reads specs through the same reader: the same message, the device kept */
    CHECK(kiln_ctx_set_device(ctx, "cuda:x") == KILN_ERR_INPUT, "set_device cuda:x");
    CHECK_STR(kiln_last_error(ctx), "bad device 'cuda:x' (expected cuda:N, cuda:N,M,... or cuda:all)");
    CHECK(kiln_ctx_backend(ctx) == KILN_BACKEND_CPU, "a refused spec changed the device");
    kiln_ctx_free(ctx);
}

static void test_names(void)
{
    char out[32];
    CHECK_STR(kiln_device_spec(KILN_BACKEND_CPU, 5, out, sizeof out), "cpu");
    CHECK_STR(kiln_device_spec(KILN_BACKEND_CUDA, 1, out, sizeof out), "cuda:1");
    CHECK_STR(kiln_device_spec(KILN_BACKEND_OPENCL, 0, out, sizeof out), "opencl:0");
    CHECK_STR(kiln_device_spec(KILN_BACKEND_OPENCL, 15, out, 5), "open"); /* cut, NUL-terminated */
    CHECK_STR(kiln_backend_name(KILN_BACKEND_OPENCL), "opencl");
    /* a name reads back as the device it names */
    kiln_device_set s;
    kiln_device_spec(KILN_BACKEND_OPENCL, 7, out, sizeof out);
    CHECK(kiln_device_parse(NULL, out, &s) == KILN_OK && s.form == KILN_DEVICE_ONE && s.backend == KILN_BACKEND_OPENCL &&
              s.ordinals[0] == 7,
          "%s does not read back", out);
}

static void test_numbering(void)
{
    const int cuda = kiln_cuda_device_count(), opencl = kiln_opencl_device_count();
    CHECK(kiln_device_total() == 1 + cuda + opencl, "total %d", kiln_device_total());
    CHECK(kiln_device_index(KILN_BACKEND_CPU, 0) == 0, "the CPU");
    CHECK(kiln_device_index(KILN_BACKEND_CUDA, cuda) == -1, "a CUDA ordinal past the last");
    CHECK(kiln_device_index(KILN_BACKEND_OPENCL, opencl) == -1, "an OpenCL ordinal past the last");
    CHECK(kiln_device_index(KILN_BACKEND_OPENCL, -1) == -1, "a negative ordinal");
    for (int i = 0; i < cuda; i++) CHECK(kiln_device_index(KILN_BACKEND_CUDA, i) == 1 + i, "cuda:%d", i);
    for (int i = 0; i < opencl; i++) {
        const int index = kiln_device_index(KILN_BACKEND_OPENCL, i);
        CHECK(index == 1 + cuda + i, "opencl:%d at %d", i, index);
        kiln_device_info info;
        CHECK(kiln_device_get(index, &info) == KILN_OK && info.backend == KILN_BACKEND_OPENCL && info.index == i,
              "kiln_device_get(%d) is not opencl:%d", index, i);
    }
}

int main(void)
{
    test_parse();
    test_names();
    test_numbering();
    return check_summary();
}
