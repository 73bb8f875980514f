#!/usr/bin/env bash
# Installs what is missing, builds SoftGrasp and runs every test suite (GL suites under xvfb-run).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# ccache keys on paths relative to the checkout, so any clone of the repository reuses the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
# build + run, the test list, and Slurm for the Slurm test (tst_batch_slurm); scripts/deps/*.txt say why each
bash "$root/scripts/install-deps.sh" build run test cluster
build="${SOFTGRASP_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSOFTGRASP_WERROR=ON  # warnings are errors in CI
cmake --build "$build" -j"$(nproc)"
cd "$build"
xvfb-run -a -s "-screen 0 1280x1024x24" ctest --output-on-failure -j"$(nproc)" "$@"
