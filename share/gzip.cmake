# cmake -DIN=FILE_OR_DIR -DOUT=DIR [-DGZIP=gzip] -P gzip.cmake: writes OUT/NAME.gz for FILE, or for each
# *.1 in DIR, as Debian wants its manual pages and changelogs: gzip -9n (best compression, no name
# and no time stamp in the header, so the same input gives the same bytes).
if(NOT GZIP)
  set(GZIP gzip)
endif()
if(IS_DIRECTORY "${IN}")
  file(GLOB files "${IN}/*.1")
else()
  set(files "${IN}")
endif()
file(MAKE_DIRECTORY "${OUT}")
file(GLOB stale "${OUT}/*.gz")
if(stale AND IS_DIRECTORY "${IN}")
  file(REMOVE ${stale}) # pages of commands that no longer exist
endif()
foreach(f ${files})
  get_filename_component(name "${f}" NAME)
  execute_process(COMMAND "${GZIP}" -9nc "${f}" OUTPUT_FILE "${OUT}/${name}.gz" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip -9nc ${f}: ${rc}")
  endif()
endforeach()
