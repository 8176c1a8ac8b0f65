/* Monotonic time for launch sizing and host-side benchmarks. */
#ifndef KILN_CORE_CLOCK_H
#define KILN_CORE_CLOCK_H

#ifdef __cplusplus
extern "C" {
#endif

/* Monotonic seconds. */
double kiln_now(void);

#ifdef __cplusplus
}
#endif

#endif
