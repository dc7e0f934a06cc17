# Sourced by the SMPI benchmarks (needs $root): builds the two smpicc
# binaries the one way CMake does (bench/paragon/smpi.cmake: the core
# sources, the MPI planner and executor, -DMG_VERSION_STRING, -lexpat) and
# sets PARAGON_BIN (bench/paragon/paragon.c) and MGMPI_SMPI_BIN
# (meshgossip-mpi). BUILD names the CMake build directory (default
# $root/build, configured in Release if it does not exist).
build=${BUILD:-$root/build}
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" --target paragon-smpi meshgossip-mpi-smpi-tool -j"${JOBS:-2}" >/dev/null
PARAGON_BIN=$build/paragon_smpi
MGMPI_SMPI_BIN=$build/meshgossip-mpi-smpi
[ -x "$PARAGON_BIN" ] && [ -x "$MGMPI_SMPI_BIN" ] || {
  echo "smpi_bins: no SMPI binaries in $build (is SimGrid's smpicc installed?)" >&2
  exit 2
}
