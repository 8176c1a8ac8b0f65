# Writes the manual pages and the shell completion scripts of the kiln binary KILN under OUT, laid
# out as they are installed (man/man1, bash-completion/completions, zsh/site-functions). kiln writes
# them itself (`kiln help --roff`, `kiln help --completion`) from its option tables.
function(kiln_write file)
  execute_process(COMMAND ${KILN} help ${ARGN} OUTPUT_FILE ${file} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "kiln help ${ARGN} failed (${rc}): ${err}")
  endif()
endfunction()

execute_process(COMMAND ${KILN} help --commands OUTPUT_VARIABLE commands RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kiln help --commands failed (${rc})")
endif()
string(REGEX REPLACE "\n$" "" commands "${commands}")
string(REPLACE "\n" ";" commands "${commands}")

file(REMOVE_RECURSE ${OUT}/man) # a page of a command that is gone goes too
file(MAKE_DIRECTORY ${OUT}/man/man1 ${OUT}/bash-completion/completions ${OUT}/zsh/site-functions)
kiln_write(${OUT}/man/man1/kiln.1 --roff)
foreach(c IN LISTS commands)
  kiln_write(${OUT}/man/man1/kiln-${c}.1 --roff ${c})
endforeach()
kiln_write(${OUT}/bash-completion/completions/kiln --completion bash)
kiln_write(${OUT}/zsh/site-functions/_kiln --completion zsh)
