# Runs a benchmark (BENCH) with a deliberately wrong reference and passes only if it exits with EXPECT (3: a failed
# cross-check), so a crash or a silently passing comparison both fail the test. ARGS: the benchmark's arguments,
# comma-separated; by default bench_contacts' one-gap run.
if(DEFINED ARGS)
  string(REPLACE "," ";" args "${ARGS}")
else()
  set(args --quick --default-only --object mug --gap 0.05 --states 3 --wrong-reference)
endif()
execute_process(COMMAND "${BENCH}" ${args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "${EXPECT}")
  message(FATAL_ERROR "expected exit ${EXPECT} from the wrong reference, got '${rc}'\n${out}\n${err}")
endif()
string(FIND "${out}${err}" "CROSS-CHECK FAILED" at)
if(at EQUAL -1)
  message(FATAL_ERROR "exit ${rc} but no CROSS-CHECK FAILED line\n${out}\n${err}")
endif()
