# cmake -D CLI=softgrasp-cli -D OUT=file -P CliManCommands.cmake: a help2man --include file with a COMMANDS
# section holding every command's own --help (`softgrasp-cli help NAME`), so softgrasp-cli(1) lists each command's
# options as the binary prints them. The command names come from the global --help's "commands:" list.
execute_process(COMMAND ${CLI} --help OUTPUT_VARIABLE global RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CLI} --help failed (${rc})")
endif()
string(REGEX MATCH "commands:\n(([ ]+[^\n]*\n)+)" block "${global}")
string(REGEX MATCHALL "\n  ([a-z][a-z-]*)" names "\n${CMAKE_MATCH_1}")
set(text "[COMMANDS]\n")
foreach(name ${names})
  string(STRIP "${name}" name)
  execute_process(COMMAND ${CLI} help ${name} OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CLI} help ${name} failed (${rc})")
  endif()
  # troff: a backslash is \e, a minus sign \- (so options copied from the page keep their ASCII hyphens), and a
  # line starting with . or ' would be a request.
  string(REPLACE "\\" "\\e" help "${help}")
  string(REPLACE "-" "\\-" help "${help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
  string(APPEND text ".SS ${name}\n.nf\n${help}.fi\n")
endforeach()
if(NOT names)
  message(FATAL_ERROR "no commands found in ${CLI} --help")
endif()
file(WRITE ${OUT} "${text}")
