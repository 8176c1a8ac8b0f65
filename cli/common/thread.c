#include "thread.h"

#include <signal.h>

int cli_thread_start(pthread_t *t, size_t stack, void *(*fn)(void *), void *arg)
{
    /* the new thread inherits the mask in force when it is made */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (stack) pthread_attr_setstacksize(&attr, stack);
    int rc = pthread_create(t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}
