#include "cpu_features.h"

#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static unsigned long long read_xcr0(void)
{
    unsigned int lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

static void detect(kiln_cpu_features *f)
{
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return;
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    unsigned long long xcr0 = osxsave ? read_xcr0() : 0;
    int ymm_ok = avx && (xcr0 & 0x6) == 0x6;
    int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0;
    if (__get_cpuid_max(0, NULL) < 7) return;
    __cpuid_count(7, 0, a, b, c, d);
    f->avx2 = ymm_ok && ((b >> 5) & 1);
    f->avx512 = zmm_ok && ((b >> 16) & 1) /* F */ && ((b >> 31) & 1) /* VL */ && ((b >> 30) & 1) /* BW */;
    f->sha_ni = (b >> 29) & 1;
    f->bmi = ((b >> 3) & 1) && ((b >> 8) & 1);
}

static void read_model(char *out, size_t n)
{
    unsigned int regs[12];
    if ((unsigned)__get_cpuid_max(0x80000000, NULL) < 0x80000004u) { /* int in clang's cpuid.h */
        snprintf(out, n, "x86-64 CPU");
        return;
    }
    for (unsigned int i = 0; i < 3; i++)
        __cpuid(0x80000002 + i, regs[4 * i], regs[4 * i + 1], regs[4 * i + 2], regs[4 * i + 3]);
    char raw[49];
    memcpy(raw, regs, 48);
    raw[48] = '\0';
    const char *p = raw;
    while (*p == ' ') p++;
    snprintf(out, n, "%s", p);
}
#else
static void detect(kiln_cpu_features *f) { (void)f; }
static void read_model(char *out, size_t n) { snprintf(out, n, "CPU"); }
#endif

static kiln_cpu_features features;
static char model[64];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void detect_all(void)
{
    detect(&features);
    read_model(model, sizeof model);
}

static void init(void) { pthread_once(&once, detect_all); }

const kiln_cpu_features *kiln_cpu(void)
{
    init();
    return &features;
}

const char *kiln_cpu_model(void)
{
    init();
    return model;
}

int kiln_cpu_cores(void)
{
    /* the CPUs of the calling thread's affinity mask (libgomp asks sched_getaffinity; `taskset -c 0`
     * or a cpuset makes it one), as nproc counts them, else the online ones */
    int n = omp_get_num_procs();
    if (n > 0) return n;
    long on = sysconf(_SC_NPROCESSORS_ONLN);
    return on > 0 ? (int)on : 1;
}
