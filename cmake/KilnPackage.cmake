# CPack: `make deb` (cmake/deb/make-deb.sh: `cpack -G DEB` in the build, reconfigured for /usr for the
# time of it; a bare cpack keeps the library directory the build was configured with, e.g. lib/
# rather than /usr's multiarch one) packs what `cmake --install` installs into three .debs, split
# as Debian splits a library (libssl3, libssl-dev, openssl), one per install component
# (cmake/KilnInstall.cmake):
#   libkiln0     (lib) libkiln.so.0*, with its shlibs file and libc-bin's ldconfig trigger
#   libkiln-dev  (dev) kiln.h, libkiln.a, the libkiln.so link, kiln.pc, the CMake package;
#                Depends: libkiln0 (= this version)
#   kiln         (cli) bin/kiln, its manual pages (gzip -9n) and bash/zsh completions;
#                Depends: libkiln0 (= this version)
# and /usr/share/doc/<package>/ with copyright and changelog.Debian.gz in each. The other Depends
# come from dpkg-shlibdeps on the binaries, so they follow what this build really links: libc6,
# libgomp1, and zlib1g, libopenmpi3 (libkiln0), libjansson4, libssl3, libcurl4 (kiln) when found; a
# CUDA build adds libstdc++6 and libgcc-s1 but no CUDA package, as the CUDA runtime is linked
# statically and it opens the driver's libcuda.so.1 only at run time (GPU use needs an NVIDIA
# driver, hence Suggests). Without nvcc the packages are the CPU-only build. Binaries are stripped.
set(CPACK_PACKAGE_NAME kiln)
set(CPACK_PACKAGE_VENDOR kiln)
set(CPACK_PACKAGE_CONTACT "kiln developers <kiln@example.invalid>")
# no CPACK_PACKAGE_DESCRIPTION_SUMMARY: CPackDeb would put that one line first in every package's
# Description, where each has its own (CPACK_DEBIAN_<COMPONENT>_DESCRIPTION below)
if(KILN_HAVE_CUDA)
  list(JOIN CMAKE_CUDA_ARCHITECTURES ", " KILN_ARCHS)
  set(KILN_PKG_BACKENDS "every CPU core and NVIDIA GPUs\n(CUDA ${CMAKE_CUDA_COMPILER_VERSION}; ${KILN_ARCHS})")
else()
  set(KILN_PKG_BACKENDS "every CPU core (built without CUDA)")
endif()
set(KILN_PKG_ABOUT "kiln: Bitcoin SHA-256d mining, scrypt, Keccak/SHA-3/SHAKE and SHA-256
hashing, Merkle trees and PageRank on ${KILN_PKG_BACKENDS}.")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
if(KILN_SHARED)
  set(CPACK_COMPONENTS_ALL lib dev cli)
else() # no libkiln.so: the CLI is linked statically, and there is no runtime package
  set(CPACK_COMPONENTS_ALL dev cli)
endif()
set(CPACK_DEBIAN_PACKAGE_RELEASE 1) # Version 0.1.0-1: a package of upstream 0.1.0, not a native one
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_DEV_PACKAGE_SHLIBDEPS OFF) # libkiln.a and a link: nothing dpkg-shlibdeps reads
# bin/kiln's libkiln.so.0 lies in libkiln0's staging directory: dpkg-shlibdeps looks there too
# (libkiln0 itself is named through CPACK_COMPONENT_CLI_DEPENDS)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS
    "../lib/usr/${CMAKE_INSTALL_LIBDIR}") # relative to the staging directory of the package it runs for
# a shlibs file for libkiln.so.MAJOR: "libkiln 0 libkiln0 (>= 0.1.0-1)"
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# ldconfig through libc-bin's trigger, not from postinst/postrm as CPack writes it (cmake/deb/postbuild.cmake)
set(CPACK_POST_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/deb/postbuild.cmake)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
if(KILN_SHARED)
  set(CPACK_COMPONENT_DEV_DEPENDS lib)
  set(CPACK_COMPONENT_CLI_DEPENDS lib)
