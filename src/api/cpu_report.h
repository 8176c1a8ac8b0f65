/* Which CPU implementation each run-time choice settled on, for `kiln devices`. */
#ifndef KILN_API_CPU_REPORT_H
#define KILN_API_CPU_REPORT_H

#include <stddef.h>

/* Writes e.g. "sha256=sha-ni keccak=avx512 sha256d=avx512x16 scrypt=avx512x16" (always
 * NUL-terminated, truncated to len). Makes the choices (with their self-tests) if not yet made. */
void kiln_cpu_dispatch_report(char *out, size_t len);

#endif
