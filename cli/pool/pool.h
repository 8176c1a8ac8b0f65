/* kiln mine --pool: mining for a Stratum v1 pool. */
#ifndef KILN_POOL_H
#define KILN_POOL_H

/* Entry from `kiln mine` when --pool is given; argv holds the options after "mine". Returns the
 * exit code. Built without libjansson it says so and returns 2. */
int pool_main(int argc, char **argv);

#endif
