# The SMPI build of the Paragon experiment and its CTest check; included
# from the top CMakeLists.txt when smpicc and smpirun are found.
file(GLOB MG_SMPI_CORE CONFIGURE_DEPENDS ${MG_CORE_GLOBS})
set(MG_SMPI_SOURCES ${MG_SMPI_CORE} ${PROJECT_SOURCE_DIR}/src/mpi/plan.c ${PROJECT_SOURCE_DIR}/src/mpi/exec.c
    ${PROJECT_SOURCE_DIR}/bench/paragon/paragon.c)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/paragon_smpi
  COMMAND ${MG_SMPICC} -O2 -D_GNU_SOURCE -DMG_VERSION_STRING="${PROJECT_VERSION}" -std=c11 -I${PROJECT_SOURCE_DIR}/include ${MG_SMPI_SOURCES} -ljansson -lexpat -lm
          -o ${PROJECT_BINARY_DIR}/paragon_smpi
  DEPENDS ${MG_SMPI_SOURCES} ${PROJECT_SOURCE_DIR}/include/meshgossip.h ${PROJECT_SOURCE_DIR}/include/meshgossip_mpi.h
  COMMENT "smpicc paragon_smpi" VERBATIM)
add_custom_target(paragon-smpi ALL DEPENDS ${PROJECT_BINARY_DIR}/paragon_smpi)
add_test(NAME smpi_paragon_9x9 COMMAND bash ${PROJECT_SOURCE_DIR}/bench/paragon/smpi_check.sh
         ${PROJECT_BINARY_DIR}/paragon_smpi)
set_tests_properties(smpi_paragon_9x9 PROPERTIES TIMEOUT 900 LABELS smpi)
add_test(NAME smpi_paragon_relay_8x8 COMMAND bash ${PROJECT_SOURCE_DIR}/bench/paragon/smpi_relay_check.sh
         ${PROJECT_BINARY_DIR}/paragon_smpi)
set_tests_properties(smpi_paragon_relay_8x8 PROPERTIES TIMEOUT 120 LABELS smpi)
add_test(NAME smpi_paragon_dataflow COMMAND bash ${PROJECT_SOURCE_DIR}/bench/paragon/smpi_dataflow.sh
         ${PROJECT_BINARY_DIR}/paragon_smpi)
set_tests_properties(smpi_paragon_dataflow PROPERTIES TIMEOUT 300 LABELS smpi)
add_test(NAME smpi_paragon_tiling COMMAND bash ${PROJECT_SOURCE_DIR}/bench/paragon/smpi_tiling.sh
         ${PROJECT_BINARY_DIR}/paragon_smpi)
set_tests_properties(smpi_paragon_tiling PROPERTIES TIMEOUT 120 LABELS smpi)
add_test(NAME smpi_paragon_exchange_swing COMMAND bash ${PROJECT_SOURCE_DIR}/bench/paragon/smpi_exchange_swing.sh
         ${PROJECT_BINARY_DIR}/paragon_smpi)
set_tests_properties(smpi_paragon_exchange_swing PROPERTIES TIMEOUT 120 LABELS smpi)
add_test(NAME smpi_paragon_exchange_ternary COMMAND bash ${PROJECT_SOURCE_DIR}/bench/paragon/smpi_exchange_ternary.sh
         ${PROJECT_BINARY_DIR}/paragon_smpi)
set_tests_properties(smpi_paragon_exchange_ternary PROPERTIES TIMEOUT 120 LABELS smpi)
add_test(NAME smpi_paragon_exchange_digits COMMAND bash ${PROJECT_SOURCE_DIR}/bench/paragon/smpi_exchange_digits.sh
         ${PROJECT_BINARY_DIR}/paragon_smpi)
set_tests_properties(smpi_paragon_exchange_digits PROPERTIES TIMEOUT 120 LABELS smpi)
add_test(NAME smpi_paragon_exchange_hops COMMAND bash ${PROJECT_SOURCE_DIR}/bench/paragon/smpi_exchange_hops.sh
         ${PROJECT_BINARY_DIR}/paragon_smpi)
