#!/usr/bin/env bash
# Rebuild FCL (the benchmarks' reference, tests/bench/FclReference.h) from Debian's source package with the
# compiler and optimisation flags of SoftGrasp's Release build, into a private prefix outside the tree, so that a
# ratio to FCL compares two builds made alike (Debian's libfcl0.7 is built -O2 without -DNDEBUG, i.e. with
# Eigen's assertions on). Nothing of FCL enters the repository.
#
#   scripts/build-fcl-reference.sh [CXX]        CXX defaults to c++ (what CMake picks for the project)
#   cmake -S . -B build -DSOFTGRASP_FCL_PREFIX=$HOME/.cache/softgrasp/fcl/prefix ...
#
# Needs root (or sudo) once, to enable deb-src and install the build dependencies. The cache directory is
# $SOFTGRASP_FCL_CACHE (default ~/.cache/softgrasp/fcl); the prefix is its `prefix` subdirectory, and
# prefix/SOFTGRASP_FCL_BUILD.txt records the source version, compiler and flags (the benchmarks print it).
set -euo pipefail

CXX_BIN=${1:-c++}
CACHE=${SOFTGRASP_FCL_CACHE:-$HOME/.cache/softgrasp/fcl}
PREFIX=$CACHE/prefix
# SoftGrasp's Release flags: CMake's default CMAKE_CXX_FLAGS_RELEASE, no -march (CMakeLists.txt sets none).
# FCL adds its own -std=c++11, -fvisibility=hidden and warning flags (its CMakeLists), as in Debian's build too.
FLAGS="-O3 -DNDEBUG"

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

# deb-src for the configured Debian suites, in its own file so the system's sources stay as they were.
if ! apt-get indextargets --format '$(IDENTIFIER)' 2>/dev/null | grep -qx Sources; then
  echo "enabling deb-src (/etc/apt/sources.list.d/softgrasp-deb-src.sources)"
  $SUDO tee /etc/apt/sources.list.d/softgrasp-deb-src.sources >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  $SUDO apt-get update -qq
fi

# FCL's library needs only these (its build-deps also list doxygen and gtest, for docs and tests we skip).
$SUDO apt-get install -y --no-install-recommends cmake libccd-dev libeigen3-dev dpkg-dev >/dev/null

mkdir -p "$CACHE"
cd "$CACHE"
if ! ls -d fcl-*/ >/dev/null 2>&1; then
  apt-get source fcl  # downloads and unpacks with Debian's patches applied
fi
SRC=$(ls -d "$CACHE"/fcl-*/ | head -n1)
VERSION=$(cd "$SRC" && dpkg-parsechangelog -S Version)

cmake -S "$SRC" -B "$CACHE/build" -G Ninja \
  -DCMAKE_CXX_COMPILER="$CXX_BIN" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="$FLAGS" \
  -DCMAKE_INSTALL_PREFIX="$PREFIX" \
  -DBUILD_TESTING=OFF \
  -DFCL_WITH_OCTOMAP=OFF \
  -DFCL_BUILD_TESTS=OFF \
  -DFCL_NO_DEFAULT_RPATH=OFF \
  -DFCL_USE_X64_SSE=OFF  # as Debian's build (debian/rules), and SoftGrasp adds no -msse3/-march either
nice -n 10 cmake --build "$CACHE/build" -j2
cmake --install "$CACHE/build" >/dev/null

# What the benchmarks print beside each FCL ratio. The flags are read back from FCL's own build (its CMakeLists
# adds some of its own to ours), not restated.
COMPILER=$("$CXX_BIN" --version | head -n1)
FCL_FLAGS=$(sed -n 's/^CMAKE_CXX_FLAGS:[A-Z]*=//p' "$CACHE/build/CMakeCache.txt" | head -n1)
cat >"$PREFIX/SOFTGRASP_FCL_BUILD.txt" <<EOF
FCL $VERSION (apt-get source fcl), rebuilt with $COMPILER, CMAKE_BUILD_TYPE=Release, flags: ${FCL_FLAGS:+$FCL_FLAGS }$FLAGS, FCL_USE_X64_SSE=OFF
EOF
echo "FCL installed in $PREFIX"
cat "$PREFIX/SOFTGRASP_FCL_BUILD.txt"
