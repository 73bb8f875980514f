#!/usr/bin/env bash
# Compiler launcher that logs each compile step's CPU time (user + sys) for tests/BUILD_TIME.md:
#   cmake -S . -B build-cpu -G Ninja ... -DCMAKE_CXX_COMPILER_LAUNCHER="$PWD/scripts/compile-cpu.sh"
#   SG_CPU_LOG=/tmp/cpu.log cmake --build build-cpu
# Each line of $SG_CPU_LOG is "user_s sys_s output"; no ccache (the launcher replaces it), so every step is a miss.
# `scripts/compile-cpu.sh --summary LOG` prints CPU seconds per target (the CMakeFiles/<target>.dir of the output).
set -uo pipefail
if [[ "${1:-}" == "--summary" ]]; then
  awk '{ t = $3; if (match(t, /CMakeFiles\/[^\/]+\.dir/)) t = substr(t, RSTART + 11, RLENGTH - 15); else t = "other";
         cpu[t] += $1 + $2; n[t]++; all += $1 + $2 }
       END { for (k in cpu) printf "%-28s %4d %8.1f\n", k, n[k], cpu[k]; printf "%-28s %4s %8.1f\n", "TOTAL", "", all }' \
    "$2" | sort -k3 -n -r
  exit 0
fi
out="?"
prev=""
for a in "$@"; do
  [[ "$prev" == "-o" ]] && out="$a"
  prev="$a"
done
tmp="$(mktemp)"
/usr/bin/time -o "$tmp" -f "%U %S" "$@"
rc=$?
echo "$(tail -n 1 "$tmp") $out" >>"${SG_CPU_LOG:-/tmp/sg-compile-cpu.log}"
rm -f "$tmp"
exit $rc
