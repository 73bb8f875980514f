#!/usr/bin/env bash
# Configures the one clang build that scripts/sanitize.sh, scripts/fuzz.sh and scripts/hardening.sh share:
# ASan + UBSan everywhere (the UBSan checks: SOFTGRASP_SANITIZERS in the top-level CMakeLists.txt), libFuzzer
# coverage on the readers' library only (src/io/CMakeLists.txt) so the fuzz targets link against the same
# libraries, -O1 (AddressSanitizer's recommended level; compiles about twice as fast as -O3; -O2 ran the suites
# no faster) with line tables for readable stacks, no benchmarks. No unity build (SOFTGRASP_UNITY_BUILD, top-level
# CMakeLists.txt): without it and without the engine's precompiled header (off with fuzzing) this build checks that
# every engine source compiles on its own, with only the includes it names; nor for the test suites
# (SOFTGRASP_TEST_UNITY, tests/SuiteUnity.cmake), so each suite compiles alone too.
# Usage: scripts/hardening-configure.sh BUILD_DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh" build test hardening  # clang and its runtimes: scripts/deps/hardening.txt
cmake -S "$root" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS="-gline-tables-only" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DSOFTGRASP_SANITIZE=ON -DSOFTGRASP_FUZZ=ON \
  -DSOFTGRASP_BUILD_TESTS=ON -DSOFTGRASP_BUILD_BENCH=OFF -DSOFTGRASP_UNITY_BUILD=OFF -DSOFTGRASP_TEST_UNITY=OFF
