# CPack: `make deb` (or `cpack -G DEB` in a build directory) packs what `cmake --install` installs
# into one .deb. Its Depends come from dpkg-shlibdeps on bin/kiln and libkiln.so, so they follow
# what this build really links: libc6, libgomp1, and zlib1g, libjansson4 when found; a CUDA build
# adds libstdc++6 and libgcc-s1 but no CUDA package, as the CUDA runtime is linked statically and
# it opens the driver's libcuda.so.1 only at run time (GPU use needs an NVIDIA driver, hence
# Suggests). Without nvcc the package is the CPU-only build.
set(CPACK_PACKAGE_NAME kiln)
set(CPACK_PACKAGE_VENDOR kiln)
set(CPACK_PACKAGE_CONTACT "kiln developers <kiln@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "proof-of-work and hashing workloads on CPUs and NVIDIA GPUs")
if(KILN_HAVE_CUDA)
  list(JOIN CMAKE_CUDA_ARCHITECTURES ", " KILN_ARCHS)
  set(KILN_PKG_BACKENDS "every CPU core and NVIDIA GPUs (CUDA ${CMAKE_CUDA_COMPILER_VERSION}; ${KILN_ARCHS})")
else()
  set(KILN_PKG_BACKENDS "every CPU core (built without CUDA)")
endif()
set(CPACK_PACKAGE_DESCRIPTION "Bitcoin SHA-256d mining, scrypt, Keccak/SHA-3/SHAKE and SHA-256 hashing,
Merkle trees and PageRank: the kiln command-line tool and its C library
(libkiln.so, libkiln.a, kiln.h, pkg-config and CMake files).
Runs on ${KILN_PKG_BACKENDS}.")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# a shlibs file, and ldconfig run on install and removal, for libkiln.so.MAJOR
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
if(KILN_HAVE_CUDA)
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libcuda1 | nvidia-driver")
endif()
include(CPack)
