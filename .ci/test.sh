#!/usr/bin/env bash
# Installs what is missing, builds from scratch in build-ci/ and runs every test; then builds the
# core, formats and checks tests under AddressSanitizer + UBSan (preset asan, GUI off, core/ as
# shared libraries so the test programs share one instrumented copy: 0.7 GB, build-asan/)
# and runs them. Each stage prints its wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
stage() { echo "== $1: $(($(date +%s) - $2)) s"; }
t0=$(date +%s)
bash .ci/setup.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci
stage "ci build + tests" "$t0"

t1=$(date +%s)
cmake --preset asan
cmake --build --preset asan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --preset asan -L 'core|formats|checks'
stage "asan build + tests" "$t1"
stage "total" "$t0"
