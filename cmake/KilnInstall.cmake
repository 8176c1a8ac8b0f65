# Install rules: the libraries, the header, kiln.pc and the CMake package (kilnConfig.cmake), for
# whatever prefix `cmake --install --prefix P` or CPack gives (DESTDIR honoured). bin/kiln's rule
# is in cli/CMakeLists.txt, the manual pages' and completions' in share/CMakeLists.txt.
# Each rule names the Debian package (cmake/KilnPackage.cmake) its files go to, as libssl3,
# libssl-dev and openssl split OpenSSL: component lib (libkiln.so.MAJOR*: libkiln0), dev (kiln.h,
# libkiln.a, the libkiln.so link, kiln.pc, the CMake package: libkiln-dev) and cli (bin/kiln, its
# manual pages and completions: kiln). `cmake --install` without --component installs all three.
include(CMakePackageConfigHelpers)

set(KILN_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kiln)
set(KILN_PCDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES ${PROJECT_SOURCE_DIR}/include/kiln.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
install(TARGETS kiln EXPORT kilnStaticTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
install(EXPORT kilnStaticTargets NAMESPACE kiln:: DESTINATION ${KILN_CMAKEDIR} COMPONENT dev)
if(KILN_SHARED)
  install(TARGETS kiln_shared EXPORT kilnSharedTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev)
  install(EXPORT kilnSharedTargets NAMESPACE kiln:: DESTINATION ${KILN_CMAKEDIR} COMPONENT dev)
endif()

# kiln.pc. Libs.private is what a program linking libkiln.a needs on top of it (KILN_LINK_DEPS,
# src/CMakeLists.txt), spelled for a C linker as -l flags only: no path of the build machine, so
# the file is the same wherever it was built (the libraries come from the linker's search path:
# libmpi.so from libopenmpi-dev, libz.so from zlib1g-dev). zlib goes there as -lz, not as
# Requires.private, so that a shared link does not need zlib's own .pc (zlib1g-dev). A CUDA build's
# -lcudart_static lies in the CUDA toolkit, outside that path: linking its libkiln.a statically
# takes -L to the toolkit's library directory too (docs/PACKAGING.md, "Install").
set(KILN_PC_PRIVATE "")
foreach(dep ${KILN_LINK_DEPS})
  if(dep STREQUAL "OpenMP::OpenMP_C")
    foreach(lib ${OpenMP_C_LIB_NAMES})
      if(NOT lib STREQUAL "pthread") # Threads below
        list(APPEND KILN_PC_PRIVATE -l${lib})
      endif()
    endforeach()
  elseif(dep STREQUAL "Threads::Threads")
    list(APPEND KILN_PC_PRIVATE ${CMAKE_THREAD_LIBS_INIT})
  elseif(dep STREQUAL "ZLIB::ZLIB")
    list(APPEND KILN_PC_PRIVATE -lz)
  elseif(dep STREQUAL "CUDA::cudart_static")
    list(APPEND KILN_PC_PRIVATE -lcudart_static -ldl -lrt)
  elseif(dep STREQUAL "OpenCL::OpenCL")
    list(APPEND KILN_PC_PRIVATE -lOpenCL)
  elseif(dep STREQUAL "MPI::MPI_C")
    foreach(lib ${MPI_C_LIB_NAMES})
      list(APPEND KILN_PC_PRIVATE -l${lib})
    endforeach()
  elseif(dep MATCHES "::")
    message(FATAL_ERROR "kiln.pc: no pkg-config spelling for ${dep} (cmake/KilnInstall.cmake)")
  else()
    list(APPEND KILN_PC_PRIVATE -l${dep})
  endif()
endforeach()
list(REMOVE_DUPLICATES KILN_PC_PRIVATE)
list(JOIN KILN_PC_PRIVATE " " KILN_PC_LIBS_PRIVATE)
# Its paths are absolute, for the prefix the files are installed under, known only at install time
# (`cmake --install --prefix`, CPack's /usr): cmake/KilnPc.cmake writes it then.
configure_file(${PROJECT_SOURCE_DIR}/cmake/KilnPc.cmake.in ${PROJECT_BINARY_DIR}/KilnPc.cmake @ONLY)
install(SCRIPT ${PROJECT_BINARY_DIR}/KilnPc.cmake COMPONENT dev)
install(FILES ${PROJECT_BINARY_DIR}/kiln.pc DESTINATION ${KILN_PCDIR} COMPONENT dev)

# The CMake package: kiln::kiln (libkiln.so, or libkiln.a when built without it) and, with
# COMPONENTS static, kiln::kiln_static.
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kilnConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/kilnConfig.cmake INSTALL_DESTINATION ${KILN_CMAKEDIR})
# libkiln.so.MAJOR: the same major version is the same ABI.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kilnConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kilnConfig.cmake ${PROJECT_BINARY_DIR}/kilnConfigVersion.cmake
        DESTINATION ${KILN_CMAKEDIR} COMPONENT dev)
# The same package in the build tree: find_package(kiln PATHS <build>) gives the build's own
# libraries (the sources' include/ for the header), as the Python package does with
# KILN_BUILD_DIR (python/CMakeLists.txt) instead of building libkiln again.
export(EXPORT kilnStaticTargets NAMESPACE kiln:: FILE ${PROJECT_BINARY_DIR}/kilnStaticTargets.cmake)
if(KILN_SHARED)
  export(EXPORT kilnSharedTargets NAMESPACE kiln:: FILE ${PROJECT_BINARY_DIR}/kilnSharedTargets.cmake)
else()
  file(REMOVE ${PROJECT_BINARY_DIR}/kilnSharedTargets.cmake) # of an earlier configure with it
endif()
