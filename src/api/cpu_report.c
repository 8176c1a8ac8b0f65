#include "cpu_report.h"

#include <stdio.h>

#include "../hash/sha512_host.h"
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
    snprintf(out, len, "sha256=%s keccak=%s sha512=%s/%s sha256d=%s scrypt=%s", kiln_sha256_impl(),
             kiln_keccak_impl(), kiln_sha512_impl(), kiln_sha512_lanes()->name, sha256d.name, scrypt.name);
}
