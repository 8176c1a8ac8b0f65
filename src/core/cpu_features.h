/* What the host processor offers, read once with CPUID (x86-64) so SIMD paths are chosen at run
 * time and a binary built here runs on any x86-64. */
#ifndef KILN_CORE_CPU_FEATURES_H
#define KILN_CORE_CPU_FEATURES_H

typedef struct kiln_cpu_features {
    int avx2;
    int avx512; /* AVX-512 F, VL and BW, with the OS saving the ZMM state */
    int sha_ni;
    int bmi; /* BMI1 and BMI2 (ANDN, RORX) */
} kiln_cpu_features;

const kiln_cpu_features *kiln_cpu(void);
const char *kiln_cpu_model(void);
/* CPUs this process may run on: its affinity mask, as nproc counts (taskset -c 0: one). */
int kiln_cpu_cores(void);

#endif
