#!/usr/bin/env bash
# Installs what is missing, builds SoftGrasp and starts it on the bundled default world.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/install-deps.sh" build run  # scripts/deps/: what building and running the app needs
build="${SOFTGRASP_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$(nproc)"
world="$root/worlds/default.xml"
if [ -x "$build/ui/app/softgrasp" ]; then
  exec "$build/ui/app/softgrasp" "$world" "$@"
else
  exec "$build/ui/cli/softgrasp-cli" info "$world" "$@"
fi
