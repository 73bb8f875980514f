#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, build-hardening/) and runs each for SECONDS seconds
# (default 30) on a copy of its seed corpus from tests/io/malformed/corpus; new inputs go to
# build-hardening/corpus/<kind>, findings to build-hardening/findings/<kind>.
# Usage: scripts/fuzz.sh [SECONDS | --runs N] [KIND...]
# Long runs: scripts/fuzz.sh 3600 (an hour per reader), or scripts/fuzz.sh --runs 1000000 (a million inputs each).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SOFTGRASP_FUZZ_BUILD_DIR:-$root/build-hardening}"
if [ "${1:-}" = "--runs" ]; then
  limit="-runs=$2"; what="$2 runs"; shift 2
else
  limit="-max_total_time=${1:-30}"; what="${1:-30} s"; shift || true
fi
# The harness writes each input to a file for the reader; on tmpfs that costs a fraction of a disk write
# (seen here: 5-7x more inputs per second than in /tmp on the VM's disk).
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(off ply stl obj inventor body robot world eigengrasp virtualcontacts)
bash "$root/scripts/hardening-configure.sh" "$build"
cmake --build "$build" -j"$(nproc)" --target $(printf 'fuzz_%s ' "${kinds[@]}")
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
src="$root/tests/io/malformed/corpus"
jobs="${SOFTGRASP_FUZZ_JOBS:-$(nproc)}"  # readers fuzzed at once
run_one() {
  local kind="$1" corpus="$build/corpus/$1" findings="$build/findings/$1"
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
  # libFuzzer's own summary (runs, coverage) goes to build-hardening/findings/<kind>/fuzz.log.
  local start=$SECONDS
  if (cd "$findings" && "$build/tests/io/fuzz/fuzz_$kind" "$limit" -timeout=10 \
        -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 "$corpus" > fuzz.log 2>&1); then
    echo "== fuzz_$kind: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$findings/fuzz.log" | grep -o '[0-9]*$') runs in $((SECONDS - start)) s ($what asked), no findings"
  else
    echo "== fuzz_$kind FAILED; last lines of $findings/fuzz.log:"; tail -40 "$findings/fuzz.log"; return 1
  fi
}
status=0
running=0
for kind in "${kinds[@]}"; do
  if [ "$running" -ge "$jobs" ]; then wait -n || status=1; running=$((running - 1)); fi
  run_one "$kind" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do wait -n || status=1; running=$((running - 1)); done
exit $status
