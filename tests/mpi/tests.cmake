# MPI test programs and the (program, ranks) list; included from the top
# CMakeLists.txt when MPI is found and MG_TESTS is on (the libraries and
# tools they test: src/mpi/mpi.cmake).
set(MG_MPIEXEC ${MPIEXEC_EXECUTABLE} --allow-run-as-root --oversubscribe)
# PROCESSORS below: an MPI test asks CTest for as many processors as it
# starts ranks (CTest gives a test at most -j), so one of many ranks runs
# alone. Waiting ranks poll: on the CI's two cores mpi_alltoall_all_np16
# took 15 s alone and 60 s beside smpi_paragon_9x9 (38 s alone, 87 s
# beside it).
foreach(prog allgather_all alltoall_all)
  add_executable(mpi_${prog} ${CMAKE_CURRENT_LIST_DIR}/${prog}.c)
  target_link_libraries(mpi_${prog} PRIVATE meshgossip_mpi)
endforeach()

# program  ranks...
# Under the sanitizers 16, 9 and 6 ranks stay out: there the 16 ranks share
# two cores and took 183 s (allgather) and 120 s (alltoall) of the CI's 26
# minutes, 6 ranks 60 s together, 9 ranks 89 and 48 s (rehearsal of stop
# 50), while running the executor code of 2 and 4 ranks; mpi_coverage_np9
# and the interposed runs on torus:3x3 and ring:9 still put 9 sanitized
# ranks (odd sides) through the runtime, mpi_coverage and mpi_stress 16,
# and the RelWithDebInfo build runs these on all six counts.
if(MG_SANITIZE)
  set(MG_MPI_TESTS
    "allgather_all 1 2 4"
    "alltoall_all 1 2 4")
else()
  set(MG_MPI_TESTS
    "allgather_all 1 2 4 6 9 16"
    "alltoall_all 1 2 4 6 9 16")
endif()
foreach(line ${MG_MPI_TESTS})
  separate_arguments(words UNIX_COMMAND "${line}")
  list(POP_FRONT words prog)
  foreach(np ${words})
    add_test(NAME mpi_${prog}_np${np}
             COMMAND ${MG_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} ${np} $<TARGET_FILE:mpi_${prog}>)
    set_tests_properties(mpi_${prog}_np${np} PROPERTIES TIMEOUT 180 LABELS mpi PROCESSORS ${np}
                         ENVIRONMENT "OMPI_MCA_rmaps_base_oversubscribe=1;MESHGOSSIP_VERBOSE=0")
  endforeach()
endforeach()

# The runtime's edges (tests/mpi/edges.c): a plan keeps its datatypes,
# ranks with different block sizes all get MPI_ERR_COUNT, an uncommitted
# type on one rank is an error returned
add_executable(mpi_edges ${CMAKE_CURRENT_LIST_DIR}/edges.c)
target_link_libraries(mpi_edges PRIVATE meshgossip_mpi)
foreach(np 1 4)
  add_test(NAME mpi_edges_np${np} COMMAND ${MG_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} ${np} $<TARGET_FILE:mpi_edges>)
  set_tests_properties(mpi_edges_np${np} PROPERTIES TIMEOUT 60 LABELS mpi PROCESSORS ${np}
                       ENVIRONMENT "OMPI_MCA_rmaps_base_oversubscribe=1;MESHGOSSIP_VERBOSE=0")
endforeach()

