# Install rules (included from the top CMakeLists.txt): the CLI, the static
# and shared libmeshgossip, the headers, meshgossip.pc, the CMake package
# (find_package(meshgossip) -> meshgossip::meshgossip), the man pages and
# the bash completion; with MPI also meshgossip-mpi, libmeshgossip-pmpi.so
# and meshgossip_mpi.h. The pkg-config file is relocatable (${pcfiledir}),
# so `cmake --install build --prefix P` anywhere gives a usable tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS meshgossip-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS meshgossip meshgossip_shared EXPORT meshgossipTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# every header of the functions the library exports (docs/architecture.md:
# the engines' writers and the serial shards too; a review found them
# exported with no header installed)
install(FILES include/meshgossip.h include/meshgossip_draw.h include/meshgossip_engine.h include/meshgossip_shard.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set_target_properties(meshgossip PROPERTIES EXPORT_NAME meshgossip_static)
set_target_properties(meshgossip_shared PROPERTIES EXPORT_NAME meshgossip)

set(MG_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/meshgossip)
install(EXPORT meshgossipTargets NAMESPACE meshgossip:: DESTINATION ${MG_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/meshgossipConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/meshgossipConfig.cmake INSTALL_DESTINATION ${MG_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/meshgossipConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/meshgossipConfig.cmake ${PROJECT_BINARY_DIR}/meshgossipConfigVersion.cmake
        DESTINATION ${MG_CMAKEDIR})

# relocatable (prefix from ${pcfiledir}) when the directories are relative
# to the prefix, as GNUInstallDirs makes them; absolute ones (Nix, Guix)
# are written as they are (a review: ${prefix}//abs/lib64 before)
set(MG_PCDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(MG_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH MG_PC_UP /prefix/${MG_PCDIR} /prefix)
  string(REGEX REPLACE "/$" "" MG_PC_UP "${MG_PC_UP}")
  set(MG_PC_PREFIX "\${pcfiledir}/${MG_PC_UP}")
endif()
foreach(d LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${d}}")
    set(MG_PC_${d} "${CMAKE_INSTALL_${d}}")
  else()
    set(MG_PC_${d} "\${prefix}/${CMAKE_INSTALL_${d}}")
  endif()
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/meshgossip.pc.in ${PROJECT_BINARY_DIR}/meshgossip.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/meshgossip.pc DESTINATION ${MG_PCDIR})

install(FILES docs/man/meshgossip.1 docs/man/meshgossip-mpi.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES tools/completion/meshgossip.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME meshgossip)

if(MPI_C_FOUND)
  install(TARGETS meshgossip-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES tools/completion/meshgossip-mpi.bash
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME meshgossip-mpi)
  install(TARGETS meshgossip-pmpi LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(TARGETS meshgossip_mpi ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES include/meshgossip_mpi.h include/meshgossip_mpi_shard.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  # the MPI library for pkg-config (mpicc supplies MPI's own flags):
  # pkg-config --static --libs meshgossip_mpi
  configure_file(${PROJECT_SOURCE_DIR}/cmake/meshgossip_mpi.pc.in ${PROJECT_BINARY_DIR}/meshgossip_mpi.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/meshgossip_mpi.pc DESTINATION ${MG_PCDIR})
endif()

# An outside program against the installed tree, by pkg-config (shared and
# static) and by find_package; skipped under the sanitizers (the outside
# program would need their runtime).
if(MG_TESTS AND NOT MG_SANITIZE)
  add_test(NAME install_consumer
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests/install/install_test.sh ${PROJECT_BINARY_DIR}
                   ${PROJECT_SOURCE_DIR}/tests/install ${CMAKE_C_COMPILER} ${CMAKE_COMMAND})
  set_tests_properties(install_consumer PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()
