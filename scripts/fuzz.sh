#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, build-fuzz/) and runs each for SECONDS seconds
# (default 30) on a copy of its seed corpus from tests/io/malformed/corpus; new inputs go to
# build-fuzz/corpus/<kind>, findings to build-fuzz/findings/<kind>. Usage: scripts/fuzz.sh [SECONDS] [KIND...]
# A long run: scripts/fuzz.sh 3600 (an hour per reader).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SOFTGRASP_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${1:-30}"
shift || true
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(off ply stl obj inventor body robot world eigengrasp virtualcontacts)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DSOFTGRASP_FUZZ=ON -DSOFTGRASP_SANITIZE=ON -DSOFTGRASP_BUILD_TESTS=OFF -DSOFTGRASP_BUILD_BENCH=OFF
cmake --build "$build" -j"$(nproc)" --target $(printf 'fuzz_%s ' "${kinds[@]}")
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
src="$root/tests/io/malformed/corpus"
status=0
for kind in "${kinds[@]}"; do
  corpus="$build/corpus/$kind"
  findings="$build/findings/$kind"
  mkdir -p "$corpus" "$findings"
  case "$kind" in
    off|ply|stl|obj) cp -n "$src/$kind"/*."$kind" "$corpus"/ 2>/dev/null || true ;;
    inventor) find "$src/inventor" -maxdepth 1 -type f -exec cp -n {} "$corpus"/ \; ;;
    body) cp -n "$src"/xml/body_*.xml "$corpus"/ ;;
    robot) cp -n "$src"/xml/robot_*.xml "$corpus"/ ;;
    world) cp -n "$src"/xml/world_*.xml "$corpus"/ ;;
    eigengrasp) cp -n "$src"/xml/eg_*.xml "$corpus"/ ;;
    virtualcontacts) cp -n "$src"/xml/vc_*.xml "$src"/xml/vgr_*.vgr "$corpus"/ ;;
  esac
  echo "== fuzz_$kind for ${seconds}s"
  (cd "$findings" && "$build/tests/io/fuzz/fuzz_$kind" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
     -max_len=65536 -print_final_stats=1 "$corpus") || status=1
done
exit $status
