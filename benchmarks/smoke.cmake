# Runs each benchmark executable in COMMANDS ('|'-separated) once over every benchmark: one
# iteration (--benchmark_min_time=0), one repetition. Fails if one exits non-zero (bench_peers
# does when chaindyn and KDL disagree) or reports no run in its JSON output file.
string(REPLACE "|" ";" commands "${COMMANDS}")
foreach(exe IN LISTS commands)
  set(json "${exe}.smoke.json")
  file(REMOVE "${json}")
  execute_process(
    COMMAND ${exe} --benchmark_min_time=0 --benchmark_repetitions=1 --benchmark_filter=.
            --benchmark_out=${json} --benchmark_out_format=json
    RESULT_VARIABLE result
    OUTPUT_VARIABLE output
    ERROR_VARIABLE errors)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${exe} failed (${result}):\n${output}\n${errors}")
  endif()
  file(READ "${json}" report)
  string(REGEX MATCHALL "\"run_type\": \"iteration\"" runs "${report}")
  string(REGEX MATCHALL "\"error_occurred\": true" failures "${report}")
  list(LENGTH runs count)
  list(LENGTH failures failed)
  message(STATUS "${exe}: ${count} benchmarks ran, ${failed} with errors")
  if(count EQUAL 0 OR NOT failed EQUAL 0)
    message(FATAL_ERROR "${exe}:\n${output}\n${errors}")
  endif()
endforeach()
