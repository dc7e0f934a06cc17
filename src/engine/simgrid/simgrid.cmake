# The S4U replay (--engine simgrid) links libsimgrid, so it is its own
# library, linked into the CLI only when pkg-config finds simgrid; without
# it the CLI refuses --engine simgrid (exit 2). Included from the top
# CMakeLists.txt after pkg_check_modules(SIMGRID ...).
if(SIMGRID_FOUND)
  add_library(meshgossip_simgrid STATIC ${PROJECT_SOURCE_DIR}/src/engine/simgrid/replay.c)
  target_compile_definitions(meshgossip_simgrid PUBLIC MG_HAVE_SIMGRID)
  target_link_libraries(meshgossip_simgrid PUBLIC meshgossip PkgConfig::SIMGRID)
  target_link_libraries(meshgossip-cli PRIVATE meshgossip_simgrid)
  if(MG_TESTS AND CMOCKA_FOUND)
    add_executable(test_simgrid_engine ${PROJECT_SOURCE_DIR}/tests/simgrid/test_simgrid_engine.c
                                       ${PROJECT_SOURCE_DIR}/tests/helpers.c)
    target_include_directories(test_simgrid_engine PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
    target_link_libraries(test_simgrid_engine PRIVATE meshgossip_simgrid PkgConfig::CMOCKA)
    add_test(NAME test_simgrid_engine COMMAND test_simgrid_engine)
    # 2.5 s under ASan; a replay's child that hangs (one did: a fork from a
    # thread under the sanitizer's allocator) ends the test, not the CI
    set_tests_properties(test_simgrid_engine PROPERTIES TIMEOUT 300)
  endif()
  find_program(MG_SMPIRUN_TI smpirun)
  if(MG_TESTS AND MG_SMPIRUN_TI)
    add_test(NAME simgrid_ti_replay COMMAND bash ${PROJECT_SOURCE_DIR}/tests/simgrid/ti_replay.sh
             $<TARGET_FILE:meshgossip-cli>)
  endif()
  if(MG_TESTS)
    add_executable(bench_simgrid ${PROJECT_SOURCE_DIR}/bench/simgrid/bench_simgrid.c)
    target_link_libraries(bench_simgrid PRIVATE meshgossip_simgrid)
  endif()
else()
  message(STATUS "SimGrid (libsimgrid) not found: --engine simgrid is not built in")
endif()
