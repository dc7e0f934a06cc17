# The SMPI build of the Paragon experiment and its CTest check; included
# from the top CMakeLists.txt when smpicc and smpirun are found.
file(GLOB MG_SMPI_CORE CONFIGURE_DEPENDS ${MG_CORE_GLOBS})
set(MG_SMPI_SOURCES ${MG_SMPI_CORE} ${CMAKE_SOURCE_DIR}/src/mpi/plan.c ${CMAKE_SOURCE_DIR}/src/mpi/exec.c
    ${CMAKE_SOURCE_DIR}/bench/paragon/paragon.c)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/paragon_smpi
  COMMAND ${MG_SMPICC} -O2 -D_GNU_SOURCE -DMG_VERSION_STRING="${PROJECT_VERSION}" -std=c11 -I${CMAKE_SOURCE_DIR}/include ${MG_SMPI_SOURCES} -ljansson -lm
          -o ${CMAKE_BINARY_DIR}/paragon_smpi
  DEPENDS ${MG_SMPI_SOURCES} ${CMAKE_SOURCE_DIR}/include/meshgossip.h ${CMAKE_SOURCE_DIR}/include/meshgossip_mpi.h
  COMMENT "smpicc paragon_smpi" VERBATIM)
add_custom_target(paragon-smpi ALL DEPENDS ${CMAKE_BINARY_DIR}/paragon_smpi)
add_test(NAME smpi_paragon_9x9 COMMAND bash ${CMAKE_SOURCE_DIR}/bench/paragon/smpi_check.sh
         ${CMAKE_BINARY_DIR}/paragon_smpi)
set_tests_properties(smpi_paragon_9x9 PROPERTIES TIMEOUT 300 LABELS smpi)

# meshgossip-mpi compiled with smpicc: `smpirun ... meshgossip-mpi-smpi
# calibrate -o FILE` fits the model on a simulated platform
# (bench/paragon/calibrate_check.sh asserts the fit against the platform).
file(GLOB MG_SMPI_TOOL CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tools/mpi/*.c)
set(MG_SMPI_TOOL_SOURCES ${MG_SMPI_CORE} ${CMAKE_SOURCE_DIR}/src/mpi/plan.c ${CMAKE_SOURCE_DIR}/src/mpi/exec.c
    ${MG_SMPI_TOOL})
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/meshgossip-mpi-smpi
  COMMAND ${MG_SMPICC} -O2 -D_GNU_SOURCE -DMG_VERSION_STRING="${PROJECT_VERSION}" -std=c11 -I${CMAKE_SOURCE_DIR}/include
          -I${CMAKE_SOURCE_DIR}/tools/mpi ${MG_SMPI_TOOL_SOURCES} -ljansson -lm -o ${CMAKE_BINARY_DIR}/meshgossip-mpi-smpi
  DEPENDS ${MG_SMPI_TOOL_SOURCES} ${CMAKE_SOURCE_DIR}/include/meshgossip.h ${CMAKE_SOURCE_DIR}/include/meshgossip_mpi.h
          ${CMAKE_SOURCE_DIR}/tools/mpi/mpi_tool.h
  COMMENT "smpicc meshgossip-mpi-smpi" VERBATIM)
add_custom_target(meshgossip-mpi-smpi-tool ALL DEPENDS ${CMAKE_BINARY_DIR}/meshgossip-mpi-smpi)
add_test(NAME smpi_calibrate_9x9 COMMAND bash ${CMAKE_SOURCE_DIR}/bench/paragon/calibrate_check.sh
         ${CMAKE_BINARY_DIR}/meshgossip-mpi-smpi $<TARGET_FILE:meshgossip-cli>)
set_tests_properties(smpi_calibrate_9x9 PROPERTIES TIMEOUT 300 LABELS smpi)
