# Proves that chaindyn can be consumed both ways, offline:
#   1. install chaindyn to a temporary prefix with exactly the commands of README.md's
#      "## Install" block (read from the README: each `cmake ...` line, with `.` the source
#      tree, `build` a fresh build directory and `/usr/local` the prefix), then configure,
#      build and run tests/consumer/find_package against that prefix (find_package(chaindyn)).
#      The route must not need make (scripts/setup installs ninja, not make): the build
#      directory it configures must use Ninja;
#      The README's route builds nothing (the URDF tools are an optional `cmake --build`, which
#      the asan and release presets build);
#   1b. `cmake -S . -B b` (the defaults, the Python module included when pybind11 is found)
#      then `cmake --install b` with nothing built installs the headers and the package;
#   2. configure, build and run tests/consumer/add_subdirectory on the source tree.
# The consumers are configured with CONSUMER_GENERATOR (default Ninja), never make.
# Any failure is FATAL_ERROR. Run by CTest (test "chaindyn_consumer"), or by hand:
#   cmake -DCHAINDYN_SOURCE_DIR=. -DCHAINDYN_BINARY_DIR=build/default \
#         -DWORK_DIR=/tmp/chaindyn-consumer -P tests/consumer/run_consumer.cmake

cmake_minimum_required(VERSION 3.22)

foreach(var CHAINDYN_SOURCE_DIR CHAINDYN_BINARY_DIR WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT CONSUMER_BUILD_TYPE)
  set(CONSUMER_BUILD_TYPE Release)
endif()

set(common_args "-DCMAKE_BUILD_TYPE=${CONSUMER_BUILD_TYPE}"
                # Only the prefix under test may provide chaindyn.
                "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"
                "-DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF")
if(NOT CONSUMER_GENERATOR)
  set(CONSUMER_GENERATOR Ninja)
endif()
list(APPEND common_args -G "${CONSUMER_GENERATOR}")
if(CONSUMER_CXX_COMPILER)
  list(APPEND common_args "-DCMAKE_CXX_COMPILER=${CONSUMER_CXX_COMPILER}")
endif()

# run(<step> <command>...): runs the command, echoes its output on failure, stops on failure.
function(run step)
  message(STATUS "consumer: ${step}")
  execute_process(COMMAND ${ARGN}
    RESULT_VARIABLE result
    OUTPUT_VARIABLE out
    ERROR_VARIABLE out)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "consumer: ${step} failed (${result}):\n${out}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
set(consumers "${CHAINDYN_SOURCE_DIR}/tests/consumer")