set_tests_properties(smpi_paragon_exchange_hops PROPERTIES TIMEOUT 240 LABELS smpi)
add_test(NAME smpi_paragon_exchange_slots COMMAND bash ${PROJECT_SOURCE_DIR}/bench/paragon/smpi_exchange_slots.sh
         ${PROJECT_BINARY_DIR}/paragon_smpi)
set_tests_properties(smpi_paragon_exchange_slots PROPERTIES TIMEOUT 120 LABELS smpi)
add_test(NAME smpi_paragon_exchange_moves COMMAND bash ${PROJECT_SOURCE_DIR}/bench/paragon/smpi_exchange_moves.sh
         ${PROJECT_BINARY_DIR}/paragon_smpi)
set_tests_properties(smpi_paragon_exchange_moves PROPERTIES TIMEOUT 480 LABELS smpi)
add_test(NAME smpi_paragon_ternary COMMAND bash ${PROJECT_SOURCE_DIR}/bench/paragon/smpi_ternary.sh
         ${PROJECT_BINARY_DIR}/paragon_smpi)
set_tests_properties(smpi_paragon_ternary PROPERTIES TIMEOUT 180 LABELS smpi)

# meshgossip-mpi compiled with smpicc: `smpirun ... meshgossip-mpi-smpi
# calibrate -o FILE` fits the model on a simulated platform
# (bench/paragon/calibrate_check.sh asserts the fit against the platform).
# run and verify (tools/mpi/dist.c) are the CLI's own commands on a shard
file(GLOB MG_SMPI_TOOL CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tools/mpi/*.c)
set(MG_SMPI_CLI ${MG_CLI_SOURCES})
list(FILTER MG_SMPI_CLI EXCLUDE REGEX "/meshgossip\\.c$")
set(MG_SMPI_TOOL_SOURCES ${MG_SMPI_CORE} ${PROJECT_SOURCE_DIR}/src/mpi/plan.c ${PROJECT_SOURCE_DIR}/src/mpi/exec.c
    ${PROJECT_SOURCE_DIR}/src/mpi/shard.c ${MG_SMPI_TOOL} ${MG_SMPI_CLI})
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/meshgossip-mpi-smpi
  COMMAND ${MG_SMPICC} -O2 -D_GNU_SOURCE -DMG_VERSION_STRING="${PROJECT_VERSION}" -std=c11 -I${PROJECT_SOURCE_DIR}/include
          -I${PROJECT_SOURCE_DIR}/tools/mpi -I${PROJECT_SOURCE_DIR}/tools ${MG_SMPI_TOOL_SOURCES} -ljansson -lexpat -lm -o ${PROJECT_BINARY_DIR}/meshgossip-mpi-smpi
  DEPENDS ${MG_SMPI_TOOL_SOURCES} ${PROJECT_SOURCE_DIR}/include/meshgossip.h ${PROJECT_SOURCE_DIR}/include/meshgossip_mpi.h
          ${PROJECT_SOURCE_DIR}/tools/mpi/mpi_tool.h
  COMMENT "smpicc meshgossip-mpi-smpi" VERBATIM)
add_custom_target(meshgossip-mpi-smpi-tool ALL DEPENDS ${PROJECT_BINARY_DIR}/meshgossip-mpi-smpi)
add_test(NAME smpi_calibrate_9x9 COMMAND bash ${PROJECT_SOURCE_DIR}/bench/paragon/calibrate_check.sh
         ${PROJECT_BINARY_DIR}/meshgossip-mpi-smpi $<TARGET_FILE:meshgossip-cli>)
set_tests_properties(smpi_calibrate_9x9 PROPERTIES TIMEOUT 300 LABELS smpi)
# The platform's lower bound for every allgather schedule (docs/allgather.md):
# a linear program, no SMPI run; it needs SciPy and skips without it.
add_test(NAME allgather_flow_lp COMMAND bash ${PROJECT_SOURCE_DIR}/tests/allgather_flow_lp.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(allgather_flow_lp PROPERTIES TIMEOUT 600 LABELS smpi SKIP_RETURN_CODE 77)