endif()

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libkiln${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_DESCRIPTION "proof-of-work and hashing library (kiln)
${KILN_PKG_ABOUT}
.
This package holds the shared library, libkiln.so.${PROJECT_VERSION_MAJOR}.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libkiln-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION "proof-of-work and hashing library (kiln) - development files
${KILN_PKG_ABOUT}
.
This package holds what programs using libkiln are built with: the header
kiln.h, the static library libkiln.a, the libkiln.so link, kiln.pc for
pkg-config and the CMake package (find_package(kiln)). Linking libkiln.a
statically takes the -dev packages of the libraries kiln.pc's Libs.private
names (Suggests).")
# what `pkg-config --static --libs kiln` names beyond libc and libgomp (gcc's own)
set(KILN_DEB_DEV_SUGGESTS "")
if(KILN_HAVE_ZLIB)
  list(APPEND KILN_DEB_DEV_SUGGESTS zlib1g-dev)
endif()
if(KILN_HAVE_MPI)
  list(APPEND KILN_DEB_DEV_SUGGESTS libopenmpi-dev)
endif()
if(KILN_HAVE_OPENCL)
  list(APPEND KILN_DEB_DEV_SUGGESTS ocl-icd-opencl-dev)
endif()
list(JOIN KILN_DEB_DEV_SUGGESTS ", " CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS)

set(CPACK_DEBIAN_CLI_PACKAGE_NAME kiln)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_CLI_DESCRIPTION "proof-of-work and hashing workloads on CPUs and NVIDIA GPUs
${KILN_PKG_ABOUT}
.
This package holds the command-line tool, kiln, with its manual pages and
its bash and zsh completions.")
set(KILN_DEB_SUGGESTS "")
if(KILN_HAVE_CUDA)
  list(APPEND KILN_DEB_SUGGESTS "libcuda1 | nvidia-driver")
endif()
# An OpenCL build links the ICD loader (libOpenCL.so.1), which dpkg-shlibdeps turns into the
# dependency on ocl-icd-libopencl1; the devices come from whichever vendor's ICD is installed.
if(KILN_HAVE_OPENCL)
  list(APPEND KILN_DEB_SUGGESTS "opencl-icd")
endif()
list(JOIN KILN_DEB_SUGGESTS ", " CPACK_DEBIAN_LIB_PACKAGE_SUGGESTS)
set(CPACK_DEBIAN_CLI_PACKAGE_SUGGESTS "${CPACK_DEBIAN_LIB_PACKAGE_SUGGESTS}")

# /usr/share/doc/<package>/: copyright (cmake/deb/copyright) and changelog.Debian.gz, and lintian's
# overrides for the package (cmake/deb/lintian-overrides, each with its reason), installed only with
# their component (CPack's installs), not by a plain `cmake --install`
string(TIMESTAMP KILN_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC) # SOURCE_DATE_EPOCH honoured
set(KILN_DEB_VERSION ${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE})
configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/changelog.Debian.in ${PROJECT_BINARY_DIR}/deb/changelog.Debian @ONLY)
find_program(KILN_GZIP gzip REQUIRED)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/deb/gz/changelog.Debian.gz
  COMMAND ${CMAKE_COMMAND} -DIN=${PROJECT_BINARY_DIR}/deb/changelog.Debian -DOUT=${PROJECT_BINARY_DIR}/deb/gz
          -DGZIP=${KILN_GZIP} -P ${PROJECT_SOURCE_DIR}/share/gzip.cmake
  DEPENDS ${PROJECT_BINARY_DIR}/deb/changelog.Debian ${PROJECT_SOURCE_DIR}/share/gzip.cmake
  VERBATIM)
add_custom_target(kiln_deb_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/deb/gz/changelog.Debian.gz)
foreach(comp ${CPACK_COMPONENTS_ALL})
  string(TOUPPER ${comp} COMP)
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/deb/copyright ${PROJECT_BINARY_DIR}/deb/gz/changelog.Debian.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${CPACK_DEBIAN_${COMP}_PACKAGE_NAME}
          COMPONENT ${comp} EXCLUDE_FROM_ALL)
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/deb/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
          RENAME ${CPACK_DEBIAN_${COMP}_PACKAGE_NAME} COMPONENT ${comp} EXCLUDE_FROM_ALL)
endforeach()
include(CPack)
