#!/usr/bin/env bash
# lint_format: every tracked C++ file is formatted as .clang-format says. To fix:
#   git ls-files '*.cpp' '*.h' | xargs clang-format -i
# usage: lint_format.sh SOURCE_DIR
set -euo pipefail
cd "$1"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files '*.cpp' '*.h')
else
    mapfile -t files < <(find app core render tests -name '*.cpp' -o -name '*.h')
fi
bad=()
for f in "${files[@]}"; do
    clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
echo "lint_format: ${#files[@]} files, ${#bad[@]} not formatted"
for f in "${bad[@]}"; do echo "  $f"; done
[ ${#bad[@]} -eq 0 ]
