#!/usr/bin/env bash
# Installs the packages of the named lists (scripts/deps/LIST.txt) that are not installed yet (Debian 12, run as
# root or with sudo). Idempotent. Usage: scripts/install-deps.sh [LIST...], default "build run".
#   build      compile SoftGrasp                      run        start the built application
#   test       the test suite (scripts/test.sh)       cluster    Slurm batch runs (and the Slurm test)
#   bench      the benchmarks' FCL reference          hardening  clang with sanitizers and libFuzzer
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lists=("$@")
[ ${#lists[@]} -gt 0 ] || lists=(build run)
wanted=()
for list in "${lists[@]}"; do
  file="$here/deps/$list.txt"
  if [ ! -f "$file" ]; then
    echo "install-deps.sh: no package list '$list' (scripts/deps/: $(cd "$here/deps" && ls -- *.txt | sed 's/\.txt$//' | tr '\n' ' '))" >&2
    exit 2
  fi
  mapfile -t -O "${#wanted[@]}" wanted < <(grep -v '^\s*#' "$file" | sed 's/\s*$//; /^$/d')
done
missing=()
for p in "${wanted[@]}"; do
  [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == *'install ok installed'* ]] || missing+=("$p")
done
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The locale tests need de_DE.UTF-8 (a decimal-comma locale); generate it once if it is missing.
if [[ " ${lists[*]} " == *" test "* ]] && ! grep -qi '^de_DE\.utf-\?8$' <<<"$(locale -a 2>/dev/null)"; then
  echo "Generating the de_DE.UTF-8 locale (for the locale tests)"
  if grep -q '^#\s*de_DE\.UTF-8 UTF-8' /etc/locale.gen 2>/dev/null; then
    $SUDO sed -i 's/^#\s*\(de_DE\.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  elif ! grep -q '^de_DE\.UTF-8 UTF-8' /etc/locale.gen 2>/dev/null; then
    echo 'de_DE.UTF-8 UTF-8' | $SUDO tee -a /etc/locale.gen >/dev/null
  fi
  $SUDO locale-gen >/dev/null
fi
