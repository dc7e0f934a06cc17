#!/usr/bin/env bash
# Installs the Debian packages meshgossip needs to build and test:
# the toolchain, jansson (JSON), expat (MSCCL XML), cmocka (unit tests), Open MPI and SimGrid
# (the MPI runtime and its simulated torus),
# clang with its libFuzzer runtime (tests/fuzz), valgrind (bench/valgrind.sh),
# chromium (the report's browser test), librsvg2-bin (rsvg-convert: SVG to PNG) and
# python3-scipy (HiGHS, for the lower bound of tests/allgather_flow_lp.sh).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake pkg-config python3 \
  libjansson-dev libexpat1-dev libcmocka-dev \
  openmpi-bin libopenmpi-dev libsimgrid-dev \
  clang-format clang libclang-rt-14-dev valgrind chromium librsvg2-bin python3-scipy >/dev/null
