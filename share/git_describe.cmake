# Writes OUT, a header defining KILN_GIT_DESCRIBE as `git describe` of SOURCE_DIR ("" when it is no
# git checkout or git is missing). Run at every build; the file is rewritten only when the text
# changes, so only kiln's main.c is compiled again, and only when the checkout moved.
# Only a checkout whose top level is SOURCE_DIR itself is kiln's: a tree exported into another
# repository (a Debian packaging repository holding upstream's tree, a vendored copy) sits inside a
# work tree too, and `git describe` there would name that other repository's commit.
set(describe "")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  file(REAL_PATH "${SOURCE_DIR}" src_real)
  if(rc EQUAL 0 AND NOT top STREQUAL "")
    file(REAL_PATH "${top}" top_real)
  else()
    set(top_real "")
  endif()
  if(top_real STREQUAL src_real)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} describe --always --dirty --tags
                    OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0)
      set(describe "${out}")
    endif()
  endif()
endif()
set(text "/* Written at build time by share/git_describe.cmake. */\n#define KILN_GIT_DESCRIBE \"${describe}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
