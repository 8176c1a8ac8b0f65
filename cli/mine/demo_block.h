/* The block `kiln mine --demo` mines: Bitcoin block 840000 (the 2024 halving), real header with
 * its nonce cleared. Source: tests/data/headers.json. */
#ifndef KILN_CLI_DEMO_BLOCK_H
#define KILN_CLI_DEMO_BLOCK_H

#define DEMO_HEIGHT 840000
#define DEMO_HEADER_HEX                                                                                  \
    "00e05f2aab948491071265ad552351d0ad625745668da54b0172010000000000000000004f89a5d73bd4d4887f25981fe81" \
    "892ccafda10c27f52d6f3dd28183a7c411b03b7072366194203177d9863ea"
#define DEMO_NONCE 3932395645u
/* The CPU searches a 2^24-nonce window holding the real nonce; a GPU searches all 2^32. */
#define DEMO_CPU_WINDOW (1u << 24)

#endif
