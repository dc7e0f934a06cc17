# MPI test programs and the (program, ranks) list; included from the top
# CMakeLists.txt when MPI is found.
set(MG_MPIEXEC ${MPIEXEC_EXECUTABLE} --allow-run-as-root --oversubscribe)
foreach(prog allgather_all alltoall_all)
  add_executable(mpi_${prog} ${CMAKE_CURRENT_LIST_DIR}/${prog}.c)
  target_link_libraries(mpi_${prog} PRIVATE meshgossip_mpi)
endforeach()

# program  ranks...
set(MG_MPI_TESTS
  "allgather_all 1 2 4 6 9 16"
  "alltoall_all 1 2 4 6 9 16")
foreach(line ${MG_MPI_TESTS})
  separate_arguments(words UNIX_COMMAND "${line}")
  list(POP_FRONT words prog)
  foreach(np ${words})
    add_test(NAME mpi_${prog}_np${np}
             COMMAND ${MG_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} ${np} $<TARGET_FILE:mpi_${prog}>)
    set_tests_properties(mpi_${prog}_np${np} PROPERTIES TIMEOUT 60 LABELS mpi
                         ENVIRONMENT "OMPI_MCA_rmaps_base_oversubscribe=1;MESHGOSSIP_VERBOSE=0")
  endforeach()
endforeach()
