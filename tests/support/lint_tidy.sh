#!/usr/bin/env bash
# lint_tidy: runs the clang-tidy checks of .clang-tidy over every core/ source in the build's
# compile_commands.json, on every core; any finding fails (WarningsAsErrors).
# usage: lint_tidy.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$(cd "$2" && pwd)
[ -f "$build/compile_commands.json" ] || { echo "no $build/compile_commands.json"; exit 1; }
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
status=0
# -Wno-error: the build's own -Werror (ci preset) would turn clang's compiler warnings into
# findings in one preset and not in another; the checks of .clang-tidy are the same in both.
run-clang-tidy -quiet -p "$build" -j "$(nproc)" -extra-arg=-Wno-error "^$src/core/.*\.cpp$" \
    >"$raw" 2>&1 || status=$?
sed -i 's/\x1b\[[0-9;]*m//g' "$raw" # colours off
# Only the findings: clang-tidy's "N warnings generated" chatter is noise.
findings=$(grep -E "^/.*: (error|warning): " "$raw" | sort -u || true)
[ -z "$findings" ] || echo "$findings"
count=$(printf '%s' "$findings" | grep -c . || true)
echo "lint_tidy: $count finding(s) in core/ (run-clang-tidy exit $status)"
[ "$status" -eq 0 ] && [ "$count" -eq 0 ]
