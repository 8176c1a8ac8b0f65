# Writes OUT, a header defining KILN_GIT_DESCRIBE as `git describe` of SOURCE_DIR ("" when it is no
# git checkout or git is missing). Run at every build; the file is rewritten only when the text
# changes, so only kiln's main.c is compiled again, and only when the checkout moved.
set(describe "")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} describe --always --dirty --tags
                  OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc EQUAL 0)
    set(describe "${out}")
  endif()
endif()
set(text "/* Written at build time by share/git_describe.cmake. */\n#define KILN_GIT_DESCRIBE \"${describe}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
