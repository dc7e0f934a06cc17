# libFuzzer harnesses (tests/fuzz), built when MG_FUZZ=ON with clang:
#   CC=clang cmake -S . -B build-fuzz -DMG_FUZZ=ON && cmake --build build-fuzz
# Every target of the tree is instrumented for coverage with ASan+UBSan
# (fuzzer-no-link); the harnesses link libFuzzer's main. The CTest
# fuzz_smoke runs each harness for MG_FUZZ_SECONDS over a seed corpus made
# from real exports (make_corpus.sh) and replays tests/fuzz/regress.
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "MG_FUZZ=ON needs clang (CC=clang): libFuzzer is clang's")
endif()
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=fuzzer)
check_c_source_compiles("#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }" MG_HAVE_LIBFUZZER)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(NOT MG_HAVE_LIBFUZZER)
  message(WARNING "clang cannot link -fsanitize=fuzzer (install libclang-rt-14-dev): no fuzz harnesses")
  add_custom_target(fuzz_all)
  add_test(NAME fuzz_smoke COMMAND ${CMAKE_COMMAND} -E echo "fuzz smoke skipped: libFuzzer runtime not found")
  return()
endif()
set(MG_FUZZ_SECONDS 15 CACHE STRING "seconds per harness in the fuzz_smoke test")
set(MG_FUZZ_HARNESSES schedule topo model algo msccl modelfile spec plot)
foreach(h ${MG_FUZZ_HARNESSES})
  add_executable(fuzz_${h} ${CMAKE_CURRENT_LIST_DIR}/fuzz_${h}.c)
  target_link_libraries(fuzz_${h} PRIVATE meshgossip)
  target_link_options(fuzz_${h} PRIVATE -fsanitize=fuzzer)
endforeach()
# what fuzz_smoke needs, and no more: scripts/test.sh builds this target
# alone (the whole tree again under clang took a minute of CI)
add_custom_target(fuzz_all)
foreach(h ${MG_FUZZ_HARNESSES})
  add_dependencies(fuzz_all fuzz_${h})
endforeach()
add_dependencies(fuzz_all meshgossip-cli)
add_test(NAME fuzz_smoke
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/smoke.sh $<TARGET_FILE_DIR:fuzz_schedule> $<TARGET_FILE:meshgossip-cli>
                 ${MG_FUZZ_SECONDS})
# eight harnesses of MG_FUZZ_SECONDS two at a time, after the seed exports
# (of the sanitized CLI unless MG_FUZZ_SEED_CLI names another): 245 s
# measured on 2 shared cores, 76 s with scripts/test.sh's seed CLI
set_tests_properties(fuzz_smoke PROPERTIES TIMEOUT 420 LABELS fuzz)
