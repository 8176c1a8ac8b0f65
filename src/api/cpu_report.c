#include "cpu_report.h"

#include <stdio.h>

#include "../pow/sha256d_cpu.h"
#include "../scrypt/scrypt_cpu.h"
#include "kiln.h"

void kiln_cpu_dispatch_report(char *out, size_t len)
{
    kiln_sha256d_impl sha256d;
    kiln_scrypt_impl scrypt;
    if (!out || len == 0) return;
    kiln_sha256d_cpu_impls(&sha256d, 1);
    kiln_scrypt_cpu_impls(&scrypt, 1);
    snprintf(out, len, "sha256=%s keccak=%s sha256d=%s scrypt=%s", kiln_sha256_impl(), kiln_keccak_impl(),
             sha256d.name, scrypt.name);
}
