/* kiln_version and kiln_build_info: which kiln this library is and how it was built. The version
 * and the CUDA architectures come from CMake (share/kiln_build.h.in, configured from the project's
 * VERSION and CMAKE_CUDA_ARCHITECTURES); CUDA, OpenCL, zlib and MPI from the definitions the library is built with. */
#include "../core/cpu_dispatch.h"
#include "kiln.h"
#include "kiln_build.h"

const char *kiln_version(void) { return KILN_BUILD_VERSION; }

/* One "name: value" line per option. */
const char *kiln_build_info(void)
{
    return "cuda: "
#ifdef KILN_HAVE_CUDA
           "on (architectures " KILN_BUILD_CUDA_ARCHITECTURES ")"
#else
           "off"
#endif
           "\nopencl: "
#ifdef KILN_HAVE_OPENCL
           "on (ICD loader libOpenCL.so.1; kernels built at run time)"
#else
           "off"
#endif
           "\nnccl: "
#ifdef KILN_HAVE_NCCL
           "on (PageRank parts exchanged through libnccl.so.2 when it loads)"
#else
           "off"
#endif
           "\nzlib: "
#ifdef KILN_HAVE_ZLIB
           "on (gzip-compressed graph files)"
#else
           "off"
#endif
           "\nmpi: "
#ifdef KILN_HAVE_MPI
           "on (pagerank under mpirun/srun)"
#else
           "off"
#endif
           /* each kernel is used only when the CPU has its instructions and it passes its self-test */
           "\ncpu kernels: "
#ifdef KILN_X86_KERNELS
           "avx512 avx2 sha-ni portable"
#else
           "portable"
#endif
           "\n";
}
