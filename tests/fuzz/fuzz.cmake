# The URDF parser's fuzz target (included from tests/CMakeLists.txt when chaindyn::urdf exists).
#
# - fuzz:urdf_regressions (every build with the URDF tests) runs each input of
#   tests/fuzz/regressions (inputs that once broke the parser), the seed corpus and the test
#   URDFs once: with the libFuzzer binary where it is built, else with
#   chaindyn_fuzz_urdf_regressions, the same source with a plain main().
# - chaindyn_fuzz_urdf (clang only, with CHAINDYN_FUZZ=ON, which the asan preset sets): the same
#   source under libFuzzer + ASan + UBSan at CHAINDYN_FUZZ_OPTIMIZATION (-O1; the asan preset:
#   -O0, half the compile time, a third of the executions per second); ctest runs it for
#   CHAINDYN_FUZZ_SECONDS (default 30) from the seed corpus, with leak detection on. libFuzzer
#   fails the test on a crash, a sanitizer report, a leak, an input slower than 10 s or 2 GB of
#   memory, and writes the input to build/<preset>/tests/fuzz-artifacts/: add it to
#   tests/fuzz/regressions.

option(CHAINDYN_FUZZ "Build the URDF parser's libFuzzer target and run it as a test (clang)" OFF)
set(CHAINDYN_FUZZ_SECONDS 30 CACHE STRING "How long the fuzz test runs (seconds)")
set(CHAINDYN_FUZZ_OPTIMIZATION -O1 CACHE STRING "Optimization flag of the fuzz target")

set(fuzz_dir ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
file(GLOB fuzz_inputs CONFIGURE_DEPENDS
     ${fuzz_dir}/regressions/* ${fuzz_dir}/corpus/* ${CMAKE_CURRENT_SOURCE_DIR}/data/urdf/*.urdf
     ${CMAKE_CURRENT_SOURCE_DIR}/data/urdf/fixtures/*.urdf)

set(chaindyn_libfuzzer OFF)
if(CHAINDYN_FUZZ)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(chaindyn_libfuzzer ON)
  else()
    message(STATUS "chaindyn: URDF fuzz target skipped: libFuzzer needs clang "
                   "(this is ${CMAKE_CXX_COMPILER_ID})")
  endif()
endif()

if(NOT chaindyn_libfuzzer)
  add_executable(chaindyn_fuzz_urdf_regressions ${fuzz_dir}/fuzz_urdf.cpp)
  target_link_libraries(chaindyn_fuzz_urdf_regressions PRIVATE chaindyn::urdf)
  chaindyn_add_warnings(chaindyn_fuzz_urdf_regressions)
  target_compile_definitions(chaindyn_fuzz_urdf_regressions PRIVATE CHAINDYN_FUZZ_STANDALONE
                                                                    CHAINDYN_ALWAYS_INLINE=)
  add_test(NAME fuzz:urdf_regressions COMMAND chaindyn_fuzz_urdf_regressions ${fuzz_inputs})
else()
  add_executable(chaindyn_fuzz_urdf ${fuzz_dir}/fuzz_urdf.cpp)
  target_link_libraries(chaindyn_fuzz_urdf PRIVATE chaindyn::urdf)
  chaindyn_add_warnings(chaindyn_fuzz_urdf)
  target_compile_definitions(chaindyn_fuzz_urdf PRIVATE CHAINDYN_ALWAYS_INLINE=)
  # The regression inputs once each: libFuzzer runs the files it is given and exits (no
  # second, standalone build of the same source in this configuration).
  add_test(NAME fuzz:urdf_regressions COMMAND chaindyn_fuzz_urdf -runs=1 ${fuzz_inputs})
  # CHAINDYN_FUZZ_OPTIMIZATION after the build type's flag: -O1 runs ~3x the executions per
  # second of -O0 and takes twice its compile time.
  target_compile_options(chaindyn_fuzz_urdf PRIVATE ${CHAINDYN_FUZZ_OPTIMIZATION}
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all)
  target_link_options(chaindyn_fuzz_urdf PRIVATE -fsanitize=fuzzer,address,undefined)
  # libFuzzer adds what it finds to its first corpus directory: a copy in the build tree, never
  # the source tree. The seed inputs follow as read-only directories.
  set(work_corpus ${CMAKE_CURRENT_BINARY_DIR}/fuzz-corpus)
  set(artifacts ${CMAKE_CURRENT_BINARY_DIR}/fuzz-artifacts)
  file(MAKE_DIRECTORY ${work_corpus} ${artifacts})
  # libFuzzer exits when a corpus directory does not exist: pass only those that do.
  set(seed_dirs "")
  foreach(dir ${fuzz_dir}/corpus ${fuzz_dir}/regressions ${CMAKE_CURRENT_SOURCE_DIR}/data/urdf
          ${CMAKE_CURRENT_SOURCE_DIR}/data/urdf/fixtures)
    if(IS_DIRECTORY ${dir})
      list(APPEND seed_dirs ${dir})
    endif()
  endforeach()
  add_test(NAME fuzz:urdf
    COMMAND chaindyn_fuzz_urdf
      -max_total_time=${CHAINDYN_FUZZ_SECONDS} -timeout=10 -rss_limit_mb=2048
      -max_len=16384 -print_final_stats=1 -detect_leaks=1
      -dict=${fuzz_dir}/urdf.dict -artifact_prefix=${artifacts}/
      ${work_corpus} ${seed_dirs})
  # COST: ctest -j starts the most costly tests first, so the 30 s of fuzzing run beside the
  # other tests instead of alone after them (a fresh build tree has no timing history).
  set_tests_properties(fuzz:urdf PROPERTIES TIMEOUT 900 COST 1000)
  message(STATUS "chaindyn: URDF fuzz test enabled (${CHAINDYN_FUZZ_SECONDS} s)")
endif()
