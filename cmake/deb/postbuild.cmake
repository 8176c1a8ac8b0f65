# CPACK_POST_BUILD_SCRIPTS (cmake/KilnPackage.cmake), run once the .debs are written: CPack (before
# CMake 3.x releases that do it themselves) runs ldconfig from postinst and postrm of a package that
# holds a shared library; Debian runs it through libc-bin's ldconfig trigger instead (lintian:
# package-must-activate-ldconfig-trigger, maintscript-calls-ldconfig). The runtime library's
# package is rebuilt here with a triggers file in place of those two scripts. A package whose
# Depends dpkg-shlibdeps wrote with several OpenCL clauses is rebuilt with one
# (cmake/deb/opencl_depends.cmake says which and why).
find_program(DPKG_DEB dpkg-deb REQUIRED)
include(${CMAKE_CURRENT_LIST_DIR}/opencl_depends.cmake)
foreach(deb ${CPACK_PACKAGE_FILES})
  get_filename_component(name "${deb}" NAME)
  set(is_lib FALSE)
  if(name MATCHES "^${CPACK_DEBIAN_LIB_PACKAGE_NAME}_")
    set(is_lib TRUE)
  endif()
  execute_process(COMMAND ${DPKG_DEB} --field "${deb}" Depends OUTPUT_VARIABLE depends
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  kiln_deb_one_opencl_clause("${depends}" one_opencl)
  if(NOT is_lib AND one_opencl STREQUAL depends)
    continue()
  endif()
  set(tree "${CPACK_TOPLEVEL_DIRECTORY}/kiln-repack")
  file(REMOVE_RECURSE "${tree}")
  execute_process(COMMAND ${DPKG_DEB} -R "${deb}" "${tree}" COMMAND_ERROR_IS_FATAL ANY)
  if(NOT one_opencl STREQUAL depends)
    file(READ "${tree}/DEBIAN/control" control)
    string(REPLACE "Depends: ${depends}\n" "Depends: ${one_opencl}\n" new_control "${control}")
    if(new_control STREQUAL control)
      message(FATAL_ERROR "${name}: no line \"Depends: ${depends}\" in its control file")
    endif()
    file(WRITE "${tree}/DEBIAN/control" "${new_control}")
  endif()
  foreach(script postinst postrm)
    if(NOT is_lib)
      break()
    endif()
    if(EXISTS "${tree}/DEBIAN/${script}")
      file(READ "${tree}/DEBIAN/${script}" text)
      if(NOT text MATCHES "^#!/bin/sh\n+set -e\n+(if [^\n]*\n+[ \t]*)?ldconfig\n+(fi\n*)?$")
        message(FATAL_ERROR "${name}: ${script} does more than run ldconfig:\n${text}")
      endif()
      file(REMOVE "${tree}/DEBIAN/${script}")
    endif()
  endforeach()
  if(is_lib)
    if(NOT EXISTS "${tree}/DEBIAN/triggers")
      file(WRITE "${tree}/DEBIAN/triggers" "activate-noawait ldconfig\n")
    endif()
    file(CHMOD "${tree}/DEBIAN/triggers" FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  endif()
  # compressed as CPack compressed it and the other packages (gzip unless
  # CPACK_DEBIAN_COMPRESSION_TYPE), not with dpkg-deb's default xz: a CUDA build's libkiln.so is
  # some 50 MB, which xz takes most of a minute of `make deb` to pack on two cores, gzip seconds
  set(kiln_z gzip)
  if(CPACK_DEBIAN_COMPRESSION_TYPE)
    set(kiln_z ${CPACK_DEBIAN_COMPRESSION_TYPE})
  endif()
  execute_process(COMMAND ${DPKG_DEB} --root-owner-group -Z${kiln_z} -b "${tree}" "${deb}" OUTPUT_QUIET
                  COMMAND_ERROR_IS_FATAL ANY)
  file(REMOVE_RECURSE "${tree}")
endforeach()
