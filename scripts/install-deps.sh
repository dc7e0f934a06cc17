#!/usr/bin/env bash
# Installs the Debian packages meshgossip needs to build and test:
# the toolchain, jansson (JSON), cmocka (unit tests), Open MPI and SimGrid
# (the MPI runtime and its simulated torus), gnuplot (benchmark plots),
# clang with its libFuzzer runtime (tests/fuzz) and valgrind (bench/valgrind.sh).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake pkg-config python3 \
  libjansson-dev libcmocka-dev \
  openmpi-bin libopenmpi-dev libsimgrid-dev \
  gnuplot-nox clang-format clang libclang-rt-14-dev valgrind >/dev/null