# The interposer and an unmodified program under it.
add_executable(mpi_unmodified ${CMAKE_CURRENT_LIST_DIR}/unmodified.c)
target_link_libraries(mpi_unmodified PRIVATE MPI::MPI_C)
add_test(NAME mpi_unmodified_plain COMMAND ${MG_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} 4 $<TARGET_FILE:mpi_unmodified>)
set_tests_properties(mpi_unmodified_plain PROPERTIES PROCESSORS 4)
# Under ASan the sanitizer runtime must come first in LD_PRELOAD.
set(MG_PRELOAD $<TARGET_FILE:meshgossip-pmpi>)
if(MG_SANITIZE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so OUTPUT_VARIABLE MG_LIBASAN
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(MG_PRELOAD "${MG_LIBASAN}:${MG_PRELOAD}")
endif()
set(MG_INTERPOSED bash ${CMAKE_CURRENT_LIST_DIR}/interposed.sh ${MPIEXEC_EXECUTABLE} ${MG_PRELOAD}
    $<TARGET_FILE:mpi_unmodified>)
# ring of 6: our ring/concentrate take MPI_Allgather
add_test(NAME mpi_interposed_ring6 COMMAND ${MG_INTERPOSED} 6)
set_tests_properties(mpi_interposed_ring6 PROPERTIES PROCESSORS 6 ENVIRONMENT "EXPECT=MPI_Allgather on 6 ranks, count 4099: meshgossip")
# explicit algorithm on a ring of 9
add_test(NAME mpi_interposed_concentrate9 COMMAND ${MG_INTERPOSED} 9 MESHGOSSIP_ALLGATHER=concentrate MESHGOSSIP_TOPO=ring:9)
set_tests_properties(mpi_interposed_concentrate9 PROPERTIES PROCESSORS 9 ENVIRONMENT "EXPECT=count 3: meshgossip concentrate on ring:9")
# a topology of the wrong size: every call falls back to PMPI, results stay right
# auto follows MESHGOSSIP_MODEL (priced under contention=shared): start-ups
# dear -> torus-ternary (2 start-ups on a ring of 9, log3 9, Juurlink-Rao-
# Sibeyn's Lemma 1 bound, against concentrate's 3, ring's 4 and
# mpi-allgather-direct's ceil(8/2)), bytes dear -> ring (least volume; ties
# with circgos a=9)
add_test(NAME mpi_interposed_model_startup COMMAND ${MG_INTERPOSED} 9 MESHGOSSIP_TOPO=ring:9 MESHGOSSIP_MODEL=ts=1,tl=1e-12)
set_tests_properties(mpi_interposed_model_startup PROPERTIES PROCESSORS 9 ENVIRONMENT "EXPECT=count 4099: meshgossip torus-ternary on ring:9")
add_test(NAME mpi_interposed_model_bytes COMMAND ${MG_INTERPOSED} 9 MESHGOSSIP_TOPO=ring:9 MESHGOSSIP_MODEL=ts=0,tl=1)
set_tests_properties(mpi_interposed_model_bytes PROPERTIES PROCESSORS 9 ENVIRONMENT "EXPECT=count 4099: meshgossip ring on ring:9")
# a per-size spec (src/algo/spec_size.c): concentrate up to 100 bytes per rank, ring above
add_test(NAME mpi_interposed_bysize_small COMMAND ${MG_INTERPOSED} 9 "MESHGOSSIP_ALLGATHER=concentrate<=100;ring" MESHGOSSIP_TOPO=ring:9)
set_tests_properties(mpi_interposed_bysize_small PROPERTIES PROCESSORS 9 TIMEOUT 60 LABELS mpi ENVIRONMENT "EXPECT=count 3: meshgossip concentrate on ring:9")
add_test(NAME mpi_interposed_bysize_large COMMAND ${MG_INTERPOSED} 9 "MESHGOSSIP_ALLGATHER=concentrate<=100;ring" MESHGOSSIP_TOPO=ring:9)
set_tests_properties(mpi_interposed_bysize_large PROPERTIES PROCESSORS 9 TIMEOUT 60 LABELS mpi ENVIRONMENT "EXPECT=count 4099: meshgossip ring on ring:9")
# ranks set apart by their environment (a review: they hung in plans the
# others did not run): another model on rank 0 makes auto choose otherwise,
# so every rank falls back; pmpi on rank 0 alone takes every rank to PMPI
add_test(NAME mpi_interposed_rank0_model COMMAND ${MG_INTERPOSED} 9 MESHGOSSIP_TOPO=torus:3x3)
set_tests_properties(mpi_interposed_rank0_model PROPERTIES PROCESSORS 9 TIMEOUT 150 LABELS mpi ENVIRONMENT
                     "RANK0=MESHGOSSIP_MODEL=ts=5e-6,tl=5e-10,port=one;EXPECT=PMPI \\(the ranks planned differently")
add_test(NAME mpi_interposed_rank0_pmpi COMMAND ${MG_INTERPOSED} 4 MESHGOSSIP_TOPO=ring:4)
set_tests_properties(mpi_interposed_rank0_pmpi PROPERTIES PROCESSORS 4 TIMEOUT 150 LABELS mpi ENVIRONMENT
                     "RANK0=MESHGOSSIP_ALLGATHER=pmpi;EXPECT=PMPI \\(MESHGOSSIP_\\* = pmpi\\)")
# MESHGOSSIP_SYNC=data: the executor without round barriers (src/mpi/exec.c),
# results byte-checked by the program
add_test(NAME mpi_interposed_sync_data COMMAND ${MG_INTERPOSED} 9 MESHGOSSIP_ALLGATHER=dimwise-colored MESHGOSSIP_TOPO=torus:3x3 MESHGOSSIP_SYNC=data)
set_tests_properties(mpi_interposed_sync_data PROPERTIES PROCESSORS 9 TIMEOUT 60 LABELS mpi ENVIRONMENT "EXPECT=count 4099: meshgossip dimwise-colored on torus:3x3, sync=data")
# MESHGOSSIP_MODEL=@FILE: the same two models as model files (the form
# meshgossip-mpi calibrate -o writes: one key a line, # comments)
file(WRITE ${PROJECT_BINARY_DIR}/model_startup.model "# start-ups dear\nts=1\ntl=1e-12\n")
file(WRITE ${PROJECT_BINARY_DIR}/model_bytes.model "# bytes dear\nts=0\ntl=1\n")
add_test(NAME mpi_interposed_model_file_startup
         COMMAND ${MG_INTERPOSED} 9 MESHGOSSIP_TOPO=ring:9 MESHGOSSIP_MODEL=@${PROJECT_BINARY_DIR}/model_startup.model)
set_tests_properties(mpi_interposed_model_file_startup PROPERTIES PROCESSORS 9 TIMEOUT 60 LABELS mpi
                     ENVIRONMENT "EXPECT=count 4099: meshgossip torus-ternary on ring:9")
add_test(NAME mpi_interposed_model_file_bytes
         COMMAND ${MG_INTERPOSED} 9 MESHGOSSIP_TOPO=ring:9 MESHGOSSIP_MODEL=@${PROJECT_BINARY_DIR}/model_bytes.model)
set_tests_properties(mpi_interposed_model_file_bytes PROPERTIES PROCESSORS 9 TIMEOUT 60 LABELS mpi
                     ENVIRONMENT "EXPECT=count 4099: meshgossip ring on ring:9")
# calibrate -o writes a model file that the library reads back
add_test(NAME mpi_calibrate_model_file
         COMMAND bash -c "${MPIEXEC_EXECUTABLE} --allow-run-as-root --oversubscribe -np 3 $<TARGET_FILE:meshgossip-mpi> calibrate --sizes 1024,4096 --reps 2 -o ${PROJECT_BINARY_DIR}/calibrated_np3.model && grep -E '^o=[0-9.e+-]+$' ${PROJECT_BINARY_DIR}/calibrated_np3.model && $<TARGET_FILE:meshgossip-cli> run --algo ring --topo ring:3 --bytes 1024 --model @${PROJECT_BINARY_DIR}/calibrated_np3.model")
set_tests_properties(mpi_calibrate_model_file PROPERTIES TIMEOUT 120 LABELS mpi PROCESSORS 3
                     PASS_REGULAR_EXPRESSION "verified")
# an intercommunicator goes to PMPI
add_test(NAME mpi_interposed_intercomm COMMAND ${MG_INTERPOSED} 4)
set_tests_properties(mpi_interposed_intercomm PROPERTIES PROCESSORS 4 ENVIRONMENT "EXPECT=MPI_Allgather on 2 ranks, count 1: PMPI \\(intercommunicator\\)")
add_test(NAME mpi_interposed_fallback COMMAND ${MG_INTERPOSED} 4 MESHGOSSIP_TOPO=ring:5)
set_tests_properties(mpi_interposed_fallback PROPERTIES PROCESSORS 4 ENVIRONMENT "EXPECT=MPI_Allgather on 4 ranks, count 3: PMPI \\(topology ring:5 has 5 nodes")
set_tests_properties(mpi_unmodified_plain mpi_interposed_ring6 mpi_interposed_intercomm mpi_interposed_model_startup
                     mpi_interposed_model_bytes mpi_interposed_concentrate9 mpi_interposed_fallback
                     PROPERTIES TIMEOUT 60 LABELS mpi)

# meshgossip-mpi (src/mpi/mpi.cmake): calibrate and bench
add_test(NAME mpi_calibrate COMMAND ${MG_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} 3 $<TARGET_FILE:meshgossip-mpi> calibrate
         --sizes 0,4096,65536 --reps 3)
set_tests_properties(mpi_calibrate PROPERTIES TIMEOUT 60 LABELS mpi PROCESSORS 3 PASS_REGULAR_EXPRESSION "--model ts=[0-9.e+-]+,td=0,tl=")
# bench in the OSU micro-benchmarks' shape (tests/mpi/bench.sh)
# (under the sanitizers on 4 ranks only: 9 ranks run the same tool code,
# 57 s of that stage)
set(mg_bench_np 4 9)
if(MG_SANITIZE)
  set(mg_bench_np 4)
endif()
foreach(coll allgather alltoall)
  foreach(np ${mg_bench_np})
    add_test(NAME mpi_bench_${coll}_np${np} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/bench.sh ${MPIEXEC_EXECUTABLE}
                                                  $<TARGET_FILE:meshgossip-mpi> ${np} ${coll})
    # its seven refusals are jobs whose rank exits 2, which Open MPI tears
    # down after odls_base_sigkill_timeout (1 s, about 2 s a job): 14 s of a
    # 17 s test, 3 s without that wait
    set_tests_properties(mpi_bench_${coll}_np${np} PROPERTIES TIMEOUT 60 LABELS mpi PROCESSORS ${np}
                                                              ENVIRONMENT "OMPI_MCA_odls_base_sigkill_timeout=0")
  endforeach()
endforeach()

# The distributed simulator against the CLI (tests/mpi/dist.sh): the same
# output and exit status on 1..4 ranks and 3 serial shards, broken
# schedules rejected with the same reason.
foreach(case gossip bus exchange broken)
  add_test(NAME mpi_dist_${case}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/dist.sh ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:meshgossip-cli>
                   $<TARGET_FILE:meshgossip-mpi> ${case})
  set_tests_properties(mpi_dist_${case} PROPERTIES TIMEOUT 120 LABELS mpi SKIP_RETURN_CODE 77 PROCESSORS 4) # 1..4 ranks
endforeach()

# The interposer under stress (tests/mpi/stress.c): each case on 1..16
# ranks; the CTest timeout makes a hang a failure. bench/mpi_stress.sh runs
# every rank count from 1 to 16.
add_executable(mpi_stress ${CMAKE_CURRENT_LIST_DIR}/stress.c)
target_link_libraries(mpi_stress PRIVATE MPI::MPI_C pthread)
foreach(case mismatch topo types inter comms threads)
  foreach(np 1 4 16)
    add_test(NAME mpi_stress_${case}_np${np}
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/stress.sh ${MPIEXEC_EXECUTABLE} ${MG_PRELOAD}
                     $<TARGET_FILE:mpi_stress> ${case} ${np})
    set_tests_properties(mpi_stress_${case}_np${np} PROPERTIES TIMEOUT 120 LABELS mpi PROCESSORS ${np})
  endforeach()
endforeach()
# bench/mpi_cache_rss.c: RSS over 100,000 interposed calls (bench/mpi_stress.sh)
add_executable(mpi_cache_rss ${PROJECT_SOURCE_DIR}/bench/mpi_cache_rss.c)
target_link_libraries(mpi_cache_rss PRIVATE MPI::MPI_C)
# bench/mpi_type_calls.c: time per interposed call by kind of datatype
add_executable(mpi_type_calls ${PROJECT_SOURCE_DIR}/bench/mpi_type_calls.c)
target_link_libraries(mpi_type_calls PRIVATE MPI::MPI_C)

# What the interposer covers beyond MPI_Allgather/MPI_Alltoall
# (tests/mpi/coverage.c): v-variants, non-blocking, MPI_IN_PLACE, a
# vector type, verbose once per plan, misspelled variables and algorithms.
add_executable(mpi_coverage ${CMAKE_CURRENT_LIST_DIR}/coverage.c)
target_link_libraries(mpi_coverage PRIVATE MPI::MPI_C)
foreach(np 1 4 9 16)
  add_test(NAME mpi_coverage_np${np}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/coverage.sh ${MPIEXEC_EXECUTABLE} ${MG_PRELOAD}
                   $<TARGET_FILE:mpi_coverage> ${np})
  set_tests_properties(mpi_coverage_np${np} PROPERTIES TIMEOUT 120 LABELS mpi PROCESSORS ${np})
endforeach()

# Under the sanitizers every rank runs 2-5x slower and up to 16 ranks share
# two cores: the time limit that makes a hang a failure is raised to 600 s
# there (measured: mpi_allgather_all on 6 ranks takes 34 s alone under
# ASan, and over 60 s when other jobs load the machine; on 16 ranks 161 to
# 243 s at -O1 in two CI rehearsals on the same machine).
#
# LeakSanitizer: Open MPI keeps allocations from MPI_Init to exit, and its
# components are unloaded before the check, so the suppressions
# (lsan.supp) see ompi_mpi_init/finalize only through a full unwind on
# every malloc (fast_unwind_on_malloc=0). That unwind made an MPI start
# 5x dearer (4 ranks: 5.1 s against 1.0 s without the leak check) and the
# MPI tests some 2260 s of the sanitizer stage's 2980 s of test time. So
# the leak check runs on one test for each MPI part of ours, at 4 ranks
# or fewer, and the other MPI tests keep ASan and UBSan without it.
set(MG_MPI_LEAK_TESTS
    mpi_allgather_all_np4 mpi_alltoall_all_np4 mpi_edges_np4 # the runtime: plans and executors
    mpi_coverage_np4 mpi_interposed_model_file_startup # the interposer, its variants and model files
    mpi_stress_mismatch_np4 mpi_stress_topo_np4 mpi_stress_types_np4 # its plan cache under stress
    mpi_stress_inter_np4 mpi_stress_comms_np4 mpi_stress_threads_np4
    mpi_calibrate_model_file mpi_bench_allgather_np4 # meshgossip-mpi calibrate and bench
    mpi_dist_bus) # meshgossip-mpi run and verify on shards
if(MG_SANITIZE)
  get_property(MG_ALL_TESTS DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTY TESTS)
  foreach(t ${MG_ALL_TESTS})
    if(NOT t MATCHES "^mpi_")
      continue()
    endif()
    set_tests_properties(${t} PROPERTIES TIMEOUT 600)
    if(t IN_LIST MG_MPI_LEAK_TESTS)
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT
                   "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_LIST_DIR}/lsan.supp:fast_unwind_on_malloc=0")
    else()
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
    endif()
  endforeach()
  foreach(t ${MG_MPI_LEAK_TESTS})
    if(NOT TEST ${t})
      message(FATAL_ERROR "MG_MPI_LEAK_TESTS names ${t}, which is no test")
    endif()
  endforeach()
endif()

