#!/usr/bin/env bash
# ThreadSanitizer over the library's calls from several threads
# (tests/test_threads.c): builds a TSan configuration (its own build
# directory; MPI, SimGrid and SMPI left out) and runs test_threads there,
# printing TSan's reports, if any, and the test's verdict.
#   bench/tsan.sh [BUILD_DIR]   (default build-tsan)
set -u
cd "$(dirname "$0")/.."
B=${1:-build-tsan}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread -DMG_SMPI=OFF \
  -DMG_SIMGRID=OFF -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >/dev/null || exit 1
cmake --build "$B" -j"$(nproc 2>/dev/null || echo 2)" --target test_threads >/dev/null || exit 1
# halt_on_error: the first race fails the run; second_deadlock_stack for a lock-order report
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" "$B/test_threads"
rc=$?
[ $rc = 0 ] && echo "tsan.sh: test_threads passed under ThreadSanitizer, no race reported" ||
  echo "tsan.sh: test_threads failed under ThreadSanitizer (exit $rc)"
exit $rc
