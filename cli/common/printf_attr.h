/* CLI_PRINTF(f, a): the compiler checks a printf-style function's calls, where it can (GCC,
 * Clang): f is the format's argument number, a the first of the values. */
#ifndef KILN_CLI_PRINTF_ATTR_H
#define KILN_CLI_PRINTF_ATTR_H

#if defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

#endif
