#!/usr/bin/env bash
# Compiles the OpenCL kernels as NVIDIA's driver will see them (KILN_OCL_NV=1, so their inline PTX)
# with clang's nvptx target and assembles the PTX with ptxas for sm_90: a check, on a machine
# without an NVIDIA GPU, that the NVIDIA-only branches compile. clang's target lacks OpenCL's
# work-item functions; the prelude below names them through PTX special registers. Not a build:
# the driver compiles the kernels itself at run time.
# Usage: scripts/ocl-ptx-check.sh [kernel.cl ...]   (default: every src/opencl/kernels/*.cl)
set -eu
cd "$(dirname "$0")/.."
CLANG=$(command -v clang-15 || command -v clang)
PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/prelude.h" <<'H'
#define get_global_id(d) ((size_t)__nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x())
#define get_local_id(d) ((size_t)__nvvm_read_ptx_sreg_tid_x())
#define get_group_id(d) ((size_t)__nvvm_read_ptx_sreg_ctaid_x())
#define get_local_size(d) ((size_t)__nvvm_read_ptx_sreg_ntid_x())
#define get_num_groups(d) ((size_t)__nvvm_read_ptx_sreg_nctaid_x())
#define get_global_size(d) (get_num_groups(d) * get_local_size(d))
#define barrier(f) __syncthreads()
H
# builtins the kernels use that clang's nvptx OpenCL target leaves undefined (no libclc)
cat >"$tmp/builtins.cl" <<'H'
ulong __attribute__((overloadable)) mul_hi(ulong a, ulong b) { ulong r; __asm__("mul.hi.u64 %0, %1, %2;" : "=l"(r) : "l"(a), "l"(b)); return r; }
uint __attribute__((overloadable)) mul_hi(uint a, uint b) { return (uint)(((ulong)a * b) >> 32); }
float __attribute__((overloadable)) fabs(float x) { return __builtin_fabsf(x); }
double __attribute__((overloadable)) fabs(double x) { return __builtin_fabs(x); }
uint __attribute__((overloadable)) atomic_inc(volatile __global uint *p) { return __sync_fetch_and_add(p, 1u); }
uint __attribute__((overloadable)) atomic_add(volatile __global uint *p, uint v) { return __sync_fetch_and_add(p, v); }
uint __attribute__((overloadable)) atomic_add(volatile __local uint *p, uint v) { return __sync_fetch_and_add(p, v); }
H
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(src/opencl/kernels/*.cl)
rc=0
for f in "${files[@]}"; do
    b=$(basename "$f" .cl)
    cat "$f" "$tmp/builtins.cl" >"$tmp/$b.cl"
    sed -i "1i #line 1 \"$PWD/$f\"" "$tmp/$b.cl"
    if "$CLANG" -I "$(dirname "$f")" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -Xclang -target-cpu -Xclang sm_80 \
        -Xclang -finclude-default-header -D KILN_OCL_NV=1 -include "$tmp/prelude.h" -O2 -S \
        -o "$tmp/$b.ptx" "$tmp/$b.cl" && "$PTXAS" -arch=sm_90 "$tmp/$b.ptx" -o "$tmp/$b.cubin"; then
        echo "ok   $f"
    else
        echo "FAIL $f"
        rc=1
    fi
done
exit $rc
