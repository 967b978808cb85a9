# Every public header compiles on its own (includes what it uses): -fsyntax-only compiles of
# `#include <chaindyn/...>` that together begin a translation unit with every header under
# include/chaindyn (below). Run by CTest (tests "headers:self_contained:<shard>", asan preset); a
# header that relies on another being included first fails here, with the compiler's first
# error. Arguments: -DCOMPILER= -DINCLUDE_DIRS=a;b;... -DSYSTEM_INCLUDE_DIRS=... -DHEADERS_DIR=
# -DWORK_DIR=, and -DSHARD=k -DSHARDS=m to compile the headers k, k + m, k + 2m, ... of the
# sorted list of those to compile only (CTest runs the m shards side by side).
cmake_minimum_required(VERSION 3.22)
file(GLOB_RECURSE all_headers RELATIVE "${HEADERS_DIR}" "${HEADERS_DIR}/chaindyn/*.hpp")
list(SORT all_headers)
if(NOT SHARDS)
  set(SHARDS 1)
  set(SHARD 0)
endif()
if(NOT SHARD MATCHES "^[0-9]+$" OR NOT SHARDS MATCHES "^[1-9][0-9]*$" OR NOT SHARD LESS SHARDS)
  message(FATAL_ERROR "check_headers.cmake: SHARD=${SHARD} SHARDS=${SHARDS}: "
                      "expected 0 <= SHARD < SHARDS")
endif()
# Which headers need a compile of their own (all but the skipped and the covered, below), then
# every SHARDS-th of those from SHARD.
# - An umbrella or forwarding header (nothing but #pragma once, comments and
#   #include "chaindyn/..." lines) is self-contained when what it includes is, and those are
#   checked one by one: skipped (~1-7 s each). That every header of chaindyn/all.hpp compiles
#   beside the others the asan preset's test build checks (its precompiled header is all.hpp).
# - A header whose text starts a checked header's translation unit is checked by that compile:
#   when the first line of G (after comments and #pragma once) is #include "chaindyn/H", the
#   compile of `#include <G>` begins with H exactly as `#include <H>` would, so an error of H's
#   fails G's compile (its first error names H's file). H is then covered, not compiled again.
#   G may be covered in turn: a chain of first includes ends at a header that is compiled.
set(checked "")
set(covered "")
set(skipped 0)
foreach(h IN LISTS all_headers)
  file(STRINGS "${HEADERS_DIR}/${h}" lines)
  set(umbrella TRUE)
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^[ \t]*(//.*)?$" AND NOT line MATCHES "^#pragma once" AND
       NOT line MATCHES "^#include \"chaindyn/[^\"]+\"[ \t]*(//.*)?$")
      set(umbrella FALSE)
      break()
    endif()
  endforeach()
  if(umbrella)
    math(EXPR skipped "${skipped} + 1")
    continue()
  endif()
  list(APPEND checked "${h}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^[ \t]*(//.*)?$" OR line MATCHES "^#pragma once")
      continue()
    endif()
    if(line MATCHES "^#include \"(chaindyn/[^\"]+)\"")
      list(APPEND covered "${CMAKE_MATCH_1}")
    endif()
    break()
  endforeach()
endforeach()
set(compiled "")
foreach(h IN LISTS checked)
  if(NOT h IN_LIST covered)
    list(APPEND compiled "${h}")
  endif()
endforeach()
list(LENGTH checked checked_count)
list(LENGTH compiled compiled_count)
math(EXPR covered_count "${checked_count} - ${compiled_count}")
set(headers "")
set(index 0)
foreach(h IN LISTS compiled)
  math(EXPR slot "${index} % ${SHARDS}")
  if(slot EQUAL SHARD)
    list(APPEND headers "${h}")
  endif()
  math(EXPR index "${index} + 1")
endforeach()
set(flags -std=c++17 -Wall -Wextra -Werror)
foreach(dir IN LISTS INCLUDE_DIRS)
  list(APPEND flags "-I${dir}")
endforeach()
foreach(dir IN LISTS SYSTEM_INCLUDE_DIRS)
  list(APPEND flags -isystem "${dir}")
endforeach()
file(MAKE_DIRECTORY "${WORK_DIR}")
# Eigen parsed once (clang++ precompiled header): the check is about chaindyn's own includes,
# and it takes 10 s instead of 47.
set(pch_source "${WORK_DIR}/eigen_pch.hpp")
file(WRITE "${pch_source}" "#include <Eigen/Core>\n#include <Eigen/Dense>\n")
execute_process(COMMAND "${COMPILER}" ${flags} -x c++-header "${pch_source}" -Xclang -emit-pch
                        -o "${WORK_DIR}/eigen.pch"
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cannot precompile Eigen for the header check:\n${out}")
endif()
list(APPEND flags -include-pch "${WORK_DIR}/eigen.pch")
set(failed "")
set(count 0)
foreach(h IN LISTS headers)
  string(MAKE_C_IDENTIFIER "${h}" id)
  set(source "${WORK_DIR}/${id}.cpp")
  file(WRITE "${source}" "#include <${h}>\n")
  execute_process(COMMAND "${COMPILER}" ${flags} -fsyntax-only "${source}"
                  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
  math(EXPR count "${count} + 1")
  if(NOT result EQUAL 0)
    string(REGEX MATCH "[^\n]*error[^\n]*" first "${out}")
    list(APPEND failed "${h}: ${first}")
  endif()
endforeach()
if(failed)
  list(JOIN failed "\n  " text)
  message(FATAL_ERROR "headers that do not compile on their own (the compile of a header also "
                      "checks its first include: the error's file names the one at fault):\n  "
                      "${text}")
endif()
message(STATUS "${count} headers compile on their own (shard ${SHARD} of ${SHARDS}; of all shards' "
               "${checked_count} checked headers, ${covered_count} were checked as the first include "
               "of another; ${skipped} umbrella or forwarding headers skipped)")
