#!/usr/bin/env bash
# Installs what is missing, builds SoftGrasp and runs every test suite (GL suites under xvfb-run).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# ccache keys on paths relative to the checkout, so any clone of the repository reuses the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
# What configuring and building need, first (scripts/deps/*.txt say why each package is there).
bash "$root/scripts/install-deps.sh" build run
# The test list and Slurm (for tst_batch_slurm) are needed only by ctest: they install while the build runs, which
# on a fresh machine takes their download and unpacking off the critical path (tests/BUILD_TIME.md §Packages during
# the build). Nothing the configure step or the default target uses is in those lists.
deps_log="$(mktemp -t softgrasp-test-deps.XXXXXX)"
bash "$root/scripts/install-deps.sh" test cluster >"$deps_log" 2>&1 &
deps_pid=$!
# Never leave apt-get running behind a failed build: wait for it on every exit.
trap 'wait "$deps_pid" 2>/dev/null || true; rm -f "$deps_log"' EXIT
build="${SOFTGRASP_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSOFTGRASP_WERROR=ON  # warnings are errors in CI
cmake --build "$build" -j"$(nproc)"
deps_rc=0
wait "$deps_pid" || deps_rc=$?
cat "$deps_log"
if [ "$deps_rc" -ne 0 ]; then
  echo "test.sh: installing the test and cluster package lists failed (exit $deps_rc); see the output above" >&2
  exit "$deps_rc"
fi
cd "$build"
xvfb-run -a -s "-screen 0 1280x1024x24" ctest --output-on-failure -j"$(nproc)" "$@"
