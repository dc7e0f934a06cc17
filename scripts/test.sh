#!/usr/bin/env bash
# Builds meshgossip twice (release, and AddressSanitizer + UBSan) and runs
# every test in both. This is the test command of the README and of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! pkg-config --exists jansson cmocka 2>/dev/null; then bash scripts/install-deps.sh; fi
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs")
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DMG_SANITIZE=ON -DMG_SMPI=OFF >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$jobs")
