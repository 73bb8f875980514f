#!/usr/bin/env bash
# CI's hardening stage: ONE clang build with AddressSanitizer + UndefinedBehaviorSanitizer and
# libFuzzer coverage (build-hardening/) serves both checks, so the engine is compiled once:
#   1. the engine and CLI test suites under ASan + UBSan (scripts/sanitize.sh's list),
#   2. every libFuzzer reader target for FUZZ_SECONDS (default 30) on its committed seed corpus.
# Usage: scripts/hardening.sh [FUZZ_SECONDS]. scripts/sanitize.sh and scripts/fuzz.sh run either part alone
# (fuzz.sh also does long runs: scripts/fuzz.sh 3600).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# ccache keys on paths relative to the checkout, so any clone of the repository reuses the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
export SOFTGRASP_HARDENING_BUILD_DIR="${SOFTGRASP_HARDENING_BUILD_DIR:-$root/build-hardening}"
export SOFTGRASP_SANITIZE_BUILD_DIR="$SOFTGRASP_HARDENING_BUILD_DIR"
export SOFTGRASP_FUZZ_BUILD_DIR="$SOFTGRASP_HARDENING_BUILD_DIR"
start=$SECONDS
bash "$root/scripts/sanitize.sh"
echo "== sanitizer suites passed ($((SECONDS - start)) s)"
bash "$root/scripts/fuzz.sh" "${1:-30}"
echo "== fuzzers passed ($((SECONDS - start)) s in all)"
