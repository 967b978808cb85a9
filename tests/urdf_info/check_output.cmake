# Runs chaindyn-urdf-info and checks its output (tests/CMakeLists.txt, tests urdf_info:*).
#   cmake -DTOOL=<chaindyn-urdf-info> -DFILE=<urdf> [-DTIP=<link>] [-DINERTIA=<policy>]
#         -DDATA=<tests/data/urdf> -DEXPECTED=<file> -DEXIT=<status> -P check_output.cmake
# EXPECTED holds the key lines, one per line, with @DATA@ for the data directory: each must occur
# in the output (as a substring), in this order. EXIT is the expected exit status.
cmake_minimum_required(VERSION 3.22)
set(args ${FILE})
if(TIP)
  list(APPEND args --tip ${TIP})
endif()
if(INERTIA)
  list(APPEND args --inertia ${INERTIA})
endif()
execute_process(COMMAND ${TOOL} ${args} RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT status EQUAL EXIT)
  message(FATAL_ERROR "chaindyn-urdf-info ${args}: exit status ${status}, expected ${EXIT}\n"
                      "stdout:\n${out}\nstderr:\n${err}")
endif()
file(STRINGS ${EXPECTED} lines)
set(rest "${out}")
foreach(line IN LISTS lines)
  string(REPLACE "@DATA@" "${DATA}" line "${line}")
  string(FIND "${rest}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "chaindyn-urdf-info ${args}: missing (or out of order):\n  ${line}\n"
                        "output:\n${out}")
  endif()
  string(LENGTH "${line}" length)
  math(EXPR at "${at} + ${length}")
  string(SUBSTRING "${rest}" ${at} -1 rest)
endforeach()
list(LENGTH lines n)
message(STATUS "chaindyn-urdf-info ${args}: ${n} key lines found")
