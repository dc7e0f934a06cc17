# The MPI side (included from the top CMakeLists.txt when MPI is found):
# the planner/executor library, the PMPI interposer and the meshgossip-mpi
# tool. Their tests are tests/mpi/tests.cmake.
add_library(meshgossip_mpi STATIC ${PROJECT_SOURCE_DIR}/src/mpi/plan.c ${PROJECT_SOURCE_DIR}/src/mpi/exec.c
                                  ${PROJECT_SOURCE_DIR}/src/mpi/shard.c)
set_target_properties(meshgossip_mpi PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(meshgossip_mpi PUBLIC ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(meshgossip_mpi PUBLIC meshgossip MPI::MPI_C)

# The interposer: LD_PRELOAD it under an unmodified program (docs/mpi.md).
add_library(meshgossip-pmpi SHARED ${PROJECT_SOURCE_DIR}/src/mpi/pmpi.c ${PROJECT_SOURCE_DIR}/src/mpi/typesig.c)
target_link_libraries(meshgossip-pmpi PRIVATE meshgossip_mpi)
target_link_options(meshgossip-pmpi PRIVATE -Wl,--version-script=${PROJECT_SOURCE_DIR}/src/mpi/pmpi.map)
set_target_properties(meshgossip-pmpi PROPERTIES OUTPUT_NAME meshgossip-pmpi
                                                 LINK_DEPENDS ${PROJECT_SOURCE_DIR}/src/mpi/pmpi.map)

# meshgossip-mpi: calibrate and bench; run and verify (tools/mpi/dist.c)
# are the CLI's own commands with a shard
set(MG_CLI_COMMANDS ${MG_CLI_SOURCES})
list(FILTER MG_CLI_COMMANDS EXCLUDE REGEX "/meshgossip\\.c$")
add_executable(meshgossip-mpi ${PROJECT_SOURCE_DIR}/tools/mpi/meshgossip_mpi.c ${PROJECT_SOURCE_DIR}/tools/mpi/calibrate.c
               ${PROJECT_SOURCE_DIR}/tools/mpi/calibrate_loggp.c ${PROJECT_SOURCE_DIR}/tools/mpi/calibrate_eager.c
               ${PROJECT_SOURCE_DIR}/tools/mpi/bench.c
               ${PROJECT_SOURCE_DIR}/tools/mpi/dist.c ${MG_CLI_COMMANDS})
target_include_directories(meshgossip-mpi PRIVATE ${PROJECT_SOURCE_DIR}/tools/mpi)
target_link_libraries(meshgossip-mpi PRIVATE meshgossip_mpi)
