#!/usr/bin/env bash
# Builds meshgossip two ways with warnings as errors (MG_WERROR) and runs
# every test in each: RelWithDebInfo at -O3 (the optimization of a Release
# build, so that -O3's warnings stop the build and the tests run the code
# users get; a separate Release build took 58 s of CI only to compile),
# and AddressSanitizer + UBSan; then the libFuzzer smoke (a clang build of
# tests/fuzz, each harness for 15 s; skipped when clang or libFuzzer is
# absent). This is the test command of the README and of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! pkg-config --exists jansson cmocka 2>/dev/null; then bash scripts/install-deps.sh; fi
jobs=$(nproc 2>/dev/null || echo 2)
# The test scripts call python3 (the standard library only) over a thousand
# times. A version manager's shim in front of the system's (pyenv's: 0.3 s
# a call, against 0.07) made the non-MPI tests 40% slower: 144 s against
# 102 s on this project's 2-core machine. The system's goes first.
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
  mkdir -p build-python
  ln -sf /usr/bin/python3 build-python/python3
  export PATH="$PWD/build-python:$PATH"
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O3 -g -DNDEBUG" -DMG_WERROR=ON \
  >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs")
# -O1 under the sanitizers (their own advice): the ASan tests took 1188 s at
# -O0 and 689 s at -O1 on this project's 2-core machine, the same 107 tests;
# -O2 was no faster (six of the longest: 173 s at -O1, 199 s at -O2).
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DMG_WERROR=ON -DMG_SANITIZE=ON \
  -DMG_SMPI=OFF >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$jobs")
fuzzrt=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)
if [ -f "$fuzzrt" ]; then
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMG_FUZZ=ON -DMG_WERROR=ON -DMG_SMPI=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >/dev/null
  cmake --build build-fuzz -j"$jobs" --target fuzz_all
  (export MG_FUZZ_SEED_CLI="$PWD/build/meshgossip" && cd build-fuzz && ctest -R fuzz_smoke --output-on-failure)
else
  echo "fuzz smoke skipped: clang with libFuzzer (libclang-rt-14-dev) not installed"
fi
