/* The embedded kernels (generated from the .cl files of kernels/ and the src/prim headers they include,
 * cmake/embed_cl.cmake), one program a .cl file, each built for a device at run time when one of
 * its kernels is first asked for (PoCL takes minutes of CPU over all of them; a workload needs one),
 * and each program's binary cached per device, driver and source beside the tune cache
 * ($XDG_CACHE_HOME/kiln/opencl/, else ~/.cache/kiln/opencl/; KILN_OPENCL_CACHE names another folder,
 * or "off"). The cache is an optimisation only: a folder that cannot be written, or a binary the
 * driver refuses, means a build from source. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ocl_state.h"

/* generated: opencl_kernels.c, one entry a kernels/ file */
extern const int kiln_opencl_program_count;
extern const char *const kiln_opencl_program_names[];
extern const char *const kiln_opencl_program_texts[];

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return (h ^ 0xff) * 0x100000001b3ull; /* a separator, so fields cannot run into each other */
}

/* The folder of cached binaries, or -1 when there is none (no HOME, or switched off). */
static int cache_dir(char *out, size_t n)
{
    const char *own = getenv("KILN_OPENCL_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int w;
    if (own && *own) {
        if (strcmp(own, "off") == 0 || strcmp(own, "0") == 0) return -1;
        w = snprintf(out, n, "%s", own);
    } else if (xdg && *xdg) w = snprintf(out, n, "%s/kiln/opencl", xdg);
    else if (home && *home) w = snprintf(out, n, "%s/.cache/kiln/opencl", home);
    else return -1;
    return w > 0 && (size_t)w < n ? 0 : -1;
}

/* The cache file of this source, built with these options, on this device and driver. */
static int cache_path(kiln_gpu *g, const char *source, const char *options, char *out, size_t n)
{
    char dir[4096], driver[256] = "", platform[256] = "";
    if (cache_dir(dir, sizeof dir) != 0) return -1;
    if (clGetDeviceInfo(g->device, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL) != CL_SUCCESS) return -1;
    if (clGetPlatformInfo(g->platform, CL_PLATFORM_VERSION, sizeof platform - 1, platform, NULL) != CL_SUCCESS)
        return -1;
    driver[sizeof driver - 1] = platform[sizeof platform - 1] = '\0';
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv1a(fnv1a(fnv1a(fnv1a(fnv1a(h, source), options), g->name), driver), platform);
    int w = snprintf(out, n, "%s/%016llx.bin", dir, (unsigned long long)h);
    return w > 0 && (size_t)w < n ? 0 : -1;
}

static int make_dirs(const char *file)
{
    char d[4096];
    size_t n = strlen(file);
    if (n >= sizeof d) return -1;
    memcpy(d, file, n + 1);
    for (char *p = d + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(d, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return 0;
}

/* The first lines of the build log, joined by " | ", into buf. */
static void build_log(kiln_gpu *g, cl_program p, char *buf, size_t n)
{
    buf[0] = '\0';
    size_t len = 0;
    if (clGetProgramBuildInfo(p, g->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) != CL_SUCCESS || len == 0) return;
    char *log = malloc(len + 1);
    if (!log) return;
    if (clGetProgramBuildInfo(p, g->device, CL_PROGRAM_BUILD_LOG, len, log, NULL) == CL_SUCCESS) {
        log[len] = '\0';
        size_t k = 0;
        int lines = 0;
        for (char *line = strtok(log, "\n"); line && lines < 4 && k + 1 < n; line = strtok(NULL, "\n")) {
            if (!line[strspn(line, " \t\r")]) continue;
            int w = snprintf(buf + k, n - k, "%s%s", lines ? " | " : "", line);
            if (w < 0) break;
            k += (size_t)w < n - k ? (size_t)w : n - k - 1;
            lines++;
        }
    }
    free(log);
}

static kiln_status build_with(kiln_gpu *g, const char *source, const char *options, cl_program *out)
{
    cl_int err;
    *out = NULL;
    cl_program p = clCreateProgramWithSource(g->context, 1, &source, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateProgramWithSource");
    err = clBuildProgram(p, 1, &g->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[360], buf[32];
        build_log(g, p, log, sizeof log);
        clReleaseProgram(p);
        return kiln_fail(g->ctx, KILN_ERR_DEVICE, "OpenCL build failed on %s: %s", g->name,
                         log[0] ? log : kiln_ocl_error_name(err, buf));
    }
    *out = p;
    return KILN_OK;
}

kiln_status kiln_ocl_build_source(kiln_gpu *g, const char *source, cl_program *out)
{
    return build_with(g, source, g->build_options, out);
}

/* The cached binary as a built program, or NULL (none, or the driver refuses it). */
/* A cached program binary: a regular file of a sane size, or nothing. The cache lives in a
 * directory others may write (a FIFO there would block an fopen for ever, /dev/zero never ends),
 * so it is opened without blocking and read like any other input. */
#define PROGRAM_CACHE_MAX ((off_t)256 << 20)
static cl_program load_cached(kiln_gpu *g, const char *path, const char *options)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat sb;
    unsigned char *bin = NULL;
    off_t size = 0;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 && sb.st_size <= PROGRAM_CACHE_MAX &&
        (bin = malloc((size_t)sb.st_size))) {
        while (size < sb.st_size) {
            ssize_t k = read(fd, bin + size, (size_t)(sb.st_size - size));
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) break;
            size += k;
        }
        if (size != sb.st_size) {
            free(bin);
            bin = NULL;
        }
    }
    close(fd);
    if (!bin) return NULL;
    size_t len = (size_t)size;
    const unsigned char *b = bin;
    cl_int err, status;
    cl_program p = clCreateProgramWithBinary(g->context, 1, &g->device, &len, &b, &status, &err);
    free(bin);
    if (err != CL_SUCCESS || status != CL_SUCCESS) {
        if (p) clReleaseProgram(p);
        return NULL;
    }
    if (clBuildProgram(p, 1, &g->device, options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

/* Writes the program's binary whole (a temporary file renamed over the target) or not at all. */
static void store_cached(kiln_gpu *g, cl_program p, const char *path)
{
    size_t size = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || size == 0) return;
    unsigned char *bin = malloc(size);
    if (!bin) return;
    char tmp[4200];
    FILE *f = NULL;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS && make_dirs(path) == 0 &&
        snprintf(tmp, sizeof tmp, "%s.%ld.%p.tmp", path, (long)getpid(), (void *)g) < (int)sizeof tmp &&
        (f = fopen(tmp, "wb"))) {
        int ok = fwrite(bin, 1, size, f) == size;
        ok = fclose(f) == 0 && ok;
        if (!ok || rename(tmp, path) != 0) remove(tmp);
    }
    free(bin);
}

/* *slot: program i built with these options, from the cache or anew. */
static kiln_status program_with(kiln_gpu *g, int i, const char *options, cl_program *slot)
{
    if (!*slot) {
        const char *source = kiln_opencl_program_texts[i];
        char path[4200];
        int cached = cache_path(g, source, options, path, sizeof path) == 0;
        if (cached) *slot = load_cached(g, path, options);
        if (!*slot) {
            kiln_status st = build_with(g, source, options, slot);
            if (st != KILN_OK) return st;
            if (cached) store_cached(g, *slot, path);
        }
    }
    return KILN_OK;
}

int kiln_ocl_program_count(void) { return kiln_opencl_program_count; }

const char *kiln_ocl_program_name(int i)
{
    return i >= 0 && i < kiln_opencl_program_count ? kiln_opencl_program_names[i] : NULL;
}

/* The handle's program slots, made on first use: kiln_opencl_program_count plain, as many capped. */
static kiln_status slots(kiln_gpu *g)
{
    if (!g->programs && !(g->programs = calloc(2 * (size_t)kiln_opencl_program_count, sizeof *g->programs)))
        return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of memory");
    return KILN_OK;
}

kiln_status kiln_ocl_program_at(kiln_gpu *g, int i, cl_program *out)
{
    *out = NULL;
    if (i < 0 || i >= kiln_opencl_program_count) return kiln_fail(g->ctx, KILN_ERR_INPUT, "no OpenCL program %d", i);
    kiln_status st = slots(g);
    if (st == KILN_OK) st = program_with(g, i, g->build_options, &g->programs[i]);
    *out = g->programs[i];
    return st;
}

void kiln_ocl_release_programs(kiln_gpu *g)
{
    if (!g->programs) return;
    for (int i = 0; i < 2 * kiln_opencl_program_count; i++)
        if (g->programs[i]) clReleaseProgram(g->programs[i]);
    free(g->programs);
    g->programs = NULL;
}

/* How surely kernel `name` is in `source`, which is not built yet: 2 when the source has the name
 * as a word (a declaration, or a kernel macro's argument: KILN_OCL_SHA512(kiln_sha512_batch_v0, ..)),
 * 1 when it has a word that the name starts with, pasted to more (`kiln_merkle_level_##NAME`),
 * else 0. Comments are skipped. A guess only: the kernel is then looked up in the built program,
 * and a name that no source mentions is looked for in every program. */
static int mentions(const char *source, const char *name)
{
    size_t n = strlen(name);
    int best = 0;
    for (const char *s = source; *s;) {
        if (s[0] == '/' && s[1] == '*') {
            const char *e = strstr(s + 2, "*/");
            s = e ? e + 2 : s + strlen(s);
        } else if (s[0] == '/' && s[1] == '/') {
            s += strcspn(s, "\n");
        } else if (*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')) {
            size_t w = strspn(s, "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
            if (w == n && memcmp(s, name, n) == 0) return 2;
            const char *after = s + w + strspn(s + w, " \t");
            if (w < n && after[0] == '#' && after[1] == '#' && memcmp(s, name, w) == 0) best = 1;
            s += w;
        } else {
            s++;
        }
    }
    return best;
}

/* Kernel `name` from the program that has it among the plain (capped 0) or capped slots, built
 * with `options`: the programs already built first, then those whose source mentions the name
 * (mentions() 2, then 1), then the others, so that only the programs a caller's kernels are in get
 * built. */
static kiln_status find_kernel(kiln_gpu *g, const char *name, int capped, const char *options, cl_kernel *out)
{
    *out = NULL;
    kiln_status st = slots(g);
    if (st != KILN_OK) return st;
    cl_program *slot = g->programs + (capped ? kiln_opencl_program_count : 0);
    for (int pass = 0; pass < 4; pass++)
        for (int i = 0; i < kiln_opencl_program_count; i++) {
            if (pass == 0 ? !slot[i] : slot[i] || mentions(kiln_opencl_program_texts[i], name) != 3 - pass) continue;
            if ((st = program_with(g, i, options, &slot[i])) != KILN_OK) return st;
            cl_int err;
            *out = clCreateKernel(slot[i], name, &err);
            if (err == CL_SUCCESS) return KILN_OK;
            *out = NULL;
            if (err != CL_INVALID_KERNEL_NAME) return kiln_ocl_check(g->ctx, err, "clCreateKernel");
        }
    return kiln_fail(g->ctx, KILN_ERR_DEVICE, "OpenCL kernel %s is in none of kiln's programs", name);
}

kiln_status kiln_ocl_kernel(kiln_gpu *g, const char *name, cl_kernel *out)
{
    return find_kernel(g, name, 0, g->build_options, out);
}

kiln_status kiln_ocl_kernel_capped(kiln_gpu *g, const char *name, cl_kernel *out)
{
    if (!kiln_ocl_is_nv(g)) return kiln_ocl_kernel(g, name, out);
    char options[sizeof g->build_options + 32];
    snprintf(options, sizeof options, "%s -cl-nv-maxrregcount=%d", g->build_options, KILN_OCL_CAPPED_REGS);
    return find_kernel(g, name, 1, options, out);
}

kiln_status kiln_ocl_run(kiln_gpu *g, cl_kernel k, size_t global, float *ms)
{
    return kiln_ocl_run_local(g, k, global, 0, ms);
}

kiln_status kiln_ocl_run_local(kiln_gpu *g, cl_kernel k, size_t global, size_t local, float *ms)
{
    *ms = 0;
    if (global == 0) return KILN_OK;
    cl_event ev;
    KILN_OCL_TRY(g->ctx, clEnqueueNDRangeKernel(g->queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, &ev),
                 "clEnqueueNDRangeKernel");
    cl_int err = clWaitForEvents(1, &ev);
    cl_ulong t0 = 0, t1 = 0;
    if (err == CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) == CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) == CL_SUCCESS && t1 >= t0)
        *ms = (float)((double)(t1 - t0) / 1e6);
    clReleaseEvent(ev);
    return kiln_ocl_check(g->ctx, err, "kernel run");
}