# 1. The README's install commands, then find_package().
file(READ "${CHAINDYN_SOURCE_DIR}/README.md" readme)
string(FIND "${readme}" "## Install\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "consumer: README.md has no '## Install' section")
endif()
string(SUBSTRING "${readme}" ${at} -1 install_section)
string(REGEX MATCH "```sh\n([^`]*)```" block "${install_section}")
if(NOT CMAKE_MATCH_1)
  message(FATAL_ERROR "consumer: README.md's '## Install' section has no ```sh block")
endif()
# Comments off first: a ';' in one would split the line (CMake lists).
string(REGEX REPLACE "#[^\n]*" "" commands_text "${CMAKE_MATCH_1}")
string(REPLACE "\n" ";" readme_lines "${commands_text}")
set(readme_build "${WORK_DIR}/readme_build")
set(commands 0)
foreach(line IN LISTS readme_lines)
  string(STRIP "${line}" line)
  if(line STREQUAL "")
    continue()
  endif()
  if(NOT line MATCHES "^cmake ")
    message(FATAL_ERROR "consumer: README.md's install block has a command this test cannot "
                        "run as written: '${line}'")
  endif()
  separate_arguments(args UNIX_COMMAND "${line}")
  list(POP_FRONT args)  # cmake
  set(mapped "")
  foreach(arg IN LISTS args)
    if(arg STREQUAL ".")
      set(arg "${CHAINDYN_SOURCE_DIR}")
    elseif(arg STREQUAL "build")
      set(arg "${readme_build}")
    elseif(arg STREQUAL "/usr/local")
      set(arg "${prefix}")
    endif()
    list(APPEND mapped "${arg}")
  endforeach()
  run("README: ${line}" "${CMAKE_COMMAND}" ${mapped})
  math(EXPR commands "${commands} + 1")
endforeach()
if(commands LESS 2)
  message(FATAL_ERROR "consumer: README.md's install block has ${commands} cmake command(s)")
endif()
# Nothing in the route needs make: its build directory's generator is Ninja.
file(STRINGS "${readme_build}/CMakeCache.txt" generator REGEX "^CMAKE_GENERATOR:INTERNAL=")
if(NOT generator STREQUAL "CMAKE_GENERATOR:INTERNAL=Ninja")
  message(FATAL_ERROR "consumer: README.md's install route configures with '${generator}', "
                      "which needs make; scripts/setup installs ninja only: the route must "
                      "say -G Ninja")
endif()
foreach(required include/chaindyn/chaindyn.hpp include/chaindyn/version.hpp
                 share/cmake/chaindyn/chaindynConfig.cmake
                 share/cmake/chaindyn/chaindynConfigVersion.cmake
                 share/cmake/chaindyn/chaindynTargets.cmake)
  if(NOT EXISTS "${prefix}/${required}")
    message(FATAL_ERROR "consumer: the README's install is missing ${required}")
  endif()
endforeach()

# 1b. Install right after configuring, nothing built, with the default options.
set(install_only "${WORK_DIR}/install_only")
set(install_only_args -G Ninja -DCHAINDYN_BUILD_TESTS=OFF -DCHAINDYN_BUILD_EXAMPLES=OFF
                      -DCHAINDYN_BUILD_BENCHMARKS=OFF)
if(CONSUMER_CXX_COMPILER)
  list(APPEND install_only_args "-DCMAKE_CXX_COMPILER=${CONSUMER_CXX_COMPILER}")
endif()
run("configure with the defaults, no build"
    "${CMAKE_COMMAND}" -S "${CHAINDYN_SOURCE_DIR}" -B "${install_only}" ${install_only_args})
run("install with nothing built"
    "${CMAKE_COMMAND}" --install "${install_only}" --prefix "${WORK_DIR}/install_only_prefix")
if(NOT EXISTS "${WORK_DIR}/install_only_prefix/share/cmake/chaindyn/chaindynConfig.cmake")
  message(FATAL_ERROR "consumer: cmake --install right after configuring installed no package")
endif()

run("configure find_package consumer"
    "${CMAKE_COMMAND}" -S "${consumers}/find_package" -B "${WORK_DIR}/find_package"
    ${common_args} "-DCMAKE_PREFIX_PATH=${prefix}" "-DEXPECTED_PREFIX=${prefix}")
run("build find_package consumer"
    "${CMAKE_COMMAND}" --build "${WORK_DIR}/find_package" --config "${CONSUMER_BUILD_TYPE}")
find_program(find_package_exe consumer
  PATHS "${WORK_DIR}/find_package" "${WORK_DIR}/find_package/${CONSUMER_BUILD_TYPE}"
  NO_DEFAULT_PATH REQUIRED)
run("run find_package consumer" "${find_package_exe}")
message(STATUS "consumer: ${last_output}")

# A version the package must refuse (SameMajorVersion): 1.0 is not satisfied by 0.x.
file(WRITE "${WORK_DIR}/wrong_version/CMakeLists.txt" "
cmake_minimum_required(VERSION 3.22)
project(wrong_version LANGUAGES NONE)
find_package(chaindyn 1.0 QUIET)
if(chaindyn_FOUND)
  message(FATAL_ERROR \"chaindyn \${chaindyn_VERSION} accepted a request for 1.0\")
endif()
")
run("check that version 1.0 is refused"
    "${CMAKE_COMMAND}" -S "${WORK_DIR}/wrong_version" -B "${WORK_DIR}/wrong_version/build"
    -G "${CONSUMER_GENERATOR}" "-DCMAKE_PREFIX_PATH=${prefix}")

# 2. add_subdirectory().
run("configure add_subdirectory consumer"
    "${CMAKE_COMMAND}" -S "${consumers}/add_subdirectory" -B "${WORK_DIR}/add_subdirectory"
    ${common_args} "-DCHAINDYN_SOURCE_DIR=${CHAINDYN_SOURCE_DIR}")
run("build add_subdirectory consumer"
    "${CMAKE_COMMAND}" --build "${WORK_DIR}/add_subdirectory" --config "${CONSUMER_BUILD_TYPE}")
find_program(add_subdirectory_exe consumer
  PATHS "${WORK_DIR}/add_subdirectory" "${WORK_DIR}/add_subdirectory/${CONSUMER_BUILD_TYPE}"
  NO_DEFAULT_PATH REQUIRED)
run("run add_subdirectory consumer" "${add_subdirectory_exe}")
message(STATUS "consumer: ${last_output}")

message(STATUS "consumer: find_package and add_subdirectory consumers OK")
