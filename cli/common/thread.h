/* A helper thread of the CLI's own (a reader, a parser, a batch on a GPU): it takes no signal, so
 * SIGINT and the rest go to the main thread, which looks at the interrupt flag (interrupt.h). */
#ifndef KILN_CLI_THREAD_H
#define KILN_CLI_THREAD_H

#include <pthread.h>
#include <stddef.h>

/* Starts fn(arg) on *t with every signal blocked; stack: its size in bytes (0: the default, for
 * code that calls into a GPU runtime; small ones spare the address space `ulimit -v` counts).
 * 0, or pthread_create's error. */
int cli_thread_start(pthread_t *t, size_t stack, void *(*fn)(void *), void *arg);

#endif
